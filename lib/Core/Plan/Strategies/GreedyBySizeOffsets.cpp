//===- GreedyBySizeOffsets.cpp - TFLite GPU greedy by size (offsets) ------===//

#include "memplan/Core/Strategies/GreedyBySizeOffsets.h"
#include "Internal.h"

using namespace memplan;

OffsetsAssignment
memplan::greedyBySizeOffsets(llvm::ArrayRef<UsageRecord> Records) {
  // Ties broken by start then index so the plan does not depend on sort
  // stability; the gap search is TFLite's (smallest gap, lowest on ties).
  return internal::placeInOrder(Records, internal::orderBySizeDesc(Records),
                                internal::GapPolicy::BestFit);
}
