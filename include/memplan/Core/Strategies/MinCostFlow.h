//===- MinCostFlow.h - TFLite GPU min-cost flow -*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_MINCOSTFLOW_H
#define MEMPLAN_CORE_STRATEGIES_MINCOSTFLOW_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

namespace memplan {

/// TFLite GPU MinCostFlowAssignment: a bipartite flow graph where tensor J
/// can hand its object to a tensor I starting after J ends (cost: how much
/// the object grows) and any tensor can open an object (cost: its size);
/// tensors joined by saturated edges share an object. The graph has O(n^2)
/// edges: meant for graphs of up to a few thousand tensors.
ObjectsAssignment minCostFlow(llvm::ArrayRef<UsageRecord> Records);

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_MINCOSTFLOW_H
