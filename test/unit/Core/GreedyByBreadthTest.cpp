// Expectations from tensorflow/lite/delegates/gpu/common/
// memory_management_test.cc, ChainRecords and ComplexRecords,
// GREEDY_BY_BREADTH.
#include "memplan/Core/Strategies/GreedyByBreadth.h"
#include "TestUtil.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace memplan;

namespace {

TEST(GreedyByBreadthTest, ChainRecords) {
  auto Set = test::readShared("peers/tflite_gpu_ChainRecords.csv");
  ObjectsAssignment A = greedyByBreadth(Set.Records);
  EXPECT_EQ(A.ObjectIds, (std::vector<size_t>{0, 1, 0, 1, 0}));
  EXPECT_EQ(A.ObjectSizes, (std::vector<uint64_t>{64, 32}));
}

TEST(GreedyByBreadthTest, ComplexRecords) {
  auto Set = test::readShared("peers/tflite_gpu_ComplexRecords.csv");
  ObjectsAssignment A = greedyByBreadth(Set.Records);
  EXPECT_EQ(A.ObjectIds, (std::vector<size_t>{0, 4, 2, 1, 3, 0, 2, 3, 1}));
  EXPECT_EQ(A.ObjectSizes, (std::vector<uint64_t>{64, 16, 8, 8, 32}));
}

TEST(GreedyByBreadthTest, ValidForAnyInputOrder) {
  test::expectValidForAnyOrder(greedyByBreadth);
}

} // namespace
