//===- RecordFile.h - MiniMalloc CSV record files ---------------*- C++ -*-===//
//
// Format: header `id,lower,upper,size`, one buffer a line, live over the
// HALF-OPEN task interval [lower, upper) (so LastTask = upper - 1).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_RECORDFILE_H
#define MEMPLAN_CORE_RECORDFILE_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace memplan {

struct RecordSet {
  std::vector<UsageRecord> Records;
  /// Ids[I] is the id of Records[I], as written in the file.
  std::vector<std::string> Ids;
};

/// Parses CSV text. Errors read `FileName:LINE: message`.
llvm::Expected<RecordSet> parseRecordsCSV(llvm::StringRef Text,
                                          llvm::StringRef FileName);

/// Reads and parses a file ("-" is stdin).
llvm::Expected<RecordSet> readRecordsCSV(llvm::StringRef Path);

/// Writes the header and one line per record; ids default to 0..n-1.
void writeRecordsCSV(const RecordSet &Set, llvm::raw_ostream &OS);

} // namespace memplan

#endif // MEMPLAN_CORE_RECORDFILE_H
