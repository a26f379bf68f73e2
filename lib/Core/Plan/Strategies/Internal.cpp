//===- Internal.cpp - Helpers that several strategies share ---------------===//

#include "Internal.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "llvm/Support/ErrorHandling.h"

using namespace memplan;
using namespace memplan::internal;

namespace {
/// Sorts indices by a key computed once per record (a tuple compared
/// lexicographically, the index breaking ties): the comparisons touch one
/// array instead of chasing indices.
template <typename KeyFn>
std::vector<size_t> sortedIndices(size_t N, KeyFn Key) {
  using K = decltype(Key(size_t(0)));
  std::vector<std::pair<K, size_t>> Keys(N);
  for (size_t I = 0; I < N; ++I)
    Keys[I] = {Key(I), I};
  std::sort(Keys.begin(), Keys.end());
  std::vector<size_t> Order(N);
  for (size_t I = 0; I < N; ++I)
    Order[I] = Keys[I].second;
  return Order;
}

uint64_t lifetime(const UsageRecord &R) { return R.LastTask - R.FirstTask + 1; }
} // namespace

std::vector<size_t>
memplan::internal::orderByStart(llvm::ArrayRef<UsageRecord> Records) {
  return sortedIndices(Records.size(), [&](size_t I) {
    return std::make_pair(Records[I].FirstTask, Records[I].LastTask);
  });
}

// Decreasing keys are sorted as their complements.
std::vector<size_t>
memplan::internal::orderBySizeDesc(llvm::ArrayRef<UsageRecord> Records) {
  return sortedIndices(Records.size(), [&](size_t I) {
    return std::make_pair(~Records[I].Size, Records[I].FirstTask);
  });
}

std::vector<size_t>
memplan::internal::orderBySizeLifetime(llvm::ArrayRef<UsageRecord> Records) {
  return sortedIndices(Records.size(), [&](size_t I) {
    return std::make_pair(~Records[I].Size, ~lifetime(Records[I]));
  });
}

