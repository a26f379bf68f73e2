//===- ArenaResult.cpp - One arena's plan, for every reader ---------------===//

#include "memplan/Core/ArenaResult.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace memplan;

ArenaResult memplan::arenaResult(Plan P, std::vector<UsageRecord> Records) {
  assert(P.Offsets.Offsets.size() == Records.size() &&
         "a plan has one offset per record");
  ArenaResult A;
  static_cast<Plan &>(A) = std::move(P);
  A.Records = std::move(Records);
  A.Buffers.resize(A.Records.size());
  for (auto [I, R] : llvm::enumerate(A.Records)) {
    A.BytesWithoutPlanning =
        llvm::SaturatingAdd(A.BytesWithoutPlanning, R.Size);
    A.Buffers[I].Id = std::to_string(I);
  }
  return A;
}

std::vector<std::optional<size_t>> ArenaResult::inplaceOf() const {
  std::vector<std::optional<size_t>> Of(Records.size());
  for (const InplacePair &Pair : InplacePairs)
    Of[Pair.Result] = Pair.Operand;
  return Of;
}
