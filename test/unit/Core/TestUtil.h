//===- TestUtil.h - Shared helpers of the Core unit tests -------*- C++ -*-===//

#ifndef MEMPLAN_TEST_UNIT_CORE_TESTUTIL_H
#define MEMPLAN_TEST_UNIT_CORE_TESTUTIL_H

#include "memplan/Core/LowerBound.h"
#include "memplan/Core/RecordFile.h"
#include "memplan/Core/Validator.h"

#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <random>
#include <string>
#include <type_traits>

namespace memplan::test {

/// The shared data: $MEMPLAN_SHARED_DIR (lit sets it), else the configured
/// folder.
inline std::string sharedDir() {
  const char *Env = std::getenv("MEMPLAN_SHARED_DIR");
  return Env && *Env ? Env : MEMPLAN_SHARED_DIR;
}

inline std::string sharedPath(const std::string &Rel) {
  return sharedDir() + "/" + Rel;
}

inline bool haveSharedData() {
  return llvm::sys::fs::is_directory(sharedPath("datasets/records"));
}

/// Skips the calling test when the shared data is absent.
#define MEMPLAN_REQUIRE_SHARED_DATA()                                          \
  if (::memplan::test::haveSharedData()) {                                     \
  } else                                                                       \
    GTEST_SKIP() << "no shared data in " << ::memplan::test::sharedDir()       \
                 << " (configure with -DMEMPLAN_SHARED_DIR=<folder>)"

/// A gtest-safe name for a test parameterized by a strategy name
/// ("greedy-by-size" -> "greedy_by_size").
inline std::string
strategyTestName(const ::testing::TestParamInfo<std::string> &Info) {
  std::string Id;
  for (char C : Info.param)
    Id += std::isalnum(static_cast<unsigned char>(C)) ? C : '_';
  return Id;
}

/// Reads a record file of ../shared/datasets/records, failing the test on
/// error. Without the shared data the test is marked skipped and gets no
/// records.
inline RecordSet readShared(const std::string &Rel) {
  if (!haveSharedData()) {
    [] { MEMPLAN_REQUIRE_SHARED_DATA(); }();
    return {};
  }
  auto Set = readRecordsCSV(sharedPath("datasets/records/" + Rel));
  if (!Set) {
    ADD_FAILURE() << llvm::toString(Set.takeError());
    return {};
  }
  return std::move(*Set);
}

/// Runs Strategy on shuffles of a real record set and checks every plan:
/// TFLite's in-order strategies silently overlap when records are not sorted
/// by start; ours must be right for any order.
template <typename Fn>
void expectValidForAnyOrder(
    Fn Strategy, const std::string &Rel = "peers/tvm_deep_speech.csv",
    int Rounds = 10, unsigned Seed = 5) {
  std::vector<UsageRecord> R = readShared(Rel).Records;
  std::mt19937 Rng(Seed);
  for (int Round = 0; Round < Rounds; ++Round) {
    std::shuffle(R.begin(), R.end(), Rng);
    auto A = Strategy(R);
    if constexpr (std::is_same_v<decltype(A), ObjectsAssignment>) {
      EXPECT_FALSE(llvm::errorToBool(validateObjects(R, A)));
    } else {
      EXPECT_FALSE(llvm::errorToBool(validateOffsets(R, A)));
      EXPECT_GE(A.TotalSize, liveBytesLowerBound(R));
    }
  }
}

} // namespace memplan::test

#endif
