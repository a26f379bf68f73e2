//===- StackingOrder.cpp - A plan that holds for every size ---------------===//

#include "memplan/Core/StackingOrder.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <numeric>

using namespace memplan;

StackingOrder memplan::stackingOrderOf(llvm::ArrayRef<UsageRecord> Records,
                                       const OffsetsAssignment &Plan) {
  size_t N = Records.size();
  StackingOrder S;
  S.Order.resize(N);
  std::iota(S.Order.begin(), S.Order.end(), 0);
  std::stable_sort(S.Order.begin(), S.Order.end(), [&](size_t A, size_t B) {
    return Plan.Offsets[A] < Plan.Offsets[B];
  });
  std::vector<size_t> Rank(N);
  for (size_t R = 0; R < N; ++R)
    Rank[S.Order[R]] = R;
  // All records below each one that it meets, then without those another
  // of them already lies on (quadratic: a function's dynamic buffers are
  // few).
  std::vector<std::vector<bool>> IsBelow(N, std::vector<bool>(N, false));
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < N; ++J)
      IsBelow[I][J] = Rank[J] < Rank[I] && Records[I].conflictsWith(Records[J]);
  S.Below.assign(N, {});
  for (size_t I = 0; I < N; ++I)
    for (size_t J = 0; J < N; ++J) {
      if (!IsBelow[I][J])
        continue;
      bool Implied = false;
      for (size_t K = 0; K < N && !Implied; ++K)
        Implied = IsBelow[I][K] && IsBelow[K][J];
      if (!Implied)
        S.Below[I].push_back(J);
    }
  return S;
}

std::optional<OffsetsAssignment>
memplan::placeByStacking(const StackingOrder &S, llvm::ArrayRef<uint64_t> Sizes,
                         uint64_t Alignment) {
  OffsetsAssignment P;
  P.Offsets.assign(Sizes.size(), 0);
  for (size_t I : S.Order) {
    uint64_t At = 0;
    for (size_t J : S.Below[I]) {
      std::optional<uint64_t> Top =
          llvm::checkedAddUnsigned(P.Offsets[J], Sizes[J]);
      if (!Top)
        return std::nullopt;
      At = std::max(At, *Top);
    }
    std::optional<uint64_t> Aligned =
        llvm::checkedAddUnsigned(At, Alignment - 1);
    if (!Aligned)
      return std::nullopt;
    P.Offsets[I] = *Aligned & ~(Alignment - 1);
    std::optional<uint64_t> End =
        llvm::checkedAddUnsigned(P.Offsets[I], Sizes[I]);
    if (!End)
      return std::nullopt;
    P.TotalSize = std::max(P.TotalSize, *End);
  }
  return P;
}
