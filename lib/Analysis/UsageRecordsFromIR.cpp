//===- UsageRecordsFromIR.cpp - Buffer liveness as usage records ----------===//
//
// BufferUsageAnalysis: for each allocation of a function (an op with the
// Allocate effect on a result), the tasks over which it or any alias is
// live, or why it is left alone. These facts do not depend on the pass
// options; BufferSizes.cpp sizes the buffers under them.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/UsageRecordsFromIR.h"
#include "memplan/Analysis/AttrNames.h"
#include "memplan/Analysis/BufferAliases.h"
#include "memplan/Analysis/TaskNumbering.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>

using namespace mlir;
using namespace memplan;

namespace {

bool isParallelLoop(Operation *Op) {
  return isa<scf::ForallOp, scf::ParallelOp, affine::AffineParallelOp>(Op);
}

/// An op whose regions may run more than once per execution of the op.
bool isLoop(Operation *Op) {
  if (auto Branch = dyn_cast<RegionBranchOpInterface>(Op))
    for (unsigned I = 0, E = Op->getNumRegions(); I < E; ++I)
      if (Branch.isRepetitiveRegion(I))
        return true;
  return isa<LoopLikeOpInterface>(Op) || isParallelLoop(Op);
}

/// Whether Op allocates a buffer as a result (the Allocate effect, as
/// upstream's OptimizeAllocationLiveness finds them), other than on the
/// stack (memref.alloca: freed with its scope, never the planner's).
bool allocatesBuffer(Operation *Op) {
  auto Effects = dyn_cast<MemoryEffectOpInterface>(Op);
  if (!Effects)
    return false;
  return llvm::any_of(Op->getResults(), [&](Value R) {
    if (!isa<BaseMemRefType>(R.getType()))
      return false;
    std::optional<MemoryEffects::EffectInstance> E =
        Effects.getEffectOnValue<MemoryEffects::Allocate>(R);
    return E && !isa<SideEffects::AutomaticAllocationScopeResource>(
                    E->getResource());
  });
}

} // namespace

namespace memplan {
class UsageAnalyzer {
public:
  UsageAnalyzer(FunctionOpInterface Fn, BufferUsageAnalysis &Result)
      : Fn(Fn), Tasks(Result.Tasks), Aliases(Fn), Result(Result) {
    Fn->walk([&](Region *R) {
      if (R->hasOneBlock() || R->empty())
        return;
      HasMultiBlockRegions = true;
    });
    if (HasMultiBlockRegions)
      Live.emplace(Fn);
  }

  /// The facts of every alloc of Fn (not of functions nested in it).
  void run() {
    Result.NumTasks = Tasks.size();
    Fn->walk([&](Operation *Op) {
      if (isa<memref::DeallocOp, bufferization::DeallocOp>(Op))
        Result.FreesBuffers = true;
      if (!allocatesBuffer(Op) ||
          Op->getParentOfType<FunctionOpInterface>() != Fn)
        return;
      if (auto Alloc = dyn_cast<memref::AllocOp>(Op)) {
        Result.Allocs.push_back(analyze(Alloc));
        return;
      }
      // Default-deny: the rewrite makes views of memref.alloc alone.
      AllocFacts Facts;
      Facts.Left = UnplannedBuffer{
          Op,
          {UnplannedKind::NotPlainAlloc, Op->getName().getStringRef().str()},
          nullptr};
      Result.Allocs.push_back(std::move(Facts));
    });
  }

private:
  /// What holds whatever the options: why the alloc is left alone, or its
  /// tasks; the size and alignment depend on the options (bufferFacts).
  AllocFacts analyze(memref::AllocOp Alloc) {
    AllocFacts Facts;
    Facts.Alloc = Alloc;
    if (std::optional<UnplannedBuffer> Why = analyze(Alloc, Facts))
      Facts.Left = std::move(*Why);
    return Facts;
  }

