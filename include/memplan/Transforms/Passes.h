//===- Passes.h - memplan passes --------------------------------*- C++ -*-===//

#ifndef MEMPLAN_TRANSFORMS_PASSES_H
#define MEMPLAN_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

// The cl modifiers the options of Passes.td name (defaults in --help).
#include "memplan/Transforms/OptionHelp.h"

namespace memplan {

/// Where tensor-mem-plan's arena comes from (TFLite: allocated by the
/// interpreter, or passed in by the application).
enum class ArenaSource { Alloc, Argument };
/// What tensor-mem-hoist-constants may trade: memory (no copy of a weight
/// for good, the default), speed (compute once, keep the result), or, in
/// memplan-pipeline, nothing (the pass does not run).
enum class HoistMode { Off, Memory, Speed };

#define GEN_PASS_DECL
#include "memplan/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "memplan/Transforms/Passes.h.inc"

} // namespace memplan

#endif // MEMPLAN_TRANSFORMS_PASSES_H
