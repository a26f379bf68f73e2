#include "memplan/Core/Strategies/FirstFit.h"
#include "TestUtil.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

using namespace memplan;

namespace {

TEST(FirstFitTest, ChainRecords) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  // Derived by hand on TFLite's ChainRecords: 16 at 0; 8 (live with the 16)
  // on top at 16; 64 (live with the 8) finds [0,16) too small: 24; 32 above
  // the 64 at 88; the last 8 fits at 0.
  auto Set = test::readShared("peers/tflite_gpu_ChainRecords.csv");
  OffsetsAssignment A = firstFit(Set.Records);
  EXPECT_EQ(A.Offsets, (std::vector<uint64_t>{0, 16, 24, 88, 0}));
  EXPECT_EQ(A.TotalSize, 120u);
}

TEST(FirstFitTest, LowestGapNotSmallest) {
  // Program order: a [0,1] at 0, b [0,5] at 10, c [1,1] at 20, d [1,5] at
  // 25. At task 2 a and c have ended, leaving holes [0,10) and [20,25)
  // between b and d: first fit puts e in the lower one (best fit would take
  // the exact [20,25)).
  std::vector<UsageRecord> R = {
      {10, 0, 1}, {10, 0, 5}, {5, 1, 1}, {10, 1, 5}, {5, 2, 3}};
  OffsetsAssignment A = firstFit(R);
  EXPECT_FALSE(llvm::errorToBool(validateOffsets(R, A)));
  EXPECT_EQ(A.Offsets, (std::vector<uint64_t>{0, 10, 20, 25, 0}));
  EXPECT_EQ(A.TotalSize, 35u);
}

} // namespace