  std::optional<UnplannedBuffer> analyze(memref::AllocOp Alloc,
                                         AllocFacts &Facts) {
    auto Leave = [&](UnplannedKind Kind, Operation *Culprit = nullptr,
                     std::string Detail = "") {
      return UnplannedBuffer{Alloc, {Kind, std::move(Detail)}, Culprit};
    };
    auto Named = [](Operation *Op) {
      return Op->getName().getStringRef().str();
    };
    MemRefType Type = Alloc.getType();
    PlannableBuffer &Buffer = Facts.Buffer;

    // Every region between the function and the alloc must have known
    // semantics, and run its iterations one after the other, in order with
    // the ops around it.
    for (Operation *P = Alloc->getParentOp(); P != Fn.getOperation();
         P = P->getParentOp()) {
      if (isParallelLoop(P))
        return Leave(UnplannedKind::InParallelLoop, P, Named(P));
      if (BufferAliasAnalysis::isAsynchronous(P))
        return Leave(UnplannedKind::InAsyncRegion, P, Named(P));
      if (!isa<RegionBranchOpInterface>(P))
        return Leave(UnplannedKind::InUnknownRegion, P, Named(P));
    }

    const BufferAliasInfo &Info =
        Result.AliasInfo.try_emplace(Alloc, Aliases.analyze(Alloc.getResult()))
            .first->second;
    for (Value V : Info.Aliases) {
      if (V == Alloc.getResult())
        continue;
      // A block argument of a loop around the alloc carries the buffer into
      // the next iteration, where the alloc runs again.
      if (auto Arg = dyn_cast<BlockArgument>(V)) {
        Operation *Owner = Arg.getOwner()->getParentOp();
        if (Owner != Fn.getOperation() && Owner->isProperAncestor(Alloc) &&
            isLoop(Owner))
          return Leave(UnplannedKind::CarriedByLoop, Owner);
      }
      if (Live && isLiveAt(V, Alloc))
        return Leave(UnplannedKind::CarriedByCFGLoop);
    }
    if (Info.Escape)
      return Leave(UnplannedKind::Escapes, Info.Escape->Culprit,
                   Info.Escape->Reason);
    // Left alone only when the ownership-based deallocation runs after
    // planning (UsageRecordsOptions::DeallocationRunsAfter).
    for (Value V : Info.Aliases) {
      if (Facts.LeftIfDeallocationRunsAfter)
        break;
      if (!isa<MemRefType>(V.getType()))
        continue;
      Operation *Owner = isa<BlockArgument>(V)
                             ? cast<BlockArgument>(V).getOwner()->getParentOp()
                             : V.getDefiningOp();
      if (isa<BlockArgument>(V) || isa<RegionBranchOpInterface>(Owner))
        Facts.LeftIfDeallocationRunsAfter =
            Leave(UnplannedKind::ForwardedThroughControlFlow, Owner);
      // Live into another block of a CFG: the deallocation takes
      // ownership of it there and frees it through its view.
      else if (Live && isLiveIntoABlock(V))
        Facts.LeftIfDeallocationRunsAfter =
            Leave(UnplannedKind::UsedInAnotherBlock);
    }

    // The record spans every point where an alias may be live: its
    // definition, its uses, and over a CFG the blocks it is live into or
    // out of. Blocks may be laid out in any order, so both ends move.
    Span S{Tasks.start(Alloc), Tasks.start(Alloc), Alloc};
    for (Value V : Info.Aliases) {
      if (auto Arg = dyn_cast<BlockArgument>(V)) {
        if (!Arg.getOwner()->empty())
          S.add(firstTaskOf(&Arg.getOwner()->front(), Alloc),
                Tasks.start(&Arg.getOwner()->front()),
                &Arg.getOwner()->front());
      } else if (Operation *Def = V.getDefiningOp()) {
        // A result exists once its op is done (an scf.if yielding the
        // buffer begins before the alloc inside it).
        uint64_t Defined = Tasks.end(Def);
        if (Operation *Loop = outermostLoopWithout(Def, Alloc))
          Defined = std::min(Defined, Tasks.start(Loop));
        S.add(Defined, Defined, Def);
      }
      for (OpOperand &Use : V.getUses()) {
        Operation *User = Use.getOwner();
        if (isa<memref::DeallocOp>(User))
          continue;
        // Used after the loop that allocates it: the next iteration would
        // reuse its bytes while it is alive.
        for (Operation *P = Alloc->getParentOp(); P != Fn.getOperation();
             P = P->getParentOp())
          if (isLoop(P) && !P->isAncestor(User))
            return Leave(UnplannedKind::OutlivesIteration, User);
        S.add(firstTaskOf(User, Alloc), lastTaskOf(User, Alloc), User);
      }
      if (Live)
        extendOverBlocks(V, Alloc, S);
    }

    Buffer.Alloc = Alloc;
    Buffer.Record = UsageRecord(0, S.First, S.Last);
    Buffer.LastUser = S.LastUser;
    Buffer.Deallocs = Info.Deallocs;
    Buffer.MemorySpace = Type.getMemorySpace();
    Buffer.Persistent = Alloc->hasAttr(kPersistentAttr);
    return std::nullopt;
  }

