//===- GreedyByBreadthOffsets.cpp - Greedy by breadth (offsets) -----------===//

#include "memplan/Core/Strategies/GreedyByBreadthOffsets.h"
#include "Internal.h"

using namespace memplan;

OffsetsAssignment
memplan::greedyByBreadthOffsets(llvm::ArrayRef<UsageRecord> Records) {
  return internal::placeInOrder(Records, internal::orderByBreadth(Records),
                                internal::GapPolicy::BestFit);
}
