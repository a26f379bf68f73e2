//===- GreedyBest.h - Best of the greedy object strategies -*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_GREEDYBEST_H
#define MEMPLAN_CORE_STRATEGIES_GREEDYBEST_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

namespace memplan {

/// TFLite GPU BestGreedy: greedy by size, unless greedy by breadth needs
/// strictly fewer bytes.
ObjectsAssignment greedyBest(llvm::ArrayRef<UsageRecord> Records);

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_GREEDYBEST_H
