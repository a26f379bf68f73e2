//===- ArenaResult.h - One arena's plan, for every reader -------*- C++ -*-===//
//
// The one result of planning an arena: the plan as planMemory completed it
// (strategy asked for and chosen, offsets, alignment, in-place pairs, peak,
// bounds), the records it was made of and what is known of each buffer.
// tensor-mem-plan rewrites the IR from it, the report (Report.h) and the
// pictures (Timeline.h) are drawn from it, the C++ API (PlanResult.h)
// returns it, and memplan-solve makes one per strategy. One name per fact:
// Requested, Chosen, Alignment, InplacePairs and CertifiedBound are the
// plan's; liveBound() is its Peak.Bytes and arenaSize() its offsets' total.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_ARENARESULT_H
#define MEMPLAN_CORE_ARENARESULT_H

#include "memplan/Core/Strategy.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memplan {

/// What is known of a buffer besides its record and offset.
struct BufferInfo {
  /// The record's index, or its id in a record file; written as a number
  /// when it is one.
  std::string Id;
  // Where it comes from, when the plan was made from IR.
  std::string Location;
  std::string Op;
  std::string Type;
  /// The op that fills the buffer (the first one writing it) and its
  /// location; empty when not looked up.
  std::string WriterOp;
  std::string WriterLocation;
};

/// The op numbered Task in its function, as the report names it (its
/// "task_ops"): what a reader looks up for a task number.
struct TaskOp {
  uint64_t Task = 0;
  std::string Op;
  std::string Location;
  /// Its results as the IR printed them ("%5", "%alloc", "%3#0, %3#1");
  /// empty for an op without results.
  std::string Result;
  /// For an op nested in another (a linalg.yield, a loop's body), the op
  /// whose region holds it and its location; empty at the function's top.
  std::string ParentOp;
  std::string ParentLocation;
};

/// With memplan.shared_arena: the global an arena lives in, its bytes (the
/// largest arena of the functions sharing it) and the function that sets
/// them.
struct SharedArenaInfo {
  std::string Global;
  uint64_t Bytes = 0;
  std::string SizedBy;
};

struct ArenaResult : Plan {
  /// Empty for the default memory space (and for record files).
  std::string MemorySpace;
  /// Each buffer's size as the program asked for it (not rounded up) and
  /// its tasks, as the strategy was given them: persistent buffers span the
  /// function, in-place pairs meet at one task.
  std::vector<UsageRecord> Records;
  /// The sum of Records' sizes (saturating): each buffer its own allocation.
  uint64_t BytesWithoutPlanning = 0;
  /// One per record, in the same order.
  std::vector<BufferInfo> Buffers;
  /// The op at every task the arena names (each record's first and last
  /// task, the peak), sorted by task; from IR only.
  std::vector<TaskOp> TaskOps;
  std::optional<SharedArenaInfo> Shared;

  uint64_t arenaSize() const { return Offsets.TotalSize; }
  /// The live-bytes bound of the aligned records, reached at Peak.Task.
  uint64_t liveBound() const { return Peak.Bytes; }
  uint64_t offset(size_t I) const { return Offsets.Offsets[I]; }
  /// Per buffer, the buffer whose bytes it takes in place (InplacePairs
  /// read the other way round).
  std::vector<std::optional<size_t>> inplaceOf() const;
};

/// The result of plan P (from planMemory) of Records (as given, before
/// rounding); buffers get their record index as id, which the caller may
/// replace.
ArenaResult arenaResult(Plan P, std::vector<UsageRecord> Records);

} // namespace memplan

#endif // MEMPLAN_CORE_ARENARESULT_H
