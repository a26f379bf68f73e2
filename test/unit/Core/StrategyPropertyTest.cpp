// Every registered strategy on 10^4 random record sets: the plan validates
// (planMemory runs the validator), is at least its kind's lower bound, and a
// shared-object plan only shares an object between records that never live
// at the same time.
#include "TestUtil.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Strategy.h"

#include "gtest/gtest.h"

#include <random>

using namespace memplan;

namespace {

std::vector<UsageRecord> randomSet(std::mt19937_64 &Rng) {
  std::vector<UsageRecord> R;
  size_t N = Rng() % 13; // Includes the empty set.
  for (size_t I = 0; I < N; ++I) {
    uint64_t First = Rng() % 16;
    // Mostly short lifetimes (DNN-like), sometimes long ones; sizes of both
    // small and wide ranges so equal sizes occur.
    uint64_t Len = Rng() % 4 == 0 ? Rng() % 16 : Rng() % 3;
    uint64_t Size = Rng() % 2 ? 1 + Rng() % 8 : 1 + Rng() % 5000;
    R.emplace_back(Size, First, First + Len);
  }
  return R;
}

class StrategyPropertyTest : public ::testing::TestWithParam<std::string> {};

TEST_P(StrategyPropertyTest, RandomSets) {
  const std::string &Name = GetParam();
  const StrategyInfo *Info = lookupStrategy(Name);
  ASSERT_NE(Info, nullptr);
  std::mt19937_64 Rng(std::hash<std::string>()(Name));
  StrategyOptions O;
  O.BudgetMs = 50;
  for (int Round = 0; Round < 10000; ++Round) {
    std::vector<UsageRecord> R = randomSet(Rng);
    O.Alignment = Round % 3 == 0 ? 8 : 1;
    auto P = planMemory(Name, R, O);
    ASSERT_TRUE(bool(P)) << Name << ": " << llvm::toString(P.takeError());
    auto Aligned = alignRecords(R, O.Alignment);
    ASSERT_TRUE(bool(Aligned));
    ASSERT_GE(P->Offsets.TotalSize, liveBytesLowerBound(*Aligned)) << Name;
    ASSERT_EQ(P->Offsets.Offsets.size(), R.size());
    if (Info->Kind == StrategyKind::SharedObjects) {
      ASSERT_TRUE(P->Objects.has_value()) << Name;
      ASSERT_GE(P->Offsets.TotalSize, objectsLowerBound(*Aligned)) << Name;
      const ObjectsAssignment &A = *P->Objects;
      for (size_t I = 0; I < R.size(); ++I) {
        ASSERT_GE(A.ObjectSizes[A.ObjectIds[I]], (*Aligned)[I].Size);
        for (size_t J = I + 1; J < R.size(); ++J)
          if (A.ObjectIds[I] == A.ObjectIds[J]) {
            ASSERT_FALSE(R[I].conflictsWith(R[J]))
                << Name << ": records " << I << " and " << J;
          }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllStrategies, StrategyPropertyTest,
                         ::testing::ValuesIn(strategyNames()),
                         test::strategyTestName);

} // namespace
