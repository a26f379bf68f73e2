//===- Naive.cpp - One object per tensor ----------------------------------===//

#include "memplan/Core/Strategies/Naive.h"

using namespace memplan;

ObjectsAssignment
memplan::naiveAssignment(llvm::ArrayRef<UsageRecord> Records) {
  ObjectsAssignment A;
  for (size_t I = 0; I < Records.size(); ++I) {
    A.ObjectIds.push_back(I);
    A.ObjectSizes.push_back(Records[I].Size);
  }
  return A;
}
