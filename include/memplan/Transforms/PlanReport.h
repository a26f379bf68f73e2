//===- PlanReport.h - What tensor-mem-plan decided, for people --*- C++ -*-===//
//
// Plain data the pass fills in for every function it plans, and the writers
// of the JSON report and of the timeline picture.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TRANSFORMS_PLANREPORT_H
#define MEMPLAN_TRANSFORMS_PLANREPORT_H

#include "memplan/Core/PlanJSON.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memplan {

struct PlannedBufferReport {
  size_t Id = 0;
  std::string Location;
  std::string Op;
  std::string Type;
  uint64_t Size = 0;
  uint64_t Offset = 0;
  uint64_t FirstTask = 0;
  uint64_t LastTask = 0;
  /// The op that fills the buffer (the first one writing it, e.g. the linalg
  /// op whose outs it is) and that op's location; the alloc's when nothing
  /// writes it.
  std::string WriterOp;
  std::string WriterLocation;
};

struct UnplannedBufferReport {
  std::string Location;
  std::string Op;
  std::string Reason;
};

struct ArenaReport {
  std::string MemorySpace;
  std::string Strategy;
  /// The strategy that made the plan (the one `auto` picked).
  std::string Chosen;
  uint64_t Alignment = 0;
  uint64_t ArenaSize = 0;
  uint64_t LowerBound = 0;
  uint64_t BytesWithoutPlanning = 0;
  bool Optimal = false;
  std::vector<PlannedBufferReport> Buffers;
  /// Where the live aligned bytes peak; Peak.Live indexes Buffers and their
  /// aligned sizes sum to LowerBound.
  LivePeak Peak;
};

struct FunctionReport {
  std::string Function;
  std::string Location;
  uint64_t NumTasks = 0;
  std::vector<ArenaReport> Arenas;
  std::vector<UnplannedBufferReport> Unplanned;
};

/// The report as JSON: {"functions": [...]}.
llvm::json::Value reportToJSON(llvm::ArrayRef<FunctionReport> Functions);

/// Adds Function to the reports gathered for Path in this process and
/// rewrites the file with all of them, so a pass that runs once per
/// function (nested under func.func) still leaves one whole report.
llvm::Error appendToReportFile(llvm::StringRef Path, FunctionReport Function);

/// Adds Function to the reports gathered for Path in this process (a
/// function planned again replaces its entry; the list is sorted by function
/// name) and calls Write with all of them, under a lock: the writers of the
/// report and picture files share this.
llvm::Error gatherForFile(
    llvm::StringRef Path, FunctionReport Function,
    llvm::function_ref<llvm::Error(llvm::ArrayRef<FunctionReport>)> Write);

/// Same for a timeline picture; the file's extension (.svg or .html) picks
/// the format.
llvm::Error appendToTimelineFile(llvm::StringRef Path, FunctionReport Function);

} // namespace memplan

#endif // MEMPLAN_TRANSFORMS_PLANREPORT_H
