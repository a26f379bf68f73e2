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

/// Makes every op that reads Permuted read Source through M instead; gives
/// whether no use of Permuted is left. A reader is generalized once (a
/// named op is replaced), then each of its operands that is Permuted is
/// rewritten: matmul(%t, %t) read freed memory when each use was taken in
/// turn.
static bool readThrough(IRRewriter &Rewriter, Value Permuted, Value Source,
                        AffineMap M) {
  llvm::SetVector<Operation *> Readers;
  for (Operation *User : Permuted.getUsers())
    Readers.insert(User);
  for (Operation *Reader : Readers) {
    auto Generic = dyn_cast<linalg::GenericOp>(Reader);
    if (!Generic) {
      Rewriter.setInsertionPoint(Reader);
      FailureOr<linalg::GenericOp> G =
          linalg::generalizeNamedOp(Rewriter, cast<linalg::LinalgOp>(Reader));
      if (failed(G))
        continue;
      Generic = *G;
    }
    SmallVector<AffineMap> Maps = Generic.getIndexingMapsArray();
    Rewriter.modifyOpInPlace(Generic, [&] {
      for (OpOperand *Operand : Generic.getDpsInputOperands())
        if (Operand->get() == Permuted) {
          AffineMap &Read = Maps[Operand->getOperandNumber()];
          Read = M.compose(Read);
          Operand->set(Source);
        }
      Generic.setIndexingMapsAttr(Rewriter.getAffineMapArrayAttr(Maps));
    });
  }
  return Permuted.use_empty();
}

uint64_t
memplan::readThroughPermutations(func::FuncOp Fn,
                                 const llvm::SetVector<Operation *> &Derived,
                                 unsigned &NumRemoved) {
  // Last first: a copy's readers come after it, so rewriting them never
  // touches a copy not yet done. First first, a copy of a copy was then
  // read with the map it had before its input was rewritten (a transpose
  // transposed back read the original transposed), or, named, was
  // generalized away and then used.
  SmallVector<linalg::LinalgOp> Copies;
  Fn.walk([&](linalg::LinalgOp L) {
    if (Derived.contains(L))
      Copies.push_back(L);
  });
  uint64_t Bytes = 0;
  IRRewriter Rewriter(Fn.getContext());
  for (linalg::LinalgOp Copy : llvm::reverse(Copies)) {
    std::optional<AffineMap> M = permutationOf(Copy);
    Value Permuted = Copy->getResult(0);
    if (!M || !onlyReadByLinalg(Permuted))
      continue;
    if (!readThrough(Rewriter, Permuted, Copy.getDpsInputOperand(0)->get(), *M))
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
