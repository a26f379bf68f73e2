//===- GreedyBySizeOffsets.h - TFLite GPU greedy by size (offsets) -*- C++
//-*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_GREEDYBYSIZEOFFSETS_H
#define MEMPLAN_CORE_STRATEGIES_GREEDYBYSIZEOFFSETS_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

namespace memplan {

/// Largest record first; each goes into the smallest gap, among the already
/// placed records that conflict with it in time, that holds it, or on top of
/// them (TFLite GPU GreedyBySizeAssignment). Records may come in any order.
/// Sizes must already be aligned. O(n (k + 1) log n) for k conflicts per
/// record, instead of TFLite's O(n^2).
OffsetsAssignment greedyBySizeOffsets(llvm::ArrayRef<UsageRecord> Records);

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_GREEDYBYSIZEOFFSETS_H
