#include "memplan/Core/Strategy.h"

#include "gtest/gtest.h"

using namespace memplan;

namespace {

TEST(StrategyRegistryTest, UnknownNameListsValidOnes) {
  auto P = planMemory("no-such-strategy", {UsageRecord(4, 0, 0)});
  ASSERT_FALSE(bool(P));
  std::string Msg = llvm::toString(P.takeError());
  EXPECT_NE(Msg.find("unknown strategy 'no-such-strategy'"), std::string::npos);
  EXPECT_NE(Msg.find("greedy-by-size-offsets"), std::string::npos);
  EXPECT_NE(Msg.find("auto"), std::string::npos);
}

TEST(StrategyRegistryTest, UserStrategyIsAPeer) {
  // Everything end to end: valid for any input.
  registerStrategy("test-stack",
                   [](llvm::ArrayRef<UsageRecord> R,
                      const StrategyOptions &) -> llvm::Expected<Plan> {
                     OffsetsAssignment A;
                     for (const UsageRecord &U : R) {
                       A.Offsets.push_back(A.TotalSize);
                       A.TotalSize += U.Size;
                     }
                     return planFromOffsets(A);
                   });
  auto Names = strategyNames();
  EXPECT_NE(std::find(Names.begin(), Names.end(), "test-stack"), Names.end());
  StrategyOptions O;
  O.Alignment = 8;
  auto P =
      planMemory("test-stack", {UsageRecord(3, 0, 1), UsageRecord(5, 1, 2)}, O);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Requested, "test-stack");
  EXPECT_EQ(P->Offsets.Offsets, (std::vector<uint64_t>{0, 8}));
  EXPECT_EQ(P->Offsets.TotalSize, 16u);
}

TEST(StrategyRegistryTest, InvalidPlanFromAStrategyIsAnError) {
  registerStrategy("test-broken",
                   [](llvm::ArrayRef<UsageRecord> R,
                      const StrategyOptions &) -> llvm::Expected<Plan> {
                     OffsetsAssignment A;
                     A.Offsets.assign(R.size(), 0);
                     A.TotalSize = 1;
                     return planFromOffsets(A);
                   });
  auto P =
      planMemory("test-broken", {UsageRecord(4, 0, 1), UsageRecord(4, 1, 2)});
  ASSERT_FALSE(bool(P));
  EXPECT_NE(llvm::toString(P.takeError()).find("invalid plan"),
            std::string::npos);
}

TEST(StrategyRegistryTest, RejectsBadAlignmentAndReversedRecords) {
  StrategyOptions O;
  O.Alignment = 48;
  auto P = planMemory("auto", {UsageRecord(4, 0, 1)}, O);
  ASSERT_FALSE(bool(P));
  EXPECT_NE(llvm::toString(P.takeError()).find("power of two"),
            std::string::npos);
  auto Q = planMemory("auto", {UsageRecord(4, 3, 1)});
  ASSERT_FALSE(bool(Q));
  EXPECT_NE(llvm::toString(Q.takeError()).find("before it starts"),
            std::string::npos);
}

TEST(StrategyRegistryTest, ObjectsAreLaidEndToEndAligned) {
  auto P = planFromObjects(ObjectsAssignment{{0, 1, 0}, {10, 20}}, 16);
  ASSERT_TRUE(bool(P));
  EXPECT_EQ(P->Offsets.Offsets, (std::vector<uint64_t>{0, 16, 0}));
  EXPECT_EQ(P->Offsets.TotalSize, 36u);
}

} // namespace
