// Expectations from tensorflow/lite/delegates/gpu/common/
// memory_management_test.cc, ChainRecords and ComplexRecords, GREEDY_BY_SIZE.
#include "memplan/Core/Strategies/GreedyBySize.h"
#include "TestUtil.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace memplan;

namespace {

TEST(GreedyBySizeTest, ChainRecords) {
  auto Set = test::readShared("peers/tflite_gpu_ChainRecords.csv");
  ObjectsAssignment A = greedyBySize(Set.Records);
  EXPECT_EQ(A.ObjectIds, (std::vector<size_t>{0, 1, 0, 1, 0}));
  EXPECT_EQ(A.ObjectSizes, (std::vector<uint64_t>{64, 32}));
}

TEST(GreedyBySizeTest, ComplexRecords) {
  auto Set = test::readShared("peers/tflite_gpu_ComplexRecords.csv");
  ObjectsAssignment A = greedyBySize(Set.Records);
  EXPECT_EQ(A.ObjectIds, (std::vector<size_t>{1, 0, 2, 1, 3, 0, 1, 2, 0}));
  EXPECT_EQ(A.ObjectSizes, (std::vector<uint64_t>{64, 32, 8, 8}));
}

TEST(GreedyBySizeTest, ValidForAnyInputOrder) {
  test::expectValidForAnyOrder(greedyBySize);
}

} // namespace
