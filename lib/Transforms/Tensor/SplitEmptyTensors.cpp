//===- SplitEmptyTensors.cpp - One tensor.empty per use -------------------===//
//
// The splitter both tensor-mem-split-empty (Passes.td says why) and
// tensor-mem-schedule use, and the pass.
//
//===----------------------------------------------------------------------===//

#include "SplitEmptyTensors.h"
#include "memplan/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMSPLITEMPTY
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;

unsigned memplan::splitEmptyTensor(tensor::EmptyOp Empty,
                                   EmptyPlacement Where) {
  Block *Home = Empty->getBlock();
  // Every use in use-list order (deterministic): a user with two uses gets
  // its clones in that order.
  SmallVector<OpOperand *> Uses =
      llvm::to_vector(llvm::make_pointer_range(Empty->getUses()));
  for (OpOperand *Use : Uses) {
    Operation *At = Use->getOwner();
    if (Where == EmptyPlacement::BeforeUserInBlock)
      At = Home->findAncestorOpInBlock(*At);
    OpBuilder B(At);
    Use->set(B.clone(*Empty)->getResult(0));
  }
  Empty->erase();
  return Uses.size();
}

namespace {

struct SplitEmptyPass : memplan::impl::TensorMemSplitEmptyBase<SplitEmptyPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<tensor::EmptyOp> Shared;
    getOperation()->walk([&](tensor::EmptyOp Empty) {
      if (!Empty->hasOneUse() && !Empty->use_empty())
        Shared.push_back(Empty);
    });
    for (tensor::EmptyOp Empty : Shared)
      numClones += memplan::splitEmptyTensor(
                       Empty, memplan::EmptyPlacement::BeforeUser) -
                   1;
  }
};

} // namespace
