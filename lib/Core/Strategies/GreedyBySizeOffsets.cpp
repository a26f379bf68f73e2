//===- GreedyBySizeOffsets.cpp - TFLite GPU greedy by size (offsets) ------===//

#include "memplan/Core/Strategies/GreedyBySizeOffsets.h"

#include <algorithm>
#include <numeric>
#include <set>

using namespace memplan;

OffsetsAssignment
memplan::greedyBySizeOffsets(llvm::ArrayRef<UsageRecord> Records) {
  std::vector<size_t> Order(Records.size());
  std::iota(Order.begin(), Order.end(), 0);
  // Ties broken by start then index so the plan does not depend on sort
  // stability.
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    if (Records[A].Size != Records[B].Size)
      return Records[A].Size > Records[B].Size;
    if (Records[A].FirstTask != Records[B].FirstTask)
      return Records[A].FirstTask < Records[B].FirstTask;
    return A < B;
  });

  OffsetsAssignment Result;
  Result.Offsets.assign(Records.size(), 0);
  // Placed records ordered by offset, as TFLite keeps them.
  std::set<std::pair<uint64_t, size_t>> Placed;
  for (size_t I : Order) {
    const UsageRecord &R = Records[I];
    uint64_t PrevEnd = 0;
    uint64_t BestOffset = 0, BestGap = UINT64_MAX;
    bool Found = false;
    for (const auto &[Off, J] : Placed) {
      const UsageRecord &Other = Records[J];
      if (!R.conflictsWith(Other))
        continue;
      if (Off >= PrevEnd) {
        uint64_t Gap = Off - PrevEnd;
        if (Gap >= R.Size && Gap < BestGap) {
          BestGap = Gap;
          BestOffset = PrevEnd;
          Found = true;
        }
      }
      PrevEnd = std::max(PrevEnd, Off + Other.Size);
    }
    uint64_t Offset = Found ? BestOffset : PrevEnd;
    Result.Offsets[I] = Offset;
    Result.TotalSize = std::max(Result.TotalSize, Offset + R.Size);
    Placed.insert({Offset, I});
  }
  return Result;
}
