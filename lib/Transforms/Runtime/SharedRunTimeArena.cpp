//===- SharedRunTimeArena.cpp - One run-time arena across calls -----------===//
//
//   %slot = memref.get_global @__memplan_shared_run_time_arena : memref<3xi64>
//   %arena = call @memplan_rt_shared_arena(%slot, %bytes, %align)
//
// right after the entry's check that no other function of the set runs;
// nothing frees it at the exits. See SharedRunTimeArena.h.
//
//===----------------------------------------------------------------------===//

#include "SharedRunTimeArena.h"
#include "PlanAtRunTime.h"

#include "memplan/Analysis/AttrNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace memplan;

static constexpr llvm::StringLiteral kSharedArenaFn = "memplan_rt_shared_arena";

/// Fn's reads of G, when all come after Guard (the block is taken right
/// after it); none otherwise, and G stays where it is.
static SmallVector<memref::GetGlobalOp>
readsOf(FunctionOpInterface Fn, memref::GlobalOp G, Operation *Guard) {
  SmallVector<memref::GetGlobalOp> Reads;
  bool After = true;
  if (G && Guard)
    Fn->walk([&](memref::GetGlobalOp Get) {
      if (Get.getName() != G.getSymName())
        return;
      Operation *Top = Guard->getBlock()->findAncestorOpInBlock(*Get);
      After &= !Top || Guard->isBeforeInBlock(Top);
      Reads.push_back(Get);
    });
  if (!After)
    Reads.clear();
  return Reads;
}

SharedRunTimeArena SharedRunTimeArena::collect(ModuleOp M) {
  SharedRunTimeArena S;
  S.Module = M;
  auto Names = M->getAttrOfType<ArrayAttr>(kSharedArenaAttr);
  if (!Names)
    return S;
  for (Attribute A : Names) {
    auto Ref = dyn_cast<FlatSymbolRefAttr>(A);
    auto Fn = dyn_cast_if_present<FunctionOpInterface>(
        Ref ? SymbolTable::lookupSymbolIn(M, Ref.getAttr()) : nullptr);
    if (Fn && !Fn.isExternal() && S.guardOf(Fn))
      S.Functions.push_back(Fn);
  }
  for (auto G : M.getOps<memref::GlobalOp>())
    if (G->hasAttr(kSharedArenaGlobalAttr) && !G.getType().getMemorySpace() &&
        G.getType().hasStaticShape() && G.getType().getRank() == 1)
      S.Static = G;
  for (FunctionOpInterface Fn : S.Functions)
    S.Reads[Fn] = readsOf(Fn, S.Static, S.guardOf(Fn));
  return S;
}

Operation *SharedRunTimeArena::guardOf(FunctionOpInterface Fn) const {
  for (Operation &Op : Fn.getFunctionBody().front())
    if (Op.hasAttr(kExclusionGuardAttr))
      return &Op;
  return nullptr;
}

bool SharedRunTimeArena::shares(FunctionOpInterface Fn) const {
  return llvm::is_contained(Functions, Fn);
}

uint64_t SharedRunTimeArena::prefix(FunctionOpInterface Fn) {
  return Reads.lookup(Fn).empty() ? 0 : Static.getType().getNumElements();
}

Value SharedRunTimeArena::take(FunctionOpInterface Fn, Value Total,
                               Value Align) {
  Location Loc = Fn.getLoc();
  OpBuilder B(Module.getContext());
  auto SlotType = MemRefType::get({3}, B.getI64Type());
  if (!TakeFn) {
    B.setInsertionPointToStart(Module.getBody());
    auto Dyn = MemRefType::get({ShapedType::kDynamic}, B.getI64Type());
    auto Buf = MemRefType::get({ShapedType::kDynamic}, B.getI8Type());
    TakeFn = declareRuntimeFunction(
        B, Module, kSharedArenaFn,
        B.getFunctionType({Dyn, B.getI64Type(), B.getI64Type()}, {Buf}));
    if (!TakeFn)
      return nullptr;
    auto Zero = DenseElementsAttr::get(
        RankedTensorType::get({3}, B.getI64Type()), B.getI64IntegerAttr(0));
    Slot = memref::GlobalOp::create(B, Loc, "__memplan_shared_run_time_arena",
                                    B.getStringAttr("private"), SlotType, Zero,
                                    /*constant=*/false, B.getI64IntegerAttr(8));
    // Made unlinked: the table renames it on a clash.
    Slot->remove();
    SymbolTable(Module).insert(Slot, Module.getBody()->begin());
  }
  B.setInsertionPointAfter(guardOf(Fn));
  SmallVector<memref::GetGlobalOp> Own = Reads.lookup(Fn);
  // The static arena's own alignment holds at the block's start.
  if (!Own.empty())
    Align = arith::MaxUIOp::create(
        B, Loc, Align,
        arith::ConstantIntOp::create(
            B, Loc, B.getI64Type(),
            static_cast<int64_t>(Static.getAlignment().value_or(1))));
  Value SlotRef =
      memref::GetGlobalOp::create(B, Loc, SlotType, Slot.getSymName());
  Value SlotArg = memref::CastOp::create(
      B, Loc, MemRefType::get({ShapedType::kDynamic}, B.getI64Type()), SlotRef);
  Value Arena =
      func::CallOp::create(B, Loc, TakeFn, ValueRange{SlotArg, Total, Align})
          .getResult(0);
  if (!Own.empty()) {
    Value Zero = arith::ConstantIndexOp::create(B, Loc, 0);
    Value View = memref::ViewOp::create(B, Loc, Static.getType(), Arena, Zero,
                                        ValueRange());
    for (memref::GetGlobalOp Get : Own) {
      Get.replaceAllUsesWith(View);
      Get.erase();
    }
    Reads.erase(Fn);
  }
  Took.insert(Fn);
  return Arena;
}

FailureOr<SmallVector<FunctionOpInterface>> SharedRunTimeArena::finish() {
  SmallVector<FunctionOpInterface> Moved;
  if (Took.empty() || !Static)
    return Moved;
  for (FunctionOpInterface Fn : Functions) {
    if (Took.contains(Fn) || Reads.lookup(Fn).empty())
      continue;
    OpBuilder B(guardOf(Fn));
    Location Loc = Fn.getLoc();
    Type I64 = B.getI64Type();
    Value Bytes = arith::ConstantIntOp::create(
        B, Loc, I64, static_cast<int64_t>(Static.getType().getNumElements()));
    Value Align = arith::ConstantIntOp::create(B, Loc, I64, 1);
    if (!take(Fn, Bytes, Align))
      return failure();
    Moved.push_back(Fn);
  }
  if (SymbolTable::symbolKnownUseEmpty(Static, Module))
    Static.erase();
  return Moved;
}
