// In-place pairs: every strategy gives a pair one offset, the validator
// accepts an overlap only for a declared pair that meets at one task with
// equal offsets, and the bound is that of the merged records.
#include "memplan/Core/InplacePairs.h"
#include "TestUtil.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

#include <random>

using namespace memplan;

namespace {

bool fails(llvm::Error E) { return llvm::errorToBool(std::move(E)); }

// An elementwise chain a -> b -> c (each takes its operand's bytes at the
// task where the operand dies) next to d, which lives across the chain.
const std::vector<UsageRecord> Chain = {
    {100, 0, 2}, {100, 2, 4}, {100, 4, 6}, {50, 1, 5}};
const std::vector<InplacePair> ChainPairs = {{0, 1}, {1, 2}};

TEST(InplacePairsTest, MergeChains) {
  auto M = mergeInplacePairs(Chain, ChainPairs);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  ASSERT_EQ(M->Records.size(), 2u);
  EXPECT_EQ(M->Records[0], UsageRecord(100, 0, 6));
  EXPECT_EQ(M->Records[1], UsageRecord(50, 1, 5));
  EXPECT_EQ(M->MergedOf, (std::vector<size_t>{0, 0, 0, 1}));
}

TEST(InplacePairsTest, MergeTakesTheLargestSize) {
  auto M = mergeInplacePairs({{64, 0, 1}, {128, 1, 2}}, {{0, 1}});
  ASSERT_TRUE(bool(M));
  EXPECT_EQ(M->Records[0], UsageRecord(128, 0, 2));
}

TEST(InplacePairsTest, MergeRejectsBadPairs) {
  std::vector<UsageRecord> R = {{8, 0, 1}, {8, 1, 2}, {8, 1, 3}, {8, 2, 2}};
  EXPECT_FALSE(bool(mergeInplacePairs(R, {{0, 4}})));         // out of range
  EXPECT_FALSE(bool(mergeInplacePairs(R, {{1, 1}})));         // itself
  EXPECT_FALSE(bool(mergeInplacePairs(R, {{0, 1}, {0, 2}}))); // dies twice
  EXPECT_FALSE(bool(mergeInplacePairs(R, {{0, 1}, {0, 1}}))); // twice
  EXPECT_FALSE(bool(mergeInplacePairs(R, {{0, 3}})));         // disjoint
  EXPECT_FALSE(bool(mergeInplacePairs(R, {{1, 2}})));         // two tasks
  EXPECT_FALSE(bool(mergeInplacePairs(R, {{1, 0}})));         // backwards
  // Records of one task at one task can only form a cycle by meeting there.
  std::vector<UsageRecord> Same = {{8, 3, 3}, {8, 3, 3}};
  EXPECT_FALSE(bool(mergeInplacePairs(Same, {{0, 1}, {1, 0}})));
  EXPECT_TRUE(bool(mergeInplacePairs(Same, {{0, 1}})));
}

TEST(InplacePairsTest, ValidatorAcceptsOnlyDeclaredPairs) {
  OffsetsAssignment Shared{{0, 0, 0, 128}, 192};
  EXPECT_FALSE(fails(validateOffsets(Chain, Shared, 64, ChainPairs)));
  // Undeclared, the same plan overlaps.
  EXPECT_TRUE(fails(validateOffsets(Chain, Shared, 64)));
  EXPECT_TRUE(fails(validateOffsets(Chain, Shared, 64, {{0, 1}})));
  // A declared pair at two offsets, even disjoint in bytes.
  OffsetsAssignment Apart{{0, 128, 128, 256}, 320};
  EXPECT_TRUE(fails(validateOffsets(Chain, Apart, 64, ChainPairs)));
  // A declared pair whose ranges share two tasks.
  std::vector<UsageRecord> TwoTasks = {{100, 0, 3}, {100, 2, 4}};
  EXPECT_TRUE(fails(validateOffsets(TwoTasks, {{0, 0}, 100}, 1, {{0, 1}})));
  // A third record must stay clear of the whole chain.
  OffsetsAssignment Clash{{0, 0, 0, 64}, 192};
  EXPECT_TRUE(fails(validateOffsets(Chain, Clash, 64, ChainPairs)));
}

TEST(InplacePairsTest, ValidatorOnObjects) {
  ObjectsAssignment Shared{{0, 0, 0, 1}, {100, 50}};
  EXPECT_FALSE(fails(validateObjects(Chain, Shared, ChainPairs)));
  EXPECT_TRUE(fails(validateObjects(Chain, Shared)));
  ObjectsAssignment Split{{0, 1, 0, 2}, {100, 100, 50}};
  EXPECT_TRUE(fails(validateObjects(Chain, Split, ChainPairs)));
}

TEST(InplacePairsTest, BoundOfMergedRecords) {
  StrategyOptions O;
  O.Alignment = 64;
  auto Without = planMemory("auto", Chain, O);
  ASSERT_TRUE(bool(Without));
  // At tasks 2 and 4 two chain records and d are live: 128 + 128 + 64.
  EXPECT_EQ(Without->CertifiedBound, 320u);
  O.InplacePairs = ChainPairs;
  auto With = planMemory("auto", Chain, O);
  ASSERT_TRUE(bool(With)) << llvm::toString(With.takeError());
  EXPECT_EQ(With->CertifiedBound, 192u);
  EXPECT_EQ(With->Offsets.TotalSize, 192u);
  EXPECT_TRUE(With->Optimal);
}

TEST(InplacePairsTest, ReuseGraphAndPairsAreAnError) {
  StrategyOptions O;
  O.InplacePairs = ChainPairs;
  O.ReuseGraph = {{}, {}, {}, {}};
  EXPECT_FALSE(bool(planMemory("greedy-in-order", Chain, O)));
}

/// Random records with random valid pairs: a result starts at the last task
/// of an operand that is not yet paired.
void randomSet(std::mt19937_64 &Rng, std::vector<UsageRecord> &R,
               std::vector<InplacePair> &Pairs) {
  R.clear();
  Pairs.clear();
  size_t N = Rng() % 12;
  std::vector<bool> Dies(N, false);
  for (size_t I = 0; I < N; ++I) {
    uint64_t Size = Rng() % 2 ? 1 + Rng() % 8 : 1 + Rng() % 3000;
    uint64_t Len = Rng() % 4 == 0 ? Rng() % 12 : Rng() % 3;
    size_t Op = I ? Rng() % I : 0;
    if (I && Rng() % 2 && !Dies[Op]) {
      Dies[Op] = true;
      Pairs.push_back({Op, I});
      R.emplace_back(R[Op].Size, R[Op].LastTask, R[Op].LastTask + Len);
    } else {
      uint64_t First = Rng() % 16;
      R.emplace_back(Size, First, First + Len);
    }
  }
}

class InplacePairsStrategyTest : public ::testing::TestWithParam<std::string> {
};

TEST_P(InplacePairsStrategyTest, ChainSharesOneOffset) {
  StrategyOptions O;
  O.Alignment = 64;
  O.BudgetMs = 50;
  O.InplacePairs = ChainPairs;
  auto P = planMemory(GetParam(), Chain, O);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Offsets.Offsets[0], P->Offsets.Offsets[1]);
  EXPECT_EQ(P->Offsets.Offsets[1], P->Offsets.Offsets[2]);
  EXPECT_NE(P->Offsets.Offsets[0], P->Offsets.Offsets[3]);
  EXPECT_GE(P->Offsets.TotalSize, 192u);
  EXPECT_GE(P->CertifiedBound, 192u);
  auto Aligned = alignRecords(Chain, 64);
  ASSERT_TRUE(bool(Aligned));
  EXPECT_FALSE(fails(validateOffsets(*Aligned, P->Offsets, 64, ChainPairs)));
  if (P->Objects) {
    EXPECT_FALSE(fails(validateObjects(*Aligned, *P->Objects, ChainPairs)));
  }
}

