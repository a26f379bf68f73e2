//===- TensorMemPlan.cpp - The tensor-mem-plan pass -----------------------===//
//
// Gets each function's buffers from BufferUsageAnalysis, groups them into
// one arena per memory space, plans each arena with a registered strategy,
// reports what it decided (remarks, statistics, the JSON report and the
// timeline picture) and has the allocs rewritten into views of the arena.
//
//===----------------------------------------------------------------------===//

#include "PhaseTimer.h"
#include "ResultsToOutParams.h"
#include "TensorMemPlanInternal.h"
#include "memplan/Analysis/ElementLayout.h"
#include "memplan/Analysis/NoCapture.h"
#include "memplan/Analysis/ReadOnlyData.h"
#include "memplan/Transforms/Passes.h"
#include "memplan/Transforms/Remarks.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TimeProfiler.h"

#include <memory>
#include <mutex>

#define DEBUG_TYPE "tensor-mem-plan"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMPLAN
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;

// Phases shown under -mlir-timing next to the analysis (see PhaseTimer.h).
static char StrategyPhase, RewritePhase;

namespace {

/// The reports of one pass instance and its clones (nested under func.func
/// the pass runs once per function, on several threads). Not global: a new
/// pass manager starts empty, and initialize() empties it for a new run.
struct ReportSink {
  std::mutex Mutex;
  /// The top-level op (module) the functions belong to: a pass manager run
  /// again on another module starts a new report.
  Operation *Root = nullptr;
  std::vector<FunctionReport> Functions;
};

struct TensorMemPlanPass : memplan::impl::TensorMemPlanBase<TensorMemPlanPass> {
  using Base::Base;

  std::shared_ptr<ReportSink> Sink = std::make_shared<ReportSink>();
  /// The functions of memplan.shared_arena in this run.
  SharedArenas Shared;

  PlanOptions planOptions() const {
    PlanOptions O;
    O.Strategy = strategy;
    // Negative values wrap to huge non-powers of two: rejected below.
    O.Alignment = static_cast<uint64_t>(static_cast<int64_t>(alignment));
    O.BudgetMs = static_cast<double>(budgetMs);
    O.PreserveIntermediates = preserveIntermediates;
    O.DeallocationRunsAfter = deallocationRunsAfter;
    O.DimBounds = dimBounds;
    // Negative: no cap would be absurd; rejected in initialize().
    O.MaxStaticBytes =
        static_cast<uint64_t>(static_cast<int64_t>(maxStaticBytes));
    O.Inplace = inplace;
    return O;
  }

  bool wantsReport() const { return !report.empty() || !timeline.empty(); }

  /// Every option is checked here, before any IR is rewritten.
  LogicalResult initialize(MLIRContext *Ctx) override {
    auto Fail = [&](const llvm::Twine &Msg) {
      mlir::emitError(UnknownLoc::get(Ctx)) << Msg;
      return failure();
    };
    // Before planOptions() wraps a negative value.
    if (llvm::Error E = checkAlignmentOption(alignment))
      return Fail("tensor-mem-plan: " + llvm::toString(std::move(E)));
    if (maxStaticBytes < 0)
      return Fail("tensor-mem-plan: max-static-bytes " +
                  llvm::Twine(static_cast<int64_t>(maxStaticBytes)) +
                  " is negative");
    if (llvm::Error E = checkPlanOptions(planOptions()))
      return Fail("tensor-mem-plan: " + llvm::toString(std::move(E)));
    if (!timeline.empty())
      if (llvm::Expected<TimelineFormat> F = timelineFormatForPath(timeline);
          !F)
        return Fail("tensor-mem-plan: " + llvm::toString(F.takeError()));
    if (!report.empty() && report.getValue() == timeline.getValue())
      return Fail(
          "tensor-mem-plan: report= and timeline= name the same file '" +
          report.getValue() + "': the picture would overwrite the report");
    for (const std::string &Path : {report.getValue(), timeline.getValue()})
      if (!Path.empty())
        if (llvm::Error E = checkWritable(Path))
          return Fail(llvm::toString(std::move(E)) + " (tensor-mem-plan " +
                      (Path == report.getValue() ? "report" : "timeline") +
                      "=); nothing was planned");
    std::lock_guard<std::mutex> Lock(Sink->Mutex);
    Sink->Functions.clear();
    Sink->Root = nullptr;
    return success();
  }

