// A stacking order (StackingOrder.h) taken from a plan at one set of sizes
// must place any other sizes validly, and at its own sizes never above the
// plan it came from.
#include "memplan/Core/StackingOrder.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

#include <random>

using namespace memplan;

namespace {

std::vector<UsageRecord> randomRecords(std::mt19937_64 &Rng, size_t N) {
  std::vector<UsageRecord> R;
  for (size_t I = 0; I < N; ++I) {
    uint64_t First = Rng() % (N + 1);
    R.emplace_back(1 + Rng() % 4096, First, First + Rng() % 6);
  }
  return R;
}

TEST(StackingOrderTest, ValidForOtherSizesAndNoLargerAtItsOwn) {
  std::mt19937_64 Rng(7);
  for (int Round = 0; Round < 300; ++Round) {
    size_t N = 1 + Rng() % 40;
    std::vector<UsageRecord> Records = randomRecords(Rng, N);
    uint64_t Align = uint64_t(1) << (Rng() % 7);
    StrategyOptions Options;
    Options.Alignment = Align;
    llvm::Expected<Plan> P =
        planMemory("greedy-by-size-offsets", Records, Options);
    ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
    StackingOrder S = stackingOrderOf(Records, P->Offsets);

    std::vector<uint64_t> Sizes;
    for (const UsageRecord &R : Records)
      Sizes.push_back(R.Size);
    std::optional<OffsetsAssignment> Same = placeByStacking(S, Sizes, Align);
    ASSERT_TRUE(Same.has_value());
    EXPECT_LE(Same->TotalSize, P->Offsets.TotalSize);
    EXPECT_FALSE(static_cast<bool>(validateOffsets(Records, *Same, Align)));

    // Other sizes, zeros included: still never two meeting records on one
    // byte.
    std::vector<UsageRecord> Other = Records;
    for (size_t I = 0; I < N; ++I) {
      Other[I].Size = Rng() % 5 == 0 ? 0 : Rng() % 100000;
      Sizes[I] = Other[I].Size;
    }
    std::optional<OffsetsAssignment> Moved = placeByStacking(S, Sizes, Align);
    ASSERT_TRUE(Moved.has_value());
    llvm::Error E = validateOffsets(Other, *Moved, Align);
    EXPECT_FALSE(static_cast<bool>(E)) << llvm::toString(std::move(E));
  }
}

// Without the reduction a record lists every record below it; with it, one
// implied by another is dropped. Three records live together and stacked:
// the top one lies on the middle one only.
TEST(StackingOrderTest, DropsImpliedRecords) {
  std::vector<UsageRecord> Records = {{8, 0, 2}, {8, 0, 2}, {8, 0, 2}};
  OffsetsAssignment P{{0, 8, 16}, 24};
  StackingOrder S = stackingOrderOf(Records, P);
  EXPECT_EQ(S.Order, (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(S.Below[2], (std::vector<size_t>{1}));
  EXPECT_EQ(S.Below[1], (std::vector<size_t>{0}));
  EXPECT_TRUE(S.Below[0].empty());
}

TEST(StackingOrderTest, OverflowIsNoPlan) {
  std::vector<UsageRecord> Records = {{8, 0, 1}, {8, 1, 2}};
  StackingOrder S = stackingOrderOf(Records, OffsetsAssignment{{0, 8}, 16});
  EXPECT_FALSE(placeByStacking(S, {UINT64_MAX, 8}, 1).has_value());
}

} // namespace
