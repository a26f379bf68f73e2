//===- ReportFile.h - a plan report read back from its JSON -----*- C++ -*-===//
//
// The parts of a report (include/memplan/Core/Report.h) that two plans of
// one program are compared on, read with llvm::json. Every reading error
// names the file and the place in it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_REPORTFILE_H
#define MEMPLAN_TOOLS_REPORTFILE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memplan::diff {

struct Buffer {
  /// As the report writes it: a number, or the text of a record file's id
  /// ("b1"), kept as text.
  std::string Id;
  std::string Location, Op, Type;
  uint64_t Size = 0, Offset = 0;
  int64_t FirstTask = 0, LastTask = 0;
  std::optional<std::string> InplaceOf;
};

struct Arena {
  std::string MemorySpace, Strategy, Chosen;
  uint64_t ArenaSize = 0, LowerBound = 0;
  int64_t PeakTask = 0;
  /// The op at the peak task as the report's task_ops names it
  /// ("memref.alloc at f.mlir:3:4"), or "" without one.
  std::string PeakOp;
  std::vector<Buffer> Buffers;
};

struct Function {
  std::string Name, Location;
  std::vector<Arena> Arenas;
  size_t NumUnplanned = 0;
  std::optional<uint64_t> Steady, FirstCall;
};

struct Report {
  std::string Path;
  std::vector<Function> Functions;
  /// The file as read, for the HTML page's report model (ReportModel.h).
  llvm::json::Value Json = nullptr;
};

/// Reads Path: a missing file, bad JSON, another schema_version or a value
/// of the wrong kind is an error that names Path and where.
llvm::Expected<Report> readReport(const std::string &Path);

/// A report's id (of a buffer, or the buffer it takes in place) as text: a
/// number (a pass report, a record file's numeric id) or a string (a record
/// file's "b1"); none for another kind of value.
std::optional<std::string> idText(const llvm::json::Value &V);

/// The source file a location names ("loc(\"f.mlir\":3:4)" -> "f.mlir"),
/// or "" for none.
std::string sourceFile(const std::string &Location);

/// A location as people read it: "f.mlir:3:4" (without the folders).
std::string shortLocation(const std::string &Location);

} // namespace memplan::diff

#endif // MEMPLAN_TOOLS_REPORTFILE_H
