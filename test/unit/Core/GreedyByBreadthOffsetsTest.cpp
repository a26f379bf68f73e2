#include "memplan/Core/Strategies/GreedyByBreadthOffsets.h"
#include "TestUtil.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace memplan;

namespace {

TEST(GreedyByBreadthOffsetsTest, ChainRecords) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  // Derived by hand. Breadths: task 3 = 96, 2 = 72, 4 = 40, 1 = 24. Task 3:
  // 64 at 0, 32 on top at 64; task 2: the 8 [1,2] is live with the 64 only:
  // on top at 64; task 4: the 8 [4,5] is live with the 32 at 64: gap [0,64)
  // gives 0; task 1: the 16 [0,1] is live with the 8 at 64: 0.
  auto Set = test::readShared("peers/tflite_gpu_ChainRecords.csv");
  OffsetsAssignment A = greedyByBreadthOffsets(Set.Records);
  EXPECT_FALSE(llvm::errorToBool(validateOffsets(Set.Records, A)));
  EXPECT_EQ(A.Offsets, (std::vector<uint64_t>{0, 64, 0, 64, 0}));
  EXPECT_EQ(A.TotalSize, 96u);
}

TEST(GreedyByBreadthOffsetsTest, ValidForAnyInputOrder) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  test::expectValidForAnyOrder(greedyByBreadthOffsets,
                               "peers/tvm_deep_speech.csv", 10, 13);
}

} // namespace
