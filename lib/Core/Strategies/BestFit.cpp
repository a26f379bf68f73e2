//===- BestFit.cpp - XLA global decreasing-size best fit ------------------===//

#include "memplan/Core/Strategies/BestFit.h"
#include "memplan/Core/Strategies/Internal.h"

#include <algorithm>
#include <numeric>

using namespace memplan;

static uint64_t lifetime(const UsageRecord &R) {
  return R.LastTask - R.FirstTask + 1;
}

OffsetsAssignment memplan::bestFitSize(llvm::ArrayRef<UsageRecord> Records) {
  // XLA's spatial order: size, then lifetime, both decreasing, then id.
  std::vector<size_t> Order(Records.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    if (Records[A].Size != Records[B].Size)
      return Records[A].Size > Records[B].Size;
    if (lifetime(Records[A]) != lifetime(Records[B]))
      return lifetime(Records[A]) > lifetime(Records[B]);
    return A < B;
  });
  return internal::placeInOrder(Records, Order, internal::GapPolicy::BestFit);
}

OffsetsAssignment memplan::bestFitArea(llvm::ArrayRef<UsageRecord> Records) {
  // Areas in 128 bits: size x lifetime can exceed 64.
  auto Area = [&](size_t I) {
    return (unsigned __int128)Records[I].Size * lifetime(Records[I]);
  };
  std::vector<size_t> Order(Records.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    if (Area(A) != Area(B))
      return Area(A) > Area(B);
    if (Records[A].Size != Records[B].Size)
      return Records[A].Size > Records[B].Size;
    return A < B;
  });
  return internal::placeInOrder(Records, Order, internal::GapPolicy::BestFit);
}
