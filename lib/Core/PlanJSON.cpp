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

llvm::json::Value memplan::peakToJSON(const LivePeak &Peak,
                                      llvm::ArrayRef<int64_t> Ids) {
  llvm::json::Array Live;
  for (size_t I : Peak.Live)
    Live.push_back(I < Ids.size() ? Ids[I] : static_cast<int64_t>(I));
  return llvm::json::Object{
      {"task", Peak.Task}, {"live", std::move(Live)}, {"bytes", Peak.Bytes}};
}
