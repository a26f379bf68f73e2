//===- PlanJSON.h - A plan as JSON ------------------------------*- C++ -*-===//
//
// One schema for every tool that reports a plan (memplan-solve, the pass):
//   {"strategy": S, "chosen": S, "total_size": N, "lower_bound": N,
//    "optimal": B, "offsets": [N, ...]}    offsets in record order
// plus "object_ids": [N, ...] and "object_sizes": [N, ...] for plans of
// shared-object strategies. "chosen" is the strategy that made the plan (the
// one `auto` picked). Reports add "peak": {"task": T, "live": [ids],
// "bytes": B}, the task where the live aligned bytes peak, the records live
// there and their aligned bytes (= the live-bytes lower bound).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_PLANJSON_H
#define MEMPLAN_CORE_PLANJSON_H

#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Strategy.h"

#include "llvm/Support/JSON.h"

#include <vector>

namespace memplan {

/// The lower bound a plan is measured against: the sum of positional
/// maximums for shared-object plans, live bytes otherwise. Records must be
/// the aligned ones the plan was made for.
uint64_t planLowerBound(const Plan &P, llvm::ArrayRef<UsageRecord> Records);

llvm::json::Value planToJSON(const Plan &P, uint64_t LowerBound);

/// {"bytes": B, "live": [ids...], "task": T}; Ids maps record indices to the
/// ids written (empty: the indices themselves).
llvm::json::Value peakToJSON(const LivePeak &Peak,
                             llvm::ArrayRef<int64_t> Ids = {});

} // namespace memplan

#endif // MEMPLAN_CORE_PLANJSON_H