  void runOnOperation() override {
    if (failed(checkRuntimeCheckSymbols(getOperation())) ||
        failed(checkUserAttributes(getOperation())))
      return signalPassFailure();
    // Buffers a callee returns become its callers' (tensor-mem-results-to-
    // out-params) before anything is planned.
    if (auto M = dyn_cast<ModuleOp>(getOperation()); M && outParams)
      resultsToOutParams(M, {/*ModifyPublicFunctions=*/false, remarks});
    // A buffer passed to a callee that keeps no reference is an ordinary
    // use; the callee's body says so. Nested under one function the other
    // bodies are not this pass's to read (they may be planned meanwhile).
    SmallVector<std::pair<FunctionOpInterface, unsigned>> Marked;
    if (!isa<FunctionOpInterface>(getOperation()))
      Marked = markNoCaptureArguments(getOperation());
    llvm::scope_exit Unmark([&] { unmarkArguments(Marked); });
    SmallVector<FunctionOpInterface> Functions;
    getOperation()->walk([&](FunctionOpInterface Fn) {
      if (!Fn.isExternal())
        Functions.push_back(Fn);
    });
    if (acrossCalls && !isa<FunctionOpInterface>(getOperation()))
      Functions = calleesFirst(Functions);
    FailureOr<SharedArenas> Collected = SharedArenas::collect(getOperation());
    if (failed(Collected))
      return signalPassFailure();
    Shared = std::move(*Collected);
    std::vector<FunctionReport> Reports;
    for (FunctionOpInterface Fn : Functions) {
      FunctionReport Report;
      if (failed(planFunction(Fn, Report)))
        return signalPassFailure();
      Reports.push_back(std::move(Report));
    }
    Shared.finish();
    for (auto [Fn, Report] : llvm::zip_equal(Functions, Reports))
      if (Shared.contains(Fn))
        for (ArenaResult &A : Report.Arenas)
          A.Shared = Shared.summary(A.MemorySpace);
    // The summary remarks carry the footprint, known once every function
    // of the run is planned.
    computeFootprints(Reports);
    for (auto [Fn, Report] : llvm::zip_equal(Functions, Reports))
      for (const ArenaResult &A : Report.Arenas)
        summarize(Fn, A, Report.Footprint);
    if (wantsReport() && failed(writeReports(std::move(Reports))))
      return signalPassFailure();
  }

  /// Writes the report and the picture once per run: with every function
  /// planned in this run and, nested under func.func, those its clones
  /// planned before (a function planned again replaces its entry).
  LogicalResult writeReports(std::vector<FunctionReport> Reports) {
    std::lock_guard<std::mutex> Lock(Sink->Mutex);
    std::vector<FunctionReport> &All = Sink->Functions;
    // Run on the op holding the functions, the pass saw all of them: the
    // report is this run's alone. Nested under func.func, it gathers the
    // functions of the same top-level op.
    Operation *Root = getOperation();
    while (Operation *Parent = Root->getParentOp())
      Root = Parent;
    if (Sink->Root != Root || !isa<FunctionOpInterface>(getOperation())) {
      All.clear();
      Sink->Root = Root;
    }
    for (FunctionReport &F : Reports) {
      llvm::erase_if(All, [&](const FunctionReport &Old) {
        return Old.Function == F.Function && Old.Location == F.Location;
      });
      All.push_back(std::move(F));
    }
    computeFootprints(All);
    // Threads finish in any order; the file lists functions by name.
    llvm::stable_sort(All,
                      [](const FunctionReport &A, const FunctionReport &B) {
                        return A.Function < B.Function;
                      });
    // At the module's location alone: attached to the op, the whole
    // rewritten module would print after the message.
    auto Fail = [&](llvm::Error E) {
      return mlir::emitError(getOperation()->getLoc())
             << "tensor-mem-plan: " << llvm::toString(std::move(E));
    };
    if (!report.empty())
      if (llvm::Error E = writeReportFile(report, All))
        return Fail(std::move(E));
    if (!timeline.empty())
      if (llvm::Error E = writeTimelineFile(timeline, timelineSections(All)))
        return Fail(std::move(E));
    return success();
  }

