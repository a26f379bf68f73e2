//===- Schedule.h - Memory-aware topological order --------------*- C++ -*-===//
//
// Reorders the nodes of a DAG within their dependencies to lower the peak of
// live bytes: exact dynamic programming over scheduled sets (Serenity,
// "Ordering Chaos", MLSys 2020) on windows small enough for a state budget,
// greedy beyond, and windows cut wherever at most one value crosses.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_SCHEDULE_H
#define MEMPLAN_CORE_SCHEDULE_H

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memplan {

/// One operation. A value is live from the node that defines it to its last
/// user, both included; a value nobody uses is live at its definition only.
struct ScheduleNode {
  /// Scratch bytes live only while this node runs.
  uint64_t TempBytes = 0;
  /// Values this node defines (indices into ScheduleProblem::ValueSizes).
  std::vector<size_t> Defines;
  /// Values this node reads; a use of a value no node defines is ignored.
  std::vector<size_t> Uses;
  /// Nodes that must come before this one besides the definers of Uses.
  std::vector<size_t> After;
};

/// A DAG whose node indices are its given order.
struct ScheduleProblem {
  std::vector<uint64_t> ValueSizes;
  std::vector<ScheduleNode> Nodes;
};

struct ScheduleOptions {
  /// Most scheduled sets the exact search may hold for one window; a window
  /// that needs more is ordered greedily.
  size_t StateBudget = 20000;
  /// Most nodes in one window. Windows are cut in the given order wherever
  /// at most one value crosses, and a longer run at its best gap. (Solving
  /// neighbours together up to this size as well lowered no model peak of
  /// 8 networks, bert, cnn or the decoder: not kept.)
  size_t MaxWindow = 64;
  /// Off: one window, the exact search only (for tests and small DAGs).
  bool Split = true;
};

struct ScheduleResult {
  /// Node indices; a topological order.
  std::vector<size_t> Order;
  uint64_t PeakBefore = 0;
  uint64_t PeakAfter = 0;
  /// Windows solved exactly / greedily.
  size_t ExactWindows = 0;
  size_t GreedyWindows = 0;
};

/// Checks the problem: indices in range, no value defined twice, and the
/// given order respects every edge (which makes the edges acyclic).
llvm::Error verifyScheduleProblem(const ScheduleProblem &P);

/// Peak of live bytes of Order, which must be a topological order of P.
uint64_t schedulePeak(const ScheduleProblem &P,
                      const std::vector<size_t> &Order);

/// Whether Order is a permutation of P's nodes that respects every edge.
bool isTopologicalOrder(const ScheduleProblem &P,
                        const std::vector<size_t> &Order);

/// The order of lowest peak found; deterministic, and never above the given
/// order's peak (which it returns when nothing better is found).
llvm::Expected<ScheduleResult>
scheduleForMemory(const ScheduleProblem &P,
                  const ScheduleOptions &Options = {});

} // namespace memplan

#endif // MEMPLAN_CORE_SCHEDULE_H
