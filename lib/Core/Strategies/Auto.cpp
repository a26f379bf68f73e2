//===- Auto.cpp - The default strategy: best of the rest ------------------===//

#include "memplan/Core/Strategies/Auto.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Strategies/BestFit.h"
#include "memplan/Core/Strategies/Exact.h"
#include "memplan/Core/Strategies/FirstFit.h"
#include "memplan/Core/Strategies/GreedyByBreadthOffsets.h"
#include "memplan/Core/Strategies/GreedyBySizeOffsets.h"
#include "memplan/Core/Validator.h"

using namespace memplan;

llvm::Expected<Plan> memplan::autoStrategy(llvm::ArrayRef<UsageRecord> Records,
                                           const StrategyOptions &Options) {
  using FastFn = OffsetsAssignment (*)(llvm::ArrayRef<UsageRecord>);
  const FastFn Fast[] = {greedyBySizeOffsets, bestFitSize, bestFitArea,
                         greedyByBreadthOffsets, firstFit};
  std::optional<OffsetsAssignment> Best;
  // A candidate only counts when it validates: `auto` must never return a
  // plan that overlaps, whatever the order of the records.
  auto Consider = [&](OffsetsAssignment A) {
    if (llvm::errorToBool(validateOffsets(Records, A, Options.Alignment)))
      return;
    if (!Best || A.TotalSize < Best->TotalSize)
      Best = std::move(A);
  };
  for (FastFn Fn : Fast)
    Consider(Fn(Records));
  if (!Best)
    return llvm::createStringError("auto: no strategy produced a valid plan");

  uint64_t Bound = liveBytesLowerBound(Records);
  bool Optimal = Best->TotalSize <= Bound;
  bool CapacityMet = Options.Capacity && Best->TotalSize <= *Options.Capacity;
  if (!Optimal && !CapacityMet && Options.BudgetMs > 0 &&
      Records.size() <= kAutoExactMaxRecords) {
    ExactOptions EO;
    EO.BudgetMs = Options.BudgetMs;
    EO.Capacity = Options.Capacity;
    EO.Incumbent = &*Best;
    ExactResult R = exactSolve(Records, EO);
    if (!llvm::errorToBool(
            validateOffsets(Records, R.Offsets, Options.Alignment)) &&
        R.Offsets.TotalSize <= Best->TotalSize) {
      Best = std::move(R.Offsets);
      Optimal = R.Optimal;
    }
  }
  Plan P = planFromOffsets(std::move(*Best));
  P.Optimal = Optimal;
  return P;
}
