//===- Auto.cpp - The default strategy: best of the rest ------------------===//

#include "memplan/Core/Strategies/Auto.h"
#include "Internal.h"
#include "memplan/Core/Strategies/Exact.h"
#include "memplan/Core/Validator.h"

#include "llvm/Support/Debug.h"

#include <algorithm>
#include <chrono>

#define DEBUG_TYPE "memplan-auto"

using namespace memplan;
using namespace memplan::internal;

llvm::Expected<Plan> memplan::autoStrategy(llvm::ArrayRef<UsageRecord> Records,
                                           const StrategyOptions &Options) {
  // The budget is auto's, fast strategies included: the search gets what
  // they left (it once got the whole budget after them).
  auto Start = std::chrono::steady_clock::now();
  // The fast strategies: greedy-by-size-offsets, best-fit-size,
  // best-fit-area, greedy-by-breadth-offsets, first-fit. They share one
  // PlacementContext (sorted lifetimes, segments, the live-bytes bound) and
  // stop as soon as one reaches the bound: none can do better, and the first
  // of equal plans is kept. Above kAutoAllFastMaxRecords the two by area and
  // breadth are skipped (on every shared record set they win only on
  // MiniMalloc's synthetic G; first fit wins on four).
  struct Fast {
    std::vector<size_t> (*Order)(llvm::ArrayRef<UsageRecord>);
    GapPolicy Policy;
    bool AtScale;
    const char *Name; // the registered strategy that does the same
  };
  const Fast Candidates[] = {
      {orderBySizeDesc, GapPolicy::BestFit, true, "greedy-by-size-offsets"},
      {orderBySizeLifetime, GapPolicy::BestFit, true, "best-fit-size"},
      {orderByArea, GapPolicy::BestFit, false, "best-fit-area"},
      {orderByBreadth, GapPolicy::BestFit, false, "greedy-by-breadth-offsets"},
      {orderByStart, GapPolicy::FirstFit, true, "first-fit"}};
  bool AtScale = Records.size() > kAutoAllFastMaxRecords;
  PlacementContext Ctx(Records);
  uint64_t Bound = Ctx.LiveBound;
  std::vector<OffsetsAssignment> Plans;
  std::vector<const char *> Names;
  for (const Fast &F : Candidates) {
    if (AtScale && !F.AtScale)
      continue;
    Plans.push_back(placeInOrder(Ctx, F.Order(Records), F.Policy));
    Names.push_back(F.Name);
    LLVM_DEBUG(llvm::dbgs()
               << "candidate " << F.Name << ": " << Plans.back().TotalSize
               << " bytes (bound " << Bound << ")\n");
    if (Plans.back().TotalSize <= Bound)
      break;
  }
  // The smallest plan that validates (the first of equal ones): `auto` must
  // never return a plan that overlaps, whatever the order of the records. One
  // validation, unless a strategy is wrong.
  std::vector<size_t> Rank(Plans.size());
  for (size_t I = 0; I < Plans.size(); ++I)
    Rank[I] = I;
  std::stable_sort(Rank.begin(), Rank.end(), [&](size_t A, size_t B) {
    return Plans[A].TotalSize < Plans[B].TotalSize;
  });
  std::optional<OffsetsAssignment> Best;
  std::string Chosen;
  for (size_t I : Rank)
    if (!llvm::errorToBool(
            validateOffsets(Records, Plans[I], Options.Alignment))) {
      Best = std::move(Plans[I]);
      Chosen = Names[I];
      break;
    }
  Plans.clear();
  if (!Best)
    return llvm::createStringError("auto: no strategy produced a valid plan");

  bool Optimal = Best->TotalSize <= Bound;
  bool CapacityMet = Options.Capacity && Best->TotalSize <= *Options.Capacity;
  double LeftMs =
      Options.BudgetMs - std::chrono::duration<double, std::milli>(
                             std::chrono::steady_clock::now() - Start)
                             .count();
  if (!Optimal && !CapacityMet && LeftMs > 0 &&
      Records.size() <= kAutoExactMaxRecords) {
    ExactOptions EO;
    EO.BudgetMs = LeftMs;
    EO.Capacity = Options.Capacity;
    EO.Incumbent = &*Best;
    ExactResult R = exactSolve(Records, EO);
    if (!llvm::errorToBool(
            validateOffsets(Records, R.Offsets, Options.Alignment)) &&
        R.Offsets.TotalSize <= Best->TotalSize) {
      if (R.Offsets.TotalSize < Best->TotalSize)
        Chosen = "exact";
      LLVM_DEBUG(llvm::dbgs() << "exact: " << R.Offsets.TotalSize
                              << " bytes, bound " << R.LowerBound << "\n");
      Best = std::move(R.Offsets);
      Optimal = R.Optimal;
    }
    Bound = std::max(Bound, R.LowerBound);
  }
  LLVM_DEBUG(llvm::dbgs() << "won: " << Chosen << ", " << Best->TotalSize
                          << " bytes" << (Optimal ? " (optimal)" : "") << "\n");
  Plan P = planFromOffsets(std::move(*Best));
  P.Optimal = Optimal;
  P.CertifiedBound = Bound;
  P.Chosen = std::move(Chosen);
  return P;
}
