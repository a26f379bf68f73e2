// The shared-object strategies on TFLite GPU's two record sets, one row per
// strategy. Expectations from tensorflow/lite/delegates/gpu/common/
// memory_management_test.cc (ChainRecords, ComplexRecords: NAIVE, EQUALITY,
// GREEDY_IN_ORDER, GREEDY_BY_SIZE, GREEDY_BY_BREADTH, GREEDY_BEST (=
// GREEDY_BY_SIZE here: 112 bytes against breadth's 128), MINCOSTFLOW), and
// every plan valid whatever the order of the records.
#include "TestUtil.h"
#include "memplan/Core/Strategies/Equality.h"
#include "memplan/Core/Strategies/GreedyBest.h"
#include "memplan/Core/Strategies/GreedyByBreadth.h"
#include "memplan/Core/Strategies/GreedyBySize.h"
#include "memplan/Core/Strategies/GreedyInOrder.h"
#include "memplan/Core/Strategies/MinCostFlow.h"
#include "memplan/Core/Strategies/Naive.h"

#include "gtest/gtest.h"

using namespace memplan;

namespace {

struct SharedObjectCase {
  const char *Name;
  ObjectsAssignment (*Strategy)(llvm::ArrayRef<UsageRecord>);
  ObjectsAssignment Chain, Complex;
};

ObjectsAssignment inOrder(llvm::ArrayRef<UsageRecord> R) {
  return greedyInOrder(R, {});
}

const SharedObjectCase Cases[] = {
    {"Naive",
     naiveAssignment,
     {{0, 1, 2, 3, 4}, {16, 8, 64, 32, 8}},
     {{0, 1, 2, 3, 4, 5, 6, 7, 8}, {32, 32, 8, 16, 8, 64, 8, 8, 16}}},
    {"Equality",
     equalityAssignment,
     {{0, 1, 2, 3, 1}, {16, 8, 64, 32}},
     {{0, 1, 2, 3, 4, 5, 4, 2, 3}, {32, 32, 8, 16, 8, 64}}},
    {"GreedyInOrder",
     inOrder,
     {{0, 1, 0, 1, 0}, {64, 32}},
     {{0, 1, 0, 2, 3, 1, 3, 2, 0}, {32, 64, 16, 8}}},
    {"GreedyBySize",
     greedyBySize,
     {{0, 1, 0, 1, 0}, {64, 32}},
     {{1, 0, 2, 1, 3, 0, 1, 2, 0}, {64, 32, 8, 8}}},
    {"GreedyByBreadth",
     greedyByBreadth,
     {{0, 1, 0, 1, 0}, {64, 32}},
     {{0, 4, 2, 1, 3, 0, 2, 3, 1}, {64, 16, 8, 8, 32}}},
    {"GreedyBest",
     greedyBest,
     {{0, 1, 0, 1, 0}, {64, 32}},
     {{1, 0, 2, 1, 3, 0, 1, 2, 0}, {64, 32, 8, 8}}},
    {"MinCostFlow",
     minCostFlow,
     {{0, 1, 0, 1, 0}, {64, 32}},
     {{0, 1, 2, 0, 3, 1, 3, 2, 0}, {32, 64, 8, 8}}},
};

class SharedObjectStrategyTest
    : public ::testing::TestWithParam<SharedObjectCase> {};

TEST_P(SharedObjectStrategyTest, ChainRecords) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  auto Set = test::readShared("peers/tflite_gpu_ChainRecords.csv");
  ObjectsAssignment A = GetParam().Strategy(Set.Records);
  EXPECT_EQ(A.ObjectIds, GetParam().Chain.ObjectIds);
  EXPECT_EQ(A.ObjectSizes, GetParam().Chain.ObjectSizes);
}

TEST_P(SharedObjectStrategyTest, ComplexRecords) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  auto Set = test::readShared("peers/tflite_gpu_ComplexRecords.csv");
  ObjectsAssignment A = GetParam().Strategy(Set.Records);
  EXPECT_EQ(A.ObjectIds, GetParam().Complex.ObjectIds);
  EXPECT_EQ(A.ObjectSizes, GetParam().Complex.ObjectSizes);
}

TEST_P(SharedObjectStrategyTest, ValidForAnyInputOrder) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  test::expectValidForAnyOrder(GetParam().Strategy);
}

INSTANTIATE_TEST_SUITE_P(
    Strategies, SharedObjectStrategyTest, ::testing::ValuesIn(Cases),
    [](const ::testing::TestParamInfo<SharedObjectCase> &Info) {
      return std::string(Info.param.Name);
    });

} // namespace
