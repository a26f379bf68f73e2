//===- GreedyInOrder.cpp - TFLite GPU greedy in order ---------------------===//

#include "memplan/Core/Strategies/GreedyInOrder.h"
#include "Internal.h"

#include <algorithm>
#include <queue>
#include <set>

using namespace memplan;

ObjectsAssignment
memplan::greedyInOrder(llvm::ArrayRef<UsageRecord> Records,
                       llvm::ArrayRef<std::vector<size_t>> ReuseGraph) {
  ObjectsAssignment A;
  A.ObjectIds.assign(Records.size(), kNotAssigned);
  // Free objects by (size, id): the closest size is a lower_bound away.
  std::set<std::pair<uint64_t, size_t>> Free;
  using InUse = std::pair<uint64_t, size_t>; // (last task, object)
  std::priority_queue<InUse, std::vector<InUse>, std::greater<InUse>> Busy;
  std::vector<size_t> LastTensor; // Object -> tensor assigned last.
  auto Diff = [](uint64_t A, uint64_t B) { return A > B ? A - B : B - A; };

  for (size_t I : internal::orderByStart(Records)) {
    const UsageRecord &R = Records[I];
    while (!Busy.empty() && Busy.top().first < R.FirstTask) {
      size_t Obj = Busy.top().second;
      Free.insert({A.ObjectSizes[Obj], Obj});
      Busy.pop();
    }
    auto Best = Free.end();
    if (!ReuseGraph.empty()) {
      const std::vector<size_t> &Allowed = ReuseGraph[I];
      uint64_t BestDiff = 0;
      for (auto It = Free.begin(); It != Free.end(); ++It) {
        uint64_t D = Diff(It->first, R.Size);
        if (Best != Free.end() && D >= BestDiff)
          continue;
        if (std::find(Allowed.begin(), Allowed.end(), LastTensor[It->second]) ==
            Allowed.end())
          continue;
        Best = It;
        BestDiff = D;
      }
    } else if (!Free.empty()) {
      // The smallest object that holds the tensor, unless the largest one
      // that does not would grow by strictly less.
      auto It = Free.lower_bound({R.Size, 0});
      uint64_t BestDiff = 0;
      if (It != Free.end()) {
        Best = It;
        BestDiff = It->first - R.Size;
      }
      if (It != Free.begin()) {
        --It;
        if (Best == Free.end() || R.Size - It->first < BestDiff)
          Best = It;
      }
    }
    size_t Obj;
    if (Best == Free.end()) {
      Obj = A.ObjectSizes.size();
      A.ObjectSizes.push_back(R.Size);
      LastTensor.push_back(I);
    } else {
      Obj = Best->second;
      Free.erase(Best);
      A.ObjectSizes[Obj] = std::max(A.ObjectSizes[Obj], R.Size);
      LastTensor[Obj] = I;
    }
    A.ObjectIds[I] = Obj;
    Busy.push({R.LastTask, Obj});
  }
  return A;
}
