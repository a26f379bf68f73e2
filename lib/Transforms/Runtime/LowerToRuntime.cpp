//===- LowerToRuntime.cpp - Dynamic allocs to memplan_runtime calls -------===//
//
// What tensor-mem-plan cannot place at compile time (dynamic shapes, or with
// all=true every alloc left) is served at run time by libmemplan_runtime:
//
//   %m = memref.alloc(%d) : memref<?x8xf32>
//   memref.dealloc %m
// becomes
//   %buf = call @memplan_rt_alloc(%bytes, %align) : (i64, i64) -> memref<?xi8>
//   %m = memref.view %buf[%c0][%d] : memref<?xi8> to memref<?x8xf32>
//   call @memplan_rt_free(%buf) : (memref<?xi8>) -> ()
//
// A buffer is lowered only when the alias analysis (BufferAliases.h) sees
// every use of every alias: none may be returned, passed to a call, stored,
// freed by another op or by bufferization.dealloc, where a stock free()
// would meet our pointer. Its memref.deallocs become one memplan_rt_free
// right after the last use (in its block), or stay where they are. What was
// done to each function's buffers goes to the report (RuntimeReport.cpp).
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/BufferAliases.h"
#include "memplan/Analysis/ElementLayout.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Runtime/memplan_runtime.h"
#include "memplan/Transforms/Passes.h"
#include "memplan/Transforms/Remarks.h"

#include "PlanAtRunTime.h"
#include "RuntimeReport.h"
#include "SharedRunTimeArena.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/MathExtras.h"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMLOWERRUNTIME
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan::lower_runtime;
using memplan::emitPassRemark;
using memplan::passRemarksWanted;
using memplan::RemarkKind;
namespace remark_category = memplan::remark_category;

namespace {

constexpr llvm::StringLiteral kAllocFn = "memplan_rt_alloc";
constexpr llvm::StringLiteral kFreeFn = "memplan_rt_free";
constexpr llvm::StringLiteral kPlanFn = "memplan_rt_plan";
constexpr llvm::StringLiteral kSlotFn = "memplan_rt_slot";

/// Where a buffer the input frees can be freed instead: right after the op
/// of its block that holds the last use of any alias (the ownership-based
/// deallocation frees at the end of the block). Null when that is not
/// known to hold on every path: a dealloc elsewhere, a use outside the
/// block, or a block in a CFG.
Operation *lastUse(memref::AllocOp Alloc,
                   const memplan::BufferAliasInfo &Info) {
  Block *B = Alloc->getBlock();
  if (Info.Deallocs.empty() || !B->getParent()->hasOneBlock())
    return nullptr;
  Operation *Last = Alloc.getOperation();
  for (Operation *D : Info.Deallocs)
    if (D->getBlock() != B)
      return nullptr;
  for (Value V : Info.Aliases)
    for (Operation *User : V.getUsers()) {
      if (isa<memref::DeallocOp>(User))
        continue;
      Operation *Top = B->findAncestorOpInBlock(*User);
      if (!Top)
        return nullptr;
      if (Last->isBeforeInBlock(Top))
        Last = Top;
    }
  return Last;
}

/// Whether \p Dealloc's operand is \p Buffer seen through views, so that a
/// free of the runtime's pointer can stand in its place. Through a block
/// argument or a region's result (an scf.while's before region hands its
/// buffer to the after region and to the loop's results), the pointer is
/// not there to name: a free of it did not verify (operand does not
/// dominate its use).
bool freesOnly(Operation *Dealloc, Value Buffer) {
  Value V = cast<memref::DeallocOp>(Dealloc).getMemref();
  while (V != Buffer) {
    auto View = V.getDefiningOp<ViewLikeOpInterface>();
    if (!View)
      return false;
    V = View.getViewSource();
  }
  return true;
}

struct TensorMemLowerRuntimePass
    : memplan::impl::TensorMemLowerRuntimeBase<TensorMemLowerRuntimePass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Declares the runtime functions in \p Table (once per symbol table);
  /// memplan_rt_plan only with \p WithPlan, memplan_rt_slot only with
  /// \p WithSlot (the slots of a run-time arena).
  LogicalResult declareRuntime(Operation *Table, bool WithPlan = false,
                               bool WithSlot = false);
  /// StaticBytes: the element size times the static dimensions.
  void lower(memref::AllocOp Op, uint64_t StaticBytes, uint64_t Align,
             ArrayRef<Operation *> Deallocs, Operation *FreeAfter);

