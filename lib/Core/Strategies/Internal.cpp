//===- Internal.cpp - Helpers that several strategies share ---------------===//

#include "memplan/Core/Strategies/Internal.h"

#include <algorithm>
#include <numeric>
#include <set>

using namespace memplan;
using namespace memplan::internal;

std::vector<size_t>
memplan::internal::orderByStart(llvm::ArrayRef<UsageRecord> Records) {
  std::vector<size_t> Order(Records.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    const UsageRecord &RA = Records[A], &RB = Records[B];
    if (RA.FirstTask != RB.FirstTask)
      return RA.FirstTask < RB.FirstTask;
    if (RA.LastTask != RB.LastTask)
      return RA.LastTask < RB.LastTask;
    return A < B;
  });
  return Order;
}

std::vector<size_t>
memplan::internal::orderBySizeDesc(llvm::ArrayRef<UsageRecord> Records) {
  std::vector<size_t> Order(Records.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    if (Records[A].Size != Records[B].Size)
      return Records[A].Size > Records[B].Size;
    if (Records[A].FirstTask != Records[B].FirstTask)
      return Records[A].FirstTask < Records[B].FirstTask;
    return A < B;
  });
  return Order;
}

Segments
memplan::internal::computeSegments(llvm::ArrayRef<UsageRecord> Records) {
  Segments S;
  S.Starts.reserve(Records.size());
  for (const UsageRecord &R : Records)
    S.Starts.push_back(R.FirstTask);
  std::sort(S.Starts.begin(), S.Starts.end());
  S.Starts.erase(std::unique(S.Starts.begin(), S.Starts.end()), S.Starts.end());
  S.FirstSeg.resize(Records.size());
  S.LastSeg.resize(Records.size());
  for (size_t I = 0; I < Records.size(); ++I) {
    S.FirstSeg[I] = std::lower_bound(S.Starts.begin(), S.Starts.end(),
                                     Records[I].FirstTask) -
                    S.Starts.begin();
    S.LastSeg[I] = std::upper_bound(S.Starts.begin(), S.Starts.end(),
                                    Records[I].LastTask) -
                   S.Starts.begin() - 1;
  }
  return S;
}

std::vector<uint64_t>
memplan::internal::segmentBreadths(llvm::ArrayRef<UsageRecord> Records,
                                   const Segments &Segs) {
  // Difference array in 128 bits, saturated to 64 at the end.
  std::vector<__int128> Delta(Segs.Starts.size() + 1, 0);
  for (size_t I = 0; I < Records.size(); ++I) {
    Delta[Segs.FirstSeg[I]] += Records[I].Size;
    Delta[Segs.LastSeg[I] + 1] -= Records[I].Size;
  }
  std::vector<uint64_t> Breadth(Segs.Starts.size());
  __int128 Live = 0;
  for (size_t S = 0; S < Breadth.size(); ++S) {
    Live += Delta[S];
    Breadth[S] = Live > (__int128)UINT64_MAX ? UINT64_MAX : (uint64_t)Live;
  }
  return Breadth;
}

std::vector<size_t>
memplan::internal::orderByBreadth(llvm::ArrayRef<UsageRecord> Records) {
  if (Records.empty())
    return {};
  Segments Segs = computeSegments(Records);
  std::vector<uint64_t> Breadth = segmentBreadths(Records, Segs);
  // Sparse table of the broadest segment (earliest on ties) per range.
  size_t N = Breadth.size();
  auto Better = [&](size_t A, size_t B) {
    return Breadth[A] != Breadth[B] ? (Breadth[A] > Breadth[B] ? A : B)
                                    : std::min(A, B);
  };
  std::vector<std::vector<size_t>> Table(1, std::vector<size_t>(N));
  std::iota(Table[0].begin(), Table[0].end(), 0);
  for (size_t K = 1; (size_t(1) << K) <= N; ++K) {
    Table.emplace_back(N - (size_t(1) << K) + 1);
    for (size_t I = 0; I + (size_t(1) << K) <= N; ++I)
      Table[K][I] =
          Better(Table[K - 1][I], Table[K - 1][I + (size_t(1) << (K - 1))]);
  }
  std::vector<size_t> Task(Records.size());
  for (size_t I = 0; I < Records.size(); ++I) {
    size_t Lo = Segs.FirstSeg[I], Hi = Segs.LastSeg[I];
    size_t K = 63 - __builtin_clzll(Hi - Lo + 1);
    Task[I] = Better(Table[K][Lo], Table[K][Hi + 1 - (size_t(1) << K)]);
  }
  std::vector<size_t> Order(Records.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    if (Task[A] != Task[B]) {
      if (Breadth[Task[A]] != Breadth[Task[B]])
        return Breadth[Task[A]] > Breadth[Task[B]];
      return Task[A] < Task[B];
    }
    if (Records[A].Size != Records[B].Size)
      return Records[A].Size > Records[B].Size;
    return A < B;
  });
  return Order;
}

