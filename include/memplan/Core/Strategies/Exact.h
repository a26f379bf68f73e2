//===- Exact.h - MiniMalloc-style branch and bound --------------*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_EXACT_H
#define MEMPLAN_CORE_STRATEGIES_EXACT_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace memplan {

struct ExactOptions {
  /// Wall-clock time the search may take, in milliseconds.
  double BudgetMs = 1000;
  /// Stop as soon as a plan of at most this many bytes is found.
  std::optional<uint64_t> Capacity;
  /// A valid plan to start from (the search only looks for better ones).
  const OffsetsAssignment *Incumbent = nullptr;
};

struct ExactResult {
  OffsetsAssignment Offsets;
  /// No smaller plan exists (equal to the live-bytes bound, or every smaller
  /// arena was proven infeasible).
  bool Optimal = false;
  /// No plan of fewer bytes exists: the live-bytes bound, or one more than
  /// the largest arena the search proved too small.
  uint64_t LowerBound = 0;
};

/// The search of MiniMalloc (Moffitt, ASPLOS 2023) for the smallest arena:
/// independent time partitions are solved apart; within one, buffers are
/// placed in canonical order (non-decreasing offsets, each at the lowest
/// offset the placed ones allow), a buffer that would leave a gap another
/// could fill is skipped (dominance), a buffer no unplaced one overlaps gets
/// no alternatives (hatless), and a partial plan is dropped when some time
/// section cannot hold its floor plus the bytes still to place there
/// (inference). Decisions "fits in C bytes?" are searched for shrinking C
/// until the budget runs out. Returns the best plan found.
ExactResult exactSolve(llvm::ArrayRef<UsageRecord> Records,
                       const ExactOptions &Options = {});

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_EXACT_H
