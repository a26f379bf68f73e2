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
};

/// A dynamic alloc left out of the run-time arena, and why.
struct NotAtRunTime {
  mlir::memref::AllocOp Alloc;
  std::string Reason;
};

/// Rewrites the dynamic allocs of \p Fn whose sizes can be computed at its
/// entry into views of one arena planned at run time (at least two such
/// buffers). Returns the allocs it replaced; the caller erases them.
/// \p GetRuntime declares the runtime functions when they are needed.
/// \p Left, when given, receives the dynamic allocs it left for the
/// per-buffer lowering, with the reason.
llvm::SmallVector<mlir::memref::AllocOp> planAtRunTime(
    mlir::FunctionOpInterface Fn, uint64_t Alignment, int64_t Site,
    llvm::function_ref<mlir::FailureOr<RuntimeFunctions>()> GetRuntime,
    llvm::SmallVectorImpl<NotAtRunTime> *Left = nullptr);

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_PLANATRUNTIME_H
