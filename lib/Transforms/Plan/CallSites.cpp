//===- CallSites.cpp - How planned functions meet through calls ----------===//
//
// What tensor-mem-plan needs to know of calls: the order functions are
// planned in (callees first), which function takes its arena from its
// callers (across-calls), the calls a function's footprint adds up, and
// where an arena goes so that an init function's call stays before it.
//
//===----------------------------------------------------------------------===//

#include "TensorMemPlanInternal.h"

#include "memplan/Analysis/AttrNames.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace memplan;

/// Functions ordered so that a callee comes before its callers (a call
/// cycle keeps the order it was found in): planned first, its arena
/// becomes a buffer each caller plans.
SmallVector<FunctionOpInterface>
memplan::calleesFirst(ArrayRef<FunctionOpInterface> Functions) {
  DenseSet<Operation *> Known;
  for (FunctionOpInterface Fn : Functions)
    Known.insert(Fn);
  SmallVector<FunctionOpInterface> Order;
  DenseSet<Operation *> Seen;
  std::function<void(FunctionOpInterface)> Visit = [&](FunctionOpInterface Fn) {
    if (!Seen.insert(Fn).second)
      return;
    Fn->walk([&](CallOpInterface Call) {
      auto Target =
          dyn_cast_if_present<FunctionOpInterface>(Call.resolveCallable());
      if (Target && Known.contains(Target))
        Visit(Target);
    });
    Order.push_back(Fn);
  };
  for (FunctionOpInterface Fn : Functions)
    Visit(Fn);
  return Order;
}

/// A private function called, and only called, from functions of this
/// run: its arena can be a buffer of each caller's. Not an init function
/// (tensor-mem-hoist-constants): it runs on the first call only, before
/// its caller's arena, and in that arena it made the arena at least as
/// large on every call (mobilenet_v3_small_224's 4,096,000 bytes, 1,872,192
/// of its own).
bool memplan::sharesCallersArena(FunctionOpInterface Fn, Operation *PassRoot) {
  auto Symbol = dyn_cast<SymbolOpInterface>(Fn.getOperation());
  if (!Symbol || !Symbol.isPrivate() || Fn.getOperation() == PassRoot ||
      Fn->hasAttr(kInitFunctionAttr))
    return false;
  Operation *Table = SymbolTable::getNearestSymbolTable(Fn->getParentOp());
  if (!Table)
    return false;
  auto Uses = SymbolTable::getSymbolUses(Fn, Table);
  return Uses && !Uses->empty() &&
         llvm::all_of(*Uses, [&](const SymbolTable::SymbolUse &U) {
           return isa<CallOpInterface>(U.getUser()) &&
                  PassRoot->isProperAncestor(U.getUser());
         });
}

/// The calls Fn makes, for its footprint. Arenas are the allocs of its
/// arenas; with AsArgument they exist before it runs.
std::vector<CallSiteReport> memplan::callSites(FunctionOpInterface Fn,
                                               bool AsArgument,
                                               ArrayRef<Operation *> Arenas) {
  std::vector<CallSiteReport> Calls;
  Block &Entry = Fn.getFunctionBody().front();
  Fn->walk([&](CallOpInterface Call) {
    auto Callee =
        dyn_cast_if_present<SymbolRefAttr>(Call.getCallableForCallee());
    if (!Callee)
      return;
    // The run-time checks memplan adds end the program; they hold none.
    if (Callee.getLeafReference().getValue().starts_with("memplan_rt_broken_"))
      return;
    CallSiteReport C;
    C.Callee = Callee.getLeafReference().str();
    auto Target =
        dyn_cast_if_present<FunctionOpInterface>(Call.resolveCallable());
    C.Init = Target && Target->hasAttr(kInitFunctionAttr);
    Operation *Top = Entry.findAncestorOpInBlock(*Call);
    C.BeforeArenas =
        !AsArgument && Top && llvm::all_of(Arenas, [&](Operation *A) {
          return A->getBlock() == &Entry && Top->isBeforeInBlock(A);
        });
    Calls.push_back(std::move(C));
  });
  return Calls;
}

/// Whether Op is or holds a call to an init function.
static bool runsInit(Operation *Op) {
  return Op
      ->walk([](CallOpInterface Call) {
        auto Target =
            dyn_cast_if_present<FunctionOpInterface>(Call.resolveCallable());
        return Target && Target->hasAttr(kInitFunctionAttr)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The arena is allocated at the entry, but after the leading ops that
/// run an init function (tensor-mem-hoist-constants, on the first call)
/// and hold none of its buffers: the init's own arena is then never live
/// with it.
void memplan::setArenaInsertionPoint(OpBuilder &B, FunctionOpInterface Fn,
                                     const ArenaGroup &G) {
  Block &Entry = Fn.getFunctionBody().front();
  B.setInsertionPointToStart(&Entry);
  Operation *First = nullptr;
  for (const PlannableBuffer *Buffer : G.Buffers) {
    Operation *Top = Entry.findAncestorOpInBlock(*Buffer->Alloc);
    if (!Top) // in another block of a CFG
      return;
    if (!First || Top->isBeforeInBlock(First))
      First = Top;
  }
  for (Operation &Op : Entry) {
    if (&Op == First)
      break;
    if (runsInit(&Op))
      B.setInsertionPointAfter(&Op);
  }
}
