#include "memplan/Core/PlanJSON.h"
#include "TestUtil.h"
#include "memplan/Core/LowerBound.h"

#include "gtest/gtest.h"

using namespace memplan;

namespace {

TEST(PlanJSONTest, OffsetsPlanSchema) {
  auto Set = test::readShared("peers/tflite_gpu_ChainRecords.csv");
  auto P = planMemory("greedy-by-size-offsets", Set.Records);
  ASSERT_TRUE(bool(P));
  llvm::json::Value V = planToJSON(*P, planLowerBound(*P, Set.Records));
  const llvm::json::Object *O = V.getAsObject();
  ASSERT_NE(O, nullptr);
  EXPECT_EQ(O->getString("strategy"), "greedy-by-size-offsets");
  EXPECT_EQ(O->getInteger("total_size"), 96);
  EXPECT_EQ(O->getInteger("lower_bound"), 96);
  EXPECT_EQ(O->getBoolean("optimal"), true);
  const llvm::json::Array *Offsets = O->getArray("offsets");
  ASSERT_NE(Offsets, nullptr);
  EXPECT_EQ(Offsets->size(), 5u);
  EXPECT_EQ((*Offsets)[1].getAsInteger(), 64);
  EXPECT_EQ(O->get("object_ids"), nullptr);
}

TEST(PlanJSONTest, ObjectsPlanAddsObjects) {
  auto Set = test::readShared("peers/tflite_gpu_ComplexRecords.csv");
  auto P = planMemory("naive", Set.Records);
  ASSERT_TRUE(bool(P));
  // Naive: bound = sum of positional maximums (64 + 32 + 8 + 8), total = sum
  // of all sizes (192).
  EXPECT_EQ(planLowerBound(*P, Set.Records), 112u);
  llvm::json::Value V = planToJSON(*P, 112);
  const llvm::json::Object *O = V.getAsObject();
  EXPECT_EQ(O->getInteger("total_size"), 192);
  EXPECT_EQ(O->getBoolean("optimal"), false);
  ASSERT_NE(O->getArray("object_ids"), nullptr);
  EXPECT_EQ(O->getArray("object_sizes")->size(), 9u);
}

} // namespace
