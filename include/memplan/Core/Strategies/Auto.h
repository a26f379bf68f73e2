//===- Auto.h - The default strategy: best of the rest ----------*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_AUTO_H
#define MEMPLAN_CORE_STRATEGIES_AUTO_H

#include "memplan/Core/Strategy.h"

namespace memplan {

/// Above this many records `auto` skips the exact search (its nodes cost
/// O(n) each) and returns the best fast plan.
constexpr size_t kAutoExactMaxRecords = 5000;

/// Runs the fast offset strategies (greedy by size and by breadth, best fit
/// by size and by area, first fit) and keeps the smallest valid plan; when it
/// is above the live-bytes bound (and above Options.Capacity, if given), runs
/// the exact search for Options.BudgetMs seeded with it and keeps a better
/// result. Correct for records in any order.
llvm::Expected<Plan> autoStrategy(llvm::ArrayRef<UsageRecord> Records,
                                  const StrategyOptions &Options);

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_AUTO_H
