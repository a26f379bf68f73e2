// Expectations from tensorflow/lite/delegates/gpu/common/
// memory_management_test.cc (UInt2Records, UInt3Records, NAIVE; ChainRecords
// and ComplexRecords are in SharedObjectStrategiesTest.cpp).
#include "memplan/Core/Strategies/Naive.h"
#include "TestUtil.h"

#include "gtest/gtest.h"

using namespace memplan;

namespace {

TEST(NaiveTest, TwoAndThreeDimensionalSizes) {
  std::vector<SizedUsageRecord<Size2D>> R2 = {{{2, 8}, 0, 1}, {{1, 12}, 2, 4}};
  auto A2 = naiveAssignmentOf<Size2D>(R2);
  EXPECT_EQ(A2.ObjectIds, (std::vector<size_t>{0, 1}));
  EXPECT_TRUE(A2.ObjectSizes[1] == (Size2D{1, 12}));
  std::vector<SizedUsageRecord<Size3D>> R3 = {{{1, 2, 8}, 0, 1}};
  auto A3 = naiveAssignmentOf<Size3D>(R3);
  EXPECT_TRUE(A3.ObjectSizes[0] == (Size3D{1, 2, 8}));
}

TEST(NaiveTest, Empty) {
  ObjectsAssignment A = naiveAssignment({});
  EXPECT_TRUE(A.ObjectIds.empty());
  EXPECT_TRUE(A.ObjectSizes.empty());
}

} // namespace
