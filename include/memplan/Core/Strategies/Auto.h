//===- Auto.h - The default strategy: best of the rest ----------*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_AUTO_H
#define MEMPLAN_CORE_STRATEGIES_AUTO_H

#include "memplan/Core/Strategy.h"

namespace memplan {

/// Above this many records `auto` skips the exact search (its nodes cost
/// O(n) each) and returns the best fast plan.
constexpr size_t kAutoExactMaxRecords = 5000;

/// Above this many records `auto` runs three fast strategies, not five
/// (greedy by size, best fit by size, first fit).
constexpr size_t kAutoAllFastMaxRecords = 50000;

/// Runs the fast offset strategies (greedy by size, best fit by size and by
/// area, greedy by breadth, first fit; not by area and breadth above
/// kAutoAllFastMaxRecords), stopping at one that reaches the live-bytes
/// bound, and keeps the smallest valid plan (the first of equal ones); when it
/// is above the live-bytes bound (and above Options.Capacity, if given), runs
/// the exact search for Options.BudgetMs seeded with it and keeps a better
/// result. Correct for records in any order.
llvm::Expected<Plan> autoStrategy(llvm::ArrayRef<UsageRecord> Records,
                                  const StrategyOptions &Options);

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_AUTO_H
