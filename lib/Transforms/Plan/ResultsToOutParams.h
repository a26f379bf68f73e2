//===- ResultsToOutParams.h - Returned buffers to callers -------*- C++ -*-===//
//
// The rewrite of tensor-mem-results-to-out-params as a function, so that
// tensor-mem-plan can run it first when it runs on a module.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_PLAN_RESULTSTOOUTPARAMS_H
#define MEMPLAN_LIB_TRANSFORMS_PLAN_RESULTSTOOUTPARAMS_H

#include "mlir/IR/BuiltinOps.h"

namespace memplan {

struct OutParamsOptions {
  /// Change public functions in place instead of calling a private copy.
  bool ModifyPublicFunctions = false;
  /// A remark per out-parameter made and per returned buffer left alone.
  bool Remarks = false;
};

struct OutParamsCounts {
  unsigned OutParams = 0;
  unsigned Clones = 0;
};

/// Makes every returned buffer of M's functions that qualifies (Passes.td,
/// tensor-mem-results-to-out-params) an out-parameter its callers allocate.
OutParamsCounts resultsToOutParams(mlir::ModuleOp M,
                                   const OutParamsOptions &Options);

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_PLAN_RESULTSTOOUTPARAMS_H
