//===- SymbolicPlan.cpp - Offsets of dynamic buffers as arithmetic --------===//
//
// When the sizes of a function's dynamic buffers are polynomials of a few
// index values known at its entry (a sequence length S: 4*S*768, 4*S*S*12),
// their offsets are planned at compile time, as IREE does: not as numbers
// but as an order (StackingOrder.h), which the entry turns into offsets with
// a few adds and maxes. The order is valid for every value; it is made by
// planning the sizes at sample values, and where the best order changes
// with the value (S*768 against S*S crosses at S = 768), each winner is
// kept and the entry takes the one with the smallest arena. No call to the
// run-time planner, no cache.
//
//===----------------------------------------------------------------------===//

#include "SymbolicPlan.h"

#include "memplan/Analysis/SampledSizes.h"
#include "memplan/Core/Strategy.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace memplan;

std::optional<std::vector<StackingOrder>>
memplan::chooseStackingOrders(ArrayRef<SymbolicBuffer> Buffers, Block &Entry,
                              uint64_t Alignment) {
  std::vector<StackingOrder> Orders;
  // Each sample's sizes, to judge every order at every sample.
  std::vector<std::vector<uint64_t>> SampleSizes;
  // The sample points (SampledSizes.h), over the leaves a first
  // evaluation finds.
  SmallVector<SamplePoint> Points;
  {
    IndexSampler Probe(Entry, 1);
    for (const SymbolicBuffer &Buf : Buffers)
      for (Value D : Buf.DynamicSizes)
        (void)Probe.eval(D);
    Points = samplePoints(Probe.Leaves);
  }
  for (const auto &[Sample, Skew] : Points) {
    IndexSampler E(Entry, Sample, &Skew);
    std::vector<UsageRecord> Records;
    bool Usable = true;
    for (const SymbolicBuffer &Buf : Buffers) {
      std::optional<int64_t> Bytes = static_cast<int64_t>(Buf.Record.Size);
      for (Value D : Buf.DynamicSizes) {
        std::optional<int64_t> Dim = E.eval(D);
        if (E.Unknown)
          return std::nullopt;
        Bytes = Dim && *Dim >= 0 && Bytes ? llvm::checkedMul(*Bytes, *Dim)
                                          : std::nullopt;
      }
      if (!Bytes) {
        Usable = false;
        break;
      }
      Records.emplace_back(static_cast<uint64_t>(*Bytes), Buf.Record.FirstTask,
                           Buf.Record.LastTask);
    }
    if (!Usable)
      continue;
    StrategyOptions Options;
    Options.Alignment = Alignment;
    Options.BudgetMs = 10;
    llvm::Expected<Plan> P = planMemory("auto", Records, Options);
    if (!P) {
      llvm::consumeError(P.takeError());
      continue;
    }
    std::vector<uint64_t> Sizes;
    for (const UsageRecord &R : Records)
      Sizes.push_back(R.Size);
    SampleSizes.push_back(std::move(Sizes));
    StackingOrder S = stackingOrderOf(Records, P->Offsets);
    if (!llvm::is_contained(Orders, S))
      Orders.push_back(std::move(S));
  }
  if (Orders.empty())
    return std::nullopt;
  // Each order's arena at each sample, and the smallest there.
  size_t NS = SampleSizes.size();
  std::vector<std::vector<std::optional<uint64_t>>> Totals(Orders.size());
  std::vector<std::optional<uint64_t>> Least(NS);
  for (size_t K = 0; K < Orders.size(); ++K)
    for (size_t I = 0; I < NS; ++I) {
      std::optional<OffsetsAssignment> P =
          placeByStacking(Orders[K], SampleSizes[I], Alignment);
      Totals[K].push_back(P ? std::optional<uint64_t>(P->TotalSize)
                            : std::nullopt);
      if (P && (!Least[I] || P->TotalSize < *Least[I]))
        Least[I] = P->TotalSize;
    }
  // Few orders that together give the smallest arena at every sample
  // (greedy set cover), so the entry computes only those. Every sample is
  // covered (its own order places its sizes without overflow), so at least
  // one order is kept. Within one alignment unit of the smallest counts:
  // orders that differ only in which buffer on top goes unpadded (B and S
  // buffers that meet) are not worth a second order's adds at every entry.
  auto Covers = [&](size_t K, size_t I) {
    return Totals[K][I] && *Totals[K][I] - *Least[I] < Alignment;
  };
  std::vector<bool> Covered(NS, false), Taken(Orders.size(), false);
  std::vector<StackingOrder> Kept;
  for (;;) {
    size_t BestK = 0, BestCount = 0;
    for (size_t K = 0; K < Orders.size(); ++K) {
      size_t Count = 0;
      for (size_t I = 0; I < NS; ++I)
        Count += !Taken[K] && !Covered[I] && Covers(K, I);
      if (Count > BestCount) {
        BestK = K;
        BestCount = Count;
      }
    }
    if (!BestCount)
      break;
    Taken[BestK] = true;
    for (size_t I = 0; I < NS; ++I)
      Covered[I] = Covered[I] || Covers(BestK, I);
    Kept.push_back(Orders[BestK]);
  }
  return Kept;
}

