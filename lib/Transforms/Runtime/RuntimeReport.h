//===- RuntimeReport.h - tensor-mem-lower-runtime's report ------*- C++ -*-===//
//
// What tensor-mem-lower-runtime did to each function's dynamic buffers, for
// the summary remark and the report's "runtime" section (RuntimeReport.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_RUNTIME_RUNTIMEREPORT_H
#define MEMPLAN_LIB_TRANSFORMS_RUNTIME_RUNTIMEREPORT_H

#include "PlanAtRunTime.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <string>
#include <utility>
#include <vector>

namespace memplan {

/// Op's location as the report prints it (Plan/ReportFromIR.cpp, so both
/// passes' reports name a buffer alike).
std::string locationOf(mlir::Operation *Op);

namespace lower_runtime {

/// What happened to one function's dynamic buffers, by location: planned in
/// the run-time arena, served one by one (with why), or left alone (why).
struct RuntimeSummary {
  mlir::FunctionOpInterface Fn;
  std::vector<std::string> Arena;
  std::vector<std::pair<std::string, std::string>> PerBuffer, LeftAlone;
  /// How the run-time arena's offsets are found (with an arena).
  ArenaPlanKind Plan;
  /// The slot of memplan.shared_arena's block kept across calls, when the
  /// function takes its arena from it.
  std::string SharedArena;

  /// The plan the function's dynamic buffers got, as the report says it:
  /// "symbolic", "run-time", "per buffer" or "none".
  std::string planKind() const;
};

/// Adds a "runtime" section to each function of the report at Path
/// (tensor-mem-plan's, written earlier in the pipeline), or writes a new
/// report with only those. An unplanned entry of tensor-mem-plan's report
/// whose buffer the runtime serves gets "served_at_run_time". Errors are
/// reported on M.
mlir::LogicalResult
writeRuntimeReport(mlir::ModuleOp M, llvm::StringRef Path,
                   llvm::ArrayRef<RuntimeSummary> Summaries);

} // namespace lower_runtime
} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_RUNTIME_RUNTIMEREPORT_H
