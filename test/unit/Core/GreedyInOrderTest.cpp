// greedy-in-order under a reuse graph (the TFLite record sets are in
// SharedObjectStrategiesTest.cpp).
#include "memplan/Core/Strategies/GreedyInOrder.h"
#include "TestUtil.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace memplan;

namespace {

TEST(GreedyInOrderTest, ReuseGraphLimitsReuse) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  // Derived by hand: only tensor 2 may reuse (tensor 0's object); 3 and 4
  // find free objects but may not take them.
  auto Set = test::readShared("peers/tflite_gpu_ChainRecords.csv");
  std::vector<std::vector<size_t>> Graph(5);
  Graph[2] = {0};
  ObjectsAssignment A = greedyInOrder(Set.Records, Graph);
  EXPECT_EQ(A.ObjectIds, (std::vector<size_t>{0, 1, 0, 2, 3}));
  EXPECT_EQ(A.ObjectSizes, (std::vector<uint64_t>{64, 8, 32, 8}));
  // An empty list for everyone: no reuse at all.
  std::vector<std::vector<size_t>> None(5, std::vector<size_t>{});
  None[0] = {4}; // Non-empty graph; tensor 0 comes first anyway.
  EXPECT_EQ(greedyInOrder(Set.Records, None).ObjectSizes.size(), 5u);
}

} // namespace
