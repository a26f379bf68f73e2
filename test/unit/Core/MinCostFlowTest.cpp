// Expectations from tensorflow/lite/delegates/gpu/common/
// memory_management_test.cc, ChainRecords and ComplexRecords, MINCOSTFLOW.
#include "memplan/Core/Strategies/MinCostFlow.h"
#include "TestUtil.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace memplan;

namespace {

TEST(MinCostFlowTest, ChainRecords) {
  auto Set = test::readShared("peers/tflite_gpu_ChainRecords.csv");
  ObjectsAssignment A = minCostFlow(Set.Records);
  EXPECT_EQ(A.ObjectIds, (std::vector<size_t>{0, 1, 0, 1, 0}));
  EXPECT_EQ(A.ObjectSizes, (std::vector<uint64_t>{64, 32}));
}

TEST(MinCostFlowTest, ComplexRecords) {
  auto Set = test::readShared("peers/tflite_gpu_ComplexRecords.csv");
  ObjectsAssignment A = minCostFlow(Set.Records);
  EXPECT_EQ(A.ObjectIds, (std::vector<size_t>{0, 1, 2, 0, 3, 1, 3, 2, 0}));
  EXPECT_EQ(A.ObjectSizes, (std::vector<uint64_t>{32, 64, 8, 8}));
}

TEST(MinCostFlowTest, ValidForAnyInputOrder) {
  test::expectValidForAnyOrder(minCostFlow);
}

} // namespace
