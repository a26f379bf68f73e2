// Expectations from tensorflow/lite/delegates/gpu/common/
// memory_management_test.cc (ChainRecords, ComplexRecords, UInt2Records,
// UInt3Records, NAIVE).
#include "memplan/Core/Strategies/Naive.h"
#include "TestUtil.h"

#include "gtest/gtest.h"

using namespace memplan;

namespace {

TEST(NaiveTest, ChainRecords) {
  auto Set = test::readShared("peers/tflite_gpu_ChainRecords.csv");
  ObjectsAssignment A = naiveAssignment(Set.Records);
  EXPECT_EQ(A.ObjectIds, (std::vector<size_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(A.ObjectSizes, (std::vector<uint64_t>{16, 8, 64, 32, 8}));
}

TEST(NaiveTest, ComplexRecords) {
  auto Set = test::readShared("peers/tflite_gpu_ComplexRecords.csv");
  ObjectsAssignment A = naiveAssignment(Set.Records);
  EXPECT_EQ(A.ObjectIds, (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(A.ObjectSizes,
            (std::vector<uint64_t>{32, 32, 8, 16, 8, 64, 8, 8, 16}));
}

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
