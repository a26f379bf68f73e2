//===- ReadOnlyData.h - The globals a function reads ------------*- C++ -*-===//
//
// Weights live in module-level globals (constants bufferized to
// memref.global, or tensors hoisted by tensor-mem-hoist-constants), never in
// an arena: the report lists them apart so an arena holds activations only.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_READONLYDATA_H
#define MEMPLAN_ANALYSIS_READONLYDATA_H

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memplan {

/// Unit attribute tensor-mem-hoist-constants puts on the globals it creates.
inline constexpr llvm::StringLiteral HoistedGlobalAttr = "memplan.hoisted";

struct GlobalBuffer {
  std::string Name;
  uint64_t Bytes = 0;
  /// "constant" (a constant memref.global), "hoisted" (written once by the
  /// code tensor-mem-hoist-constants made) or "mutable" (any other global).
  std::string Kind;
};

struct ReadOnlyData {
  /// Sum of Buffers' bytes.
  uint64_t Bytes = 0;
  /// In the order of their first memref.get_global in the function, once
  /// each.
  std::vector<GlobalBuffer> Buffers;
};

/// The memref.global's that Fn takes with memref.get_global (globals whose
/// size is unknown count 0 bytes).
ReadOnlyData collectReadOnlyData(mlir::FunctionOpInterface Fn);

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_READONLYDATA_H