  /// The tasks over which a buffer is live, and the op at its last task.
  struct Span {
    uint64_t First, Last;
    Operation *LastUser;
    void add(uint64_t F, uint64_t L, Operation *Op) {
      First = std::min(First, F);
      if (L > Last) {
        Last = L;
        LastUser = Op;
      }
    }
  };

  /// The outermost loop around User that does not hold the alloc: a use in
  /// it keeps the buffer alive over all of it.
  Operation *outermostLoopWithout(Operation *User, Operation *Alloc) {
    Operation *Outer = nullptr;
    for (Operation *P = User->getParentOp(); P && P != Fn.getOperation();
         P = P->getParentOp())
      if (isLoop(P) && !P->isAncestor(Alloc))
        Outer = P;
    return Outer;
  }

  /// The last task at which User keeps the buffer alive: the end of User's
  /// own regions, or of any loop around it that does not hold the alloc.
  uint64_t lastTaskOf(Operation *User, Operation *Alloc) {
    uint64_t Last = Tasks.end(User);
    if (Operation *Loop = outermostLoopWithout(User, Alloc))
      Last = std::max(Last, Tasks.end(Loop));
    return Last;
  }

  uint64_t firstTaskOf(Operation *User, Operation *Alloc) {
    uint64_t First = Tasks.start(User);
    if (Operation *Loop = outermostLoopWithout(User, Alloc))
      First = std::min(First, Tasks.start(Loop));
    return First;
  }

  bool isLiveIntoABlock(Value V) {
    return Fn
        ->walk([&](Block *B) {
          const LivenessBlockInfo *Info = Live->getLiveness(B);
          return Info && Info->isLiveIn(V) ? WalkResult::interrupt()
                                           : WalkResult::advance();
        })
        .wasInterrupted();
  }

  bool isLiveAt(Value V, Operation *Op) {
    const LivenessBlockInfo *Info = Live->getLiveness(Op->getBlock());
    return Info && Info->currentlyLiveValues(Op).contains(V);
  }

  /// Over a CFG, a value live into a block is alive from the block's start,
  /// one live out of it until the block's end (and any loop around it).
  void extendOverBlocks(Value V, Operation *Alloc, Span &S) {
    Fn->walk([&](Block *B) {
      if (B->empty())
        return;
      const LivenessBlockInfo *Info = Live->getLiveness(B);
      if (!Info)
        return;
      if (Info->isLiveIn(V))
        S.add(firstTaskOf(&B->front(), Alloc), Tasks.start(&B->front()),
              &B->front());
      if (Info->isLiveOut(V))
        S.add(firstTaskOf(&B->back(), Alloc), lastTaskOf(&B->back(), Alloc),
              &B->back());
    });
  }

  FunctionOpInterface Fn;
  const TaskNumbering &Tasks;
  BufferAliasAnalysis Aliases;
  BufferUsageAnalysis &Result;
  bool HasMultiBlockRegions = false;
  std::optional<Liveness> Live;
};

} // namespace memplan

BufferUsageAnalysis::BufferUsageAnalysis(Operation *Function)
    : Tasks(Function) {
  UsageAnalyzer(cast<FunctionOpInterface>(Function), *this).run();
}

const BufferAliasInfo *
BufferUsageAnalysis::aliasesOf(memref::AllocOp Alloc) const {
  auto It = AliasInfo.find(Alloc.getOperation());
  return It == AliasInfo.end() ? nullptr : &It->second;
}
