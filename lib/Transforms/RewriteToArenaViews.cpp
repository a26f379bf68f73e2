//===- RewriteToArenaViews.cpp - The tensor-mem-plan pass -----------------===//
//
// Asks the analysis for each function's usage records, plans them with a
// registered strategy and rewrites every planned alloc into a view of one
// arena per function and memory space.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/UsageRecordsFromIR.h"
#include "memplan/Core/Arithmetic.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/PlanJSON.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Core/Timeline.h"
#include "memplan/Transforms/Passes.h"
#include "memplan/Transforms/PhaseTimer.h"
#include "memplan/Transforms/PlanReport.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Remarks.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TimeProfiler.h"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMPLAN
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;

// Phases shown under -mlir-timing (see PhaseTimer.h).
static char AnalysisPhase, StrategyPhase, RewritePhase;

namespace {

/// Whether Path can be written, found without leaving a trace: an existing
/// file is opened for appending, a new one created and removed.
static llvm::Error checkWritable(llvm::StringRef Path) {
  bool Existed = llvm::sys::fs::exists(Path);
  int FD;
  std::error_code EC = llvm::sys::fs::openFileForWrite(
      Path, FD,
      Existed ? llvm::sys::fs::CD_OpenExisting : llvm::sys::fs::CD_CreateNew,
      llvm::sys::fs::OF_Append);
  if (EC)
    return llvm::createStringError(EC, "cannot write '" + Path +
                                           "': " + EC.message());
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  if (!Existed)
    llvm::sys::fs::remove(Path);
  return llvm::Error::success();
}

/// The ops that may write the buffer Root: its users and those of its views
/// (ViewLikeOpInterface), each op once.
static void collectWriters(Value Root, SmallVectorImpl<Operation *> &Writers) {
  SmallVector<Value> Work{Root};
  llvm::SmallPtrSet<Operation *, 8> Seen;
  while (!Work.empty() && Seen.size() < 4096) {
    Value V = Work.pop_back_val();
    for (OpOperand &Use : V.getUses()) {
      Operation *User = Use.getOwner();
      if (auto View = dyn_cast<ViewLikeOpInterface>(User);
          View && View.getViewSource() == V) {
        for (Value R : User->getResults())
          Work.push_back(R);
        continue;
      }
      if (!Seen.insert(User).second)
        continue;
      if (isa<memref::DeallocOp, bufferization::DeallocOp>(User))
        continue;
      auto Effects = dyn_cast<MemoryEffectOpInterface>(User);
      if (!Effects) {
        // Unknown effects (a call, an op with regions): it may write.
        Writers.push_back(User);
        continue;
      }
      SmallVector<MemoryEffects::EffectInstance> On;
      Effects.getEffectsOnValue(V, On);
      if (llvm::any_of(On, [](const MemoryEffects::EffectInstance &E) {
            return isa<MemoryEffects::Write>(E.getEffect());
          }))
        Writers.push_back(User);
    }
  }
}

/// One arena: the planned buffers of one function in one memory space.
struct TensorMemPlanPass : memplan::impl::TensorMemPlanBase<TensorMemPlanPass> {
  using Base::Base;

  /// This function's arena is its trailing argument (arena=argument, and
  /// every use of the function is a call).
  bool ArenaAsArgument = false;

  LogicalResult initialize(MLIRContext *) override {
    if (!lookupStrategy(strategy)) {
      llvm::errs() << "tensor-mem-plan: "
                   << llvm::toString(unknownStrategyError(strategy)) << "\n";
      return failure();
    }
    if (alignment <= 0 || !isPowerOf2(static_cast<uint64_t>(alignment))) {
      llvm::errs() << "tensor-mem-plan: alignment " << alignment
                   << " is not a positive power of two\n";
      return failure();
    }
    if (budgetMs < 0) {
      llvm::errs() << "tensor-mem-plan: budget-ms " << budgetMs
                   << " is negative\n";
      return failure();
    }
    if (arena != "alloc" && arena != "argument") {
      llvm::errs() << "tensor-mem-plan: arena '" << arena
                   << "' is not one of 'alloc', 'argument'\n";
      return failure();
    }
    // Bad output paths are found before any IR is rewritten.
    if (!timeline.empty())
      if (llvm::Expected<TimelineFormat> F = timelineFormatForPath(timeline);
          !F) {
        llvm::errs() << "error: tensor-mem-plan: "
                     << llvm::toString(F.takeError()) << "\n";
        return failure();
      }
    for (const std::string &Path : {report.getValue(), timeline.getValue()})
      if (!Path.empty())
        if (llvm::Error E = checkWritable(Path)) {
          llvm::errs() << "error: " << llvm::toString(std::move(E))
                       << " (tensor-mem-plan "
                       << (Path == report.getValue() ? "report" : "timeline")
                       << "=); nothing was planned\n";
          return failure();
        }
    return success();
  }

