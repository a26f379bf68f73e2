//===- Equality.h - Reuse only objects of exactly the same size -*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_EQUALITY_H
#define MEMPLAN_CORE_STRATEGIES_EQUALITY_H

#include "memplan/Core/Strategies/SizedRecords.h"
#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace memplan {

/// TFLite GPU EqualityAssignment for sizes that are shapes (GPU textures:
/// Size2D, Size3D, or any type with operator==): in program order, a tensor
/// takes the lowest-numbered object of exactly its shape that is free by its
/// first task, or a new object. Records may come in any order: they are
/// visited sorted by first task. O(n * objects).
template <typename SizeT>
SizedObjectsAssignment<SizeT>
equalityAssignmentOf(llvm::ArrayRef<SizedUsageRecord<SizeT>> Records) {
  std::vector<size_t> Order(Records.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return std::tie(Records[A].FirstTask, Records[A].LastTask, A) <
           std::tie(Records[B].FirstTask, Records[B].LastTask, B);
  });
  SizedObjectsAssignment<SizeT> A;
  A.ObjectIds.assign(Records.size(), kNotAssigned);
  std::vector<uint64_t> FreeAfter; // Object -> last task of its last tensor.
  for (size_t I : Order) {
    size_t Obj = 0;
    while (Obj < A.ObjectSizes.size() &&
           !(FreeAfter[Obj] < Records[I].FirstTask &&
             A.ObjectSizes[Obj] == Records[I].Size))
      ++Obj;
    if (Obj == A.ObjectSizes.size()) {
      A.ObjectSizes.push_back(Records[I].Size);
      FreeAfter.push_back(0);
    }
    A.ObjectIds[I] = Obj;
    FreeAfter[Obj] = Records[I].LastTask;
  }
  return A;
}

/// TFLite GPU EqualityAssignmentWithHash, for byte sizes: a tensor takes the
/// most recently freed object of exactly its size, or a new one. Any input
/// order. O(n log n).
ObjectsAssignment equalityAssignment(llvm::ArrayRef<UsageRecord> Records);

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_EQUALITY_H
