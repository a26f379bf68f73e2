//===- PlanResult.h - The plan as data, for C++ embedders -------*- C++ -*-===//
//
// What tensor-mem-plan would do to a bufferized module, returned as a data
// structure instead of rewritten IR or a report file: per function and
// memory space one PlannedArena: the arena's result (the usage records, the
// offsets, the arena size, the bounds, the strategy that made the plan) and
// the allocs it places. The IR is not changed; run tensor-mem-plan (or
// memplan-pipeline) to rewrite it. examples/embed/snippet.cpp (in
// docs/UserGuide.md) uses it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TRANSFORMS_PLANRESULT_H
#define MEMPLAN_TRANSFORMS_PLANRESULT_H

#include "memplan/Core/ArenaResult.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memplan {

/// The options of tensor-mem-plan that decide the plan (the others, arena,
/// report and timeline, only decide how it is written out).
struct PlanOptions {
  /// A registered strategy (memplan-solve --list); "auto" by default.
  std::string Strategy = "auto";
  /// Alignment of the arena and of every offset, in bytes (a power of 2);
  /// raised to a buffer's own alignment where that is larger.
  uint64_t Alignment = 64;
  /// Time budget of search strategies (auto, exact), in milliseconds.
  double BudgetMs = 1000;
  /// No reuse at all: every buffer gets its own range.
  bool PreserveIntermediates = false;
  /// The ownership-based deallocation runs after planning (as in
  /// memplan-pipeline): buffers forwarded through control flow stay out.
  bool DeallocationRunsAfter = false;
  /// Upper bound of every dynamic size taken straight from a function
  /// argument without a `memplan.max` of its own; negative: none.
  int64_t DimBounds = -1;
  /// A dynamic alloc is planned at its bound only up to this many bytes.
  uint64_t MaxStaticBytes = uint64_t(1) << 28;
  /// An elementwise result may take the bytes of an operand that dies at
  /// its op (docs/InplaceReuse.md).
  bool Inplace = false;
};

/// Why Options cannot plan (unknown strategy, alignment not a power of two,
/// negative budget), in the words tensor-mem-plan and memplan-pipeline use.
llvm::Error checkPlanOptions(const PlanOptions &Options);

/// One arena: the planned buffers of one function in one memory space.
/// The plan and its records are the ArenaResult every reader of a plan
/// gets (Core/ArenaResult.h: Requested and Chosen strategy, Alignment,
/// arenaSize(), liveBound(), CertifiedBound, Records, offset(I),
/// InplacePairs, BytesWithoutPlanning, MemorySpace); the C++ API adds what
/// only the IR has. Records[I], offset(I) and Allocs[I] describe the same
/// buffer.
struct PlannedArena : ArenaResult {
  /// Name of the function (its symbol).
  std::string Function;
  /// The memref.alloc op of each buffer.
  std::vector<mlir::Operation *> Allocs;
};

/// Plans every function with a body in Module (or nested in it) without
/// changing the IR. The module must be bufferized (memref.alloc); buffers
/// the planner cannot place (returned, escaping, dynamic) are left out (see
/// computeUsageRecords for the reasons). Fails on an unknown strategy, a bad
/// option or a strategy error.
llvm::Expected<std::vector<PlannedArena>>
planModule(mlir::ModuleOp Module, const PlanOptions &Options = {});

/// The same for one function.
llvm::Expected<std::vector<PlannedArena>>
planFunction(mlir::FunctionOpInterface Function,
             const PlanOptions &Options = {});

} // namespace memplan

#endif // MEMPLAN_TRANSFORMS_PLANRESULT_H