  const BufferUsageAnalysis &analysisOf(FunctionOpInterface Fn) {
    if (Fn.getOperation() == getOperation())
      return getAnalysis<BufferUsageAnalysis>();
    return getChildAnalysis<BufferUsageAnalysis>(Fn);
  }

  void reportUnplanned(FunctionOpInterface Fn, const UnplannedBuffer &U,
                       FunctionReport &Report) {
    std::string Reason = U.Reason.message();
    LLVM_DEBUG(llvm::dbgs() << "left alone: " << U.Alloc->getLoc() << ": "
                            << Reason << "\n");
    Report.Unplanned.push_back(
        {locationOf(U.Alloc), U.Alloc->getName().getStringRef().str(), Reason});
    // The engine hears of every buffer left alone; the diagnostic is
    // printed with remarks=true or for a reason a user must see.
    PassRemark R = emitPassRemark(U.Alloc, RemarkKind::Missed,
                                  remark_category::Plan, "BufferNotPlanned",
                                  remarks || U.Reason.alwaysRemarked());
    if (!R)
      return;
    R << "buffer not planned: " << Reason << remark::reason("{0}", Reason);
    if (U.Culprit)
      R.attachNote(U.Culprit->getLoc()) << "because of this op";
  }

  LogicalResult planFunction(FunctionOpInterface Fn, FunctionReport &Report) {
    PlanOptions Options = planOptions();
    const BufferUsageAnalysis &Analysis = analysisOf(Fn);
    FunctionBuffers Buffers = Analysis.buffers(recordsOptions(Options));
    warnIfNotBufferized(Fn, Buffers);
    Report.Function = Fn.getName().str();
    Report.Location = locationOf(Fn);
    Report.NumTasks = Buffers.NumTasks;
    Report.Weights = collectReadOnlyData(Fn);
    numUnplanned += Buffers.Unplanned.size();
    for (const UnplannedBuffer &U : Buffers.Unplanned)
      reportUnplanned(Fn, U, Report);

    SmallVector<ArenaGroup> Groups = groupByMemorySpace(Buffers);
    // A function of the shared arena holds no arena of its own.
    bool AsArgument =
        (arena == ArenaSource::Argument ||
         (acrossCalls && sharesCallersArena(Fn, getOperation()))) &&
        !Groups.empty() && !Shared.contains(Fn);
    if (AsArgument && failed(checkCallersReachable(Fn, getOperation())))
      return failure();
    if (AsArgument && !allUsesAreCalls(Fn)) {
      // On the location alone: attached to the op, the whole function prints.
      emitPassRemark(Fn.getLoc(), Fn, RemarkKind::Missed, remark_category::Plan,
                     "OwnArena", /*AsDiagnostic=*/true)
          << "tensor-mem-plan: '" << Fn.getName()
          << "' is used other than by calls, so it gets an arena "
             "of its own instead of an arena argument";
      AsArgument = false;
    }
    SmallVector<InplaceCandidate> Inplace =
        inplaceCandidates(Fn, Analysis, Buffers, Options);
    for (const ArenaGroup &G : Groups)
      if (failed(planGroup(Fn, G, Analysis, Buffers, Options, Inplace, Report)))
        return failure();
    // Rewritten once every arena is planned and described: until then the
    // IR is the one the analysis numbered.
    SmallVector<Operation *> Arenas;
    for (auto [G, A] : llvm::zip_equal(Groups, Report.Arenas))
      if (failed(rewriteGroup(Fn, G, A, Buffers, AsArgument, Arenas)))
        return failure();
    // What the footprint leaves out: dynamic buffers sized at run time, and
    // the bytes of static ones kept out of the arenas (on the heap).
    for (const UnplannedBuffer &U : Buffers.Unplanned) {
      auto Type = U.Alloc->getNumResults() == 1
                      ? dyn_cast<MemRefType>(U.Alloc->getResult(0).getType())
                      : MemRefType();
      if (U.Reason.isDynamicShape() || !Type || !Type.hasStaticShape()) {
        ++Report.NumDynamic;
        continue;
      }
      ++Report.NumUnplannedStatic;
      llvm::Expected<ElementLayout> Layout = getBufferLayout(
          MemRefType::get(Type.getShape(), Type.getElementType()), Fn);
      if (!Layout) {
        llvm::consumeError(Layout.takeError());
        ++Report.NumUnplannedUnsized;
        continue;
      }
      Report.UnplannedStaticBytes =
          llvm::SaturatingAdd(Report.UnplannedStaticBytes, Layout->Size);
    }
    Report.Calls = callSites(Fn, AsArgument, Arenas);
    Report.ArenasFromCallers = AsArgument;
    if (auto Symbol = dyn_cast<SymbolOpInterface>(Fn.getOperation()))
      Report.Entry = Symbol.isPublic();
    // The planned buffers' frees are gone; the deallocation that runs next
    // frees the rest, and would reject a program that still frees.
    if (deallocationRunsAfter &&
        failed(dropFreesBeforeDeallocation(Fn, remarks)))
      return failure();
    return success();
  }

