//===- Naive.h - One object per tensor --------------------------*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_NAIVE_H
#define MEMPLAN_CORE_STRATEGIES_NAIVE_H

#include "memplan/Core/Strategies/SizedRecords.h"
#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

namespace memplan {

/// TFLite GPU NaiveAssignment: tensor I gets object I of its own size. The
/// baseline every other strategy is measured against. Any size type.
template <typename SizeT>
SizedObjectsAssignment<SizeT>
naiveAssignmentOf(llvm::ArrayRef<SizedUsageRecord<SizeT>> Records) {
  SizedObjectsAssignment<SizeT> A;
  for (size_t I = 0; I < Records.size(); ++I) {
    A.ObjectIds.push_back(I);
    A.ObjectSizes.push_back(Records[I].Size);
  }
  return A;
}

ObjectsAssignment naiveAssignment(llvm::ArrayRef<UsageRecord> Records);

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_NAIVE_H