  void runOnOperation() override {
    SmallVector<FunctionOpInterface> Functions;
    getOperation()->walk([&](FunctionOpInterface Fn) {
      if (!Fn.isExternal())
        Functions.push_back(Fn);
    });
    for (FunctionOpInterface Fn : Functions)
      if (failed(planFunction(Fn)))
        return signalPassFailure();
  }

  static std::string locationOf(Operation *Op) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    Op->getLoc().print(OS);
    return S;
  }

  /// Warns when Fn still holds tensors but has nothing to plan: the input was
  /// most likely never bufferized.
  static void warnIfNotBufferized(FunctionOpInterface Fn,
                                  const FunctionBuffers &Buffers) {
    if (!Buffers.Planned.empty() || !Buffers.Unplanned.empty())
      return;
    std::optional<Location> Where;
    if (llvm::any_of(Fn.getArgumentTypes(), llvm::IsaPred<TensorType>) ||
        llvm::any_of(Fn.getResultTypes(), llvm::IsaPred<TensorType>))
      Where = Fn.getLoc();
    if (!Where)
      Fn.getFunctionBody().walk([&](Operation *Op) {
        if (llvm::any_of(Op->getResultTypes(), llvm::IsaPred<TensorType>)) {
          Where = Op->getLoc();
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
    if (Where)
      mlir::emitWarning(*Where)
          << "tensor-mem-plan: the input has tensor values; run "
             "one-shot-bufferize first (nothing planned in '"
          << Fn.getName() << "')";
  }

  /// Program order of Fn's ops, for "the first op that writes a buffer".
  DenseMap<Operation *, unsigned> OpOrder;

  /// The first op (in program order) that writes B's buffer, or its alloc.
  Operation *writerOf(const PlannableBuffer &B) {
    SmallVector<Operation *> Writers;
    memref::AllocOp Alloc = B.Alloc;
    collectWriters(Alloc.getResult(), Writers);
    Operation *First = nullptr;
    unsigned FirstOrder = ~0u;
    for (Operation *W : Writers) {
      auto It = OpOrder.find(W);
      unsigned Order = It == OpOrder.end() ? ~0u - 1 : It->second;
      if (!First || Order < FirstOrder) {
        First = W;
        FirstOrder = Order;
      }
    }
    return First ? First : Alloc.getOperation();
  }

  LogicalResult planFunction(FunctionOpInterface Fn) {
    FunctionBuffers Buffers;
    {
      llvm::TimeTraceScope Scope("memplan analysis");
      PhaseTimer T(getAnalysisManager(), Fn, "memplan analysis",
                   &AnalysisPhase);
      Buffers = computeUsageRecords(
          Fn, UsageRecordsOptions{/*DeallocationRunsAfter=*/
                                  deallocationRunsAfter,
                                  /*ArgumentDimBound=*/dimBounds});
    }
    warnIfNotBufferized(Fn, Buffers);
    OpOrder.clear();
    if (!report.empty() || !timeline.empty()) {
      unsigned N = 0;
      Fn->walk<WalkOrder::PreOrder>([&](Operation *Op) { OpOrder[Op] = N++; });
    }
    FunctionReport Report;
    Report.Function = Fn.getName().str();
    Report.Location = locationOf(Fn);
    Report.NumTasks = Buffers.NumTasks;
    numUnplanned += Buffers.Unplanned.size();
    for (const UnplannedBuffer &U : Buffers.Unplanned) {
      Report.Unplanned.push_back({locationOf(U.Alloc),
                                  U.Alloc->getName().getStringRef().str(),
                                  U.Reason});
      // MLIR's remark engine (--remarks-filter=memplan ...): on when asked.
      remark::missed(U.Alloc->getLoc(),
                     remark::RemarkOpts::name("BufferNotPlanned")
                         .category("memplan")
                         .subCategory("tensor-mem-plan")
                         .function(Fn.getName()))
          << remark::reason("{0}", U.Reason);
      if (!remarks)
        continue;
      InFlightDiagnostic D = U.Alloc->emitRemark()
                             << "buffer not planned: " << U.Reason;
      if (U.Culprit)
        D.attachNote(U.Culprit->getLoc()) << "because of this op";
    }
    // One arena per memory space, in order of first appearance.
    SmallVector<ArenaGroup> Groups = groupByMemorySpace(Buffers);
    ArenaAsArgument = arena == "argument" && !Groups.empty();
    if (ArenaAsArgument && failed(checkCallersReachable(Fn)))
      return failure();
    if (ArenaAsArgument && !allUsesAreCalls(Fn)) {
      // On the location alone: attached to the op, the whole function prints.
      mlir::emitRemark(Fn.getLoc())
          << "tensor-mem-plan: '" << Fn.getName()
          << "' is used other than by calls, so it gets an arena "
             "of its own instead of an arena argument";
      ArenaAsArgument = false;
    }
    for (ArenaGroup &G : Groups)
      if (failed(planArena(Fn, G, Buffers, Report)))
        return failure();
    if (!report.empty())
      if (llvm::Error E = appendToReportFile(report, Report))
        return Fn.emitError() << llvm::toString(std::move(E));
    if (!timeline.empty())
      if (llvm::Error E = appendToTimelineFile(timeline, std::move(Report)))
        return Fn.emitError() << llvm::toString(std::move(E));
    return success();
  }

  /// Only calls can be given an extra argument (not func.constant).
  static bool allUsesAreCalls(FunctionOpInterface Fn) {
    Operation *Table = SymbolTable::getNearestSymbolTable(Fn->getParentOp());
    if (!Table)
      return true;
    auto Uses = SymbolTable::getSymbolUses(Fn, Table);
    return !Uses || llvm::all_of(*Uses, [](const SymbolTable::SymbolUse &U) {
      return isa<CallOpInterface>(U.getUser());
    });
  }

  /// Whether the function around Op frees its buffers: then so must it
  /// free what memplan allocates for it.
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

  /// The memory space the input frees its buffers from: a buffer of a
  /// non-default space may be freed through a memory_space_cast (the LLVM
  /// lowering frees only the default space), and so is then the arena.
  static Attribute freedMemorySpace(ArrayRef<const PlannableBuffer *> Buffers,
                                    Attribute ArenaSpace) {
    for (const PlannableBuffer *Buffer : Buffers)
      for (Operation *Dealloc : Buffer->Deallocs)
        if (auto Freed = dyn_cast<MemRefType>(Dealloc->getOperand(0).getType()))
          if (Freed.getMemorySpace() != ArenaSpace)
            return Freed.getMemorySpace();
    return ArenaSpace;
  }

  static void freeArena(OpBuilder &B, Location Loc, Value Arena,
                        Attribute Space) {
    auto Type = cast<MemRefType>(Arena.getType());
    if (Space != Type.getMemorySpace())
      Arena = memref::MemorySpaceCastOp::create(
          B, Loc,
          MemRefType::get(Type.getShape(), Type.getElementType(),
                          MemRefLayoutAttrInterface(), Space),
          Arena);
    memref::DeallocOp::create(B, Loc, Arena);
  }

  /// With arena=argument the callers must pass the arena, so the pass must
  /// see them: it has to run on the op holding the symbol table.
  LogicalResult checkCallersReachable(FunctionOpInterface Fn) {
    if (Fn.getOperation() != getOperation())
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

  LogicalResult planArena(FunctionOpInterface Fn, ArenaGroup &G,
                          const FunctionBuffers &Buffers,
                          FunctionReport &Report) {
    ArenaInput In =
        arenaInput(G, Buffers.NumTasks, alignment, preserveIntermediates);
    const std::vector<UsageRecord> &Records = In.Records;
    uint64_t Align = In.Alignment, RawBytes = In.BytesWithoutPlanning;
    StrategyOptions Options;
    Options.Alignment = Align;
    Options.BudgetMs = budgetMs;
    llvm::Expected<Plan> P = [&] {
      llvm::TimeTraceScope Scope("memplan strategy", strategy.getValue());
      PhaseTimer T(getAnalysisManager(), Fn, "memplan strategy",
                   &StrategyPhase);
      return planMemory(strategy, Records, Options);
    }();
    if (!P)
      return Fn.emitError()
             << "tensor-mem-plan: " << llvm::toString(P.takeError());
    // A memref dimension is an int64_t (and INT64_MIN means dynamic).
    if (P->Offsets.TotalSize > static_cast<uint64_t>(INT64_MAX))
      return Fn.emitError()
             << "tensor-mem-plan: the arena needs " << P->Offsets.TotalSize
             << " bytes, more than a memref can hold (2^63 - 1)";
    auto AlignedRecords = alignRecords(Records, Align);
    if (!AlignedRecords)
      return Fn.emitError() << llvm::toString(AlignedRecords.takeError());

    uint64_t Bound = liveBytesLowerBound(*AlignedRecords);
    ArenaReport Arena;
    if (G.MemorySpace)
      llvm::raw_string_ostream(Arena.MemorySpace) << G.MemorySpace;
    Arena.Strategy = P->Strategy;
    Arena.Chosen = P->Chosen;
    Arena.Peak = livePeak(*AlignedRecords);
    Arena.Alignment = Align;
    Arena.ArenaSize = P->Offsets.TotalSize;
    Arena.LowerBound = Bound;
    Arena.BytesWithoutPlanning = RawBytes;
    Arena.Optimal = P->Optimal;
    for (auto [I, B] : llvm::enumerate(G.Buffers)) {
      memref::AllocOp Alloc = B->Alloc;
      std::string Type;
      llvm::raw_string_ostream(Type) << Alloc.getType();
      // A dynamic alloc is planned at its bound: its size is that bound.
      if (!Alloc.getType().hasStaticShape())
        Type += " (planned at its bound, " + std::to_string(B->Record.Size) +
                " bytes)";
      PlannedBufferReport BR{I,
                             locationOf(Alloc),
                             "memref.alloc",
                             Type,
                             Records[I].Size,
                             P->Offsets.Offsets[I],
                             Records[I].FirstTask,
                             Records[I].LastTask};
      if (!report.empty() || !timeline.empty()) {
        Operation *Writer = writerOf(*B);
        BR.WriterOp = Writer->getName().getStringRef().str();
        BR.WriterLocation = locationOf(Writer);
      }
      Arena.Buffers.push_back(std::move(BR));
    }
    size_t PeakLive = Arena.Peak.Live.size();
    uint64_t PeakTask = Arena.Peak.Task;
    Report.Arenas.push_back(std::move(Arena));
    {
      llvm::TimeTraceScope Scope("memplan rewrite");
      PhaseTimer T(getAnalysisManager(), Fn, "memplan rewrite", &RewritePhase);
      if (failed(rewrite(Fn, G, P->Offsets, Align, Buffers.FreesBuffers)))
        return failure();
    }
    // Debian's LLVM is built without LLVM_ENABLE_STATS, which makes
    // Pass::Statistic a no-op there; the remark carries the same numbers.
    numPlanned += G.Buffers.size();
    bytesUnplanned += RawBytes;
    arenaBytes += P->Offsets.TotalSize;
    lowerBoundBytes += Bound;
    std::string Space;
    if (G.MemorySpace)
      llvm::raw_string_ostream(Space) << G.MemorySpace;
    {
      // MLIR's remark engine (--remarks-filter=memplan
      // --remarks-output-file=F): a no-op unless enabled.
      auto R =
          remark::passed(Fn.getLoc(), remark::RemarkOpts::name("ArenaPlanned")
                                          .category("memplan")
                                          .subCategory("tensor-mem-plan")
                                          .function(Fn.getName()));
      if (R)
        R << remark::metric("BuffersPlanned", G.Buffers.size())
          << remark::metric("BytesWithoutPlanning", RawBytes)
          << remark::metric("ArenaBytes", P->Offsets.TotalSize)
          << remark::metric("LowerBound", Bound)
          << remark::metric("Strategy", P->Strategy)
          << remark::metric("Chosen", P->Chosen)
          << remark::metric("PeakTask", PeakTask)
          << remark::metric("PeakBuffers", PeakLive)
          << remark::metric("MemorySpace", Space);
    }
    if (remarks) {
      // On the location alone: attached to the op, the whole function would
      // be printed under it.
      InFlightDiagnostic D = mlir::emitRemark(Fn.getLoc())
                             << "tensor-mem-plan: " << G.Buffers.size()
                             << " buffers planned, " << RawBytes
                             << " bytes without planning, arena "
                             << P->Offsets.TotalSize << " bytes, lower bound "
                             << Bound << ", strategy " << P->Strategy;
      if (G.MemorySpace)
        D << ", memory space " << G.MemorySpace;
      // After the fields scripts parse ("strategy (\S+)").
      D << " (chose " << P->Chosen << ", peak at task " << PeakTask << " with "
        << PeakLive << " buffers live)";
    }
    return success();
  }

  /// The arena as a trailing function argument: its size goes in
  /// `memplan.arena_size`; every caller in the symbol table allocates one
  /// around the call.
  FailureOr<Value> addArenaArgument(FunctionOpInterface Fn,
                                    MemRefType ArenaType, uint64_t Align) {
    unsigned Index = Fn.getNumArguments();
    OpBuilder B(Fn.getContext());
    auto SizeAttr = B.getNamedAttr(
        "memplan.arena_size",
        B.getI64IntegerAttr(static_cast<int64_t>(ArenaType.getNumElements())));
    auto AlignAttr =
        B.getNamedAttr("memplan.arena_alignment",
                       B.getI64IntegerAttr(static_cast<int64_t>(Align)));
    if (failed(Fn.insertArgument(Index, ArenaType,
                                 B.getDictionaryAttr({SizeAttr, AlignAttr}),
                                 Fn.getLoc())))
      return Fn.emitError() << "tensor-mem-plan: cannot add an arena argument";
    if (Operation *Table =
            SymbolTable::getNearestSymbolTable(Fn->getParentOp()))
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
              B.getI64IntegerAttr(static_cast<int64_t>(Align)));
          Call.getArgOperandsMutable().append(CallerArena);
          if (!freesBuffers(Call)) // the input never frees: neither do we
            continue;
          B.setInsertionPointAfter(Call);
          memref::DeallocOp::create(B, Call.getLoc(), CallerArena);
        }
    return Fn.getArgument(Index);
  }

  LogicalResult rewrite(FunctionOpInterface Fn, ArenaGroup &G,
                        const OffsetsAssignment &Offsets, uint64_t Align,
                        bool FreesBuffers) {
    Block &Entry = Fn.getFunctionBody().front();
    OpBuilder B(Fn.getContext());
    auto ArenaType = MemRefType::get({static_cast<int64_t>(Offsets.TotalSize)},
                                     B.getI8Type(), MemRefLayoutAttrInterface(),
                                     G.MemorySpace);
    Value Arena;
    if (ArenaAsArgument) {
      FailureOr<Value> Arg = addArenaArgument(Fn, ArenaType, Align);
      if (failed(Arg))
        return failure();
      Arena = *Arg;
      // The caller owns the arena.
      FreesBuffers = false;
    } else {
      B.setInsertionPointToStart(&Entry);
      Arena = memref::AllocOp::create(B, Fn.getLoc(), ArenaType, ValueRange(),
                                      B.getI64IntegerAttr(Align));
    }

    // The arena outlives the last task of every buffer in it: the top-level
    // op holding the latest last user (a loop, or the await that joins an
    // async.execute). Found before the rewrite replaces allocs.
    Region &Body = Fn.getFunctionBody();
    Operation *LastTop = nullptr;
    if (Body.hasOneBlock())
      for (const PlannableBuffer *Buffer : G.Buffers)
        if (Operation *Top = Entry.findAncestorOpInBlock(*Buffer->LastUser))
          if (!LastTop || LastTop->isBeforeInBlock(Top))
            LastTop = Top;

    Attribute FreeSpace = freedMemorySpace(G.Buffers, G.MemorySpace);
    for (auto [I, Buffer] : llvm::enumerate(G.Buffers)) {
      memref::AllocOp Alloc = Buffer->Alloc;
      B.setInsertionPoint(Alloc);
      Value Offset = arith::ConstantIndexOp::create(
          B, Alloc.getLoc(), static_cast<int64_t>(Offsets.Offsets[I]));
      // A dynamic alloc is planned at its bound and viewed at its size.
      Value View =
          memref::ViewOp::create(B, Alloc.getLoc(), Alloc.getType(), Arena,
                                 Offset, Alloc.getDynamicSizes());
      for (Operation *Dealloc : Buffer->Deallocs)
        Dealloc->erase();
      if (LastTop == Alloc.getOperation())
        LastTop = View.getDefiningOp();
      Alloc.replaceAllUsesWith(View);
      Alloc.erase();
    }
    if (!FreesBuffers)
      return success();
    // The input frees its buffers, so the arena is freed as well: after its
    // last user in a one-block body, else at each exit.
    if (LastTop) {
      if (LastTop->hasTrait<OpTrait::IsTerminator>())
        B.setInsertionPoint(LastTop);
      else
        B.setInsertionPointAfter(LastTop);
      freeArena(B, Fn.getLoc(), Arena, FreeSpace);
      return success();
    }
    for (Block &Blk : Body)
      if (!Blk.empty() && Blk.back().hasTrait<OpTrait::ReturnLike>()) {
        B.setInsertionPoint(&Blk.back());
        freeArena(B, Fn.getLoc(), Arena, FreeSpace);
      }
    return success();
  }
};

} // namespace
