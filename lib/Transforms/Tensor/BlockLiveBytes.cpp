//===- BlockLiveBytes.cpp - Live bytes of a tensor block, by op -----------===//

#include "BlockLiveBytes.h"
#include "ScheduleInternal.h"

#include "memplan/Analysis/ElementLayout.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/EquivalenceClasses.h"

#include <algorithm>

using namespace mlir;
using namespace memplan;

// Whether `Map` reads element i of a `Type` operand at iteration i: the
// identity, or a constant 0 on a unit dimension (torch-mlir reads a batch
// of 1 as `(d0, d1, d2, d3) -> (0, d1, d2, d3)`).
static bool readsAtIdentity(AffineMap Map, RankedTensorType Type) {
  if (Map.getNumResults() != Map.getNumDims() ||
      Map.getNumResults() != Type.getRank())
    return false;
  for (auto [I, E] : llvm::enumerate(Map.getResults())) {
    auto Dim = dyn_cast<AffineDimExpr>(E);
    auto Zero = dyn_cast<AffineConstantExpr>(E);
    if (!(Dim && Dim.getPosition() == I) &&
        !(Zero && Zero.getValue() == 0 && Type.getDimSize(I) == 1))
      return false;
  }
  return true;
}

Value memplan::dyingInput(linalg::GenericOp G) {
  if (G.getNumDpsInits() != 1 || G.getNumResults() != 1 ||
      G.getNumParallelLoops() != G.getNumLoops())
    return {};
  OpOperand *Init = G.getDpsInitOperand(0);
  if (G.payloadUsesValueFromOperand(Init) ||
      !G.getMatchingIndexingMap(Init).isIdentity() ||
      !Init->get().getDefiningOp<tensor::EmptyOp>())
    return {};
  for (OpOperand *In : G.getDpsInputOperands()) {
    Value V = In->get();
    Operation *Def = V.getDefiningOp();
    if (V.getType() != G.getResult(0).getType() || !V.hasOneUse() || !Def ||
        Def->getBlock() != G->getBlock() ||
        !isa<DestinationStyleOpInterface>(Def) ||
        !readsAtIdentity(G.getMatchingIndexingMap(In),
                         cast<RankedTensorType>(V.getType())))
      continue;
    return V;
  }
  return {};
}

// Values whose buffer is their source's (an alias, not a new buffer).
static Value sharedSource(Value V) {
  auto R = dyn_cast<OpResult>(V);
  if (!R)
    return {};
  Operation *Op = R.getOwner();
  // What tensor-mem-plan inplace=true does after bufferization.
  if (auto G = dyn_cast<linalg::GenericOp>(Op))
    if (Value In = dyingInput(G))
      return In;
  if (auto DPS = dyn_cast<DestinationStyleOpInterface>(Op))
    return DPS.getTiedOpOperand(R)->get();
  // Slices, reshapes, casts, and tensors read from memory (their source is
  // a memref: no arena bytes).
  if (tensor_schedule::isView(Op))
    return Op->getOperand(0);
  return {};
}

// Bytes a value's buffer takes when the value starts one.
static uint64_t ownBytes(Value V, Operation *Scope) {
  auto R = dyn_cast<OpResult>(V);
  if (!R || !isa<RankedTensorType>(V.getType()) || sharedSource(V))
    return 0;
  // Constants are no arena bytes.
  if (R.getOwner()->hasTrait<OpTrait::ConstantLike>())
    return 0;
  return staticTensorBytes(V.getType(), Scope).value_or(0);
}

BlockLiveBytes::BlockLiveBytes(Block &B) : B(B) {
  unsigned N = 0;
  for (Operation &Op : B)
    Position[&Op] = N++;
  Curve.assign(N, 0);
  llvm::EquivalenceClasses<Value> Buffers;
  SmallVector<Value> Values;
  for (Operation &Op : B)
    for (Value V : Op.getResults()) {
      if (!isa<RankedTensorType>(V.getType()))
        continue;
      Values.push_back(V);
      Buffers.insert(V);
      if (Value Src = sharedSource(V))
        if (Src.getParentBlock() == &B && !isa<BlockArgument>(Src))
          Buffers.unionSets(V, Src);
      // An op writing over its dying input allocates no init either.
      if (auto G = dyn_cast<linalg::GenericOp>(&Op))
        if (dyingInput(G))
          Buffers.unionSets(V, G.getDpsInitOperand(0)->get());
    }
  struct Span {
    uint64_t Bytes = 0;
    unsigned First = ~0u, Last = 0;
  };
  llvm::DenseMap<Value, Span> Spans;
  for (Value V : Values) {
    Span &S = Spans[Buffers.getLeaderValue(V)];
    S.Bytes = std::max(S.Bytes, ownBytes(V, B.getParentOp()));
    unsigned Def = Position[V.getDefiningOp()];
    // A tensor.empty has no contents: its buffer starts at its first user.
    if (!isa<tensor::EmptyOp>(V.getDefiningOp()))
      S.First = std::min(S.First, Def);
    for (Operation *User : V.getUsers()) {
      unsigned P = position(User);
      S.First = std::min(S.First, P);
      bool ToEnd = User->getBlock() != &B || User == B.getTerminator();
      S.Last = std::max(S.Last, ToEnd ? N - 1 : P);
    }
    S.Last = std::max(S.Last, std::min(S.First, Def));
  }
  for (auto &[Leader, S] : Spans)
    for (unsigned I = S.First; I <= S.Last && I < N; ++I)
      Curve[I] += S.Bytes;
}

unsigned BlockLiveBytes::position(Operation *Op) const {
  Operation *A = B.findAncestorOpInBlock(*Op);
  return A ? Position.lookup(A) : Curve.size() - 1;
}

uint64_t BlockLiveBytes::peak() const {
  return Curve.empty() ? 0 : *std::max_element(Curve.begin(), Curve.end());
}

uint64_t BlockLiveBytes::peakWith(const std::vector<int64_t> &Delta) const {
  uint64_t Peak = 0;
  for (unsigned I = 0; I < Curve.size(); ++I)
    Peak = std::max<uint64_t>(Peak, int64_t(Curve[I]) + Delta[I]);
  return Peak;
}
