//===- SharedArena.cpp - One arena for functions that never run at once ---===//
//
// A module names the functions that never run at the same time (the
// methods of one model: prefill and decode) in `memplan.shared_arena`. Their
// arenas become one uninitialized global per memory space, sized for the
// largest, allocated once with the program instead of on every call:
//
//   %arena = memref.get_global @__memplan_shared_arena : memref<Nxi8>
//
// The promise is checked at run time: each function sets a busy flag at
// entry (an atomic exchange) and clears it at every return; finding it set,
// it calls memplan_rt_broken_exclusion, which ends the program.
//
//===----------------------------------------------------------------------===//

#include "TensorMemPlanInternal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace memplan;

/// Whether From calls (directly or through functions of the module) To.
static bool reaches(FunctionOpInterface From, FunctionOpInterface To) {
  SmallVector<FunctionOpInterface> Work{From};
  DenseSet<Operation *> Seen{From};
  while (!Work.empty()) {
    FunctionOpInterface Fn = Work.pop_back_val();
    bool Found = false;
    Fn->walk([&](CallOpInterface Call) {
      auto Target =
          dyn_cast_if_present<FunctionOpInterface>(Call.resolveCallable());
      if (!Target)
        return;
      if (Target == To)
        Found = true;
      else if (Seen.insert(Target).second)
        Work.push_back(Target);
    });
    if (Found)
      return true;
  }
  return false;
}

FailureOr<SharedArenas> SharedArenas::collect(Operation *PassRoot) {
  SharedArenas S;
  auto Names = PassRoot->getAttrOfType<ArrayAttr>(kSharedArenaAttr);
  Operation *Holder = PassRoot;
  if (!Names)
    if (Operation *Module = PassRoot->getParentOfType<ModuleOp>())
      if (Module->hasAttr(kSharedArenaAttr)) {
        // The globals and the flag are module symbols.
        return Module->emitError()
               << "tensor-mem-plan: " << kSharedArenaAttr
               << " needs the pass to run on the module, not nested in it";
      }
  if (!Names)
    return S;
  if (!Holder->hasTrait<OpTrait::SymbolTable>() ||
      Holder->getNumRegions() != 1 || !Holder->getRegion(0).hasOneBlock())
    return Holder->emitError()
           << "tensor-mem-plan: " << kSharedArenaAttr
           << " belongs on a module (a symbol table with one block)";
  S.Module = Holder;
  if (Names.empty())
    return Holder->emitError()
           << "tensor-mem-plan: " << kSharedArenaAttr
           << " names no function; it lists the functions that share one "
              "arena ([@f, @g])";
  for (Attribute A : Names) {
    auto Ref = dyn_cast<FlatSymbolRefAttr>(A);
    auto Fn =
        Ref ? SymbolTable::lookupSymbolIn(Holder, Ref.getAttr()) : nullptr;
    auto Function = dyn_cast_if_present<FunctionOpInterface>(Fn);
    if (!Function || Function.isExternal())
      return Holder->emitError()
             << "tensor-mem-plan: " << kSharedArenaAttr << " names " << A
             << ", which is not a function with a body of this module";
    if (S.contains(Function))
      return Holder->emitError() << "tensor-mem-plan: " << kSharedArenaAttr
                                 << " names " << A << " twice";
    S.Functions.push_back(Function);
  }
  // A function that calls another of the set runs at the same time; one
  // that calls itself runs twice at once (the run-time check stopped it).
  for (FunctionOpInterface A : S.Functions)
    if (reaches(A, A))
      return mlir::emitError(A.getLoc())
             << "tensor-mem-plan: @" << A.getName()
             << " calls itself, so two of its calls run at once and cannot "
                "share an arena ("
             << kSharedArenaAttr << ")";
  for (FunctionOpInterface A : S.Functions)
    for (FunctionOpInterface B : S.Functions)
      if (A != B && reaches(A, B))
        return mlir::emitError(A.getLoc())
               << "tensor-mem-plan: @" << A.getName() << " calls @"
               << B.getName()
               << ", so the two run at once and cannot share "
                  "an arena ("
               << kSharedArenaAttr << ")";
  return S;
}

bool SharedArenas::contains(FunctionOpInterface Fn) const {
  return llvm::is_contained(Functions, Fn);
}

void SharedArenas::addClone(ModuleOp M, FunctionOpInterface Fn,
                            FunctionOpInterface Clone) {
  auto Set = M->getAttrOfType<ArrayAttr>(kSharedArenaAttr);
  if (!Set || !llvm::is_contained(Set, FlatSymbolRefAttr::get(Fn)))
    return;
  SmallVector<Attribute> Names(Set.begin(), Set.end());
  Names.push_back(FlatSymbolRefAttr::get(Clone));
  M->setAttr(kSharedArenaAttr, ArrayAttr::get(M.getContext(), Names));
}

/// An uninitialized module global named Name (renamed on a clash); a
/// 0-d one (the busy flag) starts at 0.
static memref::GlobalOp addGlobal(Operation *Module, StringRef Name,
                                  MemRefType Type, uint64_t Align) {
  OpBuilder B(Module->getContext());
  Attribute Init = B.getUnitAttr();
  if (Type.getRank() == 0)
    Init =
        DenseElementsAttr::get(RankedTensorType::get({}, Type.getElementType()),
                               B.getIntegerAttr(Type.getElementType(), 0));
  auto Global = memref::GlobalOp::create(
      B, Module->getLoc(), Name, B.getStringAttr("private"), Type, Init,
      /*constant=*/false, B.getI64IntegerAttr(Align));
  // Made unlinked: the table places it at the start, renamed on a clash.
  SymbolTable(Module).insert(Global, Module->getRegion(0).front().begin());
  return Global;
}

