//===- Report.h - What a plan decided, for people and scripts ---*- C++ -*-===//
//
// One report model for every face of memplan: a function's arenas are the
// planner's results (ArenaResult.h); tensor-mem-plan fills them in from IR
// (buffers with their ops and locations), memplan-solve from a record
// file. Both write it with writeReportJSON and draw it with
// timelineSections, so one reader handles both:
//
//   {"functions": [{"function", "location", "num_tasks",
//                   "arenas": [ARENA...], "unplanned": [UNPLANNED...],
//                   "runtime"?: RUNTIME,
//                   "entry"?, "footprint"?: FOOTPRINT, "weights"?: WEIGHTS}],
//    "schema_version": 3}
//   FOOTPRINT = {"arenas", "callees", "hoisted", "steady", "first_call",
//                "not_counted": [text...]}
//   ARENA = {"alignment", "arena_size", "buffers": [BUFFER...],
//            "bytes_without_planning", "certified_lower_bound", "chosen",
//            "gap", "kind", "lower_bound", "memory_space",
//            "object_ids"?, "object_sizes"?, "objects_lower_bound"?,
//            "optimal", "peak": {"live": [ids], "task"},
//            "shared"?: {"bytes", "global", "sized_by"}, "strategy",
//            "task_ops"?: [TASK_OP...]}
//   BUFFER = {"first_task", "id", "inplace_of"?, "last_task", "location"?,
//             "offset", "op"?, "size", "type"?, "writer"?: {"location", "op"}}
//   TASK_OP = {"in"?: {"location", "op"}, "location", "op", "result"?,
//              "task"}
//   UNPLANNED = {"location", "op", "reason", "served_at_run_time"?}
//   RUNTIME = {"inplace_pairs"?, "left_alone": [{"location", "reason"}...],
//              "per_buffer": [{"location", "reason"}...], "plan",
//              "run_time_arena": [{"location"}...], "shared_arena"?,
//              "symbolic_orders"?}
//   WEIGHTS = {"buffers": [{"bytes", "kind", "name"}...], "bytes"}
//
// One name per fact: "strategy" is the strategy asked for, "chosen" the one
// that made the plan (they differ under auto); "lower_bound" is the
// live-bytes bound, reached at "peak"; "certified_lower_bound" the best
// bound proven for the records, "gap" the arena's bytes above it.
// "task_ops" names the op of every task number the arena uses (each
// buffer's first_task and last_task, the peak's task): its name,
// location and results as printed in the IR the pass was given ("%5",
// "%alloc"; no "result" for an op without one), and for an op nested in
// another ("in") the op whose region holds it. "writer" is the last op
// writing the buffer before an op only reads it (the alloc when none
// does). Schema 2 dropped schema 1's copies: "total_size" (= arena_size),
// "offsets" (= buffers[].offset) and "peak.bytes" (= lower_bound); schema 3
// "peak.op" and "peak.location" (= the task_ops entry of peak.task).
// "shared": the arena lives in a global that the functions of
// memplan.shared_arena share, of "bytes" (set by the largest, "sized_by").
// "optimal": the arena equals its family's bound, or the exact search
// finished (for a shared-object plan the bound of that kind,
// "objects_lower_bound": a gap to the live-bytes bound may remain;
// docs/Strategies.md). "inplace_pairs": elementwise results of a
// symbolic plan that take an operand's bytes; "shared_arena": the global
// of memplan.shared_arena whose run-time arena the function uses.
// "runtime" is tensor-mem-lower-runtime's (memplan-pipeline's report=):
// the function's dynamic buffers planned together in its run-time arena,
// those served one by one and those left alone, with why; "plan" is how
// the run-time arena is laid out ("symbolic", with "symbolic_orders",
// "run-time", "per buffer" or "none", as docs/UserGuide.md says); an unplanned
// entry the runtime serves says "served_at_run_time": "run-time arena" or
// "per buffer". Keys are sorted; shared-object plans add
// "objects_lower_bound"; fields marked ? appear when known.
// docs/UserGuide.md ("Reading the report") points here.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_REPORT_H
#define MEMPLAN_CORE_REPORT_H

#include "memplan/Core/ArenaResult.h"
#include "memplan/Core/Timeline.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memplan {

/// Raised whenever a key of the JSON changes meaning or goes away.
constexpr int kReportSchemaVersion = 3;

