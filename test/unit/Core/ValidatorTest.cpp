#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

using namespace memplan;

namespace {

std::vector<UsageRecord> twoConflicting() {
  return {UsageRecord(16, 0, 2), UsageRecord(8, 2, 3)};
}

TEST(ValidatorTest, AcceptsDisjointPlacement) {
  OffsetsAssignment P{{0, 16}, 24};
  EXPECT_FALSE(llvm::errorToBool(validateOffsets(twoConflicting(), P)));
}

TEST(ValidatorTest, RejectsOverlapOfConflictingRecords) {
  OffsetsAssignment P{{0, 8}, 24};
  llvm::Error E = validateOffsets(twoConflicting(), P);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("overlaps"), std::string::npos);
}

TEST(ValidatorTest, SharedTaskBoundaryIsAConflict) {
  // Inclusive intervals: [0,2] and [2,3] share task 2.
  OffsetsAssignment P{{0, 0}, 16};
  EXPECT_TRUE(llvm::errorToBool(validateOffsets(twoConflicting(), P)));
}

TEST(ValidatorTest, NonConflictingRecordsMayShareBytes) {
  std::vector<UsageRecord> R = {UsageRecord(16, 0, 1), UsageRecord(16, 2, 3)};
  OffsetsAssignment P{{0, 0}, 16};
  EXPECT_FALSE(llvm::errorToBool(validateOffsets(R, P)));
}

TEST(ValidatorTest, RejectsBufferOutsideArena) {
  OffsetsAssignment P{{0, 16}, 20};
  EXPECT_TRUE(llvm::errorToBool(validateOffsets(twoConflicting(), P)));
}

TEST(ValidatorTest, RejectsMisalignedOffset) {
  OffsetsAssignment P{{0, 16}, 24};
  EXPECT_FALSE(llvm::errorToBool(validateOffsets(twoConflicting(), P, 16)));
  EXPECT_TRUE(llvm::errorToBool(validateOffsets(twoConflicting(), P, 32)));
}

TEST(ValidatorTest, RejectsOverflowingEnd) {
  std::vector<UsageRecord> R = {UsageRecord(16, 0, 1)};
  OffsetsAssignment P{{UINT64_MAX - 4}, UINT64_MAX};
  EXPECT_TRUE(llvm::errorToBool(validateOffsets(R, P)));
}

TEST(ValidatorTest, FindsOverlapHiddenBehindAnEarlierNeighbour) {
  // Record 2 overlaps record 0 only; record 1 lies between them by offset
  // but ended before record 2 starts.
  std::vector<UsageRecord> R = {UsageRecord(100, 0, 9), UsageRecord(8, 0, 1),
                                UsageRecord(8, 5, 6)};
  OffsetsAssignment P{{0, 100, 50}, 108};
  EXPECT_TRUE(llvm::errorToBool(validateOffsets(R, P)));
}

TEST(ValidatorTest, ObjectsMayNotShareWhenLifetimesOverlap) {
  std::vector<UsageRecord> R = {UsageRecord(16, 0, 1), UsageRecord(8, 1, 2),
                                UsageRecord(8, 3, 4)};
  EXPECT_FALSE(llvm::errorToBool(
      validateObjects(R, ObjectsAssignment{{0, 1, 0}, {16, 8}})));
  EXPECT_TRUE(llvm::errorToBool(
      validateObjects(R, ObjectsAssignment{{0, 0, 1}, {16, 8}})));
  // Object too small for its tensor.
  EXPECT_TRUE(llvm::errorToBool(
      validateObjects(R, ObjectsAssignment{{1, 0, 1}, {16, 8}})));
}

} // namespace
