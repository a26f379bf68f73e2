#include "memplan/Core/RecordFile.h"
#include "TestUtil.h"

#include "gtest/gtest.h"

using namespace memplan;

namespace {

std::string errorOf(llvm::StringRef Text) {
  auto Set = parseRecordsCSV(Text, "f.csv");
  if (Set)
    return "";
  return llvm::toString(Set.takeError());
}

TEST(RecordFileTest, ParsesHalfOpenIntervals) {
  auto Set = parseRecordsCSV("id,lower,upper,size\n7,0,3,16\n9,2,4,8\n", "f");
  ASSERT_TRUE(bool(Set)) << llvm::toString(Set.takeError());
  ASSERT_EQ(Set->Records.size(), 2u);
  EXPECT_EQ(Set->Records[0], UsageRecord(16, 0, 2));
  EXPECT_EQ(Set->Records[1], UsageRecord(8, 2, 3));
  EXPECT_EQ(Set->Ids[0], "7");
}

TEST(RecordFileTest, AcceptsCRLFAndBlankLines) {
  auto Set =
      parseRecordsCSV("id,lower,upper,size\r\n0,0,1,4\r\n\r\n1,1,2,4\r\n", "f");
  ASSERT_TRUE(bool(Set)) << llvm::toString(Set.takeError());
  EXPECT_EQ(Set->Records.size(), 2u);
}

TEST(RecordFileTest, ErrorsNameFileAndLine) {
  EXPECT_EQ(errorOf(""), "f.csv:1: empty file; expected the header "
                         "'id,lower,upper,size'");
  EXPECT_EQ(errorOf("id,lower,upper,size\n"),
            "f.csv:1: no records after the header");
  EXPECT_EQ(errorOf("a,b\n"),
            "f.csv:1: expected the header 'id,lower,upper,size', got 'a,b'");
  EXPECT_EQ(errorOf("id,lower,upper,size\n0,0,1,4\n1,0,1\n"),
            "f.csv:3: expected 4 fields 'id,lower,upper,size', got 3");
  EXPECT_EQ(errorOf("id,lower,upper,size\n0,0,1,-4\n"),
            "f.csv:2: size '-4' is not an integer in [0, 2^64)");
  EXPECT_EQ(errorOf("id,lower,upper,size\n0,0,1,99999999999999999999\n"),
            "f.csv:2: size '99999999999999999999' is not an integer in "
            "[0, 2^64)");
  EXPECT_EQ(errorOf("id,lower,upper,size\n0,3,3,4\n"),
            "f.csv:2: lower (3) must be below upper (3): the interval "
            "[lower, upper) is half-open");
  EXPECT_EQ(errorOf("id,lower,upper,size\n0,0,1,0\n"),
            "f.csv:2: size must be positive");
  EXPECT_EQ(errorOf("id,lower,upper,size\n0,0,1,4\n0,1,2,4\n"),
            "f.csv:3: duplicate id '0' (first on line 2)");
  EXPECT_EQ(errorOf("id,lower,upper,size\n,0,1,4\n"), "f.csv:2: missing id");
  EXPECT_EQ(errorOf("id,lower,upper,size\n0,x,1,4\n"),
            "f.csv:2: lower 'x' is not an integer in [0, 2^64)");
}

TEST(RecordFileTest, WriteThenReadRoundTrips) {
  RecordSet Set;
  Set.Records = {UsageRecord(16, 0, 2), UsageRecord(8, 5, 5)};
  Set.Ids = {"a", "b"};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeRecordsCSV(Set, OS);
  EXPECT_EQ(Text, "id,lower,upper,size\na,0,3,16\nb,5,6,8\n");
  auto Back = parseRecordsCSV(Text, "t");
  ASSERT_TRUE(bool(Back));
  EXPECT_EQ(Back->Records, Set.Records);
  EXPECT_EQ(Back->Ids, Set.Ids);
}

TEST(RecordFileTest, ReadsEverySharedDataset) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  // Counts from ../shared/datasets/records/peers/SOURCES.txt.
  EXPECT_EQ(
      test::readShared("peers/tflite_gpu_ChainRecords.csv").Records.size(), 5u);
  EXPECT_EQ(test::readShared("peers/tvm_deep_speech.csv").Records.size(), 184u);
  EXPECT_EQ(test::readShared("peers/xla_BestFit.csv").Records.size(), 5u);
}

TEST(RecordFileTest, MissingFileIsAnError) {
  auto Set = readRecordsCSV("/nonexistent/x.csv");
  ASSERT_FALSE(bool(Set));
  EXPECT_NE(llvm::toString(Set.takeError()).find("/nonexistent/x.csv"),
            std::string::npos);
}

} // namespace
