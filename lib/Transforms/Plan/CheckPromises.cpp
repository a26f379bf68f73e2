//===- CheckPromises.cpp - Run-time checks of promised size bounds --------===//
//
// A dynamic size planned at a bound the user promised (memplan.max,
// dim-bounds) is checked before its buffer is used:
//
//   %broken = arith.cmpi ugt, %size, %bound
//   scf.if %broken {
//     call @memplan_rt_broken_promise(%what, %size, %bound)   // never returns
//   }
//
// `what` is a constant global naming the promise. A pass nested below the
// symbol table (tensor-mem-plan under func.func) may not add symbols, so
// there the check is a cf.assert with the same text, less the size.
//
//===----------------------------------------------------------------------===//

#include "TensorMemPlanInternal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace memplan;

static constexpr llvm::StringLiteral kBrokenPromiseFn =
    "memplan_rt_broken_promise";
static constexpr llvm::StringLiteral kBrokenExclusionFn =
    "memplan_rt_broken_exclusion";

/// memplan_rt_broken_promise(text, got, bound): a size above its promise.
static FunctionType brokenPromiseType(MLIRContext *Ctx) {
  auto I64 = IntegerType::get(Ctx, 64);
  return FunctionType::get(
      Ctx,
      {MemRefType::get({ShapedType::kDynamic}, IntegerType::get(Ctx, 8)), I64,
       I64},
      {});
}

FunctionType memplan::brokenExclusionType(MLIRContext *Ctx) {
  return FunctionType::get(
      Ctx, {MemRefType::get({ShapedType::kDynamic}, IntegerType::get(Ctx, 8))},
      {});
}

StringRef memplan::brokenExclusionName() { return kBrokenExclusionFn; }

LogicalResult memplan::checkRuntimeCheckSymbols(Operation *Root) {
  // The checks are called by these names; a symbol of the program by one of
  // them with another type was called with the runtime's operands, and the
  // pass wrote IR that does not verify.
  std::pair<StringRef, FunctionType> Checks[] = {
      {kBrokenPromiseFn, brokenPromiseType(Root->getContext())},
      {kBrokenExclusionFn, brokenExclusionType(Root->getContext())}};
  WalkResult R = Root->walk([&](Operation *Table) {
    if (!Table->hasTrait<OpTrait::SymbolTable>())
      return WalkResult::advance();
    for (auto [Name, Type] : Checks) {
      Operation *Sym = SymbolTable::lookupSymbolIn(Table, Name);
      if (!Sym)
        continue;
      auto Fn = dyn_cast<func::FuncOp>(Sym);
      if (Fn && Fn.getFunctionType() == Type)
        continue;
      InFlightDiagnostic D = Sym->emitError()
                             << "tensor-mem-plan: '" << Name
                             << "' is the runtime's check, called as " << Type;
      if (Fn)
        D << ", but is declared here with type " << Fn.getFunctionType();
      else
        D << ", but is a '" << Sym->getName() << "' here";
      D << "; memplan_rt_* names are the runtime's";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(R.wasInterrupted());
}

func::FuncOp memplan::declareRuntimeCheck(SymbolTable &Symbols,
                                          Operation *Module, StringRef Name,
                                          FunctionType Type) {
  if (auto Fn = Symbols.lookup<func::FuncOp>(Name))
    return Fn;
  OpBuilder B = OpBuilder::atBlockBegin(&Module->getRegion(0).front());
  auto Fn = func::FuncOp::create(B, Module->getLoc(), Name, Type);
  Fn.setPrivate();
  Fn->setAttr("llvm.emit_c_interface", B.getUnitAttr());
  Symbols.insert(Fn);
  return Fn;
}

Value memplan::runtimeText(OpBuilder &B, Location Loc, SymbolTable &Symbols,
                           Operation *Module, StringRef Name, StringRef Text) {
  OpBuilder GB = OpBuilder::atBlockBegin(&Module->getRegion(0).front());
  auto Type =
      MemRefType::get({static_cast<int64_t>(Text.size())}, GB.getI8Type());
  SmallVector<int8_t> Bytes(Text.begin(), Text.end());
  auto Init = DenseElementsAttr::get(
      RankedTensorType::get(Type.getShape(), GB.getI8Type()),
      ArrayRef<int8_t>(Bytes));
  auto Global = memref::GlobalOp::create(
      GB, Module->getLoc(), Name, GB.getStringAttr("private"), Type, Init,
      /*constant=*/true, /*alignment=*/nullptr);
  Symbols.insert(Global); // renames on a clash
  Value Read = memref::GetGlobalOp::create(B, Loc, Type, Global.getSymName());
  return memref::CastOp::create(
      B, Loc, MemRefType::get({ShapedType::kDynamic}, B.getI8Type()), Read);
}

void memplan::checkPromises(const ArenaGroup &Group, Operation *PassRoot) {
  Operation *Module = nullptr;
  std::optional<SymbolTable> Symbols;
  for (const PlannableBuffer *Buffer : Group.Buffers) {
    if (Buffer->Promises.empty())
      continue;
    memref::AllocOp Alloc = Buffer->Alloc;
    if (!Module) {
      Module = SymbolTable::getNearestSymbolTable(Alloc->getParentOp());
      // Symbols may be added only when the pass owns the symbol table.
      if (Module && !PassRoot->isAncestor(Module))
        Module = nullptr;
      if (Module && Module->getNumRegions() == 1 &&
          Module->getRegion(0).hasOneBlock())
        Symbols.emplace(Module);
      else
        Module = nullptr;
    }
    Location Loc = Alloc.getLoc();
    OpBuilder B(Alloc);
    for (const SizePromise &P : Buffer->Promises) {
      Value Size = Alloc.getDynamicSizes()[P.DynamicIndex];
      Value Bound = arith::ConstantIndexOp::create(B, Loc, P.Bound);
      Value Broken =
          arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::ugt, Size, Bound);
      std::string What = P.What + " (dim " + std::to_string(P.DynamicIndex) +
                         " of the buffer at " + locationOf(Alloc) + ")";
      if (!Symbols) {
        Value Kept = arith::XOrIOp::create(
            B, Loc, Broken, arith::ConstantIntOp::create(B, Loc, 1, 1));
        cf::AssertOp::create(B, Loc, Kept,
                             "memplan: broken size promise: " + What +
                                 ", size above " + std::to_string(P.Bound));
        continue;
      }
      func::FuncOp Fn =
          declareRuntimeCheck(*Symbols, Module, kBrokenPromiseFn,
                              brokenPromiseType(Module->getContext()));
      auto If = scf::IfOp::create(B, Loc, Broken, /*withElseRegion=*/false);
      OpBuilder TB = If.getThenBodyBuilder();
      Value Dyn =
          runtimeText(TB, Loc, *Symbols, Module, "__memplan_promise", What);
      Value Got = arith::IndexCastOp::create(TB, Loc, TB.getI64Type(), Size);
      Value Bound64 =
          arith::IndexCastOp::create(TB, Loc, TB.getI64Type(), Bound);
      func::CallOp::create(TB, Loc, Fn, ValueRange{Dyn, Got, Bound64});
    }
  }
}
