//===- GreedyByBreadthOffsets.h - Greedy by breadth (offsets) -*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_GREEDYBYBREADTHOFFSETS_H
#define MEMPLAN_CORE_STRATEGIES_GREEDYBYBREADTHOFFSETS_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

namespace memplan {

/// Visits tasks by decreasing breadth (live bytes) and in each task its
/// records by decreasing size, as TFLite GPU's greedy by breadth does, but
/// places each record at an offset (smallest fitting gap) instead of in a
/// shared object.
OffsetsAssignment greedyByBreadthOffsets(llvm::ArrayRef<UsageRecord> Records);

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_GREEDYBYBREADTHOFFSETS_H
