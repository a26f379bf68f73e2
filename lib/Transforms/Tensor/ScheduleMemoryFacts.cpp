//===- ScheduleMemoryFacts.cpp - What an op may read and write ------------===//
//
// tensor-mem-schedule moves ops; a pure op that reads a buffer through a
// tensor (a to_tensor of a global or an argument) must stay between the
// writes to that buffer. MemoryFacts names the memory behind values and ops,
// default-deny, so that the block model can order them.
//
//===----------------------------------------------------------------------===//

#include "ScheduleInternal.h"

#include "memplan/Analysis/AttrNames.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace memplan::tensor_schedule;

MemoryFacts::MemoryFacts(Operation *Scope)
    : Fn(dyn_cast<FunctionOpInterface>(Scope)) {
  if (!Fn)
    Fn = Scope->getParentOfType<FunctionOpInterface>();
}

MemorySet MemoryFacts::memrefRoot(Value M) {
  // A view (a subview of a cache row, a cast, a reshape) lies inside its
  // source's memory.
  while (auto View = M.getDefiningOp<ViewLikeOpInterface>())
    M = View.getViewSource();
  MemorySet S;
  if (auto Get = M.getDefiningOp<memref::GetGlobalOp>())
    S.Globals.push_back(Get.getNameAttr().getAttr());
  else
    S.Any = true;
  return S;
}

MemorySet MemoryFacts::mutableRoot(Value M) {
  if (auto Get = M.getDefiningOp<memref::GetGlobalOp>()) {
    auto Global = Symbols.lookupNearestSymbolFrom<memref::GlobalOp>(
        Get, Get.getNameAttr().getAttr());
    if (Global &&
        (Global.getConstant() || Global->hasAttr(memplan::kHoistedGlobalAttr)))
      return {};
  }
  return memrefRoot(M);
}

const MemorySet &MemoryFacts::tensorSources(Value V) {
  auto It = Sources.find(V);
  if (It != Sources.end())
    return It->second;
  MemorySet S = computeSources(V);
  return Sources[V] = std::move(S);
}

MemorySet MemoryFacts::tensorReads(Operation *Op) {
  MemorySet S;
  Op->walk([&](Operation *Inner) {
    for (Value V : Inner->getOperands())
      if (isa<TensorType>(V.getType()) &&
          !Op->isAncestor(V.getParentRegion()->getParentOp()))
        S.add(tensorSources(V));
  });
  return S;
}

MemorySet MemoryFacts::writes(Operation *Op) {
  MemorySet S;
  Op->walk([&](Operation *Inner) {
    if (auto D = dyn_cast<DestinationStyleOpInterface>(Inner))
      if (hasWritableToTensor())
        for (OpOperand &Init : D.getDpsInitsMutable())
          if (isa<TensorType>(Init.get().getType()))
            S.add(tensorSources(Init.get()));
    // A to_tensor reads; writes through its result are the users'.
    if (isa<bufferization::ToTensorOp>(Inner))
      return;
    auto Effects = dyn_cast<MemoryEffectOpInterface>(Inner);
    if (!Effects) {
      if (!Inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        S.Any = true;
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> List;
    Effects.getEffects(List);
    for (const MemoryEffects::EffectInstance &E : List) {
      if (!isa<MemoryEffects::Write, MemoryEffects::Free>(E.getEffect()))
        continue;
      if (Value M = E.getValue()) {
        // A buffer allocated inside Op is no memory anyone else reads.
        Operation *Def = M.getDefiningOp();
        if (Def && Op->isAncestor(Def) &&
            isa<memref::AllocOp, memref::AllocaOp>(Def))
          continue;
        S.add(memrefRoot(M));
      } else if (SymbolRefAttr Sym = E.getSymbolRef()) {
        S.Globals.push_back(Sym.getLeafReference());
      } else {
        S.Any = true;
      }
    }
  });
  return S;
}

/// Bufferization writes into a to_tensor's memory only when it is marked
/// writable (it copies otherwise); without one, a destination written in
/// place is never mutable memory.
bool MemoryFacts::hasWritableToTensor() {
  if (!WritableToTensor)
    WritableToTensor = !Fn || Fn->walk([](bufferization::ToTensorOp T) {
                                  return T.getWritable()
                                             ? WalkResult::interrupt()
                                             : WalkResult::advance();
                                }).wasInterrupted();
  return *WritableToTensor;
}

MemorySet MemoryFacts::computeSources(Value V) {
  MemorySet Anything;
  Anything.Any = true;
  if (auto Arg = dyn_cast<BlockArgument>(V)) {
    // A function's tensor arguments are values; a loop's or a branch's
    // block arguments may carry anything into the block.
    if (Fn && Arg.getOwner() == &Fn.getFunctionBody().front())
      return {};
    return Anything;
  }
  Operation *Def = V.getDefiningOp();
  if (isMemRefTensor(Def))
    return mutableRoot(Def->getOperand(0));
  if (isa<tensor::EmptyOp, tensor::PadOp, tensor::ConcatOp>(Def) ||
      Def->hasTrait<OpTrait::ConstantLike>())
    return {};
  if (auto D = dyn_cast<DestinationStyleOpInterface>(Def)) {
    // The result may be its init written in place.
    auto R = cast<OpResult>(V);
    if (OpOperand *Init = D.getTiedOpOperand(R))
      return tensorSources(Init->get());
    return Anything;
  }
  // A pure op without regions forwards at most its operands (a view, a
  // reshape, a select); anything else may hand on any memory.
  if (Def->getNumRegions() != 0 || !isMemoryEffectFree(Def))
    return Anything;
  MemorySet S;
  for (Value Operand : Def->getOperands())
    if (isa<TensorType>(Operand.getType()))
      S.add(tensorSources(Operand));
  return S;
}
