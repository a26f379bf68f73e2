//===- PlanAtRunTime.cpp - One arena per call for dynamic buffers ---------===//
//
// The dynamic buffers of a function whose sizes can all be computed at its
// entry (from its arguments, by pure ops) are planned together when it
// runs: the entry computes their byte sizes, then their offsets, from an
// order made at compile time when the sizes are polynomials of the entry's
// values (SymbolicPlan.cpp), or else by `memplan_rt_plan` with the records'
// static liveness (cached per shape in the runtime); one `memplan_rt_alloc`
// gives the arena, and each alloc becomes a view at its offset. The arena is
// freed at every exit. What is left (sizes known only mid-function, or an alloc
// that may not run on every call) stays for the per-buffer lowering.
//
//===----------------------------------------------------------------------===//

#include "PlanAtRunTime.h"
#include "SymbolicPlan.h"

#include "memplan/Analysis/InplacePairs.h"
#include "memplan/Analysis/UsageRecordsFromIR.h"
#include "memplan/Core/InplacePairs.h"
#include "memplan/Runtime/memplan_runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace {

/// Whether V can be computed at the entry: an argument, or a pure op (no
/// regions, speculatable) whose operands can.
bool availableAtEntry(Value V, Block &Entry) {
  if (auto Arg = dyn_cast<BlockArgument>(V))
    return Arg.getOwner() == &Entry;
  Operation *Def = V.getDefiningOp();
  if (!Def || Def->getNumRegions() || !isPure(Def))
    return false;
  return llvm::all_of(Def->getOperands(),
                      [&](Value O) { return availableAtEntry(O, Entry); });
}

Value cloneAtEntry(OpBuilder &B, Value V, IRMapping &Map) {
  if (isa<BlockArgument>(V))
    return V;
  if (Value Done = Map.lookupOrNull(V))
    return Done;
  Operation *Def = V.getDefiningOp();
  for (Value O : Def->getOperands())
    cloneAtEntry(B, O, Map);
  B.clone(*Def, Map);
  return Map.lookup(V);
}

/// The table memplan_rt_plan reads (count, site, sizes, first and last
/// tasks), the call, and the offsets it writes; returns the arena's size.
Value planWithRuntime(OpBuilder &B, Location Loc,
                      const memplan::RuntimeFunctions &RT,
                      ArrayRef<const memplan::PlannableBuffer *> Chosen,
                      int64_t Site, Value AlignArg,
                      SmallVectorImpl<Value> &Offset) {
  Type I64 = B.getI64Type();
  auto Const = [&](int64_t V) {
    return arith::ConstantIntOp::create(B, Loc, I64, V).getResult();
  };
  int64_t N = Chosen.size();
  auto TableType = MemRefType::get({2 + 3 * N}, I64);
  auto OffsetsType = MemRefType::get({N}, I64);
  Value Table = memref::AllocaOp::create(B, Loc, TableType);
  Value Offsets = memref::AllocaOp::create(B, Loc, OffsetsType);
  auto Store = [&](Value V, int64_t Index) {
    Value I = arith::ConstantIndexOp::create(B, Loc, Index);
    memref::StoreOp::create(B, Loc, V, Table, ValueRange{I});
  };
  Store(Const(N), 0);
  Store(Const(Site), 1);
  IRMapping Map;
  for (auto [I, Buf] : llvm::enumerate(Chosen)) {
    memref::AllocOp Alloc = Buf->Alloc;
    // A byte count that wraps goes in as -1: memplan_rt_plan then plans
    // nothing and asks for -1 bytes, which the allocator reports.
    Store(
        memplan::emitByteSize(B, Loc, Buf->Record.Size, Alloc.getDynamicSizes(),
                              [&](Value D) { return cloneAtEntry(B, D, Map); }),
        2 + I);
    Store(Const(static_cast<int64_t>(Buf->Record.FirstTask)), 2 + N + I);
    Store(Const(static_cast<int64_t>(Buf->Record.LastTask)), 2 + 2 * N + I);
  }
  auto Dyn = MemRefType::get({ShapedType::kDynamic}, I64);
  Value TableArg = memref::CastOp::create(B, Loc, Dyn, Table);
  Value OffsetsArg = memref::CastOp::create(B, Loc, Dyn, Offsets);
  Value Total = func::CallOp::create(B, Loc, RT.PlanFn,
                                     ValueRange{TableArg, OffsetsArg, AlignArg})
                    .getResult(0);
  for (int64_t I = 0; I < N; ++I) {
    Value At = memref::LoadOp::create(
        B, Loc, Offsets,
        ValueRange{arith::ConstantIndexOp::create(B, Loc, I).getResult()});
    Offset.push_back(arith::IndexCastOp::create(B, Loc, B.getIndexType(), At));
  }
  return Total;
}

