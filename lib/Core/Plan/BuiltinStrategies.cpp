//===- BuiltinStrategies.cpp - Registers memplan's own strategies ---------===//
//
// The only file that knows every built-in strategy: one line each.
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Strategies/Auto.h"
#include "memplan/Core/Strategies/BestFit.h"
#include "memplan/Core/Strategies/Equality.h"
#include "memplan/Core/Strategies/Exact.h"
#include "memplan/Core/Strategies/FirstFit.h"
#include "memplan/Core/Strategies/GreedyBest.h"
#include "memplan/Core/Strategies/GreedyByBreadth.h"
#include "memplan/Core/Strategies/GreedyByBreadthOffsets.h"
#include "memplan/Core/Strategies/GreedyBySize.h"
#include "memplan/Core/Strategies/GreedyBySizeOffsets.h"
#include "memplan/Core/Strategies/GreedyInOrder.h"
#include "memplan/Core/Strategies/MinCostFlow.h"
#include "memplan/Core/Strategies/Naive.h"
#include "memplan/Core/Strategy.h"

using namespace memplan;

namespace {
/// Adapts a plain offsets function to a StrategyFn.
template <typename F> StrategyFn offsets(F Fn) {
  return [Fn](llvm::ArrayRef<UsageRecord> Records,
              const StrategyOptions &) -> llvm::Expected<Plan> {
    return planFromOffsets(Fn(Records));
  };
}

/// A shared-object assignment as a plan: objects end to end, optimal when
/// the total is the sum of positional maximums.
llvm::Expected<Plan> objectsPlan(llvm::ArrayRef<UsageRecord> Records,
                                 ObjectsAssignment A, uint64_t Alignment) {
  auto P = planFromObjects(std::move(A), Alignment);
  if (P && P->Offsets.TotalSize <= objectsLowerBound(Records))
    P->Optimal = true;
  return P;
}

/// Adapts a plain shared-object function to a StrategyFn.
template <typename F> StrategyFn objects(F Fn) {
  return [Fn](llvm::ArrayRef<UsageRecord> Records,
              const StrategyOptions &O) -> llvm::Expected<Plan> {
    return objectsPlan(Records, Fn(Records), O.Alignment);
  };
}

llvm::Expected<Plan> minCostFlowFn(llvm::ArrayRef<UsageRecord> Records,
                                   const StrategyOptions &O) {
  uint64_t HandOvers = minCostFlowHandOvers(Records);
  if (HandOvers > kMinCostFlowMaxHandOvers)
    return llvm::createStringError(
        std::make_error_code(std::errc::not_supported),
        "min-cost-flow: " + std::to_string(Records.size()) + " tensors make " +
            std::to_string(HandOvers) + " possible hand-overs, above the " +
            std::to_string(kMinCostFlowMaxHandOvers) +
            " it plans with (its graph holds one edge each, and its time grows "
            "as their number times the tensors'): use greedy-by-size, "
            "greedy-best or auto");
  return objectsPlan(Records, minCostFlow(Records), O.Alignment);
}

llvm::Expected<Plan> greedyInOrderFn(llvm::ArrayRef<UsageRecord> Records,
                                     const StrategyOptions &O) {
  if (!O.ReuseGraph.empty()) {
    if (O.ReuseGraph.size() != Records.size())
      return llvm::createStringError(
          "greedy-in-order: the reuse graph has " +
          std::to_string(O.ReuseGraph.size()) + " entries for " +
          std::to_string(Records.size()) + " records");
    for (const auto &Targets : O.ReuseGraph)
      for (size_t J : Targets)
        if (J >= Records.size())
          return llvm::createStringError("greedy-in-order: reuse graph names "
                                         "record " +
                                         std::to_string(J) + ", out of range");
  }
  return objectsPlan(Records, greedyInOrder(Records, O.ReuseGraph),
                     O.Alignment);
}

llvm::Expected<Plan> exactFn(llvm::ArrayRef<UsageRecord> Records,
                             const StrategyOptions &O) {
  ExactOptions EO;
  EO.BudgetMs = O.BudgetMs;
  EO.Capacity = O.Capacity;
  ExactResult R = exactSolve(Records, EO);
  Plan P = planFromOffsets(std::move(R.Offsets));
  P.Optimal = R.Optimal;
  P.CertifiedBound = R.LowerBound;
  return P;
}
} // namespace

void memplan::registerBuiltinStrategies() {
  using K = StrategyKind;
  // Shared objects (TFLite GPU memory_management).
  registerStrategy("naive", objects(naiveAssignment),
                   "one object per tensor (baseline)", K::SharedObjects);
  registerStrategy("equality", objects(equalityAssignment),
                   "reuse free objects of exactly the same size",
                   K::SharedObjects);
  registerStrategy("greedy-in-order", greedyInOrderFn,
                   "program order, closest free object (optional reuse graph)",
                   K::SharedObjects);
  registerStrategy("greedy-by-breadth", objects(greedyByBreadth),
                   "broadest tasks first, best-fitting free object",
                   K::SharedObjects);
  registerStrategy("greedy-by-size", objects(greedyBySize),
                   "size-distance priority over positional maximums",
                   K::SharedObjects);
  registerStrategy("greedy-best", objects(greedyBest),
                   "best of greedy-by-size and greedy-by-breadth",
                   K::SharedObjects);
  registerStrategy("min-cost-flow", minCostFlowFn,
                   "min-cost flow over object hand-overs (O(n^2) edges)",
                   K::SharedObjects);
  // Offsets.
  registerStrategy("greedy-by-size-offsets", offsets(greedyBySizeOffsets),
                   "TFLite GPU greedy by size: largest first, best gap");
  registerStrategy("greedy-by-breadth-offsets", offsets(greedyByBreadthOffsets),
                   "broadest tasks first, best gap");
  registerStrategy("best-fit-size", offsets(bestFitSize),
                   "XLA global decreasing size best fit");
  registerStrategy("best-fit-area", offsets(bestFitArea),
                   "best fit, largest size x lifetime first");
  registerStrategy("first-fit", offsets(firstFit),
                   "program order, lowest gap that fits");
  registerStrategy("exact", exactFn,
                   "MiniMalloc-style branch and bound within --budget-ms");
  registerStrategy("auto", autoStrategy,
                   "best of the fast strategies, then exact within budget "
                   "(default)",
                   K::Meta);
}
