//===- UsageRecordsFromIR.cpp - Buffer liveness as usage records ----------===//

#include "memplan/Analysis/UsageRecordsFromIR.h"
#include "memplan/Analysis/ElementLayout.h"
#include "memplan/Core/Arithmetic.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <optional>

using namespace mlir;
using namespace memplan;

llvm::Expected<ElementLayout> memplan::staticBufferLayout(MemRefType MemTy,
                                                          Operation *Scope) {
  if (!MemTy.hasStaticShape())
    return llvm::createStringError("dynamic shape");
  if (!MemTy.getLayout().isIdentity())
    return llvm::createStringError("non-identity layout");
  auto Element = getElementLayout(MemTy.getElementType(), Scope);
  if (!Element)
    return Element.takeError();
  std::optional<uint64_t> Bytes = Element->Size;
  for (int64_t Dim : MemTy.getShape())
    if (Bytes)
      Bytes = checkedMul(*Bytes, static_cast<uint64_t>(Dim));
  if (!Bytes)
    return llvm::createStringError("byte size overflows 64 bits");
  return ElementLayout{*Bytes, Element->Alignment};
}

namespace {

/// Task numbers: an op's own number, and the last number inside its regions.
class TaskNumbering {
public:
  explicit TaskNumbering(Operation *Root) {
    for (Region &R : Root->getRegions())
      for (Block &B : R)
        for (Operation &Op : B)
          number(&Op);
  }
  uint64_t start(Operation *Op) const { return Spans.lookup(Op).first; }
  uint64_t end(Operation *Op) const { return Spans.lookup(Op).second; }
  uint64_t size() const { return Next; }

private:
  void number(Operation *Op) {
    uint64_t Start = Next++;
    for (Region &R : Op->getRegions())
      for (Block &B : R)
        for (Operation &Nested : B)
          number(&Nested);
    Spans[Op] = {Start, Next - 1};
  }
  DenseMap<Operation *, std::pair<uint64_t, uint64_t>> Spans;
  uint64_t Next = 0;
};

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

/// Values from which a buffer can come other than through views and merges:
/// a different origin than the alloc under study makes a dealloc ambiguous.
bool isBufferOrigin(Value V, FunctionOpInterface Fn) {
  if (auto Arg = dyn_cast<BlockArgument>(V))
    return Arg.getOwner()->getParentOp() == Fn.getOperation() &&
           Arg.getOwner()->isEntryBlock();
  Operation *Def = V.getDefiningOp();
  if (isa<CallOpInterface, memref::GetGlobalOp>(Def))
    return true;
  if (auto Effects = dyn_cast<MemoryEffectOpInterface>(Def))
    return Effects.getEffectOnValue<MemoryEffects::Allocate>(V).has_value();
  return false;
}

class Analyzer {
public:
  explicit Analyzer(FunctionOpInterface Fn) : Fn(Fn), Tasks(Fn), Aliases(Fn) {
    Fn->walk([&](Region *R) {
      if (R->hasOneBlock() || R->empty())
        return;
      HasMultiBlockRegions = true;
    });
    if (HasMultiBlockRegions)
      Live.emplace(Fn);
  }

  FunctionBuffers run() {
    FunctionBuffers Result;
    Result.NumTasks = Tasks.size();
    Fn->walk([&](Operation *Op) {
      if (isa<memref::DeallocOp, bufferization::DeallocOp>(Op))
        Result.FreesBuffers = true;
      auto Alloc = dyn_cast<memref::AllocOp>(Op);
      if (!Alloc || Alloc->getParentOfType<FunctionOpInterface>() != Fn)
        return;
      PlannableBuffer Buffer;
      if (std::optional<UnplannedBuffer> Why = analyze(Alloc, Buffer))
        Result.Unplanned.push_back(std::move(*Why));
      else
        Result.Planned.push_back(std::move(Buffer));
    });
    return Result;
  }

private:
  std::optional<UnplannedBuffer> analyze(memref::AllocOp Alloc,
                                         PlannableBuffer &Buffer) {
    auto Leave = [&](const Twine &Reason, Operation *Culprit = nullptr) {
      return UnplannedBuffer{Alloc, Reason.str(), Culprit};
    };
    MemRefType Type = Alloc.getType();
    llvm::Expected<ElementLayout> Layout =
        staticBufferLayout(Type, Alloc.getOperation());
    if (!Layout)
      return Leave(llvm::toString(Layout.takeError()));

    // Every region between the function and the alloc must have known
    // semantics, and run its iterations one after the other.
    for (Operation *P = Alloc->getParentOp(); P != Fn.getOperation();
         P = P->getParentOp()) {
      if (isParallelLoop(P))
        return Leave("inside a parallel loop ('" + P->getName().getStringRef() +
                         "')",
                     P);
      if (!isa<RegionBranchOpInterface>(P))
        return Leave("inside a region of unknown semantics ('" +
                         P->getName().getStringRef() + "')",
                     P);
    }

    uint64_t First = Tasks.start(Alloc), Last = First;
    BufferViewFlowAnalysis::ValueSetT AllAliases =
        Aliases.resolve(Alloc.getResult());
    for (Value V : AllAliases) {
      if (V == Alloc.getResult())
        continue;
      // A block argument of a loop around the alloc carries the buffer into
      // the next iteration, where the alloc runs again.
      if (auto Arg = dyn_cast<BlockArgument>(V)) {
        Operation *Owner = Arg.getOwner()->getParentOp();
        if (Owner != Fn.getOperation() && Owner->isProperAncestor(Alloc) &&
            isLoop(Owner))
          return Leave("carried across iterations of its loop", Owner);
      }
      if (Live && isLiveAt(V, Alloc))
        return Leave("carried across iterations of a control-flow loop");
    }
    for (Value V : AllAliases) {
      for (OpOperand &Use : V.getUses()) {
        Operation *User = Use.getOwner();
        if (std::optional<std::string> Escape = escapes(Use))
          return Leave(*Escape, User);
        if (isa<memref::DeallocOp>(User)) {
          for (Value Origin : Aliases.resolveReverse(V))
            if (Origin != Alloc.getResult() && isBufferOrigin(Origin, Fn))
              return Leave("freed through a value that may be another buffer",
                           User);
          Buffer.Deallocs.push_back(User);
          continue;
        }
        // Used after the loop that allocates it: the next iteration would
        // reuse its bytes while it is alive.
        for (Operation *P = Alloc->getParentOp(); P != Fn.getOperation();
             P = P->getParentOp())
          if (isLoop(P) && !P->isAncestor(User))
            return Leave("outlives the iteration of its loop", User);
        Last = std::max(Last, lastTaskOf(User, Alloc));
      }
      if (Live)
        extendOverBlocks(V, Alloc, First, Last);
    }

    Buffer.Alloc = Alloc;
    Buffer.Record = UsageRecord(Layout->Size, First, Last);
    Buffer.MemorySpace = Type.getMemorySpace();
    Buffer.Persistent = Alloc->hasAttr(kPersistentAttrName);
    // Lowered loads and stores assume the element's alignment (16 for
    // vector<3xf32>), and the alloc may ask for more.
    Buffer.Alignment =
        std::max<uint64_t>(Layout->Alignment, Alloc.getAlignment().value_or(1));
    return std::nullopt;
  }