  DenseMap<Operation *, memplan::RuntimeFunctions> Declared;

  /// What happened to each function's dynamic buffers.
  std::vector<RuntimeSummary> Summaries;
  DenseMap<Operation *, size_t> SummaryOf;
  RuntimeSummary &summaryOf(FunctionOpInterface Fn) {
    auto [It, New] = SummaryOf.try_emplace(Fn, Summaries.size());
    if (New)
      Summaries.push_back({Fn, {}, {}, {}});
    return Summaries[It->second];
  }
  void emitSummaries();
};

LogicalResult TensorMemLowerRuntimePass::declareRuntime(Operation *M,
                                                        bool WithPlan,
                                                        bool WithSlot) {
  auto It = Declared.find(M);
  if (It != Declared.end()) {
    if ((!WithPlan || It->second.PlanFn) && (!WithSlot || It->second.SlotFn))
      return success();
    // Declared again below, with what was declared before.
    WithPlan |= bool(It->second.PlanFn);
    WithSlot |= bool(It->second.SlotFn);
  }
  if (!M || !M->hasTrait<OpTrait::SymbolTable>() || M->getNumRegions() != 1 ||
      M->getRegion(0).empty())
    return getOperation().emitError()
           << "tensor-mem-lower-runtime: no symbol table to declare the "
              "runtime functions in";
  OpBuilder B = OpBuilder::atBlockBegin(&M->getRegion(0).front());
  Type I64 = B.getI64Type();
  auto Buf = MemRefType::get({ShapedType::kDynamic}, B.getI8Type());
  auto Declare = [&](StringRef Name, FunctionType Ty) {
    return memplan::declareRuntimeFunction(B, M, Name, Ty);
  };
  memplan::RuntimeFunctions R;
  R.AllocFn = Declare(kAllocFn, B.getFunctionType({I64, I64}, {Buf}));
  R.FreeFn = Declare(kFreeFn, B.getFunctionType({Buf}, {}));
  if (WithPlan) {
    auto Table = MemRefType::get({ShapedType::kDynamic}, I64);
    R.PlanFn = Declare(kPlanFn, B.getFunctionType({Table, Table, I64}, {I64}));
    if (!R.PlanFn)
      return failure();
  }
  if (WithSlot) {
    R.SlotFn = Declare(kSlotFn, B.getFunctionType({Buf}, {Buf}));
    if (!R.SlotFn)
      return failure();
  }
  if (!R.AllocFn || !R.FreeFn)
    return failure();
  Declared[M] = R;
  return success();
}

void TensorMemLowerRuntimePass::lower(memref::AllocOp Op, uint64_t StaticBytes,
                                      uint64_t AlignBytes,
                                      ArrayRef<Operation *> Deallocs,
                                      Operation *FreeAfter) {
  const memplan::RuntimeFunctions &RT =
      Declared.lookup(SymbolTable::getNearestSymbolTable(Op));
  MemRefType Ty = Op.getType();
  Location Loc = Op.getLoc();
  OpBuilder B(Op);
  Type I64 = B.getI64Type();

  // Bytes = element size * static dims (folded) * dynamic dims; -1 if that
  // wraps, which memplan_rt_alloc reports (as the run-time plans do).
  Value Bytes = memplan::emitByteSize(B, Loc, StaticBytes, Op.getDynamicSizes(),
                                      [](Value D) { return D; });
  Value Align = arith::ConstantIntOp::create(B, Loc, I64, AlignBytes);
  auto Call =
      func::CallOp::create(B, Loc, RT.AllocFn, ValueRange{Bytes, Align});
  Value Buffer = Call.getResult(0);
  Value Zero = arith::ConstantIndexOp::create(B, Loc, 0);
  auto View =
      memref::ViewOp::create(B, Loc, Ty, Buffer, Zero, Op.getDynamicSizes());

  if (FreeAfter) {
    OpBuilder FB(Op.getContext());
    if (FreeAfter->hasTrait<OpTrait::IsTerminator>())
      FB.setInsertionPoint(FreeAfter);
    else if (FreeAfter == Op.getOperation())
      FB.setInsertionPointAfter(View);
    else
      FB.setInsertionPointAfter(FreeAfter);
    func::CallOp::create(FB, Loc, RT.FreeFn, ValueRange{Buffer});
    for (Operation *D : Deallocs)
      D->erase();
  } else {
    for (Operation *D : Deallocs) {
      OpBuilder DB(D);
      func::CallOp::create(DB, D->getLoc(), RT.FreeFn, ValueRange{Buffer});
      D->erase();
    }
  }
  Op.getResult().replaceAllUsesWith(View.getResult());
  Op.erase();
  ++numLowered;
}

