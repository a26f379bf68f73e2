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

#include "memplan/Core/Strategy.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace memplan;

namespace {

/// Values every index the sizes depend on takes in turn: sizes from one to a
/// long sequence, about 1.4x apart, so that the orders that win anywhere
/// between are found.
constexpr int64_t kSamples[] = {1,   2,   3,   4,    6,    8,    12,   16,
                                24,  32,  48,  64,   96,   128,  192,  256,
                                384, 512, 768, 1024, 1536, 2048, 3072, 4096};

/// With several leaves (a batch B and a length S), each leaf in turn also
/// takes each of these while the others take another: orders chosen on the
/// diagonal alone (B = S) were up to 1.5x larger at B = 1, S = 2048 on
/// random sets of B-, S-, S*S- and B*S-sized buffers. Up to kMaxSkewedLeaves
/// leaves, 12 points each.
constexpr int64_t kSkewSamples[] = {1, 16, 256, 4096};
constexpr size_t kMaxSkewedLeaves = 4;

/// The value of V when every leaf (an entry argument, or a dim of one) is
/// Sample, or its value in Skew. Fails with Unknown set when V is not a
/// polynomial of leaves; without it, when this sample overflows or goes
/// negative. Leaves lists the leaves met, in order.
struct Evaluator {
  Evaluator(Block &Entry, int64_t Sample,
            const DenseMap<Value, int64_t> *Skew = nullptr)
      : Entry(Entry), Sample(Sample), Skew(Skew) {}

  Block &Entry;
  int64_t Sample;
  const DenseMap<Value, int64_t> *Skew;
  bool Unknown = false;
  DenseMap<Value, std::optional<int64_t>> Memo;
  SmallVector<Value> Leaves;

  int64_t leafValue(Value Leaf) {
    if (!llvm::is_contained(Leaves, Leaf))
      Leaves.push_back(Leaf);
    if (Skew)
      if (auto It = Skew->find(Leaf); It != Skew->end())
        return It->second;
    return Sample;
  }

  std::optional<int64_t> eval(Value V) {
    auto It = Memo.find(V);
    if (It != Memo.end())
      return It->second;
    std::optional<int64_t> R = compute(V);
    Memo[V] = R;
    return R;
  }

  bool isLeaf(Value V) {
    if (auto Arg = dyn_cast<BlockArgument>(V))
      return Arg.getOwner() == &Entry;
    return false;
  }

  std::optional<int64_t> binary(Operation *Op) {
    std::optional<int64_t> L = eval(Op->getOperand(0));
    std::optional<int64_t> R = eval(Op->getOperand(1));
    if (!L || !R)
      return std::nullopt;
    int64_t A = *L, C = *R;
    auto Div = [&](bool Ceil) -> std::optional<int64_t> {
      if (C <= 0 || A < 0)
        return std::nullopt;
      return Ceil ? (A + C - 1) / C : A / C;
    };
    return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(Op)
        .Case<arith::AddIOp>([&](auto) { return llvm::checkedAdd(A, C); })
        .Case<arith::SubIOp>([&](auto) { return llvm::checkedSub(A, C); })
        .Case<arith::MulIOp>([&](auto) { return llvm::checkedMul(A, C); })
        .Case<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp>(
            [&](auto) { return Div(false); })
        .Case<arith::CeilDivSIOp, arith::CeilDivUIOp>(
            [&](auto) { return Div(true); })
        .Case<arith::RemSIOp, arith::RemUIOp>(
            [&](auto) -> std::optional<int64_t> {
              if (C <= 0 || A < 0)
                return std::nullopt;
              return A % C;
            })
        .Case<arith::MaxSIOp, arith::MaxUIOp>(
            [&](auto) { return std::max(A, C); })
        .Case<arith::MinSIOp, arith::MinUIOp>(
            [&](auto) { return std::min(A, C); })
        .Default([&](Operation *) {
          Unknown = true;
          return std::nullopt;
        });
  }

  std::optional<int64_t> affine(AffineMap Map, ValueRange Operands, bool Max,
                                bool Min) {
    SmallVector<Attribute> Consts;
    for (Value O : Operands) {
      std::optional<int64_t> C = eval(O);
      if (!C)
        return std::nullopt;
      Consts.push_back(IntegerAttr::get(IndexType::get(Map.getContext()), *C));
    }
    SmallVector<Attribute> Results;
    if (failed(Map.constantFold(Consts, Results)) || Results.empty())
      return std::nullopt;
    std::optional<int64_t> R;
    for (Attribute A : Results) {
      int64_t V = cast<IntegerAttr>(A).getInt();
      R = !R ? V : Max ? std::max(*R, V) : Min ? std::min(*R, V) : V;
    }
    return R;
  }

  std::optional<int64_t> compute(Value V) {
    if (isLeaf(V))
      return leafValue(V);
    Operation *Op = V.getDefiningOp();
    if (!Op) {
      Unknown = true;
      return std::nullopt;
    }
    if (auto C = dyn_cast<arith::ConstantOp>(Op)) {
      if (auto I = dyn_cast<IntegerAttr>(C.getValue()))
        return I.getValue().getSExtValue();
    }
    // A dim of an argument is a leaf: a size the caller picks.
    if (isa<memref::DimOp, tensor::DimOp>(Op) && isLeaf(Op->getOperand(0)))
      return leafValue(V);
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp>(Op))
      return eval(Op->getOperand(0));
    if (auto A = dyn_cast<affine::AffineApplyOp>(Op))
      return affine(A.getAffineMap(), A.getMapOperands(), false, false);
    if (auto A = dyn_cast<affine::AffineMaxOp>(Op))
      return affine(A.getAffineMap(), A.getMapOperands(), true, false);
    if (auto A = dyn_cast<affine::AffineMinOp>(Op))
      return affine(A.getAffineMap(), A.getMapOperands(), false, true);
    if (Op->getNumOperands() == 2 && Op->getNumResults() == 1)
      return binary(Op);
    Unknown = true;
    return std::nullopt;
  }
};

} // namespace

std::optional<std::vector<StackingOrder>>
memplan::chooseStackingOrders(ArrayRef<SymbolicBuffer> Buffers, Block &Entry,
                              uint64_t Alignment) {
  std::vector<StackingOrder> Orders;
  // Each sample's sizes, to judge every order at every sample.
  std::vector<std::vector<uint64_t>> SampleSizes;
  // The sample points: every leaf at each kSamples value, then, with
  // several leaves, each leaf apart from the others (found by a first
  // evaluation).
  SmallVector<std::pair<int64_t, DenseMap<Value, int64_t>>> Points;
  for (int64_t Sample : kSamples)
    Points.push_back({Sample, {}});
  {
    Evaluator Probe(Entry, 1);
    for (const SymbolicBuffer &Buf : Buffers)
      for (Value D : Buf.DynamicSizes)
        (void)Probe.eval(D);
    // With two leaves, the first apart from the second already gives every
    // pair of distinct values.
    size_t Skewed = Probe.Leaves.size() == 2 ? 1 : kMaxSkewedLeaves;
    if (Probe.Leaves.size() > 1)
      for (Value Leaf : ArrayRef(Probe.Leaves).take_front(Skewed))
        for (int64_t Own : kSkewSamples)
          for (int64_t Others : kSkewSamples)
            if (Own != Others)
              Points.push_back({Others, {{Leaf, Own}}});
  }
  for (const auto &[Sample, Skew] : Points) {
    Evaluator E(Entry, Sample, &Skew);
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
