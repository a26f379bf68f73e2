//===- Validator.cpp - Checks that a plan is safe
//--------------------------===//

#include "memplan/Core/Validator.h"
#include "memplan/Core/Arithmetic.h"

#include <algorithm>
#include <numeric>
#include <queue>
#include <set>
#include <string>

using namespace memplan;

static std::string describe(size_t I, const UsageRecord &R, uint64_t Offset) {
  return "record " + std::to_string(I) + " (size " + std::to_string(R.Size) +
         ", tasks [" + std::to_string(R.FirstTask) + ", " +
         std::to_string(R.LastTask) + "], offset " + std::to_string(Offset) +
         ")";
}

llvm::Error memplan::validateOffsets(llvm::ArrayRef<UsageRecord> Records,
                                     const OffsetsAssignment &Plan,
                                     uint64_t Alignment) {
  if (Plan.Offsets.size() != Records.size())
    return llvm::createStringError(
        "plan has " + std::to_string(Plan.Offsets.size()) + " offsets for " +
        std::to_string(Records.size()) + " records");
  if (Alignment == 0 || !isPowerOf2(Alignment))
    return llvm::createStringError("alignment " + std::to_string(Alignment) +
                                   " is not a power of two");
  for (size_t I = 0; I < Records.size(); ++I) {
    const UsageRecord &R = Records[I];
    uint64_t Off = Plan.Offsets[I];
    if (R.FirstTask > R.LastTask)
      return llvm::createStringError(describe(I, R, Off) +
                                     " ends before it starts");
    if (Off % Alignment)
      return llvm::createStringError(describe(I, R, Off) +
                                     " is not aligned to " +
                                     std::to_string(Alignment));
    auto End = checkedAdd(Off, R.Size);
    if (!End || *End > Plan.TotalSize)
      return llvm::createStringError(describe(I, R, Off) +
                                     " does not fit in the arena of " +
                                     std::to_string(Plan.TotalSize) + " bytes");
  }

  // Sweep by start task. The active records are pairwise disjoint in bytes,
  // so a newcomer only has to be checked against its neighbours by offset.
  std::vector<size_t> Order(Records.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return Records[A].FirstTask < Records[B].FirstTask;
  });
  auto LaterEnd = [&](size_t A, size_t B) {
    return Records[A].LastTask > Records[B].LastTask;
  };
  std::priority_queue<size_t, std::vector<size_t>, decltype(LaterEnd)> Active(
      LaterEnd);
  std::set<std::pair<uint64_t, size_t>> ByOffset;
  for (size_t I : Order) {
    const UsageRecord &R = Records[I];
    if (R.Size == 0)
      continue;
    while (!Active.empty() && Records[Active.top()].LastTask < R.FirstTask) {
      size_t J = Active.top();
      Active.pop();
      ByOffset.erase({Plan.Offsets[J], J});
    }
    uint64_t Off = Plan.Offsets[I];
    auto It = ByOffset.lower_bound({Off, 0});
    if (It != ByOffset.end() && It->first < Off + R.Size)
      return llvm::createStringError(
          describe(I, R, Off) + " overlaps " +
          describe(It->second, Records[It->second], It->first));
    if (It != ByOffset.begin()) {
      auto Prev = std::prev(It);
      if (Prev->first + Records[Prev->second].Size > Off)
        return llvm::createStringError(
            describe(I, R, Off) + " overlaps " +
            describe(Prev->second, Records[Prev->second], Prev->first));
    }
    ByOffset.insert({Off, I});
    Active.push(I);
  }
  return llvm::Error::success();
}

llvm::Error memplan::validateObjects(llvm::ArrayRef<UsageRecord> Records,
                                     const ObjectsAssignment &Plan) {
  if (Plan.ObjectIds.size() != Records.size())
    return llvm::createStringError(
        "plan has " + std::to_string(Plan.ObjectIds.size()) +
        " object ids for " + std::to_string(Records.size()) + " records");
  std::vector<std::vector<size_t>> Members(Plan.ObjectSizes.size());
  for (size_t I = 0; I < Records.size(); ++I) {
    size_t Obj = Plan.ObjectIds[I];
    if (Obj >= Plan.ObjectSizes.size())
      return llvm::createStringError("record " + std::to_string(I) +
                                     " has no valid object");
    if (Plan.ObjectSizes[Obj] < Records[I].Size)
      return llvm::createStringError(
          "record " + std::to_string(I) + " of size " +
          std::to_string(Records[I].Size) + " is in object " +
          std::to_string(Obj) + " of only " +
          std::to_string(Plan.ObjectSizes[Obj]) + " bytes");
    Members[Obj].push_back(I);
  }
  // Members of one object must be disjoint in time: sorted by start, each
  // must begin after the previous one ended.
  for (size_t Obj = 0; Obj < Members.size(); ++Obj) {
    auto &M = Members[Obj];
    std::sort(M.begin(), M.end(), [&](size_t A, size_t B) {
      return Records[A].FirstTask < Records[B].FirstTask;
    });
    for (size_t K = 1; K < M.size(); ++K)
      if (Records[M[K]].FirstTask <= Records[M[K - 1]].LastTask)
        return llvm::createStringError("records " + std::to_string(M[K - 1]) +
                                       " and " + std::to_string(M[K]) +
                                       " share object " + std::to_string(Obj) +
                                       " but their lifetimes overlap");
  }
  return llvm::Error::success();
}
