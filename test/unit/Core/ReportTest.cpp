#include "memplan/Core/Report.h"
#include "TestUtil.h"
#include "memplan/Core/LowerBound.h"

#include "llvm/Support/JSON.h"

#include "gtest/gtest.h"

using namespace memplan;

namespace {

/// The report of one plan of Records, written and parsed back; the arena
/// object.
llvm::json::Object arenaJSON(const Plan &P,
                             llvm::ArrayRef<UsageRecord> Records) {
  FunctionReport F;
  F.Function = "records.csv";
  F.RecordFile = true;
  F.Arenas.push_back(arenaResult(P, Records));
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeReportJSON({F}, OS);
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Text);
  EXPECT_TRUE(bool(V)) << llvm::toString(V.takeError());
  return *(*V->getAsObject()->getArray("functions"))[0]
              .getAsObject()
              ->getArray("arenas")
              ->front()
              .getAsObject();
}

TEST(ReportTest, OffsetsPlanSchema) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  auto Set = test::readShared("peers/tflite_gpu_ChainRecords.csv");
  auto P = planMemory("greedy-by-size-offsets", Set.Records);
  ASSERT_TRUE(bool(P));
  llvm::json::Object O = arenaJSON(*P, Set.Records);
  EXPECT_EQ(O.getString("strategy"), "greedy-by-size-offsets");
  EXPECT_EQ(O.getString("kind"), "offsets");
  EXPECT_EQ(O.getInteger("arena_size"), 96);
  // Schema 2: one key per fact, no copies of arena_size or the offsets.
  EXPECT_EQ(O.get("total_size"), nullptr);
  EXPECT_EQ(O.get("offsets"), nullptr);
  EXPECT_EQ(O.getInteger("lower_bound"), 96);
  EXPECT_EQ(O.getInteger("gap"), 0);
  EXPECT_EQ(O.getBoolean("optimal"), true);
  EXPECT_EQ(O.get("object_ids"), nullptr);
  // Each buffer carries its record and offset, ids as numbers.
  const llvm::json::Array *Buffers = O.getArray("buffers");
  ASSERT_EQ(Buffers->size(), 5u);
  const llvm::json::Object *B1 = (*Buffers)[1].getAsObject();
  EXPECT_EQ(B1->getInteger("id"), 1);
  EXPECT_EQ(B1->getInteger("offset"), 64);
  EXPECT_EQ(B1->getInteger("size"), Set.Records[1].Size);
  EXPECT_EQ(B1->get("op"), nullptr);
}

TEST(ReportTest, ObjectsPlanKeepsTheLiveBoundAndAddsTheObjectsBound) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  auto Set = test::readShared("peers/tflite_gpu_ComplexRecords.csv");
  auto P = planMemory("naive", Set.Records);
  ASSERT_TRUE(bool(P));
  EXPECT_EQ(P->Kind, StrategyKind::SharedObjects);
  // Naive: objects bound = sum of positional maximums (64 + 32 + 8 + 8),
  // total = sum of all sizes (192). The lower bound is the live bytes, as
  // for every other plan of these records.
  ASSERT_TRUE(P->ObjectsLowerBound.has_value());
  EXPECT_EQ(*P->ObjectsLowerBound, 112u);
  EXPECT_EQ(P->Peak.Bytes, liveBytesLowerBound(Set.Records));
  llvm::json::Object O = arenaJSON(*P, Set.Records);
  EXPECT_EQ(O.getString("kind"), "shared-objects");
  EXPECT_EQ(O.getInteger("arena_size"), 192);
  EXPECT_EQ(O.getInteger("objects_lower_bound"), 112);
  EXPECT_EQ(O.getInteger("lower_bound"),
            static_cast<int64_t>(liveBytesLowerBound(Set.Records)));
  EXPECT_EQ(O.getBoolean("optimal"), false);
  ASSERT_NE(O.getArray("object_ids"), nullptr);
  EXPECT_EQ(O.getArray("object_sizes")->size(), 9u);
  // The same records under an offsets strategy report the same lower bound.
  auto Off = planMemory("greedy-by-size-offsets", Set.Records);
  ASSERT_TRUE(bool(Off));
  EXPECT_EQ(arenaJSON(*Off, Set.Records).getInteger("lower_bound"),
            O.getInteger("lower_bound"));
}

TEST(ReportTest, PeakLiveBuffersSumToTheBound) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  for (const char *Rel :
       {"peers/tvm_deep_speech.csv", "peers/tflite_gpu_ComplexRecords.csv",
        "glow/inception_v4.onnx.csv"}) {
    auto Set = test::readShared(Rel);
    auto Aligned = alignRecords(Set.Records, 64);
    ASSERT_TRUE(bool(Aligned));
    StrategyOptions O;
    O.Alignment = 64;
    auto P = planMemory("greedy-by-size-offsets", Set.Records, O);
    ASSERT_TRUE(bool(P));
    // planMemory computed the peak once, on the aligned records.
    uint64_t Sum = 0;
    for (size_t I : P->Peak.Live) {
      const UsageRecord &R = (*Aligned)[I];
      EXPECT_LE(R.FirstTask, P->Peak.Task);
      EXPECT_GE(R.LastTask, P->Peak.Task);
      Sum += R.Size;
    }
    EXPECT_EQ(Sum, liveBytesLowerBound(*Aligned)) << Rel;
    EXPECT_EQ(P->Peak.Bytes, Sum) << Rel;
    EXPECT_GE(P->CertifiedBound, Sum) << Rel;
  }
  EXPECT_TRUE(livePeak({}).Live.empty());
}

TEST(ReportTest, AutoSaysWhatItChose) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  auto Set = test::readShared("peers/tvm_deep_speech.csv");
  StrategyOptions O;
  O.Alignment = 64;
  O.BudgetMs = 0;
  auto P = planMemory("auto", Set.Records, O);
  ASSERT_TRUE(bool(P));
  EXPECT_EQ(P->Requested, "auto");
  ASSERT_NE(P->Chosen, "auto");
  // The strategy named makes a plan of the same size on its own.
  auto Same = planMemory(P->Chosen, Set.Records, O);
  ASSERT_TRUE(bool(Same)) << P->Chosen;
  EXPECT_EQ(Same->Offsets.TotalSize, P->Offsets.TotalSize);
  EXPECT_EQ(Same->Chosen, P->Chosen);
  EXPECT_EQ(arenaJSON(*P, Set.Records).getString("chosen"), P->Chosen);
}

TEST(ReportTest, TimelineSectionsPerArena) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  auto Set = test::readShared("peers/tflite_gpu_ChainRecords.csv");
  auto P = planMemory("greedy-in-order", Set.Records);
  ASSERT_TRUE(bool(P));
  FunctionReport F;
  F.Function = "chain.csv";
  F.RecordFile = true;
  F.Arenas.push_back(arenaResult(*P, Set.Records));
  F.Arenas.push_back(arenaResult(*P, Set.Records));
  std::vector<TimelineSection> S = timelineSections({F});
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].Title, "chain.csv: greedy-in-order");
  EXPECT_EQ(S[0].Buffers.size(), 5u);
  EXPECT_EQ(S[0].Arena.offset(1), P->Offsets.Offsets[1]);
  EXPECT_EQ(S[0].Arena.liveBound(), P->Peak.Bytes);
  // From IR: "@function" and "#id" labels.
  F.RecordFile = false;
  F.Function = "f";
  EXPECT_EQ(timelineSections({F})[0].Title, "@f");
  EXPECT_EQ(timelineSections({F})[0].Buffers[0].Label, "#0");
}

} // namespace
