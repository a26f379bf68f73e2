//===- Equality.cpp - Reuse only objects of exactly the same size ---------===//

#include "memplan/Core/Strategies/Equality.h"
#include "Internal.h"

#include <map>
#include <queue>

using namespace memplan;

ObjectsAssignment
memplan::equalityAssignment(llvm::ArrayRef<UsageRecord> Records) {
  ObjectsAssignment A;
  A.ObjectIds.assign(Records.size(), kNotAssigned);
  // Free objects by size; each list ends with the most recently freed.
  std::map<uint64_t, std::vector<size_t>> Free;
  // Objects in use, the one freed first (then lowest id) on top.
  using InUse = std::pair<uint64_t, size_t>;
  std::priority_queue<InUse, std::vector<InUse>, std::greater<InUse>> Busy;
  for (size_t I : internal::orderByStart(Records)) {
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