std::vector<uint64_t>
memplan::internal::positionalMaximums(llvm::ArrayRef<UsageRecord> Records) {
  if (Records.empty())
    return {};
  Segments Segs = computeSegments(Records);
  std::vector<std::vector<size_t>> StartsAt(Segs.Starts.size()),
      EndsAfter(Segs.Starts.size());
  for (size_t I = 0; I < Records.size(); ++I) {
    StartsAt[Segs.FirstSeg[I]].push_back(I);
    EndsAfter[Segs.LastSeg[I]].push_back(I);
  }
  std::multiset<uint64_t, std::greater<uint64_t>> Live;
  std::vector<uint64_t> Max;
  for (size_t S = 0; S < Segs.Starts.size(); ++S) {
    for (size_t I : StartsAt[S])
      Live.insert(Records[I].Size);
    size_t K = 0;
    for (uint64_t Size : Live) {
      if (K == Max.size())
        Max.push_back(Size);
      else
        Max[K] = std::max(Max[K], Size);
      ++K;
    }
    for (size_t I : EndsAfter[S])
      Live.erase(Live.find(Records[I].Size));
  }
  return Max;
}

ConflictIndex::ConflictIndex(llvm::ArrayRef<UsageRecord> Records)
    : Records(Records) {
  ByStart = orderByStart(Records);
  Position.resize(Records.size());
  StartAt.resize(Records.size());
  for (size_t P = 0; P < ByStart.size(); ++P) {
    Position[ByStart[P]] = P;
    StartAt[P] = Records[ByStart[P]].FirstTask;
  }
  Leaves = 1;
  while (Leaves < Records.size())
    Leaves *= 2;
  Tree.assign(2 * Leaves, std::nullopt);
}

void ConflictIndex::insert(size_t I) {
  size_t Node = Leaves + Position[I];
  Tree[Node] = Records[I].LastTask;
  for (Node /= 2; Node >= 1; Node /= 2)
    Tree[Node] = std::max(Tree[2 * Node], Tree[2 * Node + 1]);
}

void ConflictIndex::collectIn(size_t Node, size_t Lo, size_t Hi, size_t Limit,
                              uint64_t First, std::vector<size_t> &Out) const {
  if (Lo >= Limit || !Tree[Node] || *Tree[Node] < First)
    return;
  if (Hi - Lo == 1) {
    Out.push_back(ByStart[Lo]);
    return;
  }
  size_t Mid = (Lo + Hi) / 2;
  collectIn(2 * Node, Lo, Mid, Limit, First, Out);
  collectIn(2 * Node + 1, Mid, Hi, Limit, First, Out);
}

void ConflictIndex::collect(const UsageRecord &R,
                            std::vector<size_t> &Out) const {
  // Placed records starting at or before R ends and ending at or after R
  // starts.
  size_t Limit = std::upper_bound(StartAt.begin(), StartAt.end(), R.LastTask) -
                 StartAt.begin();
  if (Records.empty())
    return;
  collectIn(1, 0, Leaves, Limit, R.FirstTask, Out);
}

uint64_t memplan::internal::findOffset(uint64_t Size,
                                       std::vector<size_t> &Conflicts,
                                       llvm::ArrayRef<UsageRecord> Records,
                                       llvm::ArrayRef<uint64_t> Offsets,
                                       GapPolicy Policy) {
  std::sort(Conflicts.begin(), Conflicts.end(), [&](size_t A, size_t B) {
    return Offsets[A] != Offsets[B] ? Offsets[A] < Offsets[B] : A < B;
  });
  uint64_t PrevEnd = 0, BestOffset = 0, BestGap = UINT64_MAX;
  bool Found = false;
  for (size_t J : Conflicts) {
    uint64_t Off = Offsets[J];
    if (Off >= PrevEnd) {
      uint64_t Gap = Off - PrevEnd;
      if (Gap >= Size && Gap < BestGap) {
        BestGap = Gap;
        BestOffset = PrevEnd;
        Found = true;
        if (Policy == GapPolicy::FirstFit)
          break;
      }
    }
    PrevEnd = std::max(PrevEnd, Off + Records[J].Size);
  }
  return Found ? BestOffset : PrevEnd;
}

OffsetsAssignment
memplan::internal::placeInOrder(llvm::ArrayRef<UsageRecord> Records,
                                llvm::ArrayRef<size_t> Order,
                                GapPolicy Policy) {
  OffsetsAssignment Result;
  Result.Offsets.assign(Records.size(), 0);
  ConflictIndex Index(Records);
  std::vector<size_t> Conflicts;
  for (size_t I : Order) {
    Conflicts.clear();
    Index.collect(Records[I], Conflicts);
    uint64_t Offset =
        findOffset(Records[I].Size, Conflicts, Records, Result.Offsets, Policy);
    Result.Offsets[I] = Offset;
    Result.TotalSize = std::max(Result.TotalSize, Offset + Records[I].Size);
    Index.insert(I);
  }
  return Result;
}

uint64_t memplan::internal::objectsTotal(const ObjectsAssignment &A) {
  uint64_t Total = 0;
  for (uint64_t S : A.ObjectSizes)
    Total += S;
  return Total;
}
