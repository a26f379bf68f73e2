//===- BestFit.h - XLA global decreasing-size best fit -*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_BESTFIT_H
#define MEMPLAN_CORE_STRATEGIES_BESTFIT_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

namespace memplan {

/// XLA heap simulator GlobalDecreasingSizeBestFitHeap: records by decreasing
/// size (then longer lifetime first), each into the smallest free chunk
/// that holds it among the records live at the same time.
OffsetsAssignment bestFitSize(llvm::ArrayRef<UsageRecord> Records);

/// The same with records by decreasing area (size x lifetime, in tasks).
OffsetsAssignment bestFitArea(llvm::ArrayRef<UsageRecord> Records);

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_BESTFIT_H
