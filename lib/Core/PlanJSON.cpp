//===- PlanJSON.cpp - A plan as JSON --------------------------------------===//

#include "memplan/Core/PlanJSON.h"
#include "memplan/Core/LowerBound.h"

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
