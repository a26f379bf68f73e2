//===- GreedyByBreadth.cpp - TFLite GPU greedy by breadth -----------------===//

#include "memplan/Core/Strategies/GreedyByBreadth.h"
#include "Internal.h"

#include <map>

using namespace memplan;

ObjectsAssignment
memplan::greedyByBreadth(llvm::ArrayRef<UsageRecord> Records) {
  ObjectsAssignment A;
  A.ObjectIds.assign(Records.size(), kNotAssigned);
  // Per object, the intervals of its tensors: first task -> last task.
  std::vector<std::map<uint64_t, uint64_t>> Schedules;
  auto IsFree = [&](size_t Obj, const UsageRecord &R) {
    const auto &S = Schedules[Obj];
    auto It = S.lower_bound(R.FirstTask);
    if (It != S.end() && It->first <= R.LastTask)
      return false;
    return It == S.begin() || std::prev(It)->second < R.FirstTask;
  };

  for (size_t I : internal::orderByBreadth(Records)) {
    const UsageRecord &R = Records[I];
    size_t NumObjects = Schedules.size(), Best = NumObjects;
    for (size_t Obj = 0; Obj < NumObjects; ++Obj) {
      if (Best != NumObjects) {
        uint64_t BestSize = A.ObjectSizes[Best], Size = A.ObjectSizes[Obj];
        // Prefer the smallest object that holds R, else the largest.
        if (BestSize < R.Size ? Size <= BestSize
                              : (Size < R.Size || Size >= BestSize))
          continue;
      }
      if (IsFree(Obj, R))
        Best = Obj;
    }
    if (Best == NumObjects) {
      Schedules.emplace_back();
      A.ObjectSizes.push_back(R.Size);
    } else {
      A.ObjectSizes[Best] = std::max(A.ObjectSizes[Best], R.Size);
    }
    Schedules[Best][R.FirstTask] = R.LastTask;
    A.ObjectIds[I] = Best;
  }
  return A;
}
