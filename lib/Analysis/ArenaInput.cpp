//===- ArenaInput.cpp - The planner's input from the planned buffers ------===//
//
// Groups a function's planned buffers by memory space (one arena each) and
// turns a group into the records and alignment a strategy is given.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/UsageRecordsFromIR.h"

using namespace mlir;
using namespace memplan;

SmallVector<ArenaGroup>
memplan::groupByMemorySpace(const FunctionBuffers &Buffers) {
  SmallVector<ArenaGroup> Groups;
  for (const PlannableBuffer &B : Buffers.Planned) {
    auto It = llvm::find_if(Groups, [&](const ArenaGroup &G) {
      return G.MemorySpace == B.MemorySpace;
    });
    if (It == Groups.end()) {
      Groups.push_back({B.MemorySpace, {}});
      It = std::prev(Groups.end());
    }
    It->Buffers.push_back(&B);
  }
  return Groups;
}

ArenaInput memplan::arenaInput(const ArenaGroup &Group, uint64_t NumTasks,
                               uint64_t Alignment, bool PreserveIntermediates) {
  ArenaInput In;
  In.Alignment = Alignment;
  for (const PlannableBuffer *B : Group.Buffers) {
    UsageRecord R = B->Record;
    if (PreserveIntermediates || B->Persistent) {
      // Every task of the function: live with every other buffer.
      R.FirstTask = 0;
      R.LastTask = NumTasks ? NumTasks - 1 : 0;
    }
    In.Records.push_back(R);
    In.Alignment = std::max(In.Alignment, B->Alignment);
  }
  assert(In.Records.size() == Group.Buffers.size() &&
         "one record per buffer, in the group's order");
  return In;
}
