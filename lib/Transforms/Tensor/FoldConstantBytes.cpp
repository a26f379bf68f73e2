//===- FoldConstantBytes.cpp - Fold layout ops on raw bytes ---------------===//
//
// torch-mlir writes real weights as dense_resource blobs, which MLIR's
// folders do not read, and the folders that read dense attributes go element
// by element through attributes (minutes for a large weight). Here a
// constant's layout op or element cast becomes a new constant built from the
// raw bytes: rows and tiles moved with memcpy, a reshape not copied at all.
//
//===----------------------------------------------------------------------===//

#include "FoldConstantBytes.h"
#include "ConstantBytes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

#include <cstring>
#include <vector>

#define DEBUG_TYPE "memplan-fold-constant-bytes"

using namespace mlir;
using namespace memplan;
using namespace memplan::constant_bytes;

namespace {
/// The bytes of a constant: row-major elements, one when it is a splat or a
/// scalar.
struct ConstantData {
  ArrayRef<char> Data;
  bool Splat = false;
  bool Blob = false;
  uint64_t ScalarBits = 0;
  bool IsScalar = false;
  const char *bytes() const {
    return IsScalar ? reinterpret_cast<const char *>(&ScalarBits) : Data.data();
  }
};

std::optional<ConstantData> dataOf(Value V) {
  Attribute A;
  if (!matchPattern(V, m_Constant(&A)))
    return std::nullopt;
  std::optional<unsigned> Bytes = elementBytes(getElementTypeOrSelf(V));
  if (!Bytes)
    return std::nullopt;
  ConstantData C;
  if (auto R = dyn_cast<DenseResourceElementsAttr>(A)) {
    // An elided blob has no data.
    C.Data = R.getData();
    C.Blob = true;
    if (C.Data.empty() || !R.getType().hasStaticShape() ||
        C.Data.size() != uint64_t(R.getType().getNumElements()) * *Bytes)
      return std::nullopt;
    return C;
  }
  if (auto D = dyn_cast<DenseIntOrFPElementsAttr>(A)) {
    C.Data = D.getRawData();
    C.Splat = D.isSplat();
    if (C.Data.size() != uint64_t(C.Splat ? 1 : D.getNumElements()) * *Bytes)
      return std::nullopt;
    return C;
  }
  APInt Bits;
  if (auto F = dyn_cast<FloatAttr>(A))
    Bits = F.getValue().bitcastToAPInt();
  else if (auto I = dyn_cast<IntegerAttr>(A))
    Bits = I.getValue();
  else
    return std::nullopt;
  if (Bits.getBitWidth() != *Bytes * 8)
    return std::nullopt;
  C.ScalarBits = Bits.getZExtValue();
  C.IsScalar = C.Splat = true;
  return C;
}

SmallVector<int64_t> rowMajorStrides(ArrayRef<int64_t> Shape) {
  SmallVector<int64_t> S(Shape.size(), 1);
  for (size_t K = Shape.size(); K-- > 1;)
    S[K - 1] = S[K] * Shape[K];
  return S;
}

/// What the payload reads: a constant, and where element y of the result
/// finds its element (strides in elements, in the result's order).
struct Leaf {
  ConstantData C;
  SmallVector<int64_t> Strides;
};

/// A new constant of T holding Fill's bytes: a blob, or a dense attribute
/// when no input was a blob and it is small.
Attribute build(RankedTensorType T, bool AsBlob,
                function_ref<LogicalResult(char *)> Fill) {
  size_t Size = T.getNumElements() * *elementBytes(T.getElementType());
  if (AsBlob) {
    AsmResourceBlob Blob = HeapAsmResourceBlob::allocate(
        Size, *elementBytes(T.getElementType()), true);
    if (failed(Fill(Blob.getMutableData().data())))
      return {};
    return DenseResourceElementsAttr::get(T, "memplan_folded", std::move(Blob));
  }
  std::vector<char> Buffer(Size);
  if (failed(Fill(Buffer.data())))
    return {};
  return DenseElementsAttr::getFromRawBuffer(T, Buffer);
}

/// The result of ElemOp (or, without one, the one leaf) over T.
Attribute compute(RankedTensorType T, Operation *ElemOp,
                  MutableArrayRef<Leaf> Leaves, uint64_t DenseLimit) {
  // Splats through a payload stay splats: the splat folders do that.
  if (llvm::all_of(Leaves, [](const Leaf &L) { return L.C.Splat; }))
    return {};
  unsigned OutBytes = *elementBytes(T.getElementType());
  bool AsBlob = llvm::any_of(Leaves, [](const Leaf &L) { return L.C.Blob; }) ||
                uint64_t(T.getNumElements()) * OutBytes > DenseLimit;
  ArrayRef<int64_t> Shape = T.getShape();
  SmallVector<int64_t> Identity = rowMajorStrides(Shape);
  return build(T, AsBlob, [&](char *Out) -> LogicalResult {
    if (!ElemOp) {
      gatherStrided(Leaves[0].C.bytes(), Out, Shape, Leaves[0].Strides,
                    OutBytes);
      return success();
    }
    // Each operand in the result's layout, gathered where it is not.
    std::vector<std::vector<char>> Gathered;
    SmallVector<ElementOperand> Operands;
    for (Leaf &L : Leaves) {
      if (L.C.Splat) {
        Operands.push_back({L.C.bytes(), true});
        continue;
      }
      if (L.Strides == Identity) {
        Operands.push_back({L.C.bytes(), false});
        continue;
      }
      unsigned InBytes = L.C.Data.size() / T.getNumElements();
      Gathered.emplace_back(T.getNumElements() * InBytes);
      gatherStrided(L.C.bytes(), Gathered.back().data(), Shape, L.Strides,
                    InBytes);
      Operands.push_back({Gathered.back().data(), false});
    }
    return evaluateElements(ElemOp, Operands, Out, T.getNumElements());
  });
}

/// Whether Op is a reshape: the same elements in the same order.
Attribute foldReshape(Operation *Op) {
  if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::ReshapeOp,
           tensor::CastOp>(Op))
    return {};
  auto T = dyn_cast<RankedTensorType>(Op->getResult(0).getType());
  auto From = dyn_cast<RankedTensorType>(Op->getOperand(0).getType());
  Attribute A;
  if (!T || !From || !T.hasStaticShape() || !From.hasStaticShape() ||
      T.getNumElements() != From.getNumElements() ||
      !matchPattern(Op->getOperand(0), m_Constant(&A)))
    return {};
  // The blob itself is shared under the new type: nothing is copied (an
  // elided blob too: its bytes do not move).
  if (auto R = dyn_cast<DenseResourceElementsAttr>(A))
    return DenseResourceElementsAttr::get(T, R.getRawHandle());
  if (auto D = dyn_cast<DenseIntOrFPElementsAttr>(A))
    if (!D.isSplat() && elementBytes(T.getElementType()))
      return D.reshape(T);
  return {};
}

