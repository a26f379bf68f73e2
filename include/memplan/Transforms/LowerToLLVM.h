//===- LowerToLLVM.h - planned IR down to the LLVM dialect ------*- C++ -*-===//
//
// `memplan-lower-to-llvm`: what memplan-pipeline leaves (memref.view of
// arenas, memplan_rt calls, bufferization.clone, linalg on memrefs, scf, cf,
// arith, math, vector.print, func) lowered to the LLVM dialect, ready for
// mlir-runner or mlir-translate --mlir-to-llvmir.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TRANSFORMS_LOWERTOLLVM_H
#define MEMPLAN_TRANSFORMS_LOWERTOLLVM_H

#include "mlir/Pass/PassManager.h"

namespace memplan {

/// Adds the lowering to PM, which must run on builtin.module.
void buildMemPlanLowerToLLVM(mlir::OpPassManager &PM);

/// Registers `memplan-lower-to-llvm`.
void registerMemPlanLowerToLLVM();

} // namespace memplan

#endif // MEMPLAN_TRANSFORMS_LOWERTOLLVM_H
