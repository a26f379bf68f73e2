//===- LowerBound.cpp - Lower bounds on the arena size
//---------------------===//

#include "memplan/Core/LowerBound.h"
#include "Strategies/Internal.h"

#include <algorithm>

using namespace memplan;

/// The most bytes live at once (saturating), and the first task where
/// they are. Starts and ends are sorted apart, then merged: a record stops
/// counting after LastTask, so before a start at task T go the ends below T.
static uint64_t sweepLiveBytes(llvm::ArrayRef<UsageRecord> Records,
                               uint64_t &PeakTask) {
  size_t N = Records.size();
  std::vector<std::pair<uint64_t, uint64_t>> Starts(N), Ends(N);
  for (size_t I = 0; I < N; ++I) {
    Starts[I] = {Records[I].FirstTask, Records[I].Size};
    Ends[I] = {Records[I].LastTask, Records[I].Size};
  }
  std::sort(Starts.begin(), Starts.end());
  std::sort(Ends.begin(), Ends.end());
  PeakTask = N ? Starts[0].first : 0;
  // Live bytes can exceed 64 bits only with absurd inputs; saturate.
  unsigned __int128 Live = 0, Max = 0;
  for (size_t S = 0, E = 0; S < N; ++S) {
    while (E < N && Ends[E].first < Starts[S].first)
      Live -= Ends[E++].second;
    Live += Starts[S].second;
    if (Live > Max) {
      Max = Live;
      PeakTask = Starts[S].first;
    }
  }
  return Max > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(Max);
}

uint64_t memplan::liveBytesLowerBound(llvm::ArrayRef<UsageRecord> Records) {
  uint64_t PeakTask;
  return sweepLiveBytes(Records, PeakTask);
}

LivePeak memplan::livePeak(llvm::ArrayRef<UsageRecord> Records) {
  LivePeak Peak;
  sweepLiveBytes(Records, Peak.Task);
  unsigned __int128 Sum = 0;
  for (size_t I = 0; I < Records.size(); ++I)
    if (Records[I].FirstTask <= Peak.Task && Peak.Task <= Records[I].LastTask) {
      Peak.Live.push_back(I);
      Sum += Records[I].Size;
    }
  Peak.Bytes = Sum > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(Sum);
  return Peak;
}

llvm::Expected<std::vector<UsageRecord>>
memplan::alignRecords(llvm::ArrayRef<UsageRecord> Records, uint64_t Alignment,
                      RecordNamer Name) {
  std::vector<UsageRecord> Aligned(Records.begin(), Records.end());
  for (size_t I = 0; I < Aligned.size(); ++I) {
    auto Size = checkedAlignToUnsigned(Aligned[I].Size, Alignment);
    if (!Size)
      return llvm::createStringError(
          recordName(Name, I) + ": size " + std::to_string(Aligned[I].Size) +
          " overflows 64 bits when aligned to " + std::to_string(Alignment));
    Aligned[I].Size = *Size;
  }
  return Aligned;
}

uint64_t memplan::objectsLowerBound(llvm::ArrayRef<UsageRecord> Records) {
  uint64_t Sum = 0;
  for (uint64_t Max : internal::positionalMaximums(Records)) {
    auto Next = llvm::checkedAddUnsigned(Sum, Max);
    if (!Next)
      return UINT64_MAX;
    Sum = *Next;
  }
  return Sum;
}
