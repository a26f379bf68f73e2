//===- Equality.cpp - Reuse only objects of exactly the same size ---------===//

#include "memplan/Core/Strategies/Equality.h"

using namespace memplan;

ObjectsAssignment
memplan::equalityAssignment(llvm::ArrayRef<UsageRecord> Records) {
  std::vector<SizedUsageRecord<uint64_t>> Sized;
  Sized.reserve(Records.size());
  for (const UsageRecord &R : Records)
    Sized.push_back({R.Size, R.FirstTask, R.LastTask});
  auto S = equalityAssignmentOf<uint64_t>(Sized);
  return ObjectsAssignment{std::move(S.ObjectIds), std::move(S.ObjectSizes)};
}
