//===- TensorMemPlanInternal.h - The parts of tensor-mem-plan ---*- C++ -*-===//
//
// tensor-mem-plan is split by job: TensorMemPlan.cpp groups, plans and
// reports; ArenaArgument.cpp gives a function its arena as an argument and
// updates the callers; RewriteToArenaViews.cpp rewrites allocs into views;
// ReportFromIR.cpp describes planned buffers for the report; PlanResult.cpp
// plans one arena (shared with the C++ API).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_TENSORMEMPLANINTERNAL_H
#define MEMPLAN_LIB_TRANSFORMS_TENSORMEMPLANINTERNAL_H

#include "memplan/Analysis/AttrNames.h"
#include "memplan/Analysis/InplacePairs.h"
#include "memplan/Analysis/UsageRecordsFromIR.h"
#include "memplan/Core/Report.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Transforms/PlanResult.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace memplan {

/// Plans the buffers of one group (PlanResult.cpp); with Options.Inplace,
/// the Candidates of the group share bytes. Buffer I of the result is
/// Group.Buffers[I].
llvm::Expected<ArenaResult>
planArena(const ArenaGroup &Group, uint64_t NumTasks,
          const PlanOptions &Options,
          llvm::ArrayRef<InplaceCandidate> Candidates = {});

/// The analysis options that Options imply.
UsageRecordsOptions recordsOptions(const PlanOptions &Options);

/// The in-place candidates of Fn (of Analysis, Buffers) when Options ask for
/// them.
llvm::SmallVector<InplaceCandidate>
inplaceCandidates(mlir::FunctionOpInterface Fn,
                  const BufferUsageAnalysis &Analysis,
                  const FunctionBuffers &Buffers, const PlanOptions &Options);

// ArenaArgument.cpp

/// Whether every use of Fn is a call (only calls can pass an extra
/// argument; func.constant cannot).
bool allUsesAreCalls(mlir::FunctionOpInterface Fn);

/// With arena=argument the callers must pass the arena, so a pass running
/// on Fn itself (PassRoot) cannot when Fn has callers: an error then.
mlir::LogicalResult checkCallersReachable(mlir::FunctionOpInterface Fn,
                                          mlir::Operation *PassRoot);

/// Adds the arena as Fn's trailing argument (`memplan.arena_size`,
/// `memplan.arena_alignment`); every caller allocates one around the call,
/// and frees it when the caller frees its buffers or \p CalleeFrees (Fn
/// would have freed the arena it no longer allocates).
mlir::FailureOr<mlir::Value> addArenaArgument(mlir::FunctionOpInterface Fn,
                                              mlir::MemRefType ArenaType,
                                              uint64_t Alignment,
                                              bool CalleeFrees);

// RewriteToArenaViews.cpp

/// Rewrites every alloc of Group into a view of Arena at its offset and
/// erases its deallocs; with FreesBuffers the arena is freed after its last
/// user.
void rewriteToArenaViews(mlir::FunctionOpInterface Fn, const ArenaGroup &Group,
                         const OffsetsAssignment &Offsets, mlir::Value Arena,
                         bool FreesBuffers);

// CheckPromises.cpp

/// The private runtime function Name of Type (C interface) in Module,
/// declared there on first use. Symbols is Module's table.
mlir::func::FuncOp declareRuntimeCheck(mlir::SymbolTable &Symbols,
                                       mlir::Operation *Module,
                                       llvm::StringRef Name,
                                       mlir::FunctionType Type);

/// The shared arena's check: its name and type.
llvm::StringRef brokenExclusionName();
mlir::FunctionType brokenExclusionType(mlir::MLIRContext *Ctx);

/// An error at a symbol of Root (or of a symbol table in it) named as one
/// of the runtime's checks (broken promise, broken exclusion) that is not
/// a func.func of the type the pass calls: checked before anything is
/// planned.
mlir::LogicalResult checkRuntimeCheckSymbols(mlir::Operation *Root);

/// Text for a runtime message, read at B as a memref<?xi8>: a constant
/// global named Name (renamed on a clash) at the start of Module.
mlir::Value runtimeText(mlir::OpBuilder &B, mlir::Location Loc,
                        mlir::SymbolTable &Symbols, mlir::Operation *Module,
                        llvm::StringRef Name, llvm::StringRef Text);

/// Before each alloc of Group planned at a promised bound, a run-time check
/// that stops the program when its size is above the bound
/// (memplan_rt_broken_promise). PassRoot is the op the pass runs on.
void checkPromises(const ArenaGroup &Group, mlir::Operation *PassRoot);

// InputChecks.cpp

/// Warns when Fn still holds tensors but has nothing to plan: the input was
/// most likely never bufferized.
void warnIfNotBufferized(mlir::FunctionOpInterface Fn,
                         const FunctionBuffers &Buffers);

