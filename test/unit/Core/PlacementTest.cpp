// The shared placement machinery (PlacementContext, placeInOrder) against
// brute force: the same greedy with every conflict found by comparing all
// pairs must give the very same offsets, and the context's live-bytes bound
// must be liveBytesLowerBound's. Also the validator against a pairwise check.
#include "Strategies/Internal.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace memplan;
using namespace memplan::internal;

namespace {

/// Lifetimes from one task to thousands (every length class), starts
/// repeated, sizes with ties and zeros, huge task numbers.
/// Half the sets have no zero sizes (placement then takes its faster path).
std::vector<UsageRecord> randomSet(std::mt19937_64 &Rng, size_t N) {
  bool ZeroSizes = Rng() % 2;
  std::vector<UsageRecord> R;
  uint64_t Base = Rng() % 4 == 0 ? UINT64_MAX - 100000 : 0;
  for (size_t I = 0; I < N; ++I) {
    uint64_t First = Base + Rng() % (N + 1);
    unsigned Shape = Rng() % 10;
    uint64_t Len = Shape < 6   ? Rng() % 3
                   : Shape < 9 ? Rng() % 40
                               : Rng() % (4 * N + 1);
    uint64_t Last = First + std::min<uint64_t>(Len, UINT64_MAX - First);
    uint64_t Size = ZeroSizes && Rng() % 8 == 0
                        ? 0
                        : 8 * (1 + Rng() % (Rng() % 2 ? 4 : 500));
    R.emplace_back(Size, First, Last);
  }
  return R;
}

OffsetsAssignment bruteForcePlace(llvm::ArrayRef<UsageRecord> Records,
                                  llvm::ArrayRef<size_t> Order,
                                  GapPolicy Policy) {
  OffsetsAssignment A;
  A.Offsets.assign(Records.size(), 0);
  std::vector<bool> Placed(Records.size(), false);
  std::vector<PlacedSpan> Conflicts;
  for (size_t I : Order) {
    Conflicts.clear();
    for (size_t J = 0; J < Records.size(); ++J)
      if (Placed[J] && Records[J].conflictsWith(Records[I]))
        Conflicts.push_back(
            {A.Offsets[J], A.Offsets[J] + Records[J].Size, (uint32_t)J});
    A.Offsets[I] = findOffset(Records[I].Size, Conflicts, Policy);
    A.TotalSize = std::max(A.TotalSize, A.Offsets[I] + Records[I].Size);
    Placed[I] = true;
  }
  return A;
}

TEST(PlacementTest, SameOffsetsAsBruteForce) {
  std::mt19937_64 Rng(42);
  for (int Round = 0; Round < 300; ++Round) {
    std::vector<UsageRecord> R = randomSet(Rng, 1 + Rng() % 300);
    PlacementContext Ctx(R);
    ASSERT_EQ(Ctx.LiveBound, liveBytesLowerBound(R)) << "round " << Round;
    for (auto [Order, Policy] :
         {std::pair(orderBySizeDesc(R), GapPolicy::BestFit),
          std::pair(orderByArea(R), GapPolicy::BestFit),
          std::pair(orderByBreadth(R), GapPolicy::BestFit),
          std::pair(orderByStart(R), GapPolicy::FirstFit)}) {
      OffsetsAssignment Fast = placeInOrder(Ctx, Order, Policy);
      OffsetsAssignment Slow = bruteForcePlace(R, Order, Policy);
      ASSERT_EQ(Fast.Offsets, Slow.Offsets) << "round " << Round;
      ASSERT_EQ(Fast.TotalSize, Slow.TotalSize) << "round " << Round;
      ASSERT_FALSE(llvm::errorToBool(validateOffsets(R, Fast)));
    }
  }
}

TEST(PlacementTest, OrdersBreakTiesByIndex) {
  // Equal keys keep index order, whatever the sort does.
  std::vector<UsageRecord> R(50, UsageRecord(16, 3, 7));
  for (auto Order : {orderBySizeDesc(R), orderBySizeLifetime(R), orderByArea(R),
                     orderByStart(R), orderByBreadth(R)})
    for (size_t I = 0; I < R.size(); ++I)
      EXPECT_EQ(Order[I], I);
}

bool bruteForceValid(llvm::ArrayRef<UsageRecord> R,
                     const OffsetsAssignment &A) {
  for (size_t I = 0; I < R.size(); ++I) {
    if (A.Offsets[I] + R[I].Size > A.TotalSize)
      return false;
    for (size_t J = I + 1; J < R.size(); ++J)
      if (R[I].Size && R[J].Size && R[I].conflictsWith(R[J]) &&
          A.Offsets[I] < A.Offsets[J] + R[J].Size &&
          A.Offsets[J] < A.Offsets[I] + R[I].Size)
        return false;
  }
  return true;
}

TEST(PlacementTest, ValidatorAgreesWithPairwiseCheck) {
  std::mt19937_64 Rng(7);
  unsigned Valid = 0, Invalid = 0;
  for (int Round = 0; Round < 2000; ++Round) {
    std::vector<UsageRecord> R = randomSet(Rng, 1 + Rng() % 40);
    OffsetsAssignment A =
        placeInOrder(R, orderBySizeDesc(R), GapPolicy::BestFit);
    // Disturb some plans: move one record somewhere near another.
    if (Round % 2) {
      size_t I = Rng() % R.size(), J = Rng() % R.size();
      A.Offsets[I] = (A.Offsets[J] + 8 * (Rng() % 3)) & ~uint64_t(7);
      for (size_t K = 0; K < R.size(); ++K)
        A.TotalSize = std::max(A.TotalSize, A.Offsets[K] + R[K].Size);
    }
    bool Expected = bruteForceValid(R, A);
    EXPECT_EQ(!llvm::errorToBool(validateOffsets(R, A)), Expected)
        << "round " << Round;
    (Expected ? Valid : Invalid)++;
  }
  EXPECT_GT(Valid, 500u);
  EXPECT_GT(Invalid, 100u);
}

} // namespace
