//===- ExactSearch.cpp - The exact strategy's decision procedure ----------===//
//
// The decision procedure follows the ideas of google/minimalloc's solver
// (sections, canonical order, dominance, section inference, round robin over
// static preorderings with growing node limits); the code is our own.
// Exact.cpp searches these decisions for shrinking capacities.
//
//===----------------------------------------------------------------------===//

#include "ExactSearch.h"

#include <algorithm>
#include <numeric>
#include <tuple>

using namespace memplan;
using namespace memplan::exact;

/// MiniMalloc's static preorderings, all decreasing, by heuristic: T = the
/// largest section total the buffer is in, W = its lifespan, A = its area.
/// The first search orders all buffers by it, each sub-problem its own part.
using PreorderKey =
    std::tuple<unsigned __int128, unsigned __int128, unsigned __int128>;
constexpr size_t kNumPreorders = 3;
static PreorderKey preorderKey(size_t Heuristic, uint64_t T, uint64_t W,
                               unsigned __int128 A) {
  switch (Heuristic) {
  case 0:
    return {W, A, T};
  case 1:
    return {T, A, W};
  default:
    return {T, W, A};
  }
}

Partition::Partition(llvm::ArrayRef<UsageRecord> All, std::vector<size_t> Ids)
    : Ids(std::move(Ids)) {
  size_t M = this->Ids.size();
  // A section per distinct end time: the buffers live just before it. Every
  // cross-section of time is contained in the next one to end, so these
  // alone carry all the capacity constraints (as in MiniMalloc's sweep).
  std::vector<uint64_t> Ends;
  for (size_t Id : this->Ids)
    Ends.push_back(All[Id].LastTask + 1); // Tasks are far below 2^64.
  std::sort(Ends.begin(), Ends.end());
  Ends.erase(std::unique(Ends.begin(), Ends.end()), Ends.end());
  size_t NumSections = Ends.size();
  SectionBuffers.resize(NumSections);
  InitialTotal.assign(NumSections, 0);
  Size.resize(M);
  SecLo.resize(M);
  SecHi.resize(M);
  Overlaps.resize(M);
  for (size_t B = 0; B < M; ++B) {
    const UsageRecord &R = All[this->Ids[B]];
    Size[B] = R.Size;
    SecLo[B] =
        std::upper_bound(Ends.begin(), Ends.end(), R.FirstTask) - Ends.begin();
    SecHi[B] = std::lower_bound(Ends.begin(), Ends.end(), R.LastTask + 1) -
               Ends.begin() + 1;
    for (size_t S = SecLo[B]; S < SecHi[B]; ++S) {
      SectionBuffers[S].push_back(B);
      InitialTotal[S] += R.Size;
    }
  }
  // Overlapping pairs share a section.
  std::vector<size_t> ByStart(M);
  std::iota(ByStart.begin(), ByStart.end(), 0);
  std::sort(ByStart.begin(), ByStart.end(),
            [&](size_t A, size_t B) { return SecLo[A] < SecLo[B]; });
  for (size_t P = 0; P < M; ++P)
    for (size_t Q = P + 1; Q < M && SecLo[ByStart[Q]] < SecHi[ByStart[P]];
         ++Q) {
      Overlaps[ByStart[P]].push_back(ByStart[Q]);
      Overlaps[ByStart[Q]].push_back(ByStart[P]);
    }

  // MiniMalloc's static preorderings (preorderKey); ties go to the lower
  // record index.
  std::vector<uint64_t> T(M), &W = Width;
  std::vector<unsigned __int128> &A = Area;
  W.assign(M, 0);
  A.assign(M, 0);
  for (size_t B = 0; B < M; ++B) {
    for (size_t S = SecLo[B]; S < SecHi[B]; ++S)
      T[B] = std::max(T[B], InitialTotal[S]);
    W[B] = All[this->Ids[B]].LastTask - All[this->Ids[B]].FirstTask + 1;
    A[B] = (unsigned __int128)Size[B] * W[B];
  }
  for (size_t H = 0; H < kNumPreorders; ++H) {
    std::vector<size_t> Order(M);
    std::iota(Order.begin(), Order.end(), 0);
    std::sort(Order.begin(), Order.end(), [&](size_t X, size_t Y) {
      auto KX = preorderKey(H, T[X], W[X], A[X]);
      auto KY = preorderKey(H, T[Y], W[Y], A[Y]);
      return KX != KY ? KX > KY : this->Ids[X] < this->Ids[Y];
    });
    Preorders.push_back(std::move(Order));
  }
  Stamp.assign(NumSections, 0);
  InitialCuts.assign(NumSections ? NumSections - 1 : 0, 0);
  for (size_t B = 0; B < M; ++B)
    for (size_t S = SecLo[B]; S + 1 < SecHi[B]; ++S)
      ++InitialCuts[S];
}

