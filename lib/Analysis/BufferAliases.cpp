//===- BufferAliases.cpp - Every value that may hold a buffer -------------===//
//
// The closure starts at the allocation and follows, to a fixed point:
//  - BufferViewFlowAnalysis: views, region and branch forwarding;
//  - the results of every other op that uses an alias, unless the result is
//    plain data (an integer, float, index, complex or vector of those). This
//    covers, with no special case, the ops MLIR 22 gives no alias
//    information for: memref.transpose, memref.distinct_objects,
//    builtin.unrealized_conversion_cast, bufferization.to_tensor and
//    to_buffer, ptr.to_ptr/from_ptr, tensor ops on a tensor made from the
//    buffer, and the async tokens of gpu ops that read it;
//  - terminators without interfaces: the parent's results, its regions'
//    arguments and the successors' arguments;
//  - async.execute: a use inside its body makes its token and values
//    aliases, so the buffer lives until they are awaited.
// Any use the table below does not understand is an escape.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/BufferAliases.h"
#include "memplan/Analysis/NoCapture.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Async/IR/Async.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/Interfaces/MaskingOpInterface.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "memplan-aliases"

using namespace mlir;
using namespace memplan;

namespace {

/// Plain data: a value of this type cannot hold a buffer (pointers turned
/// into integers are caught as "pointer taken" where they are made).
bool isData(Type T) {
  if (isa<IntegerType, IndexType, FloatType, NoneType>(T))
    return true;
  if (auto C = dyn_cast<ComplexType>(T))
    return isData(C.getElementType());
  if (auto V = dyn_cast<VectorType>(T))
    return isData(V.getElementType());
  return false;
}

bool isParallelLoop(Operation *Op) {
  return isa<scf::ForallOp, scf::ParallelOp, affine::AffineParallelOp>(Op);
}

/// An op whose region runs once, in place, when the op does: vector.mask
/// runs the one op it masks.
bool runsRegionInPlace(Operation *Op) {
  return isa<vector::MaskingOpInterface>(Op);
}

/// Waits that join asynchronous work on the calling thread.
bool isSynchronousJoin(Operation *Op) {
  if (isa<async::AwaitOp>(Op))
    return true;
  auto Wait = dyn_cast<gpu::WaitOp>(Op);
  return Wait && !Wait.getAsyncToken();
}

bool isAsyncToken(Type T) {
  return isa<async::TokenType, async::ValueType, gpu::AsyncTokenType>(T);
}

/// Ops that turn an address into an integer; after them any integer may be
/// the buffer's address.
bool takesPointer(Operation *Op, Value V) {
  if (isa<memref::ExtractAlignedPointerAsIndexOp, LLVM::PtrToIntOp>(Op))
    return true;
  // Tensors are values: integers made from them are their elements.
  if (isa<TensorType>(V.getType()))
    return false;
  if (llvm::none_of(Op->getResultTypes(), [](Type T) {
        if (auto Vec = dyn_cast<VectorType>(T))
          T = Vec.getElementType();
        return isa<IntegerType, IndexType>(T);
      }))
    return false;
  if (isa<memref::DimOp, memref::RankOp, memref::ExtractStridedMetadataOp>(Op))
    return false;
  // A load reads the contents, not the address.
  if (auto Effects = dyn_cast<MemoryEffectOpInterface>(Op)) {
    SmallVector<MemoryEffects::EffectInstance> List;
    Effects.getEffects(List);
    if (llvm::any_of(List, [&](auto &E) {
          return E.getValue() == V && isa<MemoryEffects::Read>(E.getEffect());
        }))
      return false;
  }
  return true;
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

/// Whether W is a result of a call that takes V only as arguments its
/// callee keeps no reference to: then W cannot be V.
bool isReturnedByNoCaptureCall(Value V, Value W) {
  auto Result = dyn_cast<OpResult>(W);
  auto Call =
      Result ? dyn_cast<CallOpInterface>(Result.getOwner()) : CallOpInterface();
  if (!Call)
    return false;
  bool Passed = false;
  for (OpOperand &Use : Call->getOpOperands()) {
    if (Use.get() != V)
      continue;
    if (!callKeepsNoReference(Call, Use))
      return false;
    Passed = true;
  }
  return Passed;
}

} // namespace

BufferAliasAnalysis::BufferAliasAnalysis(FunctionOpInterface Fn)
    : Fn(Fn), Flow(Fn) {}

bool BufferAliasAnalysis::isAsynchronous(Operation *Op) {
  return isa<async::ExecuteOp>(Op);
}

void BufferAliasAnalysis::addAliasResults(OpOperand &Use,
                                          SmallVectorImpl<Value> &Out) {
  Operation *Owner = Use.getOwner();
  auto AddHolders = [&](auto Range) {
    for (Value R : Range)
      if (!isData(R.getType()))
        Out.push_back(R);
  };
  // A use inside an asynchronous region keeps the buffer until the work is
  // joined: the region's tokens and values stand for it.
  for (Operation *P = Owner->getParentOp(); P && P != Fn.getOperation();
       P = P->getParentOp())
    if (isAsynchronous(P))
      llvm::append_range(Out, P->getResults());
  // scf.parallel's inits, and what scf.reduce and scf.reduce.return give,
  // reach its results and the reductions' arguments through the reduction
  // regions, which the interfaces do not forward: a buffer given as an init
  // was reused while the loop's result, the same buffer, was read.
  Operation *Loop = nullptr;
  if (isa<scf::ParallelOp>(Owner))
    Loop = Owner;
  else if (isa<scf::ReduceOp>(Owner))
    Loop = Owner->getParentOp();
  else if (auto Return = dyn_cast<scf::ReduceReturnOp>(Owner))
    Loop = Return->getParentOp()->getParentOp();
  if (auto Parallel = dyn_cast_if_present<scf::ParallelOp>(Loop)) {
    AddHolders(Parallel.getResults());
    Parallel.walk([&](scf::ReduceOp Reduce) {
      for (Region &R : Reduce.getReductions())
        if (!R.empty())
          AddHolders(R.front().getArguments());
    });
  }
  if (Owner->hasTrait<OpTrait::IsTerminator>()) {
    // Forwarding through the interfaces is BufferViewFlowAnalysis's job.
    if (isa<RegionBranchTerminatorOpInterface, BranchOpInterface>(Owner))
      return;
    for (Block *Succ : Owner->getSuccessors())
      AddHolders(Succ->getArguments());
    Operation *Parent = Owner->getParentOp();
    if (Parent != Fn.getOperation()) {
      AddHolders(Parent->getResults());
      for (Region &R : Parent->getRegions())
        if (!R.empty())
          AddHolders(R.front().getArguments());
    }
    return;
  }
  if (isa<RegionBranchOpInterface, memref::DeallocOp>(Owner))
    return;
  // A callee that keeps no reference does not return one either.
  if (auto Call = dyn_cast<CallOpInterface>(Owner))
    if (callKeepsNoReference(Call, Use))
      return;
  AddHolders(Owner->getResults());
}

std::optional<std::string> BufferAliasAnalysis::escapes(OpOperand &Use) {
  Operation *User = Use.getOwner();
  Value V = Use.get();
  auto Name = [&] { return "'" + User->getName().getStringRef().str() + "'"; };
  // A use inside the region of an op of unknown semantics: the region may
  // run at any time (asynchronously, later), so the buffer is captured.
  for (Operation *P = User->getParentOp(); P && P != Fn.getOperation();
       P = P->getParentOp())
    if (!isa<RegionBranchOpInterface>(P) && !isParallelLoop(P) &&
        !runsRegionInPlace(P))
      return "captured by the region of '" + P->getName().getStringRef().str() +
             "', whose semantics are unknown";
  if (isa<memref::DeallocOp>(User) || isSynchronousJoin(User))
    return std::nullopt;
  if (isa<bufferization::DeallocOp>(User))
    return "managed by 'bufferization.dealloc'";
  if (User->hasTrait<OpTrait::ReturnLike>() &&
      User->getParentOp() == Fn.getOperation())
    return std::string("returned");
  if (auto Call = dyn_cast<CallOpInterface>(User))
    return callKeepsNoReference(Call, Use)
               ? std::nullopt
               : std::optional<std::string>("passed to a call (" + Name() +
                                            ")");
  // A token only orders work: waits join it, async ops depend on it (and
  // their own tokens are followed in turn).
  if (isAsyncToken(V.getType()))
    return isa<async::ExecuteOp, gpu::AsyncOpInterface>(User)
               ? std::nullopt
               : std::optional<std::string>("its async token goes to " +
                                            Name() + ", which is not a wait");
  if (isa<ViewLikeOpInterface, RegionBranchOpInterface, BranchOpInterface,
          RegionBranchTerminatorOpInterface>(User) ||
      User->hasTrait<OpTrait::IsTerminator>())
    return std::nullopt;
  if (takesPointer(User, V))
    return "its pointer is taken (" + Name() + ")";
  auto Effects = dyn_cast<MemoryEffectOpInterface>(User);
  if (!Effects)
    return "used by " + Name() + ", whose memory effects are unknown";
  SmallVector<MemoryEffects::EffectInstance> List;
  Effects.getEffects(List);
  // Only the deallocs the rewrite removes may free an arena's bytes.
  if (llvm::any_of(List, [&](auto &E) {
        return E.getValue() == V && isa<MemoryEffects::Free>(E.getEffect());
      }))
    return "freed by " + Name();
  bool OnValue = llvm::any_of(List, [&](auto &E) { return E.getValue() == V; });
  bool Writes = llvm::any_of(
      List, [&](auto &E) { return isa<MemoryEffects::Write>(E.getEffect()); });
  // Written somewhere without being the target: the buffer itself is the
  // data being stored.
  if (!OnValue && Writes)
    return "stored by " + Name();
  return std::nullopt;
}

/// The tokens and values whose completion implies Start's: its own, and
/// those of the async ops that depend on them (an async.execute or gpu op
/// starts after its dependencies end).
static SmallPtrSet<Value, 8> completedWith(Operation *Start) {
  SmallPtrSet<Value, 8> Done;
  SmallVector<Value> Work;
  auto Add = [&](Value V) {
    if (isAsyncToken(V.getType()) && Done.insert(V).second)
      Work.push_back(V);
  };
  for (Value R : Start->getResults())
    Add(R);
  while (!Work.empty()) {
    Value V = Work.pop_back_val();
    for (Operation *User : V.getUsers()) {
      bool DependsOnV = false;
      if (auto Exec = dyn_cast<async::ExecuteOp>(User))
        DependsOnV = llvm::is_contained(Exec.getDependencies(), V);
      else if (auto Gpu = dyn_cast<gpu::AsyncOpInterface>(User))
        DependsOnV = llvm::is_contained(Gpu.getAsyncDependencies(), V);
      if (DependsOnV)
        for (Value R : User->getResults())
          Add(R);
    }
  }
  return Done;
}

/// Asynchronous work that holds the buffer must be joined on every path:
/// by a wait in the block that starts it, after it, on that work's own
/// token or value, or on one that depends on it and is an alias (the
/// record then reaches the wait; a gpu op's token is one, an
/// async.execute's that only depends on it is not). A wait on another
/// alias's token joins that work only: accepted, an execute never awaited
/// read the buffer after its bytes were reused.
std::optional<BufferEscape>
BufferAliasAnalysis::checkJoins(const BufferAliasInfo &Info) {
  SmallPtrSet<Operation *, 4> Starts;
  for (Value V : Info.Aliases)
    if (isAsyncToken(V.getType()))
      if (Operation *Def = V.getDefiningOp())
        Starts.insert(Def);
  for (Operation *Start : Starts) {
    SmallPtrSet<Value, 8> Done = completedWith(Start);
    bool Joined = false;
    for (Operation *Op = Start->getNextNode(); Op && !Joined;
         Op = Op->getNextNode())
      Joined = isSynchronousJoin(Op) &&
               llvm::any_of(Op->getOperands(), [&](Value O) {
                 return Done.contains(O) && Info.Aliases.contains(O);
               });
    if (!Joined)
      return BufferEscape{"used asynchronously by '" +
                              Start->getName().getStringRef().str() +
                              "' and not awaited in its block",
                          Start};
  }
  return std::nullopt;
}

BufferAliasInfo BufferAliasAnalysis::analyze(Value Root) {
  BufferAliasInfo Info;
  SmallVector<Value> Work;
  auto Add = [&](Value V) {
    if (Info.Aliases.insert(V))
      Work.push_back(V);
  };
  Add(Root);
  SmallVector<Value> Found;
  while (!Work.empty()) {
    Value V = Work.pop_back_val();
    // Immediate dependencies (the worklist makes the closure): an edge from
    // an argument to a call's results is dropped when the callee keeps no
    // reference, which BufferViewFlowAnalysis cannot know.
    if (auto It = Flow.find(V); It != Flow.end())
      for (Value W : It->second)
        if (!isReturnedByNoCaptureCall(V, W))
          Add(W);
    for (OpOperand &Use : V.getUses()) {
      // The closure goes on past an escape: callers check loops first.
      if (!Info.Escape)
        if (std::optional<std::string> Why = escapes(Use)) {
          LLVM_DEBUG(llvm::dbgs() << "escape: " << *Why << "\n");
          Info.Escape = BufferEscape{std::move(*Why), Use.getOwner()};
        }
      if (isa<memref::DeallocOp>(Use.getOwner()) &&
          !llvm::is_contained(Info.Deallocs, Use.getOwner()))
        Info.Deallocs.push_back(Use.getOwner());
      Found.clear();
      addAliasResults(Use, Found);
      for (Value R : Found)
        Add(R);
    }
  }
  if (Info.Escape)
    return Info;
  for (Operation *Dealloc : Info.Deallocs)
    for (Value Origin : Flow.resolveReverse(Dealloc->getOperand(0)))
      if (Origin != Root && isBufferOrigin(Origin, Fn)) {
        Info.Escape = BufferEscape{
            "freed through a value that may be another buffer", Dealloc};
        return Info;
      }
  Info.Escape = checkJoins(Info);
  return Info;
}
