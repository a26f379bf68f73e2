//===- HoistIntoGlobals.cpp - Constant-derived tensors into globals -------===//
//
// Moves tensors computed only from constants out of a function: each into a
// module-level global, filled by an init function that the function runs
// exactly once (guarded by an atomic flag, so concurrent first calls wait
// for one run), and read from the global from then on.
//
//===----------------------------------------------------------------------===//

#include "HoistInternal.h"

#include "memplan/Analysis/AttrNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace memplan;
using namespace memplan::hoist_constants;

SmallVector<memref::GlobalOp>
hoist_constants::hoistIntoGlobals(func::FuncOp Fn,
                                  ArrayRef<std::pair<Value, Candidate>> Values,
                                  SymbolTable &Symbols) {
  MLIRContext *Ctx = Fn.getContext();
  Location Loc = Fn.getLoc();
  OpBuilder B(Ctx);
  auto Private = B.getStringAttr("private");
  // Globals go before Fn, renamed by the symbol table if the name is taken.
  auto Mark = [&](Operation *Op) {
    Op->setAttr(memplan::kHoistedGlobalAttr, UnitAttr::get(Ctx));
    Symbols.insert(Op, Block::iterator(Fn));
  };

  // The once-flag: 0 before the first call, 1 while the init function runs,
  // 2 once it ran. An i32, as atomics need a whole word.
  auto FlagType = MemRefType::get({}, B.getI32Type());
  B.setInsertionPoint(Fn);
  auto Flag = memref::GlobalOp::create(
      B, Loc, ("__memplan_ready_" + Fn.getName()).str(), Private, FlagType,
      DenseElementsAttr::get(RankedTensorType::get({}, B.getI32Type()),
                             Attribute(B.getI32IntegerAttr(0))),
      /*constant=*/false, /*alignment=*/B.getI64IntegerAttr(4));
  Flag->remove();
  Mark(Flag);

  // One global per tensor, and the init function that fills them all.
  auto Init = func::FuncOp::create(
      Loc, ("__memplan_init_" + Fn.getName()).str(), B.getFunctionType({}, {}));
  Init.setPrivate();
  // The report counts its arenas on the first call only.
  Init->setAttr(memplan::kInitFunctionAttr, B.getUnitAttr());
  Symbols.insert(Init, Block::iterator(Fn));
  OpBuilder InitB = OpBuilder::atBlockEnd(Init.addEntryBlock());
  llvm::SetVector<Operation *> Derived = constantDerivedOps(Fn.front());
  SmallVector<Value> Roots = llvm::map_to_vector(
      Values, [](const std::pair<Value, Candidate> &H) { return H.first; });
  DenseSet<Operation *> Slice = backwardSlice(Roots, Derived);
  DenseMap<Value, memref::GlobalOp> Globals;
  for (const auto &[V, C] : Values) {
    auto Tensor = cast<RankedTensorType>(V.getType());
    auto Type = MemRefType::get(Tensor.getShape(), Tensor.getElementType());
    B.setInsertionPoint(Fn);
    auto Global = memref::GlobalOp::create(
        B, C.Loc, ("__memplan_hoisted_" + Fn.getName()).str(), Private, Type,
        UnitAttr::get(Ctx), /*constant=*/false, B.getI64IntegerAttr(64));
    Global->remove();
    Mark(Global);
    Globals[V] = Global;
  }

  // Each tensor is written to its global right after it is computed, so the
  // init function's own temporaries die early.
  IRMapping Map;
  for (Operation &Op : Fn.front()) {
    if (!Slice.contains(&Op))
      continue;
    InitB.clone(Op, Map);
    for (Value V : Op.getResults()) {
      memref::GlobalOp Global = Globals.lookup(V);
      if (!Global)
        continue;
      auto Get = memref::GetGlobalOp::create(
          InitB, V.getLoc(), Global.getType(), Global.getSymName());
      bufferization::MaterializeInDestinationOp::create(
          InitB, V.getLoc(), TypeRange{}, Map.lookup(V), Get,
          /*restrict=*/true, /*writable=*/true);
    }
  }

  SmallVector<memref::GlobalOp> Result;
  for (const auto &[Root, C] : Values) {
    // The function reads the global where it computed the tensor.
    Value V = Root;
    memref::GlobalOp Global = Globals.lookup(V);
    B.setInsertionPointAfterValue(V);
    auto Get = memref::GetGlobalOp::create(B, C.Loc, Global.getType(),
                                           Global.getSymName());
    auto Read = bufferization::ToTensorOp::create(
        B, C.Loc, V.getType(), Get, /*restrict=*/true, /*writable=*/false);
    V.replaceAllUsesWith(Read.getResult());
    Result.push_back(Global);
  }
  func::ReturnOp::create(InitB, Loc);

  // At entry: run the init function exactly once, also when several threads
  // make the first call at once. Only memref.atomic_rmw touches the flag (an
  // acq_rel atomicrmw once lowered): reading 2 orders the init function's
  // writes before this call's reads. The first to move the flag from 0 to 1
  // runs the init function; the others spin until it reads 2.
  B.setInsertionPointToStart(&Fn.front());
  auto FlagGet =
      memref::GetGlobalOp::create(B, Loc, FlagType, Flag.getSymName());
  auto I32 = [&](int64_t V) {
    return arith::ConstantIntOp::create(B, Loc, V, 32).getResult();
  };
  Value NotStarted = I32(0), Running = I32(1), Done = I32(2);
  auto AtomicRMW = [&](arith::AtomicRMWKind Kind, Value V) {
    return memref::AtomicRMWOp::create(B, Loc, Kind, V, FlagGet, ValueRange{})
        .getResult();
  };
  auto Equals = [&](Value A, Value C) {
    return arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::eq, A, C)
        .getResult();
  };
  // An atomic read: or with 0.
  Value State = AtomicRMW(arith::AtomicRMWKind::ori, NotStarted);
  Value NotDone =
      arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::ne, State, Done);
  auto If = scf::IfOp::create(B, Loc, TypeRange{}, NotDone,
                              /*withElseRegion=*/false);
  B.setInsertionPointToStart(If.thenBlock());
  // Claim: max(flag, 1) leaves 1 and 2 as they are.
  Value Before = AtomicRMW(arith::AtomicRMWKind::maxs, Running);
  auto Claimed =
      scf::IfOp::create(B, Loc, TypeRange{}, Equals(Before, NotStarted),
                        /*withElseRegion=*/true);
  B.setInsertionPointToStart(Claimed.thenBlock());
  func::CallOp::create(B, Loc, Init, ValueRange{});
  AtomicRMW(arith::AtomicRMWKind::assign, Done);
  B.setInsertionPointToStart(Claimed.elseBlock());
  auto Wait = scf::WhileOp::create(B, Loc, TypeRange{}, ValueRange{});
  B.createBlock(&Wait.getBefore());
  Value Now = AtomicRMW(arith::AtomicRMWKind::ori, NotStarted);
  Value Spin =
      arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::ne, Now, Done);
  scf::ConditionOp::create(B, Loc, Spin, ValueRange{});
  B.createBlock(&Wait.getAfter());
  scf::YieldOp::create(B, Loc);

  // What computed the hoisted tensors is dead now.
  for (Operation &Op : llvm::make_early_inc_range(llvm::reverse(Fn.front())))
    if (Slice.contains(&Op) && Op.use_empty())
      Op.erase();
  return Result;
}