/// The chosen buffers' records with the chains of their in-place pairs
/// (findDynamicInplacePairs, only With) merged; each pair's records cut to
/// meet at its op by addInplacePairs, as for static buffers.
memplan::MergedRecords
mergedInplace(FunctionOpInterface Fn,
              const memplan::BufferUsageAnalysis &Analysis,
              const memplan::FunctionBuffers &Buffers,
              ArrayRef<const memplan::PlannableBuffer *> Chosen, bool With) {
  using namespace memplan;
  ArenaGroup Group;
  Group.Buffers.assign(Chosen.begin(), Chosen.end());
  ArenaInput In;
  for (const PlannableBuffer *Buf : Chosen)
    In.Records.push_back(Buf->Record);
  std::vector<UsageRecord> Given = In.Records;
  if (With) {
    std::vector<InplacePair> Pairs = addInplacePairs(
        Group, findDynamicInplacePairs(Fn, Analysis, Buffers), In);
    if (!Pairs.empty()) {
      llvm::Expected<MergedRecords> M = mergeInplacePairs(In.Records, Pairs);
      if (M)
        return std::move(*M);
      // Not a chain the merge accepts: no pairs, as the static planner
      // would.
      llvm::consumeError(M.takeError());
    }
  }
  // Without pairs nothing can fail.
  return llvm::cantFail(mergeInplacePairs(Given, {}));
}

} // namespace

func::FuncOp memplan::declareRuntimeFunction(OpBuilder &B, Operation *Table,
                                             StringRef Name, FunctionType Ty) {
  if (auto F = dyn_cast_or_null<func::FuncOp>(
          SymbolTable::lookupSymbolIn(Table, Name))) {
    if (F.getFunctionType() != Ty) {
      F.emitError() << "'" << Name << "' is declared with type "
                    << F.getFunctionType() << ", the runtime needs " << Ty;
      return nullptr;
    }
    return F;
  }
  if (SymbolTable::lookupSymbolIn(Table, Name)) {
    Table->emitError() << "symbol '" << Name
                       << "' exists and is not a func.func";
    return nullptr;
  }
  auto F = func::FuncOp::create(B, Table->getLoc(), Name, Ty);
  F.setPrivate();
  F->setAttr("llvm.emit_c_interface", B.getUnitAttr());
  return F;
}

Value memplan::emitByteSize(OpBuilder &B, Location Loc, uint64_t StaticBytes,
                            ValueRange Dims, function_ref<Value(Value)> At,
                            Value *Overflow) {
  Type I64 = B.getI64Type();
  // Without the caller's flag, a wrap gives -1 bytes, which memplan_rt_alloc
  // and memplan_rt_plan report: no product is ever taken wrapped.
  Value Own;
  bool Select = !Overflow && !Dims.empty();
  if (Select)
    Own = arith::ConstantIntOp::create(B, Loc, B.getI1Type(), 0);
  Value *Wraps = Overflow ? Overflow : &Own;
  Value Bytes = arith::ConstantIntOp::create(B, Loc, I64, StaticBytes);
  for (Value D : Dims) {
    Value Dim = arith::IndexCastOp::create(B, Loc, I64, At(D));
    auto Mul = arith::MulUIExtendedOp::create(B, Loc, Bytes, Dim);
    Value Zero = arith::ConstantIntOp::create(B, Loc, I64, 0);
    Value High = arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::ne,
                                       Mul.getHigh(), Zero);
    *Wraps = arith::OrIOp::create(B, Loc, *Wraps, High);
    Bytes = Mul.getLow();
  }
  if (Select)
    Bytes = arith::SelectOp::create(
        B, Loc, Own, arith::ConstantIntOp::create(B, Loc, I64, -1), Bytes);
  return Bytes;
}

