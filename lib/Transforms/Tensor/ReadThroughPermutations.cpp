//===- ReadThroughPermutations.cpp - No buffer for a permuted constant ----===//
//
// torch-mlir writes a linear layer as a transpose of its weight into a fresh
// tensor, then a matmul of that. The transpose is constant-derived: folding
// it copies the weight at compile time, hoisting it keeps a second copy for
// good, and leaving it costs an arena buffer on every call. A linalg op can
// instead read the weight itself through the permuted indexing map, so the
// transposed tensor never exists (IREE and XLA fold such transposes into
// their consumers the same way).
//
//===----------------------------------------------------------------------===//

#include "ReadThroughPermutations.h"

#include "memplan/Analysis/ElementLayout.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

/// For a copy that only permutes (one input, a tensor.empty as its init,
/// all loops parallel, the body yields the input element), the map M with
/// result[y] = input[M(y)].
static std::optional<AffineMap> permutationOf(linalg::LinalgOp Op) {
  if (Op.getNumDpsInputs() != 1 || Op.getNumDpsInits() != 1 ||
      Op->getNumResults() != 1 || !Op.hasPureTensorSemantics() ||
      Op.getNumLoops() != Op.getNumParallelLoops())
    return std::nullopt;
  if (!Op.getDpsInitOperand(0)->get().getDefiningOp<tensor::EmptyOp>())
    return std::nullopt;
  Block *Body = Op.getBlock();
  if (!Body || Body->getOperations().size() != 1)
    return std::nullopt;
  auto Yield = dyn_cast<linalg::YieldOp>(Body->getTerminator());
  if (!Yield || Yield->getNumOperands() != 1 ||
      Yield->getOperand(0) != Body->getArgument(0))
    return std::nullopt;
  AffineMap In = Op.getMatchingIndexingMap(Op.getDpsInputOperand(0));
  AffineMap Out = Op.getMatchingIndexingMap(Op.getDpsInitOperand(0));
  if (!In.isPermutation() || !Out.isPermutation())
    return std::nullopt;
  return In.compose(inversePermutation(Out));
}

/// Whether every use of V is an input (not an init) of a linalg op whose
/// body reads it: those can read through a map instead.
static bool onlyReadByLinalg(Value V) {
  return !V.use_empty() && llvm::all_of(V.getUses(), [](OpOperand &Use) {
    auto L = dyn_cast<linalg::LinalgOp>(Use.getOwner());
    return L && L.isDpsInput(&Use) && L.hasPureTensorSemantics() &&
           !isa<linalg::TransposeOp, linalg::BroadcastOp>(Use.getOwner());
  });
}

uint64_t
memplan::readThroughPermutations(func::FuncOp Fn,
                                 const llvm::SetVector<Operation *> &Derived,
                                 unsigned &NumRemoved) {
  SmallVector<std::pair<linalg::LinalgOp, AffineMap>> Copies;
  for (Operation *Op : Derived)
    if (auto L = dyn_cast<linalg::LinalgOp>(Op))
      if (std::optional<AffineMap> M = permutationOf(L))
        if (onlyReadByLinalg(L->getResult(0)))
          Copies.push_back({L, *M});
  uint64_t Bytes = 0;
  IRRewriter Rewriter(Fn.getContext());
  for (auto [Copy, M] : Copies) {
    Value Source = Copy.getDpsInputOperand(0)->get();
    Value Permuted = Copy->getResult(0);
    SmallVector<OpOperand *> Uses;
    for (OpOperand &Use : Permuted.getUses())
      Uses.push_back(&Use);
    for (OpOperand *Use : Uses) {
      auto Reader = cast<linalg::LinalgOp>(Use->getOwner());
      unsigned Number = Use->getOperandNumber();
      linalg::GenericOp Generic = dyn_cast<linalg::GenericOp>(*Reader);
      if (!Generic) {
        Rewriter.setInsertionPoint(Reader);
        FailureOr<linalg::GenericOp> G =
            linalg::generalizeNamedOp(Rewriter, Reader);
        if (failed(G))
          continue;
        Generic = *G;
      }
      OpOperand &Operand = Generic->getOpOperand(Number);
      SmallVector<AffineMap> Maps = Generic.getIndexingMapsArray();
      AffineMap &Read = Maps[Number];
      Read = M.compose(Read);
      Rewriter.modifyOpInPlace(Generic, [&] {
        Operand.set(Source);
        Generic.setIndexingMapsAttr(Rewriter.getAffineMapArrayAttr(Maps));
      });
    }
    if (!Permuted.use_empty())
      continue;
    Bytes += tensorStaticPartBytes(Permuted.getType(), Copy).value_or(0);
    Value Init = Copy.getDpsInitOperand(0)->get();
    Rewriter.eraseOp(Copy);
    if (Operation *Empty = Init.getDefiningOp(); Empty && Empty->use_empty())
      Rewriter.eraseOp(Empty);
    ++NumRemoved;
  }
  return Bytes;
}
