//===- TestLivenessInvariant.cpp - Records cover every live point ---------===//
//
// A test pass that checks the invariant the planner relies on: at every op
// where a planned buffer may be live, the op's task lies in the buffer's
// record, so two buffers live at one point have intersecting records.
// "May be live" is derived here apart from the analysis' task arithmetic:
// from mlir::Liveness in each enclosing block, loops run again, and async
// work until it is awaited. A violation is an error on the op.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/BufferAliases.h"
#include "memplan/Analysis/UsageRecordsFromIR.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {

bool mayRepeat(Operation *Op) {
  if (auto Branch = dyn_cast<RegionBranchOpInterface>(Op))
    for (unsigned I = 0, E = Op->getNumRegions(); I < E; ++I)
      if (Branch.isRepetitiveRegion(I))
        return true;
  return isa<LoopLikeOpInterface>(Op);
}

struct TestLivenessInvariantPass
    : PassWrapper<TestLivenessInvariantPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestLivenessInvariantPass)
  StringRef getArgument() const final {
    return "test-memplan-liveness-invariant";
  }
  StringRef getDescription() const final {
    return "Check that every planned buffer's record covers each op where "
           "the buffer may be live";
  }

  void runOnOperation() override {
    getOperation()->walk([&](FunctionOpInterface Fn) {
      if (!Fn.isExternal())
        check(Fn);
    });
  }

  void check(FunctionOpInterface Fn) {
    DenseMap<Operation *, uint64_t> Task;
    Fn->walk<WalkOrder::PreOrder>([&](Operation *Op) {
      if (Op != Fn.getOperation())
        Task[Op] = Task.size();
    });
    Liveness Live(Fn);
    memplan::BufferAliasAnalysis Aliases(Fn);
    memplan::FunctionBuffers Buffers = memplan::computeUsageRecords(Fn);
    unsigned Checked = 0;
    for (const memplan::PlannableBuffer &B : Buffers.Planned) {
      memref::AllocOp Alloc = B.Alloc;
      memplan::BufferAliasInfo Info = Aliases.analyze(Alloc.getResult());
      Fn->walk([&](Operation *Op) {
        if (Op == Fn.getOperation() || !mayBeLive(Op, B, Info, Live))
          return;
        ++Checked;
        uint64_t T = Task.lookup(Op);
        if (T < B.Record.FirstTask || T > B.Record.LastTask) {
          InFlightDiagnostic D =
              mlir::emitError(Op->getLoc())
              << "liveness invariant violated: a buffer may be live at task "
              << T << ", outside its record [" << B.Record.FirstTask << ", "
              << B.Record.LastTask << "]";
          D.attachNote(Alloc.getLoc()) << "the buffer";
          signalPassFailure();
        }
      });
    }
    mlir::emitRemark(Fn.getLoc())
        << "liveness invariant: " << Buffers.Planned.size() << " buffers, "
        << Checked << " live points checked";
  }

  /// Whether some alias may hold the buffer while Op runs.
  bool mayBeLive(Operation *Op, memplan::PlannableBuffer B,
                 const memplan::BufferAliasInfo &Info, Liveness &Live) {
    for (Value V : Info.Aliases) {
      // An op's task is the point before its regions run: a use inside
      // them counts only for buffers that exist before it.
      for (Operation *User : V.getUsers())
        if (User == Op ||
            (Op->isAncestor(User) && !Op->isProperAncestor(B.Alloc)))
          return true;
      // Live across Op, or across any op around it in an enclosing block.
      for (Operation *A = Op; !isa<FunctionOpInterface>(A);
           A = A->getParentOp()) {
        const LivenessBlockInfo *BlockInfo = Live.getLiveness(A->getBlock());
        if (BlockInfo && BlockInfo->currentlyLiveValues(A).contains(V) &&
            !Live.isDeadAfter(V, A))
          return true;
      }
      // A loop around Op that does not hold the alloc runs Op again after
      // a use in it.
      for (Operation *L = Op->getParentOp(); L && !isa<FunctionOpInterface>(L);
           L = L->getParentOp())
        if (mayRepeat(L) && !L->isAncestor(B.Alloc))
          for (Operation *User : V.getUsers())
            if (L->isAncestor(User))
              return true;
    }
    return false;
  }
};

} // namespace

namespace memplan::test {
void registerTestLivenessInvariantPass() {
  PassRegistration<TestLivenessInvariantPass>();
}
} // namespace memplan::test
