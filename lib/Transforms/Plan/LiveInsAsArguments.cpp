//===- LiveInsAsArguments.cpp - Memrefs cross blocks as arguments ---------===//
//
// The tensor-mem-live-ins-as-arguments pass (Passes.td says why).
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Passes.h"
#include "memplan/Transforms/Remarks.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMLIVEINSASARGUMENTS
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;

namespace {

/// The memrefs defined in another block of B's region that B (or an op
/// nested in it) uses directly.
llvm::SetVector<Value> memrefLiveIns(Block &B) {
  llvm::SetVector<Value> LiveIns;
  B.walk([&](Operation *Op) {
    for (Value V : Op->getOperands()) {
      if (!isa<BaseMemRefType>(V.getType()))
        continue;
      Region *Def = V.getParentRegion();
      if (Def == B.getParent() && V.getParentBlock() != &B)
        LiveIns.insert(V);
    }
  });
  return LiveIns;
}

/// Whether every predecessor of B can pass it one more operand.
bool predecessorsAreBranches(Block &B) {
  for (Block *Pred : B.getPredecessors())
    if (!isa<BranchOpInterface>(Pred->getTerminator()))
      return false;
  return true;
}

struct LiveInsAsArgumentsPass
    : memplan::impl::TensorMemLiveInsAsArgumentsBase<LiveInsAsArgumentsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([&](Region *R) {
      if (!R->hasOneBlock() && !R->empty())
        handOver(*R);
    });
  }

  // A block given an argument may pass the same memref on to its own
  // successors through its terminator: that use makes the memref live-in to
  // the predecessor, so repeat until no block has a memref live-in.
  void handOver(Region &R) {
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (Block &B : llvm::drop_begin(R.getBlocks())) {
        llvm::SetVector<Value> LiveIns = memrefLiveIns(B);
        if (LiveIns.empty())
          continue;
        if (!predecessorsAreBranches(B)) {
          if (Reported.insert(&B).second)
            memplan::emitPassRemark(
                B.getParentOp(), memplan::RemarkKind::Missed,
                memplan::remark_category::LiveInsAsArguments, "LeftAlone",
                /*AsDiagnostic=*/true)
                << "a block uses a memref of another block but not every "
                   "predecessor is a branch: left alone";
          continue;
        }
        for (Value V : LiveIns) {
          BlockArgument Arg = B.addArgument(V.getType(), V.getLoc());
          for (auto It = B.pred_begin(), E = B.pred_end(); It != E; ++It) {
            auto Branch = cast<BranchOpInterface>((*It)->getTerminator());
            // A predecessor that already took V as an argument passes that.
            Value Passed = Handed.lookup({*It, V});
            Branch.getSuccessorOperands(It.getSuccessorIndex())
                .append(Passed ? Passed : V);
          }
          V.replaceUsesWithIf(Arg, [&](OpOperand &Use) {
            return B.findAncestorOpInBlock(*Use.getOwner()) != nullptr;
          });
          Handed[{&B, V}] = Arg;
          ++numArguments;
        }
        Changed = true;
      }
    }
  }

  llvm::SmallPtrSet<Block *, 4> Reported;
  /// The argument a block took for a memref of another block.
  llvm::DenseMap<std::pair<Block *, Value>, Value> Handed;
};

} // namespace