  LogicalResult planGroup(FunctionOpInterface Fn, const ArenaGroup &G,
                          const BufferUsageAnalysis &Analysis,
                          const FunctionBuffers &Buffers,
                          const PlanOptions &Options,
                          ArrayRef<InplaceCandidate> Inplace,
                          FunctionReport &Report) {
    llvm::Expected<ArenaResult> Planned = [&] {
      llvm::TimeTraceScope Scope("memplan strategy", strategy.getValue());
      PhaseTimer T(getAnalysisManager(), Fn, "memplan strategy",
                   &StrategyPhase);
      return planArena(G, Buffers.NumTasks, Options, Inplace);
    }();
    if (!Planned)
      return Fn.emitError()
             << "tensor-mem-plan: " << llvm::toString(Planned.takeError());
    // A memref dimension is an int64_t (and INT64_MIN means dynamic).
    uint64_t Size = Planned->arenaSize();
    if (Size > static_cast<uint64_t>(INT64_MAX))
      return Fn.emitError() << "tensor-mem-plan: the arena needs " << Size
                            << " bytes, more than a memref can hold (2^63 - 1)";
    LLVM_DEBUG(llvm::dbgs()
               << "@" << Fn.getName() << ": " << G.Buffers.size()
               << " buffers, arena " << Size << ", bound "
               << Planned->liveBound() << ", " << Planned->Chosen << "\n");
    numInplace += Planned->InplacePairs.size();
    if (wantsReport())
      describeBuffers(*Planned, Fn, Analysis, G, /*WithWriters=*/true);
    Report.Arenas.push_back(std::move(*Planned));
    return success();
  }

