//===- BestFit.cpp - XLA global decreasing-size best fit ------------------===//

#include "memplan/Core/Strategies/BestFit.h"
#include "Internal.h"

using namespace memplan;

OffsetsAssignment memplan::bestFitSize(llvm::ArrayRef<UsageRecord> Records) {
  // XLA's spatial order: size, then lifetime, both decreasing, then id.
  return internal::placeInOrder(Records, internal::orderBySizeLifetime(Records),
                                internal::GapPolicy::BestFit);
}

OffsetsAssignment memplan::bestFitArea(llvm::ArrayRef<UsageRecord> Records) {
  return internal::placeInOrder(Records, internal::orderByArea(Records),
                                internal::GapPolicy::BestFit);
}
