//===- TestUtil.h - Shared helpers of the Core unit tests -------*- C++ -*-===//

#ifndef MEMPLAN_TEST_UNIT_CORE_TESTUTIL_H
#define MEMPLAN_TEST_UNIT_CORE_TESTUTIL_H

#include "memplan/Core/RecordFile.h"

#include "gtest/gtest.h"

#include <string>

namespace memplan::test {

inline std::string sharedPath(const std::string &Rel) {
  return std::string(MEMPLAN_SHARED_DIR) + "/" + Rel;
}

/// Reads a record file of ../shared/datasets/records, failing the test on
/// error.
inline RecordSet readShared(const std::string &Rel) {
  auto Set = readRecordsCSV(sharedPath("datasets/records/" + Rel));
  if (!Set) {
    ADD_FAILURE() << llvm::toString(Set.takeError());
    return {};
  }
  return std::move(*Set);
}

} // namespace memplan::test

#endif