TEST_P(InplacePairsStrategyTest, RandomSets) {
  const std::string &Name = GetParam();
  std::mt19937_64 Rng(std::hash<std::string>()(Name) + 13);
  StrategyOptions O;
  O.BudgetMs = 20;
  std::vector<UsageRecord> R;
  for (int Round = 0; Round < 2000; ++Round) {
    randomSet(Rng, R, O.InplacePairs);
    O.Alignment = Round % 3 == 0 ? 8 : 1;
    auto P = planMemory(Name, R, O);
    ASSERT_TRUE(bool(P)) << Name << ": " << llvm::toString(P.takeError());
    auto Aligned = alignRecords(R, O.Alignment);
    ASSERT_TRUE(bool(Aligned));
    ASSERT_FALSE(fails(
        validateOffsets(*Aligned, P->Offsets, O.Alignment, O.InplacePairs)));
    for (const InplacePair &Pair : O.InplacePairs)
      ASSERT_EQ(P->Offsets.Offsets[Pair.Operand],
                P->Offsets.Offsets[Pair.Result]);
    auto M = mergeInplacePairs(*Aligned, O.InplacePairs);
    ASSERT_TRUE(bool(M));
    ASSERT_GE(P->Offsets.TotalSize, liveBytesLowerBound(M->Records));
    ASSERT_GE(P->CertifiedBound, liveBytesLowerBound(M->Records));
    ASSERT_GE(P->Offsets.TotalSize, P->CertifiedBound);
  }
}

INSTANTIATE_TEST_SUITE_P(AllStrategies, InplacePairsStrategyTest,
                         ::testing::ValuesIn(strategyNames()),
                         test::strategyTestName);

} // namespace