struct UnplannedBufferReport {
  std::string Location;
  std::string Op;
  std::string Reason;
};

/// A module-level global a function reads (weights, hoisted tensors):
/// outside every arena.
struct GlobalBufferReport {
  std::string Name;
  uint64_t Bytes = 0;
  /// "constant" (a constant global), "hoisted" (written once by the code
  /// tensor-mem-hoist-constants made) or "mutable" (any other global).
  std::string Kind;
};

struct WeightsReport {
  /// Sum of Buffers' bytes.
  uint64_t Bytes = 0;
  std::vector<GlobalBufferReport> Buffers;
};

/// A call the function makes, for the footprint.
struct CallSiteReport {
  std::string Callee;
  /// The callee is an init function (tensor-mem-hoist-constants): it runs
  /// on the first call only.
  bool Init = false;
  /// The call comes before the function's arenas exist (in its entry
  /// block, ahead of every arena): the two are never live together.
  bool BeforeArenas = false;
};

/// What a function holds while it runs, in bytes: the memory a user pays.
struct FootprintReport {
  /// The function's own arenas.
  uint64_t Arenas = 0;
  /// The most that one call it makes holds in arenas (each call's arenas
  /// are counted while the call runs, its callees' too).
  uint64_t Callees = 0;
  /// Globals memplan made (hoisted tensors) that it or a callee reads:
  /// held for good once filled.
  uint64_t Hoisted = 0;
  /// Arenas + Callees + Hoisted.
  uint64_t Steady = 0;
  /// Steady, plus what only the first call holds (init functions' arenas,
  /// counted beside the arenas live with them).
  uint64_t FirstCall = 0;
  /// What the numbers leave out, over everything it calls: callees without
  /// a body, recursion (a cycle's functions are counted once each), dynamic
  /// buffers served at run time, buffers left out of the arenas.
  std::vector<std::string> NotCounted;
};

struct FunctionReport {
  /// The function's name, or for a record file (memplan-solve) its name.
  std::string Function;
  /// Planned from a record file: one arena per strategy asked for.
  bool RecordFile = false;
  std::string Location;
  uint64_t NumTasks = 0;
  std::vector<ArenaResult> Arenas;
  std::vector<UnplannedBufferReport> Unplanned;
  /// The globals the function reads, listed apart so that its arenas hold
  /// activations only (not written for a record file).
  WeightsReport Weights;
  /// The calls it makes, in order (not for a record file).
  std::vector<CallSiteReport> Calls;
  /// Buffers served at run time (dynamic shapes): not in any arena.
  uint64_t NumDynamic = 0;
  /// Buffers of static size left out of the arenas (listed in Unplanned):
  /// how many, the bytes of those whose size fits 64 bits, and how many
  /// do not.
  uint64_t NumUnplannedStatic = 0;
  uint64_t UnplannedStaticBytes = 0;
  uint64_t NumUnplannedUnsized = 0;
  /// Called by no function of the module (or public): what a user calls.
  bool Entry = true;
  /// Its arenas are arguments its callers provide (arena=argument,
  /// across-calls): callers in the module hold them, in their own arenas.
  bool ArenasFromCallers = false;
  /// Filled by computeFootprints.
  FootprintReport Footprint;
};

/// Fills each function's Footprint from its arenas, its calls (to functions
/// of Functions) and the hoisted globals it reads.
void computeFootprints(std::vector<FunctionReport> &Functions);

/// Streams the report (a million buffers would take gigabytes as a
/// json::Value), pretty-printed with an indent of 2, ending in a newline.
void writeReportJSON(llvm::ArrayRef<FunctionReport> Functions,
                     llvm::raw_ostream &OS);

/// Whether Path can be written, found without leaving a trace: checked
/// before planning, so that a bad path costs nothing.
llvm::Error checkWritable(llvm::StringRef Path);

/// Writes the report to Path, or says why it cannot.
llvm::Error writeReportFile(llvm::StringRef Path,
                            llvm::ArrayRef<FunctionReport> Functions);

/// One picture section per arena: "@function" (and its memory space), or
/// "file: strategy" for a record file.
std::vector<TimelineSection>
timelineSections(llvm::ArrayRef<FunctionReport> Functions);

} // namespace memplan

#endif // MEMPLAN_CORE_REPORT_H
