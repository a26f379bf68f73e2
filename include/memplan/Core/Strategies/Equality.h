//===- Equality.h - Reuse only objects of exactly the same size -*- C++ -*-===//

#ifndef MEMPLAN_CORE_STRATEGIES_EQUALITY_H
#define MEMPLAN_CORE_STRATEGIES_EQUALITY_H

#include "memplan/Core/Strategies/SizedRecords.h"
#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <queue>
#include <tuple>

namespace memplan {

/// TFLite GPU EqualityAssignment: in program order, a tensor takes a free
/// object of exactly its size (the most recently freed one) or a new object.
/// Any size type ordered by operator<, so GPU textures (Size2D, Size3D) too.
/// Records may come in any order: they are visited sorted by first task.
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
  std::map<SizeT, std::vector<size_t>> Free;
  // Objects in use, the one freed first (then lowest id) on top.
  using InUse = std::pair<uint64_t, size_t>;
  std::priority_queue<InUse, std::vector<InUse>, std::greater<InUse>> Busy;
  for (size_t I : Order) {
    while (!Busy.empty() && Busy.top().first < Records[I].FirstTask) {
      size_t Obj = Busy.top().second;
      Free[A.ObjectSizes[Obj]].push_back(Obj);
      Busy.pop();
    }
    auto It = Free.find(Records[I].Size);
    size_t Obj;
    if (It == Free.end() || It->second.empty()) {
      Obj = A.ObjectSizes.size();
      A.ObjectSizes.push_back(Records[I].Size);
    } else {
      Obj = It->second.back();
      It->second.pop_back();
    }
    A.ObjectIds[I] = Obj;
    Busy.push({Records[I].LastTask, Obj});
  }
  return A;
}

ObjectsAssignment equalityAssignment(llvm::ArrayRef<UsageRecord> Records);

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_EQUALITY_H
