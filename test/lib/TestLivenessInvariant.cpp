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
  TestLivenessInvariantPass() = default;
  TestLivenessInvariantPass(const TestLivenessInvariantPass &Other)
      : PassWrapper(Other) {}
  // Shows that the check can fail: records end one task early.
  Option<bool> InjectShortRecords{
      *this, "inject-short-records",
      llvm::cl::desc("Shorten every record by one task before checking"),
      llvm::cl::init(false)};

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
    Extents.clear();
    memplan::BufferAliasAnalysis Aliases(Fn);
    memplan::FunctionBuffers Buffers = memplan::computeUsageRecords(Fn);
    unsigned Checked = 0;
    for (memplan::PlannableBuffer &B : Buffers.Planned) {
      if (InjectShortRecords && B.Record.LastTask > B.Record.FirstTask)
        --B.Record.LastTask;
      memref::AllocOp Alloc = B.Alloc;
      memplan::BufferAliasInfo Info = Aliases.analyze(Alloc.getResult());
      Fn->walk([&](Operation *Op) {
        if (Op == Fn.getOperation() || !mayBeLive(Op, Alloc, Info, Live))
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
  bool mayBeLive(Operation *Op, const memref::AllocOp &Alloc,
                 const memplan::BufferAliasInfo &Info, Liveness &Live) {
    for (Value V : Info.Aliases) {
      // An op's task is the point before its regions run: a use inside
      // them counts only for buffers that exist before it.
      for (Operation *User : V.getUsers())
        if (isa<memref::DeallocOp>(User))
          continue; // removed by the rewrite, not a use
        else if (User == Op ||
                 (Op->isAncestor(User) && !Op->isProperAncestor(Alloc)))
          return true;
      // Live across Op, or across any op around it in an enclosing block.
      for (Operation *A = Op; !isa<FunctionOpInterface>(A);
           A = A->getParentOp())
        if (liveAcross(V, A, Live))
          return true;
      // A loop around Op that does not hold the alloc runs Op again after
      // a use in it.
      for (Operation *L = Op->getParentOp(); !isa<FunctionOpInterface>(L);
           L = L->getParentOp())
        if (mayRepeat(L) && !L->isAncestor(Alloc))
          for (Operation *User : V.getUsers())
            if (!isa<memref::DeallocOp>(User) && L->isAncestor(User))
              return true;
    }
    return false;
  }

  /// V is defined before A in A's block (or live into it) and used after A
  /// (or live out of the block), by mlir::Liveness.
  bool liveAcross(Value V, Operation *A, Liveness &Live) {
    Block *Blk = A->getBlock();
    const LivenessBlockInfo *BlockInfo = Live.getLiveness(Blk);
    if (!BlockInfo)
      return false;
    auto [It, New] = Extents.try_emplace({V, Blk});
    Extent &E = It->second;
    if (New) {
      E.LiveIn =
          BlockInfo->isLiveIn(V) ||
          (isa<BlockArgument>(V) && cast<BlockArgument>(V).getOwner() == Blk);
      E.LiveOut = BlockInfo->isLiveOut(V);
      if (Operation *Def = V.getDefiningOp())
        E.Def = Blk->findAncestorOpInBlock(*Def);
      for (Operation *User : V.getUsers())
        if (Operation *U = isa<memref::DeallocOp>(User)
                               ? nullptr
                               : Blk->findAncestorOpInBlock(*User))
          if (!E.LastUse || E.LastUse->isBeforeInBlock(U))
            E.LastUse = U;
    }
    bool Before = E.LiveIn || (E.Def && E.Def->isBeforeInBlock(A));
    bool After = E.LiveOut || (E.LastUse && A->isBeforeInBlock(E.LastUse));
    return Before && After;
  }

  struct Extent {
    bool LiveIn = false, LiveOut = false;
    Operation *Def = nullptr, *LastUse = nullptr;
  };
  DenseMap<std::pair<Value, Block *>, Extent> Extents;
};

} // namespace

namespace memplan::test {
void registerTestLivenessInvariantPass() {
  PassRegistration<TestLivenessInvariantPass>();
}
} // namespace memplan::test
