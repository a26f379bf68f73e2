//===- FirstFit.cpp - First fit in program order --------------------------===//

#include "memplan/Core/Strategies/FirstFit.h"
#include "Internal.h"

using namespace memplan;

OffsetsAssignment memplan::firstFit(llvm::ArrayRef<UsageRecord> Records) {
  return internal::placeInOrder(Records, internal::orderByStart(Records),
                                internal::GapPolicy::FirstFit);
}
