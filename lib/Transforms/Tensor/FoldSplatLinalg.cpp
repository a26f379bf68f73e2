//===- FoldSplatLinalg.cpp - Linalg ops on splats fold to splats ----------===//

#include "memplan/Transforms/FoldSplatLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"

#define DEBUG_TYPE "memplan-fold-splat-linalg"

using namespace mlir;

namespace {
struct FoldSplatLinalg : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::LinalgOp Op,
                                PatternRewriter &Rewriter) const override {
    if (!Op.hasPureTensorSemantics() || Op->getNumResults() != 1)
      return failure();
    auto Type = dyn_cast<RankedTensorType>(Op->getResult(0).getType());
    if (!Type || !Type.hasStaticShape())
      return failure();
    Block *Body = Op.getBlock();
    if (!Body || !Body->mightHaveTerminator())
      return failure();
    // Element i must not depend on i nor on the (undefined) init.
    if (!Body->getOps<linalg::IndexOp>().empty())
      return failure();
    for (OpOperand &Init : Op.getDpsInitsMutable())
      if (Op.payloadUsesValueFromOperand(&Init))
        return failure();

    DenseMap<Value, Attribute> Known;
    for (OpOperand *In : Op.getDpsInputOperands()) {
      Attribute A;
      if (!matchPattern(In->get(), m_Constant(&A)))
        return failure();
      if (auto Splat = dyn_cast<SplatElementsAttr>(A))
        A = Splat.getSplatValue<Attribute>();
      else if (isa<ElementsAttr>(A))
        return failure();
      Known[Op.getMatchingBlockArgument(In)] = A;
    }
    auto ValueOf = [&](Value V) -> Attribute {
      if (Attribute A = Known.lookup(V))
        return A;
      Attribute A;
      // A scalar constant the payload captures from above.
      if (V.getParentBlock() != Body && matchPattern(V, m_Constant(&A)) &&
          !isa<ElementsAttr>(A))
        return A;
      return {};
    };
    for (Operation &N : Body->without_terminator()) {
      if (N.getNumRegions() != 0 || N.getNumResults() != 1)
        return failure();
      SmallVector<Attribute> Operands;
      for (Value V : N.getOperands()) {
        Attribute A = ValueOf(V);
        if (!A)
          return failure();
        Operands.push_back(A);
      }
      // Fold a detached copy: an in-place fold must not touch the payload.
      Operation *Copy = N.clone();
      SmallVector<OpFoldResult> Folded;
      LogicalResult Result = Copy->fold(Operands, Folded);
      Attribute A;
      if (succeeded(Result) && Folded.size() == 1) {
        if (auto Attr = dyn_cast<Attribute>(Folded.front()))
          A = Attr;
        else
          A = ValueOf(cast<Value>(Folded.front()));
      }
      Copy->destroy();
      if (!A)
        return failure();
      Known[N.getResult(0)] = A;
    }
    Operation *Yield = Body->getTerminator();
    if (Yield->getNumOperands() != 1)
      return failure();
    auto Element = dyn_cast_or_null<TypedAttr>(ValueOf(Yield->getOperand(0)));
    if (!Element || Element.getType() != Type.getElementType() ||
        !isa<IntegerAttr, FloatAttr>(Element))
      return failure();
    auto Splat = DenseElementsAttr::get(Type, Attribute(Element));
    Rewriter.replaceOpWithNewOp<arith::ConstantOp>(Op, Type, Splat);
    return success();
  }
};
} // namespace

void memplan::populateFoldSplatLinalgPatterns(RewritePatternSet &Patterns) {
  Patterns.add<FoldSplatLinalg>(Patterns.getContext());
}