std::pair<Value, SmallVector<Value>> memplan::emitStackedOffsets(
    OpBuilder &B, Location Loc, ArrayRef<StackingOrder> Orders,
    ArrayRef<Value> Bytes, Value Overflow, uint64_t Alignment) {
  Type I64 = B.getI64Type();
  auto Const = [&](int64_t V) {
    return arith::ConstantIntOp::create(B, Loc, I64, V).getResult();
  };
  Value Zero = Const(0);
  // a + b, noting an unsigned wrap in Overflow.
  auto Add = [&](Value A, Value C) {
    auto Sum = arith::AddUIExtendedOp::create(B, Loc, A, C);
    Overflow = arith::OrIOp::create(B, Loc, Overflow, Sum.getOverflow());
    return Sum.getSum();
  };
  auto AlignUp = [&](Value V) -> Value {
    if (Alignment <= 1)
      return V;
    Value Up = Add(V, Const(static_cast<int64_t>(Alignment - 1)));
    return arith::AndIOp::create(B, Loc, Up,
                                 Const(~static_cast<int64_t>(Alignment - 1)));
  };
  size_t N = Bytes.size();
  Value BestTotal;
  SmallVector<Value> Best;
  for (const StackingOrder &S : Orders) {
    SmallVector<Value> Offset(N), End(N);
    std::vector<bool> IsBelowSome(N, false);
    for (size_t I : S.Order) {
      Value At;
      for (size_t J : S.Below[I]) {
        IsBelowSome[J] = true;
        At = At ? arith::MaxUIOp::create(B, Loc, At, End[J]).getResult()
                : End[J];
      }
      Offset[I] = At ? AlignUp(At) : Zero;
      End[I] = At ? Add(Offset[I], Bytes[I]) : Bytes[I];
    }
    // The records nothing lies on hold the arena's top.
    Value Total;
    for (size_t I = 0; I < N; ++I)
      if (!IsBelowSome[I])
        Total = Total
                    ? arith::MaxUIOp::create(B, Loc, Total, End[I]).getResult()
                    : End[I];
    if (!BestTotal) {
      BestTotal = Total;
      Best = Offset;
      continue;
    }
    Value Smaller = arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::ult,
                                          Total, BestTotal);
    BestTotal = arith::SelectOp::create(B, Loc, Smaller, Total, BestTotal);
    for (size_t I = 0; I < N; ++I)
      Best[I] = arith::SelectOp::create(B, Loc, Smaller, Offset[I], Best[I]);
  }
  // An overflow asks the runtime for -1 bytes: it reports and stops rather
  // than hand out an arena too small.
  Value Total = arith::SelectOp::create(B, Loc, Overflow, Const(-1), BestTotal);
  return {Total, Best};
}