Attribute foldLinalg(linalg::LinalgOp L, uint64_t DenseLimit) {
  if (!L.hasPureTensorSemantics() || L->getNumResults() != 1 ||
      L.getNumDpsInits() != 1 || L.getNumLoops() != L.getNumParallelLoops())
    return {};
  auto T = dyn_cast<RankedTensorType>(L->getResult(0).getType());
  if (!T || !T.hasStaticShape() || T.getNumElements() == 0 ||
      !elementBytes(T.getElementType()))
    return {};
  Block *Body = L.getBlock();
  OpOperand *Init = L.getDpsInitOperand(0);
  AffineMap OutMap = L.getMatchingIndexingMap(Init);
  if (!Body || !Body->getOps<linalg::IndexOp>().empty() ||
      L.payloadUsesValueFromOperand(Init) || !OutMap.isPermutation())
    return {};
  SmallVector<int64_t> Loops = L.getStaticLoopRanges();
  if (ShapedType::isDynamicShape(Loops))
    return {};
  // The payload yields an input, or one exact element op of inputs and
  // scalar constants.
  Operation *Yield = Body->getTerminator();
  if (Yield->getNumOperands() != 1)
    return {};
  Operation *ElemOp = nullptr;
  SmallVector<Value> Reads;
  if (Body->getOperations().size() == 1) {
    Reads.push_back(Yield->getOperand(0));
  } else if (Body->getOperations().size() == 2 &&
             Yield->getOperand(0).getDefiningOp() == &Body->front() &&
             isExactElementOp(&Body->front())) {
    ElemOp = &Body->front();
    llvm::append_range(Reads, ElemOp->getOperands());
  } else {
    return {};
  }
  SmallVector<Leaf> Leaves;
  for (Value V : Reads) {
    auto Arg = dyn_cast<BlockArgument>(V);
    if (!Arg || Arg.getOwner() != Body) {
      // A scalar constant the payload captures.
      std::optional<ConstantData> C;
      if (V.getParentBlock() == Body || !(C = dataOf(V)) || !C->IsScalar)
        return {};
      Leaves.push_back({*C, {}});
      continue;
    }
    OpOperand *In = L.getMatchingOpOperand(Arg);
    std::optional<ConstantData> C;
    if (!L.isDpsInput(In) || !(C = dataOf(In->get())))
      return {};
    AffineMap M = L.getMatchingIndexingMap(In);
    if (!M.isProjectedPermutation(/*allowZeroInResults=*/false))
      return {};
    // A loop the input does not index repeats its element (stride 0).
    SmallVector<int64_t> LoopStrides(Loops.size(), 0);
    if (!C->IsScalar) {
      auto InType = cast<RankedTensorType>(In->get().getType());
      SmallVector<int64_t> S = rowMajorStrides(InType.getShape());
      for (unsigned R = 0; R < M.getNumResults(); ++R)
        LoopStrides[M.getDimPosition(R)] = C->Splat ? 0 : S[R];
    }
    Leaf X{*C, {}};
    for (unsigned J = 0; J < OutMap.getNumResults(); ++J)
      X.Strides.push_back(LoopStrides[OutMap.getDimPosition(J)]);
    Leaves.push_back(std::move(X));
  }
  return compute(T, ElemOp, Leaves, DenseLimit);
}

