//===- InplacePairs.cpp - Records that share bytes by design --------------===//

#include "memplan/Core/InplacePairs.h"

#include <algorithm>
#include <string>

using namespace memplan;

static std::string pairName(const InplacePair &P, RecordNamer Name) {
  auto Of = [&](size_t I) { return Name ? Name(I) : std::to_string(I); };
  return "in-place pair (operand " + Of(P.Operand) + ", result " +
         Of(P.Result) + ")";
}

llvm::Expected<MergedRecords>
memplan::mergeInplacePairs(llvm::ArrayRef<UsageRecord> Records,
                           llvm::ArrayRef<InplacePair> Pairs,
                           RecordNamer Name) {
  size_t N = Records.size();
  constexpr size_t None = kNotAssigned;
  // Next[I]: the result that takes I's bytes; Prev[I]: the operand whose
  // bytes I takes. Each record dies once and starts once.
  std::vector<size_t> Next(N, None), Prev(N, None);
  for (const InplacePair &P : Pairs) {
    if (P.Operand >= N || P.Result >= N)
      return llvm::createStringError(
          pairName(P, {}) + " names a record out of " + std::to_string(N));
    if (P.Operand == P.Result)
      return llvm::createStringError(pairName(P, Name) + " pairs a record with "
                                                         "itself");
    if (Next[P.Operand] != None)
      return llvm::createStringError(pairName(P, Name) + ": " +
                                     recordName(Name, P.Operand) +
                                     " is the operand of two pairs");
    if (Prev[P.Result] != None)
      return llvm::createStringError(pairName(P, Name) + ": " +
                                     recordName(Name, P.Result) +
                                     " is the result of two pairs");
    const UsageRecord &A = Records[P.Operand], &B = Records[P.Result];
    // With FirstTask <= LastTask on both, this is "the ranges meet at
    // exactly one task": the operand's last, the result's first.
    if (A.FirstTask > A.LastTask || B.FirstTask > B.LastTask ||
        A.LastTask != B.FirstTask)
      return llvm::createStringError(
          pairName(P, Name) + ": tasks [" + std::to_string(A.FirstTask) + ", " +
          std::to_string(A.LastTask) + "] and [" + std::to_string(B.FirstTask) +
          ", " + std::to_string(B.LastTask) +
          "] do not meet at exactly one task");
    Next[P.Operand] = P.Result;
    Prev[P.Result] = P.Operand;
  }
  MergedRecords M;
  M.MergedOf.assign(N, None);
  for (size_t Head = 0; Head < N; ++Head) {
    if (Prev[Head] != None)
      continue;
    UsageRecord R = Records[Head];
    size_t Id = M.Records.size();
    for (size_t I = Head; I != None; I = Next[I]) {
      M.MergedOf[I] = Id;
      R.Size = std::max(R.Size, Records[I].Size);
      R.LastTask = std::max(R.LastTask, Records[I].LastTask);
    }
    M.Records.push_back(R);
  }
  // A record still unmerged sits on a cycle (every member has an operand).
  // Task ranges rule cycles out already; this keeps the merge total.
  for (size_t I = 0; I < N; ++I)
    if (M.MergedOf[I] == None)
      return llvm::createStringError("in-place pairs form a cycle through " +
                                     recordName(Name, I));
  return M;
}

OffsetsAssignment memplan::expandOffsets(const MergedRecords &Merged,
                                         const OffsetsAssignment &Plan) {
  OffsetsAssignment Out;
  Out.TotalSize = Plan.TotalSize;
  Out.Offsets.reserve(Merged.MergedOf.size());
  for (size_t M : Merged.MergedOf)
    Out.Offsets.push_back(Plan.Offsets[M]);
  return Out;
}

ObjectsAssignment memplan::expandObjects(const MergedRecords &Merged,
                                         const ObjectsAssignment &Plan) {
  ObjectsAssignment Out;
  Out.ObjectSizes = Plan.ObjectSizes;
  Out.ObjectIds.reserve(Merged.MergedOf.size());
  for (size_t M : Merged.MergedOf)
    Out.ObjectIds.push_back(Plan.ObjectIds[M]);
  return Out;
}

llvm::Expected<LivePeak>
memplan::livePeakWithPairs(llvm::ArrayRef<UsageRecord> Records,
                           llvm::ArrayRef<InplacePair> Pairs) {
  if (Pairs.empty())
    return livePeak(Records);
  auto Merged = mergeInplacePairs(Records, Pairs);
  if (!Merged)
    return Merged.takeError();
  LivePeak Peak = livePeak(Merged->Records);
  std::vector<size_t> Member(Merged->Records.size(), kNotAssigned);
  for (size_t I = 0; I < Records.size(); ++I) {
    const UsageRecord &R = Records[I];
    size_t &M = Member[Merged->MergedOf[I]];
    if (R.FirstTask <= Peak.Task && Peak.Task <= R.LastTask &&
        (M == kNotAssigned || Records[M].Size < R.Size))
      M = I;
  }
  std::vector<size_t> Live;
  for (size_t M : Peak.Live)
    if (Member[M] != kNotAssigned)
      Live.push_back(Member[M]);
  std::sort(Live.begin(), Live.end());
  Peak.Live = std::move(Live);
  return Peak;
}
