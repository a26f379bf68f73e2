#include "memplan/Core/LowerBound.h"

#include "gtest/gtest.h"

using namespace memplan;

namespace {

TEST(LowerBoundTest, MaxOfLiveBytes) {
  // Task 3 has 64 + 32 live (TFLite GPU ChainRecords).
  std::vector<UsageRecord> R = {
      {16, 0, 1}, {8, 1, 2}, {64, 2, 3}, {32, 3, 4}, {8, 4, 5}};
  EXPECT_EQ(liveBytesLowerBound(R), 96u);
}

TEST(LowerBoundTest, InclusiveEndsCountAtTheirLastTask) {
  std::vector<UsageRecord> R = {{10, 0, 4}, {20, 4, 6}, {40, 5, 8}};
  EXPECT_EQ(liveBytesLowerBound(R), 60u);
  std::vector<UsageRecord> Disjoint = {{10, 0, 3}, {20, 4, 6}};
  EXPECT_EQ(liveBytesLowerBound(Disjoint), 20u);
}

TEST(LowerBoundTest, EmptyIsZero) { EXPECT_EQ(liveBytesLowerBound({}), 0u); }

TEST(LowerBoundTest, AlignRecordsRoundsUpAndDetectsOverflow) {
  auto A = alignRecords({UsageRecord(1, 0, 0), UsageRecord(64, 0, 0)}, 64);
  ASSERT_TRUE(bool(A));
  EXPECT_EQ((*A)[0].Size, 64u);
  EXPECT_EQ((*A)[1].Size, 64u);
  auto Bad = alignRecords({UsageRecord(UINT64_MAX - 3, 0, 0)}, 64);
  EXPECT_FALSE(bool(Bad));
  llvm::consumeError(Bad.takeError());
}

} // namespace

namespace {
TEST(LowerBoundTest, ObjectsBoundIsSumOfPositionalMaximums) {
  // TFLite GPU ChainRecords: tasks hold {16}, {16,8}, {64,8}, {64,32},
  // {32,8}, {8}: positional maximums 64, 32.
  std::vector<UsageRecord> Chain = {
      {16, 0, 1}, {8, 1, 2}, {64, 2, 3}, {32, 3, 4}, {8, 4, 5}};
  EXPECT_EQ(objectsLowerBound(Chain), 96u);
  // ComplexRecords: task 5 holds {64,16,8,8}, task 1 {32,32}: 64, 32, 8, 8.
  std::vector<UsageRecord> Complex = {{32, 0, 1}, {32, 1, 4}, {8, 2, 5},
                                      {16, 3, 5}, {8, 4, 5},  {64, 5, 7},
                                      {8, 6, 8},  {8, 7, 8},  {16, 8, 9}};
  EXPECT_EQ(objectsLowerBound(Complex), 112u);
  EXPECT_EQ(objectsLowerBound({}), 0u);
}
} // namespace
