//===- PlanAtRunTime.h - One arena per call for dynamic buffers -*- C++ -*-===//

#ifndef MEMPLAN_LIB_TRANSFORMS_PLANATRUNTIME_H
#define MEMPLAN_LIB_TRANSFORMS_PLANATRUNTIME_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <string>

namespace memplan {

/// The runtime's entry points, declared in the function's symbol table.
struct RuntimeFunctions {
  mlir::func::FuncOp AllocFn, FreeFn, PlanFn;
  /// memplan_rt_slot, when each slot of an arena takes its base pointer
  /// through it (null: the views take the arena itself).
  mlir::func::FuncOp SlotFn;
};

/// Declares the runtime function Name of type Ty in Table at B (private,
/// with the C interface), or finds it; null, with an error, when the symbol
/// exists with another type or is not a func.func.
mlir::func::FuncOp declareRuntimeFunction(mlir::OpBuilder &B,
                                          mlir::Operation *Table,
                                          llvm::StringRef Name,
                                          mlir::FunctionType Ty);

/// Where a function's run-time arena comes from. By default
/// memplan_rt_alloc at the entry, freed at every exit. With Take (the
/// functions of memplan.shared_arena: SharedRunTimeArena.h), Take(Total,
/// Align) hands out a block kept across calls (null on an error, reported),
/// whose first Prefix bytes (rounded up to the alignment) the function uses
/// for something else.
struct RunTimeArenaSource {
  uint64_t Prefix = 0;
  llvm::function_ref<mlir::Value(mlir::Value Total, mlir::Value Align)> Take;
};

/// A dynamic alloc left out of the run-time arena, and why.
struct NotAtRunTime {
  mlir::memref::AllocOp Alloc;
  std::string Reason;
};

/// The i64 bytes of a buffer at \p B: StaticBytes (the element size times
/// the static dims) times each of \p Dims, each first passed through \p At
/// (which materializes it where \p B builds). A product that wraps is or-ed
/// into \p Overflow when given (the caller picks what a wrap means);
/// without it, the bytes are -1 on a wrap.
mlir::Value emitByteSize(mlir::OpBuilder &B, mlir::Location Loc,
                         uint64_t StaticBytes, mlir::ValueRange Dims,
                         llvm::function_ref<mlir::Value(mlir::Value)> At,
                         mlir::Value *Overflow = nullptr);

/// How the offsets of a function's run-time arena are found.
struct ArenaPlanKind {
  /// Symbolic: computed at the entry from an order made at compile time
  /// (SymbolicPlan.h), Orders of them; otherwise memplan_rt_plan.
  bool Symbolic = false;
  size_t Orders = 0;
  /// Buffers that take a dying operand's bytes (symbolic plans only).
  size_t InplacePairs = 0;
};

/// Rewrites the dynamic allocs of \p Fn whose sizes can be computed at its
/// entry into views of one arena planned when it runs (at least two such
/// buffers): symbolically when \p Symbolic and their sizes are polynomials
/// of values known at the entry (with \p Inplace, a dying operand's bytes
/// taken by an elementwise result of provably the same shape), otherwise by
/// memplan_rt_plan. Returns the
/// allocs it replaced; the caller erases them. \p GetRuntime declares the
/// runtime functions when they are needed (memplan_rt_plan with its
/// argument true). \p Left, when given, receives the dynamic allocs it left
/// for the per-buffer lowering, with the reason; \p Kind how it planned;
/// \p Source where the arena comes from (memplan_rt_alloc without).
llvm::SmallVector<mlir::memref::AllocOp> planAtRunTime(
    mlir::FunctionOpInterface Fn, uint64_t Alignment, int64_t Site,
    bool Symbolic, bool Inplace,
    llvm::function_ref<mlir::FailureOr<RuntimeFunctions>(bool WithPlan)>
        GetRuntime,
    llvm::SmallVectorImpl<NotAtRunTime> *Left = nullptr,
    ArenaPlanKind *Kind = nullptr, const RunTimeArenaSource *Source = nullptr);

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_PLANATRUNTIME_H