  /// Why a use lets the buffer escape the planner's view, if it does.
  std::optional<std::string> escapes(OpOperand &Use) {
    Operation *User = Use.getOwner();
    Value V = Use.get();
    auto Name = [&] {
      return "'" + User->getName().getStringRef().str() + "'";
    };
    // A use inside the region of an op of unknown semantics: the region may
    // run at any time (asynchronously, later), so the buffer is captured.
    for (Operation *P = User->getParentOp(); P && P != Fn.getOperation();
         P = P->getParentOp())
      if (!isa<RegionBranchOpInterface>(P) && !isParallelLoop(P))
        return "captured by the region of '" +
               P->getName().getStringRef().str() +
               "', whose semantics are unknown";
    if (isa<memref::DeallocOp>(User))
      return std::nullopt;
    if (isa<bufferization::DeallocOp>(User))
      return "managed by 'bufferization.dealloc'";
    if (User->hasTrait<OpTrait::ReturnLike>() &&
        User->getParentOp() == Fn.getOperation())
      return std::string("returned");
    if (isa<CallOpInterface>(User))
      return "passed to a call (" + Name() + ")";
    if (isa<memref::ExtractAlignedPointerAsIndexOp>(User))
      return "its pointer is taken (" + Name() + ")";
    // Aliases made by views, region and branch forwarding are followed by
    // BufferViewFlowAnalysis; the use itself only keeps the buffer alive.
    if (isa<ViewLikeOpInterface, RegionBranchOpInterface, BranchOpInterface,
            RegionBranchTerminatorOpInterface>(User))
      return std::nullopt;
    if (auto Effects = dyn_cast<MemoryEffectOpInterface>(User)) {
      SmallVector<MemoryEffects::EffectInstance> List;
      Effects.getEffects(List);
      bool OnValue =
          llvm::any_of(List, [&](auto &E) { return E.getValue() == V; });
      // Only the deallocs the rewrite removes may free an arena's bytes.
      if (llvm::any_of(List, [&](auto &E) {
            return E.getValue() == V && isa<MemoryEffects::Free>(E.getEffect());
          }))
        return "freed by " + Name();
      bool Writes = llvm::any_of(List, [&](auto &E) {
        return isa<MemoryEffects::Write>(E.getEffect());
      });
      // Written somewhere without being the target: the buffer itself is
      // the data being stored.
      if (!OnValue && Writes)
        return "stored by " + Name();
      return std::nullopt;
    }
    return "used by " + Name() + ", whose memory effects are unknown";
  }

  /// The last task at which User keeps the buffer alive: the end of User's
  /// own regions, or of any loop around it that does not hold the alloc.
  uint64_t lastTaskOf(Operation *User, Operation *Alloc) {
    uint64_t Last = Tasks.end(User);
    for (Operation *P = User->getParentOp(); P && P != Fn.getOperation();
         P = P->getParentOp())
      if (isLoop(P) && !P->isAncestor(Alloc))
        Last = std::max(Last, Tasks.end(P));
    return Last;
  }

  bool isLiveAt(Value V, Operation *Op) {
    const LivenessBlockInfo *Info = Live->getLiveness(Op->getBlock());
    return Info && Info->currentlyLiveValues(Op).contains(V);
  }

  /// Over a CFG, a value live into a block is alive from the block's start,
  /// one live out of it until the block's end (and any loop around it).
  void extendOverBlocks(Value V, Operation *Alloc, uint64_t &First,
                        uint64_t &Last) {
    Fn->walk([&](Block *B) {
      if (B->empty())
        return;
      const LivenessBlockInfo *Info = Live->getLiveness(B);
      if (!Info)
        return;
      if (Info->isLiveIn(V))
        First = std::min(First, Tasks.start(&B->front()));
      if (Info->isLiveOut(V))
        Last = std::max(Last, lastTaskOf(&B->back(), Alloc));
    });
  }

  FunctionOpInterface Fn;
  TaskNumbering Tasks;
  BufferViewFlowAnalysis Aliases;
  bool HasMultiBlockRegions = false;
  std::optional<Liveness> Live;
};

} // namespace

FunctionBuffers memplan::computeUsageRecords(FunctionOpInterface Function) {
  return Analyzer(Function).run();
}
