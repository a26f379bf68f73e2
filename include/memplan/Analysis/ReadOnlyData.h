//===- ReadOnlyData.h - The globals a function reads ------------*- C++ -*-===//
//
// Weights live in module-level globals (constants bufferized to
// memref.global, or tensors hoisted by tensor-mem-hoist-constants), never in
// an arena: the report lists them apart so an arena holds activations only.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_READONLYDATA_H
#define MEMPLAN_ANALYSIS_READONLYDATA_H

#include "memplan/Analysis/AttrNames.h"
#include "memplan/Core/Report.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memplan {

/// The memref.global's that Fn takes with memref.get_global, once each in
/// the order of their first get_global (a global of unknown size counts 0
/// bytes).
WeightsReport collectReadOnlyData(mlir::FunctionOpInterface Fn);

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_READONLYDATA_H
