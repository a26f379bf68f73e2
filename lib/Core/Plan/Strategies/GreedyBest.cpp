//===- GreedyBest.cpp - Best of the greedy object strategies --------------===//

#include "memplan/Core/Strategies/GreedyBest.h"
#include "Internal.h"
#include "memplan/Core/Strategies/GreedyByBreadth.h"
#include "memplan/Core/Strategies/GreedyBySize.h"

using namespace memplan;

ObjectsAssignment memplan::greedyBest(llvm::ArrayRef<UsageRecord> Records) {
  ObjectsAssignment BySize = greedyBySize(Records);
  ObjectsAssignment ByBreadth = greedyByBreadth(Records);
  if (internal::objectsTotal(ByBreadth) < internal::objectsTotal(BySize))
    return ByBreadth;
  return BySize;
}
