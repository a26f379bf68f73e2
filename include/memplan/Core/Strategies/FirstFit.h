//===- FirstFit.h - First fit in program order -*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_FIRSTFIT_H
#define MEMPLAN_CORE_STRATEGIES_FIRSTFIT_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

namespace memplan {

/// Records in program order (by first task), each at the lowest offset where
/// it fits among the records placed before it that are live at the same
/// time: what a simple runtime allocator without frees-reordering does.
OffsetsAssignment firstFit(llvm::ArrayRef<UsageRecord> Records);

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_FIRSTFIT_H
