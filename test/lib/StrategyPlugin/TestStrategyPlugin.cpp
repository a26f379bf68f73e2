//===- TestStrategyPlugin.cpp - A user's strategy as a loadable library ---===//
//
// memplan-solve --load=this.so registers "test-reverse-stack": every buffer
// its own range, stacked from the last record down. No built-in strategy
// makes that plan, so a test can tell it ran.
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/Strategy.h"

extern "C" void memplanRegisterStrategies() {
  memplan::registerStrategy(
      "test-reverse-stack",
      [](llvm::ArrayRef<memplan::UsageRecord> Records,
         const memplan::StrategyOptions &) -> llvm::Expected<memplan::Plan> {
        memplan::OffsetsAssignment A;
        A.Offsets.resize(Records.size());
        for (size_t I = Records.size(); I-- > 0;) {
          A.Offsets[I] = A.TotalSize;
          A.TotalSize += Records[I].Size;
        }
        return memplan::planFromOffsets(A);
      },
      "test: reverse stack, no reuse");
}
