#include "memplan/Core/Strategies/GreedyBySizeOffsets.h"
#include "TestUtil.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace memplan;

namespace {

TEST(GreedyBySizeOffsetsTest, ChainRecords) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  // TFLite GPU memory_management_test ChainRecords, GREEDY_BY_SIZE: the 64 at
  // 0, the 32 above it, the 16 and the last 8 reuse offset 0, the first 8
  // finds no gap under the 16/64 pair and goes on top at 64.
  auto Set = test::readShared("peers/tflite_gpu_ChainRecords.csv");
  OffsetsAssignment A = greedyBySizeOffsets(Set.Records);
  EXPECT_EQ(A.Offsets, (std::vector<uint64_t>{0, 64, 0, 64, 0}));
  EXPECT_EQ(A.TotalSize, 96u);
  EXPECT_EQ(A.TotalSize, liveBytesLowerBound(Set.Records));
}

TEST(GreedyBySizeOffsetsTest, ComplexRecords) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  // TFLite GPU memory_management_test ComplexRecords, GREEDY_BY_SIZE offsets.
  auto Set = test::readShared("peers/tflite_gpu_ComplexRecords.csv");
  OffsetsAssignment A = greedyBySizeOffsets(Set.Records);
  EXPECT_EQ(A.Offsets,
            (std::vector<uint64_t>{0, 32, 80, 64, 88, 0, 64, 72, 0}));
  EXPECT_EQ(A.TotalSize, 96u);
}

TEST(GreedyBySizeOffsetsTest, RightForAnyInputOrder) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  test::expectValidForAnyOrder(greedyBySizeOffsets,
                               "peers/tflite_gpu_ComplexRecords.csv", 50, 7);
}

TEST(GreedyBySizeOffsetsTest, ValidOnRandomSets) {
  std::mt19937_64 Rng(1);
  for (int Round = 0; Round < 500; ++Round) {
    std::vector<UsageRecord> R;
    size_t N = 1 + Rng() % 40;
    for (size_t I = 0; I < N; ++I) {
      uint64_t First = Rng() % 50, Len = Rng() % 10;
      R.emplace_back(1 + Rng() % 1000, First, First + Len);
    }
    OffsetsAssignment A = greedyBySizeOffsets(R);
    ASSERT_FALSE(llvm::errorToBool(validateOffsets(R, A)));
    ASSERT_GE(A.TotalSize, liveBytesLowerBound(R));
  }
}

} // namespace
