//===- PlanJSON.cpp - A plan as JSON --------------------------------------===//

#include "memplan/Core/PlanJSON.h"
#include "memplan/Core/LowerBound.h"

#include <algorithm>

using namespace memplan;

uint64_t memplan::planLowerBound(const Plan &P,
                                 llvm::ArrayRef<UsageRecord> Records) {
  return P.Objects ? objectsLowerBound(Records) : liveBytesLowerBound(Records);
}

llvm::json::Value memplan::planToJSON(const Plan &P, uint64_t LowerBound) {
  auto Array = [](const auto &Values) {
    llvm::json::Array A;
    for (auto V : Values)
      A.push_back((uint64_t)V);
    return A;
  };
  llvm::json::Object O{{"strategy", P.Strategy},
                       {"chosen", P.Chosen.empty() ? P.Strategy : P.Chosen},
                       {"total_size", P.Offsets.TotalSize},
                       {"lower_bound", LowerBound},
                       {"optimal", P.Optimal},
                       {"offsets", Array(P.Offsets.Offsets)}};
  if (P.Objects) {
    O["object_ids"] = Array(P.Objects->ObjectIds);
    O["object_sizes"] = Array(P.Objects->ObjectSizes);
  }
  return llvm::json::Value(std::move(O));
}

LivePeak memplan::livePeak(llvm::ArrayRef<UsageRecord> Records) {
  // The sweep of liveBytesLowerBound, remembering where the maximum is.
  size_t N = Records.size();
  std::vector<std::pair<uint64_t, uint64_t>> Starts(N), Ends(N);
  for (size_t I = 0; I < N; ++I) {
    Starts[I] = {Records[I].FirstTask, Records[I].Size};
    Ends[I] = {Records[I].LastTask, Records[I].Size};
  }
  std::sort(Starts.begin(), Starts.end());
  std::sort(Ends.begin(), Ends.end());
  unsigned __int128 Live = 0, Max = 0;
  LivePeak Peak;
  for (size_t S = 0, E = 0; S < N; ++S) {
    while (E < N && Ends[E].first < Starts[S].first)
      Live -= Ends[E++].second;
    Live += Starts[S].second;
    if (Live > Max) {
      Max = Live;
      Peak.Task = Starts[S].first;
    }
  }
  if (Max == 0 && N)
    Peak.Task = Starts[0].first;
  unsigned __int128 Sum = 0;
  for (size_t I = 0; I < N; ++I)
    if (Records[I].FirstTask <= Peak.Task && Peak.Task <= Records[I].LastTask) {
      Peak.Live.push_back(I);
      Sum += Records[I].Size;
    }
  Peak.Bytes = Sum > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(Sum);
  return Peak;
}

llvm::json::Value memplan::peakToJSON(const LivePeak &Peak,
                                      llvm::ArrayRef<int64_t> Ids) {
  llvm::json::Array Live;
  for (size_t I : Peak.Live)
    Live.push_back(I < Ids.size() ? Ids[I] : static_cast<int64_t>(I));
  return llvm::json::Object{{"task", Peak.Task},
                            {"live", std::move(Live)},
                            {"bytes", Peak.Bytes}};
}
