//===- GreedyInOrder.h - TFLite GPU greedy in order -*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_GREEDYINORDER_H
#define MEMPLAN_CORE_STRATEGIES_GREEDYINORDER_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace memplan {

/// TFLite GPU GreedyInOrderAssignment: in program order, a tensor takes the
/// free object whose size is closest to its own (growing it if smaller), or
/// a new one. With a non-empty ReuseGraph, tensor I may take over an object
/// only when the tensor last assigned to it is listed in ReuseGraph[I] (so a
/// plan stays safe when tasks run in parallel). Any input order.
ObjectsAssignment
greedyInOrder(llvm::ArrayRef<UsageRecord> Records,
              llvm::ArrayRef<std::vector<size_t>> ReuseGraph = {});

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_GREEDYINORDER_H