std::vector<size_t>
memplan::internal::orderByArea(llvm::ArrayRef<UsageRecord> Records) {
  // Areas in 128 bits: size x lifetime can exceed 64.
  return sortedIndices(Records.size(), [&](size_t I) {
    return std::make_pair(
        ~((unsigned __int128)Records[I].Size * lifetime(Records[I])),
        ~Records[I].Size);
  });
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
  // The broadest segment (earliest on ties) of each record's range: short
  // ranges are scanned; longer ones combine their partial blocks of 32 with a
  // sparse table over whole blocks (4 bytes a block a level).
  size_t N = Breadth.size();
  auto Better = [&](size_t A, size_t B) {
    return Breadth[A] != Breadth[B] ? (Breadth[A] > Breadth[B] ? A : B)
                                    : std::min(A, B);
  };
  auto Scan = [&](size_t Lo, size_t Hi, size_t Best) { // [Lo, Hi)
    for (size_t S = Lo; S < Hi; ++S)
      Best = Better(Best, S);
    return Best;
  };
  constexpr size_t kBlock = 32;
  size_t Blocks = (N + kBlock - 1) / kBlock;
  std::vector<std::vector<uint32_t>> Table(1, std::vector<uint32_t>(Blocks));
  for (size_t K = 0; K < Blocks; ++K)
    Table[0][K] =
        Scan(K * kBlock + 1, std::min(N, K * kBlock + kBlock), K * kBlock);
  for (size_t L = 1; (size_t(1) << L) <= Blocks; ++L) {
    Table.emplace_back(Blocks - (size_t(1) << L) + 1);
    for (size_t K = 0; K + (size_t(1) << L) <= Blocks; ++K)
      Table[L][K] =
          Better(Table[L - 1][K], Table[L - 1][K + (size_t(1) << (L - 1))]);
  }
  std::vector<size_t> Task(Records.size());
  for (size_t I = 0; I < Records.size(); ++I) {
    size_t Lo = Segs.FirstSeg[I], Hi = Segs.LastSeg[I] + 1; // [Lo, Hi)
    size_t BLo = Lo / kBlock + 1, BHi = Hi / kBlock; // Whole blocks [BLo, BHi).
    if (BLo >= BHi) {
      Task[I] = Scan(Lo + 1, Hi, Lo);
      continue;
    }
    size_t L = 63 - __builtin_clzll(BHi - BLo);
    size_t Best = Better(Table[L][BLo], Table[L][BHi - (size_t(1) << L)]);
    Best = Scan(Lo, BLo * kBlock, Best);
    Task[I] = Scan(BHi * kBlock, Hi, Best);
  }
  // Broadest task first (earliest on ties), largest record first in it.
  return sortedIndices(Records.size(), [&](size_t I) {
    return std::make_tuple(~Breadth[Task[I]], Task[I], ~Records[I].Size);
  });
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

PlacementContext::PlacementContext(llvm::ArrayRef<UsageRecord> Records)
    : Records(Records) {
  size_t N = Records.size();
  if (N >= UINT32_MAX)
    llvm::report_fatal_error("memplan: 2^32 records or more");
  // Starts and ends sorted apart; walking them together gives segments and
  // the live-bytes peak.
  std::vector<std::pair<uint64_t, uint32_t>> Starts(N), Ends(N);
  for (size_t I = 0; I < N; ++I) {
    Starts[I] = {Records[I].FirstTask, (uint32_t)I};
    Ends[I] = {Records[I].LastTask, (uint32_t)I};
  }
  std::sort(Starts.begin(), Starts.end());
  std::sort(Ends.begin(), Ends.end());
  std::vector<uint32_t> FirstSeg(N), LastSeg(N);
  unsigned __int128 Live = 0, Max = 0;
  uint32_t Seg = 0;
  for (size_t P = 0, E = 0; P < N; ++P) {
    if (P > 0 && Starts[P].first != Starts[P - 1].first)
      ++Seg;
    // Records ending before this start end in the previous segment (or
    // before the first; malformed records only).
    while (E < N && Ends[E].first < Starts[P].first) {
      LastSeg[Ends[E].second] = P > 0 ? Seg - 1 : 0;
      Live -= Records[Ends[E++].second].Size;
    }
    FirstSeg[Starts[P].second] = Seg;
    Live += Records[Starts[P].second].Size;
    Max = std::max(Max, Live);
  }
  LiveBound = Max > UINT64_MAX ? UINT64_MAX : (uint64_t)Max;
  // The rest end at or after the last start.
  for (size_t E = 0; N && E < N; ++E)
    if (Ends[E].first >= Starts.back().first) {
      for (; E < N; ++E)
        LastSeg[Ends[E].second] = Seg;
      break;
    }

  auto ClassOf = [&](size_t I) -> unsigned {
    uint32_t Len = LastSeg[I] >= FirstSeg[I] ? LastSeg[I] - FirstSeg[I] + 1 : 1;
    return 31 - __builtin_clz(Len);
  };
  // Counting sort by (class, bucket).
  constexpr unsigned kClasses = 32;
  std::vector<uint32_t> Count(kClasses, 0);
  for (size_t I = 0; I < N; ++I)
    ++Count[ClassOf(I)];
  size_t NumSegs = N ? Seg + 1 : 0;
  ClassBuckets.assign(kClasses, 0);
  ClassBucketCount.assign(kClasses, 0);
  size_t Buckets = 0;
  for (unsigned C = 0; C < kClasses; ++C) {
    ClassBuckets[C] = Buckets;
    if (Count[C])
      ClassBucketCount[C] = ((NumSegs - 1) >> C) + 1;
    Buckets += ClassBucketCount[C];
  }
  BucketStart.assign(Buckets + 1, 0);
  std::vector<uint32_t> BucketOf(N);
  for (size_t I = 0; I < N; ++I) {
    unsigned C = ClassOf(I);
    BucketOf[I] = ClassBuckets[C] + (FirstSeg[I] >> C);
    ++BucketStart[BucketOf[I] + 1];
  }
  for (size_t B = 0; B < Buckets; ++B)
    BucketStart[B + 1] += BucketStart[B];
  std::vector<uint32_t> Fill(BucketStart.begin(), BucketStart.end() - 1);
  Entries.resize(N);
  EntryOf.resize(N);
  // In start order, so each bucket is sorted by start.
  for (size_t P = 0; P < N; ++P) {
    uint32_t I = Starts[P].second;
    uint32_t E = Fill[BucketOf[I]]++;
    Entries[E] = {FirstSeg[I], LastSeg[I], I, Records[I].Size};
    HasZeroSize |= Records[I].Size == 0;
    EntryOf[I] = E;
  }
}

namespace {
/// The gap search over spans sorted by offset.
template <typename Span>
uint64_t scanGaps(uint64_t Size, llvm::ArrayRef<Span> Sorted,
                  GapPolicy Policy) {
  uint64_t PrevEnd = 0, BestOffset = 0, BestGap = UINT64_MAX;
  bool Found = false;
  for (const Span &C : Sorted) {
    if (C.Offset >= PrevEnd) {
      uint64_t Gap = C.Offset - PrevEnd;
      if (Gap >= Size && Gap < BestGap) {
        BestGap = Gap;
        BestOffset = PrevEnd;
        Found = true;
        if (Policy == GapPolicy::FirstFit)
          break;
      }
    }
    PrevEnd = std::max(PrevEnd, C.End);
  }
  return Found ? BestOffset : PrevEnd;
}

template <typename Span, typename Less>
void sortSpans(std::vector<Span> &Spans, Less L) {
  if (Spans.size() <= 16) {
    for (size_t I = 1; I < Spans.size(); ++I)
      for (size_t J = I; J > 0 && L(Spans[J], Spans[J - 1]); --J)
        std::swap(Spans[J], Spans[J - 1]);
  } else {
    std::sort(Spans.begin(), Spans.end(), L);
  }
}

/// Without zero-size records, spans of equal offset give the same gaps in
/// any order (after the first, the previous end is above that offset), so
/// their indices need not be kept or compared.
struct BareSpan {
  uint64_t Offset, End;
};
} // namespace

uint64_t memplan::internal::findOffset(uint64_t Size,
                                       std::vector<PlacedSpan> &Conflicts,
                                       GapPolicy Policy) {
  sortSpans(Conflicts, [](const PlacedSpan &A, const PlacedSpan &B) {
    return A.Offset != B.Offset ? A.Offset < B.Offset : A.Index < B.Index;
  });
  return scanGaps<PlacedSpan>(Size, Conflicts, Policy);
}

OffsetsAssignment memplan::internal::placeInOrder(const PlacementContext &Ctx,
                                                  llvm::ArrayRef<size_t> Order,
                                                  GapPolicy Policy) {
  // Offsets are kept by entry while placing: a record's conflicts then sit
  // next to each other in memory, which matters more than anything else at
  // a million records.
  constexpr uint64_t kUnplaced = UINT64_MAX;
  const std::vector<PlacementContext::Entry> &Entries = Ctx.Entries;
  std::vector<uint64_t> At(Entries.size(), kUnplaced);
  std::vector<PlacedSpan> Conflicts;
  std::vector<BareSpan> Bare;
  uint64_t Total = 0;
  unsigned NumClasses = Ctx.ClassBuckets.size();
  for (size_t I : Order) {
    uint32_t Self = Ctx.EntryOf[I];
    uint32_t F = Entries[Self].FirstSeg, L = Entries[Self].LastSeg;
    Conflicts.clear();
    Bare.clear();
    for (unsigned C = 0; C < NumClasses; ++C) {
      uint32_t Count = Ctx.ClassBucketCount[C];
      if (!Count)
        continue;
      // Records of class C are at most 2^(C+1) - 1 segments long.
      uint64_t Reach = (uint64_t(2) << C) - 2;
      uint64_t Lo = F > Reach ? (F - Reach) >> C : 0;
      uint64_t Hi = std::min<uint64_t>(L >> C, Count - 1);
      size_t Base = Ctx.ClassBuckets[C];
      size_t E = Ctx.BucketStart[Base + Lo],
             End = Ctx.BucketStart[Base + Hi + 1];
      if (Ctx.HasZeroSize) {
        for (; E < End; ++E) {
          const PlacementContext::Entry &R = Entries[E];
          if (At[E] != kUnplaced && R.LastSeg >= F && R.FirstSeg <= L)
            Conflicts.push_back({At[E], At[E] + R.Size, R.Index});
        }
      } else {
        for (; E < End; ++E) {
          const PlacementContext::Entry &R = Entries[E];
          if (At[E] != kUnplaced && R.LastSeg >= F && R.FirstSeg <= L)
            Bare.push_back({At[E], At[E] + R.Size});
        }
      }
    }
    uint64_t Size = Entries[Self].Size, Offset;
    if (Ctx.HasZeroSize) {
      Offset = findOffset(Size, Conflicts, Policy);
    } else {
      sortSpans(Bare, [](const BareSpan &A, const BareSpan &B) {
        return A.Offset < B.Offset;
      });
      Offset = scanGaps<BareSpan>(Size, Bare, Policy);
    }
    At[Self] = Offset;
    Total = std::max(Total, Offset + Size);
  }
  OffsetsAssignment Result;
  Result.TotalSize = Total;
  Result.Offsets.resize(Entries.size());
  for (size_t E = 0; E < Entries.size(); ++E)
    Result.Offsets[Entries[E].Index] = At[E] == kUnplaced ? 0 : At[E];
  return Result;
}

OffsetsAssignment
memplan::internal::placeInOrder(llvm::ArrayRef<UsageRecord> Records,
                                llvm::ArrayRef<size_t> Order,
                                GapPolicy Policy) {
  PlacementContext Ctx(Records);
  return placeInOrder(Ctx, Order, Policy);
}

uint64_t memplan::internal::objectsTotal(const ObjectsAssignment &A) {
  uint64_t Total = 0;
  for (uint64_t S : A.ObjectSizes)
    Total += S;
  return Total;
}
