//===- ReverseStack.h - The test strategy a user would register -*- C++ -*-===//
//
// Every buffer its own range, stacked from the last record down. No built-in
// strategy makes this plan, so tests can tell a user's strategy ran.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TEST_LIB_REVERSESTACK_H
#define MEMPLAN_TEST_LIB_REVERSESTACK_H

#include "memplan/Core/Strategy.h"

namespace memplan::test {

inline llvm::Expected<Plan> reverseStack(llvm::ArrayRef<UsageRecord> Records,
                                         const StrategyOptions &) {
  OffsetsAssignment A;
  A.Offsets.resize(Records.size());
  for (size_t I = Records.size(); I-- > 0;) {
    A.Offsets[I] = A.TotalSize;
    A.TotalSize += Records[I].Size;
  }
  return planFromOffsets(A);
}

} // namespace memplan::test

#endif
