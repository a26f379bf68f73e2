//===- MinCostFlow.h - TFLite GPU min-cost flow -*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_MINCOSTFLOW_H
#define MEMPLAN_CORE_STRATEGIES_MINCOSTFLOW_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace memplan {

/// TFLite GPU MinCostFlowAssignment: a bipartite flow graph where tensor J
/// can hand its object to a tensor I starting after J ends (cost: how much
/// the object grows) and any tensor can open an object (cost: its size);
/// tensors joined by saturated edges share an object. The graph has an edge
/// per hand-over, O(n^2), and the time grows as their number times n: the
/// registered strategy refuses sets above kMinCostFlowMaxHandOvers, and a
/// direct caller should too.
ObjectsAssignment minCostFlow(llvm::ArrayRef<UsageRecord> Records);

/// The hand-overs minCostFlow's graph would hold: pairs (J, I) with J ended
/// before I starts. O(n log n), without building it.
uint64_t minCostFlowHandOvers(llvm::ArrayRef<UsageRecord> Records);

/// The most hand-overs the registered min-cost-flow strategy plans with
/// (about 1400 tensors of short lifetimes; tens of MB, seconds): above, it
/// is an error that names the alternatives, not minutes or gigabytes.
constexpr uint64_t kMinCostFlowMaxHandOvers = uint64_t(1) << 20;

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_MINCOSTFLOW_H
