//===- BuiltinStrategies.cpp - Registers memplan's own strategies ---------===//
//
// The only file that knows every built-in strategy: one line each.
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/Strategy.h"
#include "memplan/Core/Strategies/GreedyBySizeOffsets.h"

using namespace memplan;

namespace {
/// Adapts a plain offsets function to a StrategyFn.
template <typename F> StrategyFn offsets(F Fn) {
  return [Fn](llvm::ArrayRef<UsageRecord> Records,
              const StrategyOptions &) -> llvm::Expected<Plan> {
    return planFromOffsets(Fn(Records));
  };
}
} // namespace

void memplan::registerBuiltinStrategies() {
  registerStrategy("greedy-by-size-offsets", offsets(greedyBySizeOffsets),
                   "TFLite GPU greedy by size: largest first, best gap");
  // `auto` keeps the best of the fast strategies.
  registerStrategy(
      "auto",
      [](llvm::ArrayRef<UsageRecord> Records,
         const StrategyOptions &) -> llvm::Expected<Plan> {
        return planFromOffsets(greedyBySizeOffsets(Records));
      },
      "best of the fast strategies (default)", StrategyKind::Meta);
}