  LogicalResult rewriteGroup(FunctionOpInterface Fn, const ArenaGroup &G,
                             const ArenaResult &Result,
                             const FunctionBuffers &Buffers, bool AsArgument,
                             SmallVectorImpl<Operation *> &Arenas) {
    uint64_t Size = Result.arenaSize(), Align = Result.Alignment;
    llvm::TimeTraceScope Scope("memplan rewrite");
    PhaseTimer T(getAnalysisManager(), Fn, "memplan rewrite", &RewritePhase);
    OpBuilder B(Fn.getContext());
    auto ArenaType =
        MemRefType::get({static_cast<int64_t>(Size)}, B.getI8Type(),
                        MemRefLayoutAttrInterface(), G.MemorySpace);
    Value ArenaValue;
    // The arena is freed where the input freed its buffers, unless the
    // deallocation that runs next frees it (it takes no program that frees).
    bool FreesBuffers = Buffers.FreesBuffers && !deallocationRunsAfter;
    if (AsArgument) {
      FailureOr<Value> Arg =
          addArenaArgument(Fn, ArenaType, Align, FreesBuffers);
      if (failed(Arg))
        return failure();
      ArenaValue = *Arg;
      FreesBuffers = false; // the caller owns the arena
    } else if (Shared.contains(Fn)) {
      setArenaInsertionPoint(B, Fn, G);
      ArenaValue = Shared.arenaFor(B, Fn, ArenaType, Align);
      FreesBuffers = false; // allocated once, with the program
    } else {
      setArenaInsertionPoint(B, Fn, G);
      ArenaValue = memref::AllocOp::create(
          B, Fn.getLoc(), ArenaType, ValueRange(), B.getI64IntegerAttr(Align));
      Arenas.push_back(ArenaValue.getDefiningOp());
    }
    if (checkPromises)
      memplan::checkPromises(G, getOperation());
    rewriteToArenaViews(Fn, G, Result.Offsets, ArenaValue, FreesBuffers);
    return success();
  }

  /// Statistics and remarks of one planned arena.
  void summarize(FunctionOpInterface Fn, const ArenaResult &A,
                 const FootprintReport &P) {
    size_t NumPairs = A.InplacePairs.size();
    // Debian's LLVM is built without LLVM_ENABLE_STATS, which makes
    // Pass::Statistic a no-op there; the remark carries the same numbers.
    numPlanned += A.Buffers.size();
    bytesUnplanned += A.BytesWithoutPlanning;
    arenaBytes += A.arenaSize();
    lowerBoundBytes += A.liveBound();
    // On the location alone: attached to the op, the whole function would
    // be printed under it.
    PassRemark D =
        emitPassRemark(Fn.getLoc(), Fn, RemarkKind::Passed,
                       remark_category::Plan, "ArenaPlanned", remarks);
    if (!D)
      return;
    // The engine's arguments: the numbers of the text, one by one.
    D << remark::metric("BuffersPlanned", A.Buffers.size())
      << remark::metric("BytesWithoutPlanning", A.BytesWithoutPlanning)
      << remark::metric("ArenaBytes", A.arenaSize())
      << remark::metric("LowerBound", A.liveBound())
      << remark::metric("Strategy", A.Requested)
      << remark::metric("Chosen", A.Chosen)
      << remark::metric("PeakTask", A.Peak.Task)
      << remark::metric("PeakBuffers", A.Peak.Live.size())
      << remark::metric("InplacePairs", NumPairs)
      << remark::metric("MemorySpace", A.MemorySpace)
      << remark::metric("FootprintSteady", P.Steady)
      << remark::metric("FootprintFirstCall", P.FirstCall);
    auto Buffers = [](size_t N) { return N == 1 ? " buffer" : " buffers"; };
    D << "tensor-mem-plan: " << A.Buffers.size() << Buffers(A.Buffers.size())
      << " planned, " << A.BytesWithoutPlanning
      << " bytes without planning, arena " << A.arenaSize()
      << " bytes, lower bound " << A.liveBound() << ", strategy "
      << A.Requested;
    if (!A.MemorySpace.empty())
      D << ", memory space " << A.MemorySpace;
    // After the fields scripts parse ("strategy (\S+)").
    D << " (chose " << A.Chosen << ", peak at task " << A.Peak.Task << " with "
      << A.Peak.Live.size() << Buffers(A.Peak.Live.size()) << " live)";
    if (NumPairs)
      D << ", " << NumPairs << " in place";
    // What the function holds, whole (README, "The memory a user pays").
    D << "; footprint: steady " << P.Steady << " bytes (arenas " << P.Arenas
      << ", callees " << P.Callees << ", hoisted " << P.Hoisted
      << "), first call " << P.FirstCall << " bytes";
    if (!P.NotCounted.empty())
      D << ", not counted: " << llvm::join(P.NotCounted, ", ");
  }
};

} // namespace
