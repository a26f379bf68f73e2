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
            "f.csv:1: expected the header 'id,lower,upper,size', got 'a,b': "
            "column 'a' is none of id (or buffer, buffer_id), lower (or "
            "start, begin), upper (or end, inclusive), size, and optionally "
            "alignment, gaps, offset");
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

// MiniMalloc's reader (converter.cc) finds its columns by name.
TEST(RecordFileTest, ReadsColumnsInAnyOrderAndMiniMallocsNames) {
  auto Set = parseRecordsCSV("size,upper,id,lower\n16,3,a,1\n", "f");
  ASSERT_TRUE(bool(Set)) << llvm::toString(Set.takeError());
  EXPECT_EQ(Set->Records[0], UsageRecord(16, 1, 2));
  EXPECT_EQ(Set->Ids[0], "a");
  // MiniMalloc's first format: `end` is the last task, inclusive. The first
  // lines of its input.12.csv before and after the format changed
  // (`b1,0,2,4` then `b1,0,3,4` under id,lower,upper,size) are one record.
  auto Old = parseRecordsCSV("buffer,start,end,size\nb1,0,2,4\n", "f");
  auto New = parseRecordsCSV("id,lower,upper,size\nb1,0,3,4\n", "f");
  ASSERT_TRUE(Old && New);
  EXPECT_EQ(Old->Records, New->Records);
  EXPECT_EQ(Old->Ids, New->Ids);
  auto Begin = parseRecordsCSV("buffer_id,begin,upper,size\nx,4,5,8\n", "f");
  ASSERT_TRUE(bool(Begin));
  EXPECT_EQ(Begin->Records[0], UsageRecord(8, 4, 4));
  EXPECT_TRUE(Begin->Notes.empty());
  EXPECT_TRUE(Begin->Alignments.empty());
}

TEST(RecordFileTest, HeaderErrorsNameTheColumn) {
  EXPECT_EQ(errorOf("id,lower,size\n0,0,4\n"),
            "f.csv:1: expected the header 'id,lower,upper,size', got "
            "'id,lower,size': no upper (or end) column");
  EXPECT_EQ(errorOf("id,upper,size\n0,1,4\n"),
            "f.csv:1: expected the header 'id,lower,upper,size', got "
            "'id,upper,size': no lower column");
  EXPECT_EQ(errorOf("id,lower,upper,end,size\n0,0,1,0,4\n"),
            "f.csv:1: column 'end' repeats column 3 of the header");
  EXPECT_EQ(errorOf("buffer,id,lower,upper,size\n"),
            "f.csv:1: column 'id' repeats column 1 of the header");
  EXPECT_EQ(errorOf("id,lower,upper,size,alignment\n0,0,1,4\n"),
            "f.csv:2: expected 5 fields 'id,lower,upper,size,alignment', "
            "got 4");
  EXPECT_EQ(errorOf("id,start,end,size\n0,5,4,4\n"),
            "f.csv:2: end (4) must not be below lower (5): the interval "
            "[lower, end] is inclusive");
  EXPECT_EQ(errorOf("id,start,end,size\n0,5,18446744073709551615,4\n"),
            "f.csv:2: end 18446744073709551615 is past the last task "
            "(2^64 - 2)");
}

TEST(RecordFileTest, AlignmentColumn) {
  auto Set = parseRecordsCSV(
      "id,lower,upper,size,alignment\n0,0,3,16,64\n1,1,2,8,1\n", "f");
  ASSERT_TRUE(bool(Set)) << llvm::toString(Set.takeError());
  EXPECT_EQ(Set->Alignments, (std::vector<uint64_t>{64, 1}));
  EXPECT_EQ(largestAlignment(*Set), 64u);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeRecordsCSV(*Set, OS);
  EXPECT_EQ(Text, "id,lower,upper,size,alignment\n0,0,3,16,64\n1,1,2,8,1\n");
  // One arena alignment serves every record only if each is a power of two.
  EXPECT_EQ(errorOf("id,lower,upper,size,alignment\n0,0,3,16,24\n"),
            "f.csv:2: alignment 24 is not a positive power of two");
  EXPECT_EQ(errorOf("id,lower,upper,size,alignment\n0,0,3,16,x\n"),
            "f.csv:2: alignment 'x' is not an integer in [0, 2^64)");
  auto None = parseRecordsCSV("id,lower,upper,size\n0,0,3,16\n", "f");
  ASSERT_TRUE(bool(None));
  EXPECT_EQ(largestAlignment(*None), 1u);
}

// Gaps and offsets are read, not planned with, and said.
TEST(RecordFileTest, GapsAndOffsetsAreNoted) {
  auto Gaps = parseRecordsCSV(
      "id,lower,upper,size,gaps\n0,0,10,4,2-4 6-7\n1,0,1,4,\n", "f");
  ASSERT_TRUE(bool(Gaps)) << llvm::toString(Gaps.takeError());
  // Live through the gap: the record keeps its whole interval.
  EXPECT_EQ(Gaps->Records[0], UsageRecord(4, 0, 9));
  ASSERT_EQ(Gaps->Notes.size(), 1u);
  EXPECT_NE(Gaps->Notes[0].find("'gaps' ignored"), std::string::npos);
  auto NoGaps = parseRecordsCSV("id,lower,upper,size,gaps\n0,0,10,4,\n", "f");
  ASSERT_TRUE(bool(NoGaps));
  EXPECT_TRUE(NoGaps->Notes.empty());
  auto Offsets = parseRecordsCSV(
      "id,lower,upper,size,offset\nb1,0,3,4,8\nb2,3,9,4,8\n", "f");
  ASSERT_TRUE(bool(Offsets));
  ASSERT_EQ(Offsets->Notes.size(), 1u);
  EXPECT_NE(Offsets->Notes[0].find("'offset' ignored"), std::string::npos);
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
