//===- GreedyByBreadth.h - TFLite GPU greedy by breadth -*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_GREEDYBYBREADTH_H
#define MEMPLAN_CORE_STRATEGIES_GREEDYBYBREADTH_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

namespace memplan {

/// TFLite GPU GreedyByBreadthAssignment: tasks by decreasing breadth, in each
/// its tensors by decreasing size; a tensor takes the smallest object that
/// holds it and is free over its whole interval, else the largest free one
/// (growing it), else a new one.
ObjectsAssignment greedyByBreadth(llvm::ArrayRef<UsageRecord> Records);

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_GREEDYBYBREADTH_H