void TensorMemLowerRuntimePass::runOnOperation() {
  ModuleOp M = getOperation();
  // Core decides what alignment plans, with the message tensor-mem-plan
  // gives too.
  if (llvm::Error E = memplan::checkAlignmentOption(alignment)) {
    M.emitError() << "tensor-mem-lower-runtime: "
                  << llvm::toString(std::move(E));
    return signalPassFailure();
  }

  // Why a dynamic alloc is not in its function's run-time arena.
  DenseMap<Operation *, std::string> NotInArena;
  // Dynamic buffers whose sizes are known at their function's entry are
  // planned together at run time, one arena per call.
  if (planAtRunTime) {
    SmallVector<FunctionOpInterface> Functions;
    M.walk([&](FunctionOpInterface Fn) { Functions.push_back(Fn); });
    int64_t Site = 0;
    memplan::SharedRunTimeArena Shared =
        sharedArena ? memplan::SharedRunTimeArena::collect(M)
                    : memplan::SharedRunTimeArena();
    for (FunctionOpInterface Fn : Functions) {
      Operation *Table = SymbolTable::getNearestSymbolTable(Fn->getParentOp());
      bool Failed = false;
      SmallVector<memplan::NotAtRunTime> Left;
      memplan::ArenaPlanKind Kind;
      memplan::RunTimeArenaSource Source;
      auto Take = [&](Value Total, Value Align) {
        Value Arena = Shared.take(Fn, Total, Align);
        Failed |= !Arena;
        return Arena;
      };
      if (Shared.shares(Fn)) {
        Source.Prefix = Shared.prefix(Fn);
        Source.Take = Take;
      }
      SmallVector<memref::AllocOp> Replaced = memplan::planAtRunTime(
          Fn, alignment, ++Site, symbolic, inplace,
          [&](bool WithPlan) -> FailureOr<memplan::RuntimeFunctions> {
            if (!Table ||
                failed(declareRuntime(Table, WithPlan, separateSlots))) {
              Failed = true;
              return failure();
            }
            return Declared.lookup(Table);
          },
          &Left, &Kind, &Source);
      if (Failed)
        return signalPassFailure();
      if (Source.Take && !Replaced.empty())
        summaryOf(Fn).SharedArena = Shared.slotName().str();
      for (const memplan::NotAtRunTime &L : Left)
        NotInArena[L.Alloc] = L.Reason;
      if (!Replaced.empty())
        summaryOf(Fn).Plan = Kind;
      for (memref::AllocOp Alloc : Replaced) {
        summaryOf(Fn).Arena.push_back(memplan::locationOf(Alloc));
        if (auto R = emitPassRemark(Alloc, RemarkKind::Passed,
                                    remark_category::LowerRuntime,
                                    "InRunTimeArena", remarks))
          R << "tensor-mem-lower-runtime: in the function's run-time arena ("
            << (Kind.Symbolic ? "offsets computed at entry"
                              : "planned at run time")
            << ")";
        Alloc.erase();
      }
    }
    FailureOr<SmallVector<FunctionOpInterface>> Moved = Shared.finish();
    if (failed(Moved))
      return signalPassFailure();
    for (FunctionOpInterface Fn : *Moved)
      summaryOf(Fn).SharedArena = Shared.slotName().str();
  }

  struct Item {
    memref::AllocOp Op;
    uint64_t StaticBytes, Align;
    SmallVector<Operation *, 2> Deallocs;
    Operation *FreeAfter;
  };
  SmallVector<Item> Work;
  DenseMap<Operation *, std::unique_ptr<memplan::BufferAliasAnalysis>> Analyses;
  M.walk([&](memref::AllocOp Op) {
    MemRefType Ty = Op.getType();
    if (!all && Ty.hasStaticShape())
      return;
    auto Fn = Op->getParentOfType<FunctionOpInterface>();
    auto Skip = [&](const Twine &Reason) {
      if (auto R = emitPassRemark(Op, RemarkKind::Missed,
                                  remark_category::LowerRuntime, "LeftAlone",
                                  remarks))
        R << "tensor-mem-lower-runtime: left alone: " << Reason;
      if (Fn)
        summaryOf(Fn).LeftAlone.push_back(
            {memplan::locationOf(Op), Reason.str()});
    };
    if (!Fn)
      return Skip("not inside a function");
    // An unregistered op may run its regions at any time, and counts as a
    // symbol table where the runtime functions cannot be declared.
    for (Operation *P = Op->getParentOp(); P != Fn; P = P->getParentOp())
      if (!P->isRegistered())
        return Skip("inside a region of unknown semantics ('" +
                    P->getName().getStringRef() + "')");
    if (Ty.getMemorySpace() && Ty.getLayout().isIdentity())
      return Skip("non-default memory space");
    llvm::Expected<memplan::ElementLayout> Element =
        memplan::getBufferLayout(Ty, Op);
    if (!Element)
      return Skip(llvm::toString(Element.takeError()));
    std::optional<uint64_t> StaticBytes = Element->Size;
    if (*StaticBytes > static_cast<uint64_t>(INT64_MAX))
      return Skip("byte size overflows 64 bits");
    uint64_t Align = std::max<uint64_t>(alignment, Element->Alignment);
    if (auto A = Op.getAlignment())
      Align = std::max<uint64_t>(Align, *A);
    // The runtime would answer with a failure; a stock alloc serves it.
    if (Align > MEMPLAN_RT_MAX_ALIGNMENT)
      return Skip("alignment " + Twine(Align) +
                  " is above the runtime's largest (" +
                  Twine(MEMPLAN_RT_MAX_ALIGNMENT) + ")");
    auto &Aliases = Analyses[Fn.getOperation()];
    if (!Aliases)
      Aliases = std::make_unique<memplan::BufferAliasAnalysis>(Fn);
    memplan::BufferAliasInfo Info = Aliases->analyze(Op.getResult());
    if (Info.Escape)
      return Skip(Info.Escape->Reason);
    for (Operation *D : Info.Deallocs)
      if (!freesOnly(D, Op.getResult()))
        return Skip("freed through a value a loop or a branch carries, where "
                    "the allocation's pointer is not at hand");
    Work.push_back({Op, *StaticBytes, Align, Info.Deallocs, lastUse(Op, Info)});
    std::string Why =
        !planAtRunTime ? "plan-at-run-time=false"
        : NotInArena.count(Op)
            ? NotInArena.lookup(Op)
            : (Ty.hasStaticShape() ? "static shape (all=true)"
                                   : "not one of the function's buffers the "
                                     "planner can see whole");
    if (auto R = emitPassRemark(Op, RemarkKind::Missed,
                                remark_category::LowerRuntime, "ServedOneByOne",
                                remarks))
      R << "tensor-mem-lower-runtime: served one by one by memplan_rt_alloc: "
        << Why;
    summaryOf(Fn).PerBuffer.push_back({memplan::locationOf(Op), Why});
  });
  for (const Item &I : Work)
    if (failed(declareRuntime(SymbolTable::getNearestSymbolTable(I.Op))))
      return signalPassFailure();
  for (const Item &I : Work)
    lower(I.Op, I.StaticBytes, I.Align, I.Deallocs, I.FreeAfter);
  if (passRemarksWanted(&getContext(), remarks))
    emitSummaries();
  if (!report.empty() && failed(writeRuntimeReport(M, report, Summaries)))
    return signalPassFailure();
}

void TensorMemLowerRuntimePass::emitSummaries() {
  for (RuntimeSummary &S : Summaries) {
    memplan::PassRemark D =
        emitPassRemark(S.Fn, RemarkKind::Analysis,
                       remark_category::LowerRuntime, "Summary", remarks);
    D << "tensor-mem-lower-runtime: @" << S.Fn.getName() << ": ";
    // No arena: no plan to name.
    if (S.Arena.empty())
      D << "no run-time arena";
    else
      D << S.Arena.size()
        << " dynamic buffers planned together in one run-time arena ("
        << (S.Plan.Symbolic
                ? "symbolic plan, " + std::to_string(S.Plan.Orders) +
                      (S.Plan.Orders == 1 ? " order" : " orders") +
                      (S.Plan.InplacePairs
                           ? ", " + std::to_string(S.Plan.InplacePairs) +
                                 " in place"
                           : std::string())
                : std::string("memplan_rt_plan"))
        << (S.SharedArena.empty()
                ? ""
                : "; memplan.shared_arena's block, kept across calls")
        << ")";
    D << ", " << S.PerBuffer.size() << " served one by one (memplan_rt_alloc), "
      << S.LeftAlone.size() << " left alone";
  }
}

} // namespace
