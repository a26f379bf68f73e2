//===- ArenaArgument.cpp - The arena as a function argument ---------------===//
//
// TFLite's "arena passed in": with arena=argument a function gets its arena
// as a trailing memref<Nxi8> argument, and every caller allocates one around
// the call.
//
//===----------------------------------------------------------------------===//

#include "TensorMemPlanInternal.h"
#include "memplan/Analysis/AttrNames.h"
#include "memplan/Analysis/NoCapture.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace memplan;

bool memplan::allUsesAreCalls(FunctionOpInterface Fn) {
  Operation *Table = SymbolTable::getNearestSymbolTable(Fn->getParentOp());
  if (!Table)
    return true;
  auto Uses = SymbolTable::getSymbolUses(Fn, Table);
  return !Uses || llvm::all_of(*Uses, [](const SymbolTable::SymbolUse &U) {
    return isa<CallOpInterface>(U.getUser());
  });
}

/// Whether the function around Op frees its buffers: then so must it free
/// what memplan allocates for it.
static bool freesBuffers(Operation *Op) {
  auto Fn = Op->getParentOfType<FunctionOpInterface>();
  if (!Fn)
    return false;
  return Fn
      ->walk([](Operation *Inner) {
        return isa<memref::DeallocOp, bufferization::DeallocOp>(Inner)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult memplan::checkCallersReachable(FunctionOpInterface Fn,
                                             Operation *PassRoot) {
  if (Fn.getOperation() != PassRoot)
    return success();
  Operation *Table = SymbolTable::getNearestSymbolTable(Fn->getParentOp());
  if (!Table)
    return success();
  auto Uses = SymbolTable::getSymbolUses(Fn, Table);
  if (Uses && !Uses->empty())
    return Fn.emitError()
           << "tensor-mem-plan: arena=argument changes the signature of '"
           << Fn.getName()
           << "', which has callers; run the pass on the enclosing module "
              "(builtin.module(tensor-mem-plan{arena=argument})) so it can "
              "update them";
  return success();
}

FailureOr<Value> memplan::addArenaArgument(FunctionOpInterface Fn,
                                           MemRefType ArenaType,
                                           uint64_t Alignment,
                                           bool CalleeFrees) {
  unsigned Index = Fn.getNumArguments();
  OpBuilder B(Fn.getContext());
  auto SizeAttr = B.getNamedAttr(
      kArenaSizeAttr,
      B.getI64IntegerAttr(static_cast<int64_t>(ArenaType.getNumElements())));
  auto AlignAttr =
      B.getNamedAttr(kArenaAlignmentAttr,
                     B.getI64IntegerAttr(static_cast<int64_t>(Alignment)));
  // Only views of planned buffers, which never escape, reach the arena: a
  // caller may plan the arena it passes like any buffer.
  auto NoCapture = B.getNamedAttr(kNoCaptureAttr, B.getUnitAttr());
  if (failed(Fn.insertArgument(
          Index, ArenaType,
          B.getDictionaryAttr({SizeAttr, AlignAttr, NoCapture}), Fn.getLoc())))
    return Fn.emitError() << "tensor-mem-plan: cannot add an arena argument";
  if (Operation *Table = SymbolTable::getNearestSymbolTable(Fn->getParentOp()))
    if (auto Uses = SymbolTable::getSymbolUses(Fn, Table))
      for (const SymbolTable::SymbolUse &Use : *Uses) {
        auto Call = dyn_cast<CallOpInterface>(Use.getUser());
        if (!Call)
          return Use.getUser()->emitError()
                 << "tensor-mem-plan: arena=argument cannot update this "
                    "use of '"
                 << Fn.getName() << "'";
        B.setInsertionPoint(Call);
        Value CallerArena = memref::AllocOp::create(
            B, Call.getLoc(), ArenaType, ValueRange(),
            B.getI64IntegerAttr(static_cast<int64_t>(Alignment)));
        Call.getArgOperandsMutable().append(CallerArena);
        // A caller that frees nothing is left to free nothing, unless the
        // callee freed what it held: a call-site arena left unplanned (in
        // a parallel loop) then leaked on every call.
        if (!CalleeFrees && !freesBuffers(Call))
          continue;
        B.setInsertionPointAfter(Call);
        memref::DeallocOp::create(B, Call.getLoc(), CallerArena);
      }
  return Fn.getArgument(Index);
}
