//===- LowerBound.cpp - Lower bounds on the arena size
//---------------------===//

#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Arithmetic.h"
#include "memplan/Core/Strategies/Internal.h"

#include <algorithm>

using namespace memplan;

uint64_t memplan::liveBytesLowerBound(llvm::ArrayRef<UsageRecord> Records) {
  // Sweep over (task, delta) events; a record stops counting after LastTask,
  // so its end event sits at LastTask + 1 and sorts before starts there.
  struct Event {
    uint64_t Task;
    bool Start;
    uint64_t Size;
  };
  std::vector<Event> Events;
  Events.reserve(2 * Records.size());
  for (const UsageRecord &R : Records) {
    Events.push_back({R.FirstTask, true, R.Size});
    if (R.LastTask != UINT64_MAX)
      Events.push_back({R.LastTask + 1, false, R.Size});
  }
  std::sort(Events.begin(), Events.end(), [](const Event &A, const Event &B) {
    return A.Task != B.Task ? A.Task < B.Task : (!A.Start && B.Start);
  });
  // Live bytes can exceed 64 bits only with absurd inputs; saturate.
  unsigned __int128 Live = 0, Max = 0;
  for (const Event &E : Events) {
    if (E.Start) {
      Live += E.Size;
      Max = std::max(Max, Live);
    } else {
      Live -= E.Size;
    }
  }
  return Max > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(Max);
}

llvm::Expected<std::vector<UsageRecord>>
memplan::alignRecords(llvm::ArrayRef<UsageRecord> Records, uint64_t Alignment) {
  std::vector<UsageRecord> Aligned(Records.begin(), Records.end());
  for (size_t I = 0; I < Aligned.size(); ++I) {
    auto Size = checkedAlignTo(Aligned[I].Size, Alignment);
    if (!Size)
      return llvm::createStringError("record " + std::to_string(I) + ": size " +
                                     std::to_string(Aligned[I].Size) +
                                     " overflows 64 bits when aligned to " +
                                     std::to_string(Alignment));
    Aligned[I].Size = *Size;
  }
  return Aligned;
}

uint64_t memplan::objectsLowerBound(llvm::ArrayRef<UsageRecord> Records) {
  uint64_t Sum = 0;
  for (uint64_t Max : internal::positionalMaximums(Records)) {
    auto Next = checkedAdd(Sum, Max);
    if (!Next)
      return UINT64_MAX;
    Sum = *Next;
  }
  return Sum;
}
