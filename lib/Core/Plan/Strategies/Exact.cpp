//===- Exact.cpp - MiniMalloc-style branch and bound ----------------------===//
//
// The exact strategy: cuts time into independent partitions, then searches
// the decision "fits in C bytes?" (ExactSearch.cpp, after google/minimalloc's
// solver) for shrinking capacities C until the budget runs out.
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/Strategies/Exact.h"
#include "ExactSearch.h"
#include "Internal.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Strategies/GreedyBySizeOffsets.h"

#include "llvm/Support/Debug.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#define DEBUG_TYPE "memplan-exact"

using namespace memplan;
using namespace memplan::exact;

ExactResult memplan::exactSolve(llvm::ArrayRef<UsageRecord> Records,
                                const ExactOptions &Options) {
  Clock::time_point Start = Clock::now();
  // NaN, infinite or huge budgets would make the cast to int64_t undefined:
  // NaN means no time, and a year is as good as forever.
  double BudgetUs = Options.BudgetMs * 1000;
  BudgetUs = std::isnan(BudgetUs) ? 0 : std::clamp(BudgetUs, -1.0, 3.2e13);
  Clock::time_point Deadline =
      Start + std::chrono::microseconds((int64_t)BudgetUs);
  ExactResult Best;
  Best.Offsets =
      Options.Incumbent ? *Options.Incumbent : greedyBySizeOffsets(Records);
  uint64_t Lo = liveBytesLowerBound(Records), Hi = Best.Offsets.TotalSize;
  Best.LowerBound = Lo;
  if (Hi <= Lo || Records.empty()) {
    Best.Optimal = true;
    return Best;
  }
  if (Options.Capacity && Hi <= *Options.Capacity)
    return Best;

  // Cut time where no record is live across: the parts are independent.
  std::vector<Partition> Parts;
  {
    std::vector<size_t> Order = internal::orderByStart(Records), Ids;
    uint64_t End = 0;
    for (size_t I : Order) {
      if (!Ids.empty() && Records[I].FirstTask > End) {
        Parts.emplace_back(Records, std::move(Ids));
        Ids.clear();
      }
      End = Ids.empty() ? Records[I].LastTask
                        : std::max(End, Records[I].LastTask);
      Ids.push_back(I);
    }
    Parts.emplace_back(Records, std::move(Ids));
  }
  LLVM_DEBUG(llvm::dbgs() << "exact: " << Records.size() << " records in "
                          << Parts.size() << " parts, bytes in [" << Lo << ", "
                          << Hi << "]\n");
  auto PeakOf = [&](const Partition &P, const OffsetsAssignment &A) {
    uint64_t Peak = 0;
    for (size_t Id : P.Ids)
      Peak = std::max(Peak, A.Offsets[Id] + Records[Id].Size);
    return Peak;
  };

  // One decision: can every part fit in T bytes? Parts that already do keep
  // their offsets.
  auto Decide = [&](uint64_t T, Clock::time_point Limit) {
    OffsetsAssignment Next = Best.Offsets;
    for (Partition &P : Parts) {
      if (PeakOf(P, Best.Offsets) <= T)
        continue;
      Outcome R = P.decide(T, Limit);
      if (R != Outcome::Found)
        return std::make_pair(R, Next);
      for (size_t B = 0; B < P.Ids.size(); ++B)
        Next.Offsets[P.Ids[B]] = P.Solution[B];
    }
    Next.TotalSize = 0;
    for (size_t I = 0; I < Records.size(); ++I)
      Next.TotalSize =
          std::max(Next.TotalSize, Next.Offsets[I] + Records[I].Size);
    return std::make_pair(Outcome::Found, Next);
  };

  if (Options.Capacity) {
    if (*Options.Capacity >= Lo) {
      auto [R, Plan] = Decide(*Options.Capacity, Deadline);
      if (R == Outcome::Found)
        Best.Offsets = std::move(Plan);
      else if (R == Outcome::NotFound)
        Lo = *Options.Capacity + 1; // Proven: nothing fits the capacity.
    }
    Best.LowerBound = Lo;
    Best.Optimal = Best.Offsets.TotalSize <= Lo;
    return Best;
  }

  // Shrink [Lo, Hi]: Lo is proven (nothing smaller fits), Hi is found. A
  // target whose search ran out of time is Unknown; later ones go above it.
  uint64_t Unknown = UINT64_MAX;
  bool First = true;
  while (Lo < Hi) {
    Clock::time_point Now = Clock::now();
    if (Now >= Deadline)
      break;
    uint64_t T;
    if (Unknown == UINT64_MAX)
      T = First ? Lo : Lo + (Hi - Lo) / 2;
    else
      T = std::max(Unknown + 1, Unknown + (Hi - Unknown) / 2);
    if (T >= Hi)
      break;
    First = false;
    auto [R, Plan] = Decide(T, Now + (Deadline - Now) / 2);
    LLVM_DEBUG(llvm::dbgs() << "exact: target " << T << ": "
                            << (R == Outcome::Found      ? "found"
                                : R == Outcome::NotFound ? "none fits"
                                                         : "unknown")
                            << "\n");
    if (R == Outcome::Found) {
      Best.Offsets = std::move(Plan);
      Hi = Best.Offsets.TotalSize;
    } else if (R == Outcome::NotFound) {
      Lo = T + 1;
      if (Unknown != UINT64_MAX && Unknown < Lo)
        Unknown = UINT64_MAX;
    } else {
      Unknown = T;
    }
  }
  Best.LowerBound = std::min(Lo, Hi);
  Best.Optimal = Lo >= Hi;
  LLVM_DEBUG(
      llvm::dbgs()
      << "exact: " << Best.Offsets.TotalSize << " bytes, bound "
      << Best.LowerBound << " after "
      << std::chrono::duration<double, std::milli>(Clock::now() - Start).count()
      << " ms\n");
  return Best;
}
