//===- GreedyBySize.cpp - TFLite GPU greedy by size (objects) -------------===//

#include "memplan/Core/Strategies/GreedyBySize.h"
#include "Internal.h"

#include <algorithm>

using namespace memplan;

namespace {
constexpr uint64_t kNone = UINT64_MAX;

/// Priority of one unassigned tensor (TFLite's SizeDistPriorityInfo).
struct Priority {
  size_t Position = 0;
  uint64_t Size = 0;
  /// Dist[Obj]: the smallest distance in tasks to a tensor of Obj, or kNone
  /// when the tensor conflicts with one of them.
  std::vector<uint64_t> Dist;
  uint64_t BestDist = kNone;
  size_t BestObject = kNotAssigned;

  /// Leftmost position, then smallest distance, then largest size.
  bool before(const Priority &O) const {
    if (Position != O.Position)
      return Position < O.Position;
    if (BestDist != O.BestDist)
      return BestDist < O.BestDist;
    return Size > O.Size;
  }
  void recalcBest() {
    BestDist = kNone;
    for (size_t Obj = 0; Obj < Dist.size(); ++Obj)
      if (Dist[Obj] < BestDist) {
        BestDist = Dist[Obj];
        BestObject = Obj;
      }
  }
};
} // namespace

static uint64_t distance(const UsageRecord &A, const UsageRecord &B) {
  if (A.LastTask < B.FirstTask)
    return B.FirstTask - A.LastTask;
  if (B.LastTask < A.FirstTask)
    return A.FirstTask - B.LastTask;
  return kNone;
}

ObjectsAssignment memplan::greedyBySize(llvm::ArrayRef<UsageRecord> Records) {
  std::vector<uint64_t> PosMax = internal::positionalMaximums(Records);
  size_t N = Records.size();
  std::vector<Priority> Info(N);
  for (size_t I = 0; I < N; ++I) {
    Info[I].Size = Records[I].Size;
    // The rightmost positional maximum that holds the tensor; the first
    // always does (it is the largest size).
    size_t Pos =
        std::partition_point(PosMax.begin(), PosMax.end(),
                             [&](uint64_t M) { return M >= Records[I].Size; }) -
        PosMax.begin();
    Info[I].Position = Pos == 0 ? 0 : Pos - 1;
  }

  ObjectsAssignment A;
  A.ObjectIds.assign(N, kNotAssigned);
  for (size_t Step = 0; Step < N; ++Step) {
    size_t Best = kNotAssigned;
    for (size_t I = 0; I < N; ++I)
      if (A.ObjectIds[I] == kNotAssigned &&
          (Best == kNotAssigned || Info[I].before(Info[Best])))
        Best = I;
    size_t Obj = Info[Best].BestObject;
    bool NewObject = Info[Best].BestDist == kNone;
    if (NewObject) {
      Obj = A.ObjectSizes.size();
      A.ObjectSizes.push_back(Records[Best].Size);
    } else {
      A.ObjectSizes[Obj] = std::max(A.ObjectSizes[Obj], Records[Best].Size);
    }
    A.ObjectIds[Best] = Obj;

    // Distances to Obj changed for every tensor still unassigned.
    for (size_t I = 0; I < N; ++I) {
      if (A.ObjectIds[I] != kNotAssigned)
        continue;
      Priority &P = Info[I];
      if (!NewObject && P.Dist[Obj] == kNone)
        continue; // Already conflicts with Obj.
      uint64_t D = distance(Records[I], Records[Best]);
      if (NewObject) {
        P.Dist.push_back(D);
      } else if (D == kNone) {
        P.Dist[Obj] = kNone;
        if (P.BestObject == Obj)
          P.recalcBest();
      } else {
        P.Dist[Obj] = std::min(P.Dist[Obj], D);
      }
      if (D < P.BestDist) {
        P.BestDist = D;
        P.BestObject = Obj;
      }
    }
  }
  return A;
}
