//===- RecordFile.h - MiniMalloc CSV record files ---------------*- C++ -*-===//
//
// Format: header `id,lower,upper,size`, one buffer a line, live over the
// HALF-OPEN task interval [lower, upper) (so LastTask = upper - 1). As
// MiniMalloc's reader, the columns may come in any order and under its other
// names (buffer or buffer_id for id, start or begin for lower, end for an
// INCLUSIVE last task), with an optional alignment column (a power of two
// per buffer); its gaps and offset columns are read and not planned with
// (RecordSet::Notes says so).
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
  /// Lines[I]: the line of the file Records[I] is on (1 is the header).
  std::vector<size_t> Lines;
  /// Alignments[I] of Records[I] in bytes, from an alignment column; empty
  /// without one.
  std::vector<uint64_t> Alignments;
  /// Columns read but not planned with, a sentence each, for a tool to say.
  std::vector<std::string> Notes;
};

/// The largest alignment of \p Set's records (1 without an alignment
/// column): offsets aligned to it are aligned for every record.
uint64_t largestAlignment(const RecordSet &Set);

/// Parses CSV text. Errors read `FileName:LINE: message`.
llvm::Expected<RecordSet> parseRecordsCSV(llvm::StringRef Text,
                                          llvm::StringRef FileName);

/// Reads and parses a file ("-" is stdin).
llvm::Expected<RecordSet> readRecordsCSV(llvm::StringRef Path);

/// Writes the header and one line per record, with the alignment column
/// when the set has one; ids default to 0..n-1.
void writeRecordsCSV(const RecordSet &Set, llvm::raw_ostream &OS);

} // namespace memplan

#endif // MEMPLAN_CORE_RECORDFILE_H
