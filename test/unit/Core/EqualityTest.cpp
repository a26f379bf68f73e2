// Expectations from tensorflow/lite/delegates/gpu/common/
// memory_management_test.cc (UInt2Records, UInt3Records, EQUALITY;
// ChainRecords and ComplexRecords are in SharedObjectStrategiesTest.cpp).
#include "memplan/Core/Strategies/Equality.h"
#include "TestUtil.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace memplan;

namespace {

TEST(EqualityTest, UInt2Records) {
  std::vector<SizedUsageRecord<Size2D>> R = {
      {{2, 8}, 0, 1}, {{2, 8}, 1, 2}, {{1, 12}, 2, 4},
      {{2, 8}, 3, 5}, {{8, 2}, 4, 5}, {{2, 8}, 5, 7},
      {{1, 8}, 6, 8}, {{2, 8}, 7, 8}, {{4, 1}, 8, 9}};
  auto A = equalityAssignmentOf<Size2D>(R);
  EXPECT_EQ(A.ObjectIds, (std::vector<size_t>{0, 1, 2, 0, 3, 1, 4, 0, 5}));
  std::vector<Size2D> Sizes = {{2, 8}, {2, 8}, {1, 12}, {8, 2}, {1, 8}, {4, 1}};
  EXPECT_TRUE(A.ObjectSizes == Sizes);
}

TEST(EqualityTest, UInt3Records) {
  std::vector<SizedUsageRecord<Size3D>> R = {
      {{1, 2, 8}, 0, 1}, {{4, 3, 2}, 1, 2}, {{1, 1, 1}, 2, 4},
      {{2, 4, 1}, 3, 5}, {{2, 2, 2}, 4, 5}, {{8, 1, 2}, 5, 7},
      {{1, 2, 1}, 6, 8}, {{1, 1, 1}, 7, 8}, {{2, 2, 2}, 8, 9}};
  auto A = equalityAssignmentOf<Size3D>(R);
  EXPECT_EQ(A.ObjectIds, (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6, 2, 4}));
  EXPECT_EQ(A.ObjectSizes.size(), 7u);
}

TEST(EqualityTest, SharesOnlyEqualSizesInAnyOrder) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  auto Set = test::readShared("peers/tflite_gpu_ComplexRecords.csv");
  std::vector<UsageRecord> R = Set.Records;
  std::mt19937 Rng(3);
  for (int Round = 0; Round < 20; ++Round) {
    std::shuffle(R.begin(), R.end(), Rng);
    ObjectsAssignment A = equalityAssignment(R);
    for (size_t I = 0; I < R.size(); ++I)
      EXPECT_EQ(A.ObjectSizes[A.ObjectIds[I]], R[I].Size);
  }
}

} // namespace
