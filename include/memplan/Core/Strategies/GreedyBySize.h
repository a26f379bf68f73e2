//===- GreedyBySize.h - TFLite GPU greedy by size (objects) -*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_GREEDYBYSIZE_H
#define MEMPLAN_CORE_STRATEGIES_GREEDYBYSIZE_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

namespace memplan {

/// TFLite GPU GreedyBySizeDistPriorityAssignment: each tensor gets the
/// position of the rightmost positional maximum that holds it; tensors go
/// leftmost position first, then the one closest in time to an object it can
/// join, then the largest. It joins that object (growing it) or opens one.
/// O(n^2 + n * objects) time, n * objects memory.
ObjectsAssignment greedyBySize(llvm::ArrayRef<UsageRecord> Records);

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_GREEDYBYSIZE_H