bool Partition::check(uint64_t Off, size_t SecFrom, size_t SecTo) const {
  for (size_t S = SecFrom; S < SecTo; ++S)
    if (std::max(Floor[S], Off) + Total[S] > Capacity)
      return false;
  return true;
}

bool Partition::place(size_t B, uint64_t Off) {
  Offset[B] = Off;
  uint64_t Height = Off + Size[B];
  ++StampValue;
  std::vector<size_t> Affected;
  bool Hat = false;
  for (size_t O : Overlaps[B]) {
    if (Offset[O] != kUnplaced)
      continue;
    Hat = true;
    if (MinOffset[O] >= Height)
      continue;
    MinLog.push_back({O, MinOffset[O]});
    MinOffset[O] = Height;
    for (size_t S = SecLo[O]; S < SecHi[O]; ++S)
      if (Stamp[S] != StampValue) {
        Stamp[S] = StampValue;
        Affected.push_back(S);
      }
  }
  for (size_t S = SecLo[B]; S < SecHi[B]; ++S) {
    FloorLog.push_back({S, Floor[S]});
    Floor[S] = Height;
    Total[S] -= Size[B];
  }
  // No buffer left in a section can sit below the lowest of their minimum
  // offsets, so the section's floor rises to it.
  for (size_t S : Affected) {
    uint64_t Lowest = kUnplaced;
    for (size_t O : SectionBuffers[S])
      if (Offset[O] == kUnplaced)
        Lowest = std::min(Lowest, MinOffset[O]);
    if (Lowest != kUnplaced && Floor[S] < Lowest) {
      FloorLog.push_back({S, Floor[S]});
      Floor[S] = Lowest;
    }
  }
  return Hat;
}

void Partition::unplace(size_t B, size_t MinMark, size_t FloorMark) {
  while (FloorLog.size() > FloorMark) {
    Floor[FloorLog.back().first] = FloorLog.back().second;
    FloorLog.pop_back();
  }
  while (MinLog.size() > MinMark) {
    MinOffset[MinLog.back().first] = MinLog.back().second;
    MinLog.pop_back();
  }
  for (size_t S = SecLo[B]; S < SecHi[B]; ++S)
    Total[S] += Size[B];
  Offset[B] = kUnplaced;
}

Outcome Partition::search(const std::vector<size_t> &Parent,
                          uint64_t LastOffset, size_t LastRank, size_t SecFrom,
                          size_t SecTo) {
  if (NodesLeft-- <= 0)
    return Outcome::NodeLimit;
  if ((++Nodes & 15) == 0 && Clock::now() > Deadline)
    return Outcome::Timeout;
  std::vector<size_t> Order;
  Order.reserve(Parent.size());
  for (size_t B : Parent)
    if (Offset[B] == kUnplaced)
      Order.push_back(B);
  if (Order.empty()) {
    // Buffers of independent parts solved elsewhere are unplaced here: keep
    // their offsets.
    for (size_t B = 0; B < Offset.size(); ++B)
      if (Offset[B] != kUnplaced)
        Solution[B] = Offset[B];
    return Outcome::Found;
  }
  std::sort(Order.begin(), Order.end(), [&](size_t X, size_t Y) {
    return MinOffset[X] != MinOffset[Y] ? MinOffset[X] < MinOffset[Y]
                                        : Rank[X] < Rank[Y];
  });
  uint64_t MinHeight = kUnplaced;
  for (size_t B : Order)
    MinHeight = std::min(MinHeight, MinOffset[B] + Size[B]);
  for (size_t B : Order) {
    uint64_t Off = MinOffset[B];
    // Canonical: offsets never decrease, equal ones go in preorder.
    if (Off < LastOffset || (Off == LastOffset && Rank[B] < LastRank))
      continue;
    // Dominance: some buffer would fit entirely below this one.
    if (Off >= MinHeight)
      break; // Order is by offset: every later one is dominated too.
    size_t MinMark = MinLog.size(), FloorMark = FloorLog.size();
    bool Hat = place(B, Off);
    Outcome R = Outcome::NotFound;
    if (Off + Size[B] <= Capacity && check(Off, SecFrom, SecTo))
      R = decompose(B, Order, Off, SecFrom, SecTo);
    unplace(B, MinMark, FloorMark);
    if (R != Outcome::NotFound)
      return R;
    // Nothing unplaced overlaps B, so B at its lowest offset constrains no
    // one; any other branch would place B no lower, which is no better.
    if (!Hat)
      break;
  }
  return Outcome::NotFound;
}