void SharedArenas::guard(FunctionOpInterface Fn) {
  if (!Guarded.insert(Fn).second)
    return;
  Location Loc = Fn.getLoc();
  OpBuilder B(Fn.getContext());
  auto FlagType = MemRefType::get({}, B.getI32Type());
  if (!Busy)
    Busy = addGlobal(Module, "__memplan_shared_arena_busy", FlagType, 4);
  SymbolTable Symbols(Module);
  if (!BrokenExclusion)
    BrokenExclusion =
        declareRuntimeCheck(Symbols, Module, brokenExclusionName(),
                            brokenExclusionType(Fn.getContext()));
  // Entry: take the flag; it was set, another function of the set runs.
  B.setInsertionPointToStart(&Fn.getFunctionBody().front());
  Value Flag = memref::GetGlobalOp::create(B, Loc, FlagType, Busy.getSymName());
  Value One = arith::ConstantIntOp::create(B, Loc, 1, 32);
  Value Zero = arith::ConstantIntOp::create(B, Loc, 0, 32);
  Value Old = memref::AtomicRMWOp::create(B, Loc, arith::AtomicRMWKind::assign,
                                          One, Flag, ValueRange());
  Value Taken =
      arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::ne, Old, Zero);
  auto If = scf::IfOp::create(B, Loc, Taken, /*withElseRegion=*/false);
  If->setAttr(kExclusionGuardAttr, B.getUnitAttr());
  {
    OpBuilder TB = If.getThenBodyBuilder();
    std::string What;
    llvm::raw_string_ostream OS(What);
    OS << "@" << Fn.getName() << " was called while another function of "
       << kSharedArenaAttr << " [";
    llvm::interleaveComma(Functions, OS, [&](FunctionOpInterface F) {
      OS << "@" << F.getName();
    });
    OS << "] was running; they share one arena";
    Value Dyn =
        runtimeText(TB, Loc, Symbols, Module, "__memplan_exclusion", What);
    func::CallOp::create(TB, Loc, BrokenExclusion, ValueRange{Dyn});
  }
  // Every return gives the flag back.
  for (Block &Block : Fn.getFunctionBody()) {
    Operation *Term = Block.getTerminator();
    if (!Term->hasTrait<OpTrait::ReturnLike>())
      continue;
    B.setInsertionPoint(Term);
    Value F = memref::GetGlobalOp::create(B, Loc, FlagType, Busy.getSymName());
    Value Z = arith::ConstantIntOp::create(B, Loc, 0, 32);
    memref::AtomicRMWOp::create(B, Loc, arith::AtomicRMWKind::assign, Z, F,
                                ValueRange());
  }
}

Value SharedArenas::arenaFor(OpBuilder &B, FunctionOpInterface Fn,
                             MemRefType ArenaType, uint64_t Align) {
  guard(Fn);
  Attribute Space = ArenaType.getMemorySpace();
  Arena &A = Arenas[Space];
  if (!A.Global) {
    std::string Name = "__memplan_shared_arena";
    A.Global = addGlobal(Module, Name, ArenaType, Align);
    A.Global->setAttr(kSharedArenaGlobalAttr, B.getUnitAttr());
    A.Name = A.Global.getSymName().str();
  }
  uint64_t Size = ArenaType.getNumElements();
  if (Size > A.Size) {
    A.Size = Size;
    A.SizedBy = Fn.getName().str();
  }
  A.Align = std::max(A.Align, Align);
  auto Get = memref::GetGlobalOp::create(B, Fn.getLoc(), ArenaType,
                                         A.Global.getSymName());
  A.Uses.push_back(Get);
  return Get;
}

void SharedArenas::finish() {
  // Every function of the set checks the promise, with or without a static
  // arena: its run-time arena may be shared too (tensor-mem-lower-runtime).
  for (FunctionOpInterface Fn : Functions)
    guard(Fn);
  for (auto &[Space, A] : Arenas) {
    auto Type = MemRefType::get({static_cast<int64_t>(A.Size)},
                                A.Global.getType().getElementType(),
                                MemRefLayoutAttrInterface(), Space);
    A.Global.setType(Type);
    A.Global.setAlignmentAttr(
        OpBuilder(A.Global).getI64IntegerAttr(static_cast<int64_t>(A.Align)));
    // A view's source may be larger than the bytes it reads.
    for (memref::GetGlobalOp Get : A.Uses)
      Get.getResult().setType(Type);
  }
}

std::optional<SharedArenaInfo>
SharedArenas::summary(StringRef MemorySpace) const {
  for (const auto &[Space, A] : Arenas) {
    std::string Printed;
    if (Space)
      llvm::raw_string_ostream(Printed) << Space;
    if (Printed == MemorySpace)
      return SharedArenaInfo{
          const_cast<memref::GlobalOp &>(A.Global).getSymName().str(), A.Size,
          A.SizedBy};
  }
  return std::nullopt;
}