/// An error at the first memplan.* attribute a user wrote that the pass
/// does not understand (memplan.persistent not a unit attribute,
/// memplan.shared_arena not an array, memplan.max not a non-negative
/// integer on an index argument, memplan.nocapture not a unit attribute).
mlir::LogicalResult checkUserAttributes(mlir::Operation *Root);

/// With deallocation-runs-after, once Fn is planned: the frees left (of
/// buffers left unplanned) are erased, with a remark, since upstream's
/// ownership-based deallocation that runs next takes no program that frees
/// and places every free itself (the planned buffers' frees went with
/// them). A free it would keep (marked bufferization.manual_deallocation)
/// or a realloc (expanded first) stays; any other op that frees a memref
/// (bufferization.dealloc) is an error at it, naming deallocate=false; so
/// is a memref.store of a buffer, which that deallocation does not follow.
mlir::LogicalResult dropFreesBeforeDeallocation(mlir::FunctionOpInterface Fn,
                                                bool Remarks);

// CallSites.cpp

/// Functions ordered so that a callee comes before its callers (a call
/// cycle keeps the order it was found in): planned first, its arena
/// becomes a buffer each caller plans.
llvm::SmallVector<mlir::FunctionOpInterface>
calleesFirst(llvm::ArrayRef<mlir::FunctionOpInterface> Functions);

/// A private function called, and only called, from functions under
/// PassRoot: its arena can be a buffer of each caller's.
bool sharesCallersArena(mlir::FunctionOpInterface Fn,
                        mlir::Operation *PassRoot);

/// The calls Fn makes, for its footprint. Arenas are the allocs of its
/// arenas; with AsArgument they exist before it runs.
std::vector<CallSiteReport> callSites(mlir::FunctionOpInterface Fn,
                                      bool AsArgument,
                                      llvm::ArrayRef<mlir::Operation *> Arenas);

/// Where Fn's arena for Group goes: the entry, after the leading calls of
/// an init function that hold none of its buffers.
void setArenaInsertionPoint(mlir::OpBuilder &B, mlir::FunctionOpInterface Fn,
                            const ArenaGroup &Group);

// SharedArena.cpp

/// The functions a module names in memplan.shared_arena and the one arena
/// (a global per memory space) they share.
class SharedArenas {
public:
  /// Reads the attribute on PassRoot; fails, with an error, when it names
  /// something else than functions with a body, when one of them calls
  /// another, or when the pass runs nested in the module holding it.
  static mlir::FailureOr<SharedArenas> collect(mlir::Operation *PassRoot);

  bool contains(mlir::FunctionOpInterface Fn) const;

  /// Clone, a copy of Fn, joins the set of M's attribute when Fn is in it:
  /// the same method never runs at once with the others either.
  static void addClone(mlir::ModuleOp M, mlir::FunctionOpInterface Fn,
                       mlir::FunctionOpInterface Clone);

  /// The shared arena of ArenaType's memory space, read in Fn (at B), and
  /// Fn's run-time check that no other function of the set runs.
  mlir::Value arenaFor(mlir::OpBuilder &B, mlir::FunctionOpInterface Fn,
                       mlir::MemRefType ArenaType, uint64_t Alignment);

  /// Sizes each global for the largest arena of its memory space.
  void finish();

  /// The arena of a memory space, as the report prints it ("" by default).
  std::optional<SharedArenaInfo> summary(llvm::StringRef MemorySpace) const;

private:
  void guard(mlir::FunctionOpInterface Fn);

  struct Arena {
    mlir::memref::GlobalOp Global;
    std::string Name;
    uint64_t Size = 0;
    uint64_t Align = 1;
    std::string SizedBy;
    llvm::SmallVector<mlir::memref::GetGlobalOp> Uses;
  };
  mlir::Operation *Module = nullptr;
  llvm::SmallVector<mlir::FunctionOpInterface> Functions;
  llvm::DenseMap<mlir::Attribute, Arena> Arenas;
  llvm::DenseSet<mlir::Operation *> Guarded;
  mlir::memref::GlobalOp Busy;
  mlir::func::FuncOp BrokenExclusion;
};

// ReportFromIR.cpp

/// An op's location as printed.
std::string locationOf(mlir::Operation *Op);

/// Fills in what the IR of Fn (of Analysis, not yet rewritten) says about
/// each buffer of Arena (planned from Group): its alloc, type, and with
/// WithWriters the op that computes it and the op at every task the arena
/// names (TaskOps).
void describeBuffers(ArenaResult &Arena, mlir::FunctionOpInterface Fn,
                     const BufferUsageAnalysis &Analysis,
                     const ArenaGroup &Group, bool WithWriters);

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_TENSORMEMPLANINTERNAL_H