Outcome Partition::decompose(size_t B, const std::vector<size_t> &Order,
                             uint64_t Off, size_t SecFrom, size_t SecTo) {
  // Placing B may leave no unplaced buffer across some section boundaries;
  // the parts between them are then solved one after the other, each from a
  // fresh canonical order, and a part that fails fails them all.
  // Recorded now: when B is the last of its part no leaf follows.
  Solution[B] = Off;
  std::vector<size_t> CutPoints = {SecFrom};
  for (size_t S = SecLo[B]; S + 1 < SecHi[B]; ++S)
    if (--Cuts[S] == 0)
      CutPoints.push_back(S + 1);
  Outcome R = Outcome::Found;
  if (CutPoints.size() == 1) {
    R = search(Order, Off, Rank[B], SecFrom, SecTo);
  } else {
    CutPoints.push_back(SecTo);
    for (size_t C = 1; C < CutPoints.size() && R == Outcome::Found; ++C) {
      size_t Lo = CutPoints[C - 1], Hi = CutPoints[C];
      std::vector<size_t> Part;
      for (size_t O : Order)
        if (Offset[O] == kUnplaced && SecLo[O] < Hi && Lo < SecHi[O])
          Part.push_back(O);
      if (Part.empty())
        continue;
      // The part's own preorder, its totals as they are now (MiniMalloc
      // re-sorts every sub-problem too); ranks restored afterwards.
      std::vector<uint64_t> T(Part.size(), 0);
      std::vector<size_t> Pos(Part.size()), Saved(Part.size());
      for (size_t I = 0; I < Part.size(); ++I) {
        for (size_t S = SecLo[Part[I]]; S < SecHi[Part[I]]; ++S)
          T[I] = std::max(T[I], Total[S]);
        Saved[I] = Rank[Part[I]];
      }
      std::iota(Pos.begin(), Pos.end(), 0);
      auto Key = [&](size_t I) {
        return preorderKey(Heuristic, T[I], Width[Part[I]], Area[Part[I]]);
      };
      std::stable_sort(Pos.begin(), Pos.end(), [&](size_t X, size_t Y) {
        auto KX = Key(X), KY = Key(Y);
        return KX != KY ? KX > KY : Saved[X] < Saved[Y];
      });
      std::vector<size_t> Sorted(Part.size());
      for (size_t I = 0; I < Pos.size(); ++I) {
        Sorted[I] = Part[Pos[I]];
        Rank[Sorted[I]] = I;
      }
      R = search(Sorted, 0, 0, Lo, Hi);
      for (size_t I = 0; I < Part.size(); ++I)
        Rank[Part[I]] = Saved[I];
    }
  }
  for (size_t S = SecLo[B]; S + 1 < SecHi[B]; ++S)
    ++Cuts[S];
  return R;
}

Outcome Partition::decide(uint64_t Cap, Clock::time_point Limit) {
  Capacity = Cap;
  Deadline = Limit;
  size_t M = Ids.size();
  // Round robin over the preorderings with growing node limits: a limit
  // hit is no proof, a search that ends without one is.
  for (int64_t Limit = 2 * (int64_t)std::max<size_t>(M, 1);;
       Limit = Limit > INT64_MAX / 2 ? INT64_MAX : 2 * Limit) {
    for (Heuristic = 0; Heuristic < Preorders.size(); ++Heuristic) {
      const std::vector<size_t> &Pre = Preorders[Heuristic];
      Offset.assign(M, kUnplaced);
      MinOffset.assign(M, 0);
      Floor.assign(InitialTotal.size(), 0);
      Total = InitialTotal;
      MinLog.clear();
      FloorLog.clear();
      Rank.assign(M, 0);
      for (size_t P = 0; P < M; ++P)
        Rank[Pre[P]] = P;
      NodesLeft = Limit;
      Cuts = InitialCuts;
      Solution.assign(M, 0);
      if (!check(0, 0, Floor.size()))
        return Outcome::NotFound;
      Outcome R = search(Pre, 0, 0, 0, Floor.size());
      if (R != Outcome::NodeLimit)
        return R;
    }
    if (Clock::now() > Deadline)
      return Outcome::Timeout;
  }
}
