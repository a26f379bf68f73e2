//===- SplitEmptyTensors.cpp - One tensor.empty per use -------------------===//
//
// The tensor-mem-split-empty pass (Passes.td says why).
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMSPLITEMPTY
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;

namespace {

struct SplitEmptyPass : memplan::impl::TensorMemSplitEmptyBase<SplitEmptyPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<tensor::EmptyOp> Shared;
    getOperation()->walk([&](tensor::EmptyOp Empty) {
      if (!Empty->hasOneUse() && !Empty->use_empty())
        Shared.push_back(Empty);
    });
    OpBuilder B(&getContext());
    for (tensor::EmptyOp Empty : Shared) {
      // Every use gets a clone right before its user (deterministic, and
      // the sizes it takes dominate the original, hence every user).
      SmallVector<OpOperand *> Uses =
          llvm::to_vector(llvm::make_pointer_range(Empty->getUses()));
      for (OpOperand *Use : Uses) {
        B.setInsertionPoint(Use->getOwner());
        Use->set(B.clone(*Empty)->getResult(0));
      }
      numClones += Uses.size() - 1;
      Empty->erase();
    }
  }
};

} // namespace
