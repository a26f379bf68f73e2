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

TEST(PlanJSONTest, PeakLiveBuffersSumToTheBound) {
  for (const char *Rel :
       {"peers/tvm_deep_speech.csv", "peers/tflite_gpu_ComplexRecords.csv",
        "glow/inception_v4.onnx.csv"}) {
    auto Set = test::readShared(Rel);
    auto Aligned = alignRecords(Set.Records, 64);
    ASSERT_TRUE(bool(Aligned));
    LivePeak Peak = livePeak(*Aligned);
    uint64_t Sum = 0;
    for (size_t I : Peak.Live) {
      const UsageRecord &R = (*Aligned)[I];
      EXPECT_LE(R.FirstTask, Peak.Task);
      EXPECT_GE(R.LastTask, Peak.Task);
      Sum += R.Size;
    }
    EXPECT_EQ(Sum, liveBytesLowerBound(*Aligned)) << Rel;
    EXPECT_EQ(Peak.Bytes, Sum) << Rel;
  }
  EXPECT_TRUE(livePeak({}).Live.empty());
}

TEST(PlanJSONTest, AutoSaysWhatItChose) {
  auto Set = test::readShared("peers/tvm_deep_speech.csv");
  StrategyOptions O;
  O.Alignment = 64;
  O.BudgetMs = 0;
  auto P = planMemory("auto", Set.Records, O);
  ASSERT_TRUE(bool(P));
  EXPECT_EQ(P->Strategy, "auto");
  ASSERT_NE(P->Chosen, "auto");
  // The strategy named makes a plan of the same size on its own.
  auto Same = planMemory(P->Chosen, Set.Records, O);
  ASSERT_TRUE(bool(Same)) << P->Chosen;
  EXPECT_EQ(Same->Offsets.TotalSize, P->Offsets.TotalSize);
  EXPECT_EQ(Same->Chosen, P->Chosen);
  llvm::json::Value V = planToJSON(*P, 0);
  const llvm::json::Object *J = V.getAsObject();
  EXPECT_EQ(J->getString("chosen"), P->Chosen);
}

} // namespace