/// An arith element op on whole tensors, all of one shape.
Attribute foldElementwise(Operation *Op, uint64_t DenseLimit) {
  auto T = dyn_cast<RankedTensorType>(Op->getResult(0).getType());
  if (!T || !T.hasStaticShape() || T.getNumElements() == 0 ||
      !isExactElementOp(Op) || Op->getNumOperands() > 2)
    return {};
  SmallVector<Leaf> Leaves;
  SmallVector<int64_t> Identity = rowMajorStrides(T.getShape());
  for (Value V : Op->getOperands()) {
    auto VT = dyn_cast<RankedTensorType>(V.getType());
    std::optional<ConstantData> C = dataOf(V);
    if (!VT || VT.getShape() != T.getShape() || !C)
      return {};
    Leaves.push_back({*C, Identity});
  }
  return compute(T, Op, Leaves, DenseLimit);
}
} // namespace

LogicalResult constant_bytes::foldOnBytes(Operation *Op, RewriterBase &Rewriter,
                                          uint64_t DenseLimit) {
  if (Op->getNumResults() != 1)
    return failure();
  Attribute New = foldReshape(Op);
  if (!New) {
    if (auto L = dyn_cast<linalg::LinalgOp>(Op))
      New = foldLinalg(L, DenseLimit);
    else if (Op->getDialect() && isa<arith::ArithDialect>(Op->getDialect()))
      New = foldElementwise(Op, DenseLimit);
  }
  if (!New)
    return failure();
  llvm::SetVector<Operation *> Defs;
  for (Value V : Op->getOperands())
    if (Operation *Def = V.getDefiningOp())
      Defs.insert(Def);
  Rewriter.setInsertionPoint(Op);
  Value C =
      arith::ConstantOp::create(Rewriter, Op->getLoc(), cast<TypedAttr>(New));
  Rewriter.replaceOp(Op, C);
  // The weights must not grow: what only Op read goes with it.
  for (Operation *Def : Defs)
    if (Def->use_empty() &&
        (Def->hasTrait<OpTrait::ConstantLike>() || isa<tensor::EmptyOp>(Def)))
      Rewriter.eraseOp(Def);
  return success();
}
