// Expectations from tensorflow/lite/delegates/gpu/common/
// memory_management_test.cc, ChainRecords and ComplexRecords, GREEDY_BEST (=
// GREEDY_BY_SIZE here: 112 bytes against breadth's 128).
#include "memplan/Core/Strategies/GreedyBest.h"
#include "TestUtil.h"
#include "memplan/Core/Strategies/GreedyByBreadth.h"
#include "memplan/Core/Strategies/GreedyBySize.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace memplan;

namespace {

TEST(GreedyBestTest, ChainRecords) {
  auto Set = test::readShared("peers/tflite_gpu_ChainRecords.csv");
  ObjectsAssignment A = greedyBest(Set.Records);
  EXPECT_EQ(A.ObjectIds, (std::vector<size_t>{0, 1, 0, 1, 0}));
  EXPECT_EQ(A.ObjectSizes, (std::vector<uint64_t>{64, 32}));
}

TEST(GreedyBestTest, ComplexRecords) {
  auto Set = test::readShared("peers/tflite_gpu_ComplexRecords.csv");
  ObjectsAssignment A = greedyBest(Set.Records);
  EXPECT_EQ(A.ObjectIds, (std::vector<size_t>{1, 0, 2, 1, 3, 0, 1, 2, 0}));
  EXPECT_EQ(A.ObjectSizes, (std::vector<uint64_t>{64, 32, 8, 8}));
}

TEST(GreedyBestTest, ValidForAnyInputOrder) {
  test::expectValidForAnyOrder(greedyBest);
}

} // namespace

namespace {
TEST(GreedyBestTest, TakesBreadthWhenStrictlySmaller) {
  // tvm_deep_speech: both greedy strategies; greedy-best is the smaller.
  auto Set = test::readShared("peers/tvm_deep_speech.csv");
  uint64_t Best = 0, Size = 0, Breadth = 0;
  for (uint64_t S : greedyBest(Set.Records).ObjectSizes)
    Best += S;
  for (uint64_t S : greedyBySize(Set.Records).ObjectSizes)
    Size += S;
  for (uint64_t S : greedyByBreadth(Set.Records).ObjectSizes)
    Breadth += S;
  EXPECT_EQ(Best, std::min(Size, Breadth));
}
} // namespace
