//===- TestStrategyPlugin.cpp - A user's strategy as a loadable library ---===//
//
// memplan-solve --load=this.so registers "test-reverse-stack", and
// "test-all-at-zero", whose plans are wrong whenever two records meet: the
// validator must catch it, with --strategy=all too.
//
//===----------------------------------------------------------------------===//

#include "ReverseStack.h"

#include <algorithm>

extern "C" void memplanRegisterStrategies() {
  memplan::registerStrategy("test-reverse-stack", memplan::test::reverseStack,
                            "test: reverse stack, no reuse");
  memplan::registerStrategy(
      "test-all-at-zero",
      [](llvm::ArrayRef<memplan::UsageRecord> Records,
         const memplan::StrategyOptions &) {
        memplan::OffsetsAssignment A;
        A.Offsets.assign(Records.size(), 0);
        for (const memplan::UsageRecord &R : Records)
          A.TotalSize = std::max(A.TotalSize, R.Size);
        return memplan::planFromOffsets(A);
      },
      "test: every record at offset 0 (invalid)");
}