SmallVector<memref::AllocOp> memplan::planAtRunTime(
    FunctionOpInterface Fn, uint64_t Alignment, int64_t Site, bool Symbolic,
    bool Inplace,
    function_ref<FailureOr<RuntimeFunctions>(bool WithPlan)> GetRuntime,
    SmallVectorImpl<NotAtRunTime> *Left, ArenaPlanKind *Kind,
    const RunTimeArenaSource *Source) {
  SmallVector<memref::AllocOp> Done;
  if (Fn.isExternal())
    return Done;
  Block &Entry = Fn.getFunctionBody().front();
  UsageRecordsOptions Options;
  Options.DynamicRecords = true;
  BufferUsageAnalysis Analysis(Fn);
  FunctionBuffers Buffers = Analysis.buffers(Options);
  SmallVector<const PlannableBuffer *> Chosen;
  uint64_t Align = Alignment;
  for (const PlannableBuffer &B : Buffers.Dynamic) {
    memref::AllocOp Alloc = B.Alloc;
    auto Leave = [&](const char *Reason) {
      if (Left)
        Left->push_back({Alloc, Reason});
    };
    // Only an alloc that runs on every call may be sized at the entry: one
    // in a branch, a loop or a later block may never run, and its size at
    // the entry may be garbage (an n*n for a sentinel n) that the entry
    // would then allocate.
    if (Alloc->getBlock() != &Entry) {
      Leave("not in the function's entry block (it may not run on every "
            "call)");
      continue;
    }
    if (B.MemorySpace) {
      Leave("non-default memory space");
      continue;
    }
    if (B.Alignment > MEMPLAN_RT_MAX_ALIGNMENT) {
      Leave("alignment above the runtime's largest");
      continue;
    }
    if (!llvm::all_of(Alloc.getDynamicSizes(),
                      [&](Value V) { return availableAtEntry(V, Entry); })) {
      Leave("its sizes are not known at the function's entry");
      continue;
    }
    Chosen.push_back(&B);
    Align = std::max(Align, B.Alignment);
  }
  // One buffer gains nothing from a plan, unless its block is kept across
  // calls (memplan.shared_arena).
  bool Kept = Source && Source->Take;
  if (Chosen.empty() || (Chosen.size() < 2 && !Kept)) {
    if (Left)
      for (const PlannableBuffer *B : Chosen)
        Left->push_back({B->Alloc, "the only buffer a run-time plan could "
                                   "take (one gains nothing from a plan)"});
    return Done;
  }
  // A symbolic plan places chains of in-place pairs as one record each
  // (their sizes are provably equal); Merged.Records[K] is held by the
  // first chosen buffer Holder[K] of its chain.
  std::optional<std::vector<StackingOrder>> Orders;
  MergedRecords Merged =
      mergedInplace(Fn, Analysis, Buffers, Chosen, Symbolic && Inplace);
  SmallVector<const PlannableBuffer *> Holder(Merged.Records.size(), nullptr);
  for (auto [I, K] : llvm::enumerate(Merged.MergedOf))
    if (!Holder[K])
      Holder[K] = Chosen[I];
  if (Symbolic) {
    SmallVector<SymbolicBuffer> Sym;
    for (auto [K, Buf] : llvm::enumerate(Holder)) {
      memref::AllocOp Alloc = Buf->Alloc;
      UsageRecord R = Merged.Records[K];
      R.Size = Buf->Record.Size;
      Sym.push_back({R, llvm::to_vector(Alloc.getDynamicSizes())});
    }
    Orders = chooseStackingOrders(Sym, Entry, Align);
  }
  FailureOr<RuntimeFunctions> Runtime = GetRuntime(/*WithPlan=*/!Orders);
  if (failed(Runtime))
    return Done;
  const RuntimeFunctions &RT = *Runtime;
  if (Kind)
    *Kind = {Orders.has_value(), Orders ? Orders->size() : 0,
             Orders ? Chosen.size() - Merged.Records.size() : 0};

  Location Loc = Fn.getLoc();
  OpBuilder B = OpBuilder::atBlockBegin(&Entry);
  Type I64 = B.getI64Type();
  auto Const = [&](int64_t V) {
    return arith::ConstantIntOp::create(B, Loc, I64, V).getResult();
  };
  SmallVector<Value> Offset;
  Value AlignArg = Const(static_cast<int64_t>(Align));
  Value Total;
  if (Orders) {
    // Bytes as the table would hold them, with any wrap noted.
    IRMapping Map;
    SmallVector<Value> Bytes;
    Value Overflow = arith::ConstantIntOp::create(B, Loc, B.getI1Type(), 0);
    for (const PlannableBuffer *Buf : Holder) {
      memref::AllocOp Alloc = Buf->Alloc;
      Bytes.push_back(emitByteSize(
          B, Loc, Buf->Record.Size, Alloc.getDynamicSizes(),
          [&](Value D) { return cloneAtEntry(B, D, Map); }, &Overflow));
    }
    SmallVector<Value> At;
    std::tie(Total, At) =
        emitStackedOffsets(B, Loc, *Orders, Bytes, Overflow, Align);
    SmallVector<Value> Index;
    for (Value V : At)
      Index.push_back(arith::IndexCastOp::create(B, Loc, B.getIndexType(), V));
    for (size_t K : Merged.MergedOf)
      Offset.push_back(Index[K]);
  } else {
    Total = planWithRuntime(B, Loc, RT, Chosen, Site, AlignArg, Offset);
  }
  if (Kept) {
    // The function's own bytes come first. A size that wrapped (negative)
    // stays as it is, for the runtime to report.
    int64_t Bytes = llvm::alignTo(Source->Prefix, Align);
    Value Prefix = Const(Bytes);
    Value Wrapped = arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::slt,
                                          Total, Const(0));
    Total = arith::SelectOp::create(
        B, Loc, Wrapped, Total, arith::AddIOp::create(B, Loc, Total, Prefix));
    Value PrefixIndex = arith::ConstantIndexOp::create(B, Loc, Bytes);
    // The buffers of an in-place chain keep one offset value, and one slot.
    DenseMap<Value, Value> Shifted;
    for (Value &O : Offset) {
      Value &To = Shifted[O];
      if (!To)
        To = arith::AddIOp::create(B, Loc, O, PrefixIndex);
      O = To;
    }
  }
  Value Arena = Kept ? Source->Take(Total, AlignArg)
                     : func::CallOp::create(B, Loc, RT.AllocFn,
                                            ValueRange{Total, AlignArg})
                           .getResult(0);
  if (!Arena)
    return Done;
  // One base per slot (offset value), so that LLVM tells the slots apart
  // (memplan_rt_slot in memplan_runtime.h); an in-place chain is one slot.
  DenseMap<Value, Value> SlotBase;
  func::FuncOp SlotFn = RT.SlotFn;
  OpBuilder SB(B.getContext());
  SB.setInsertionPointAfterValue(Arena);
  auto BaseOf = [&](Value At) -> Value {
    if (!SlotFn || Arena.getType() != SlotFn.getFunctionType().getInput(0))
      return Arena;
    Value &Base = SlotBase[At];
    if (!Base)
      Base =
          func::CallOp::create(SB, Loc, SlotFn, ValueRange{Arena}).getResult(0);
    return Base;
  };
  for (auto [I, Buf] : llvm::enumerate(Chosen)) {
    memref::AllocOp Alloc = Buf->Alloc;
    Value Base = BaseOf(Offset[I]);
    OpBuilder AB(Alloc);
    Value View =
        memref::ViewOp::create(AB, Alloc.getLoc(), Alloc.getType(), Base,
                               Offset[I], Alloc.getDynamicSizes());
    for (Operation *Dealloc : Buf->Deallocs)
      Dealloc->erase();
    Alloc.replaceAllUsesWith(View);
    Done.push_back(Alloc);
  }
  // A shared arena is kept for the next call.
  if (Kept)
    return Done;
  for (Block &Blk : Fn.getFunctionBody())
    if (!Blk.empty() && Blk.back().hasTrait<OpTrait::ReturnLike>()) {
      OpBuilder FB(&Blk.back());
      func::CallOp::create(FB, Loc, RT.FreeFn, ValueRange{Arena});
    }
  return Done;
}
