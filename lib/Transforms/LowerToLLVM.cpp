//===- LowerToLLVM.cpp - memplan-lower-to-llvm ----------------------------===//
//
// The order follows upstream's test-lower-to-llvm: ops that expand into
// loops and index arithmetic first (linalg, vector transfers, strided
// metadata, affine), then scf to cf, then each dialect to LLVM, and the
// casts between converted and unconverted values reconciled last.
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/LowerToLLVM.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void memplan::buildMemPlanLowerToLLVM(OpPassManager &PM) {
  // A bufferization.clone the deallocation pipeline keeps (a private
  // function returning its argument) becomes an alloc and a copy.
  PM.addPass(createConvertBufferizationToMemRefPass());
  PM.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  PM.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass());
  PM.addPass(memref::createExpandStridedMetadataPass());
  PM.addPass(createLowerAffinePass());
  PM.addPass(createSCFToControlFlowPass());
  PM.addPass(createConvertMathToLLVMPass());
  // What LLVM has no intrinsic for (math.erf, math.tan, ...) calls libm.
  PM.addPass(createConvertMathToLibmPass());
  PM.addPass(createConvertVectorToLLVMPass());
  PM.addPass(createFinalizeMemRefToLLVMConversionPass());
  PM.addPass(createArithToLLVMConversionPass());
  PM.addPass(createConvertIndexToLLVMPass());
  PM.addPass(createUBToLLVMConversionPass());
  PM.addPass(createConvertFuncToLLVMPass());
  PM.addPass(createConvertControlFlowToLLVMPass());
  PM.addPass(createReconcileUnrealizedCastsPass());
}

void memplan::registerMemPlanLowerToLLVM() {
  PassPipelineRegistration<>(
      "memplan-lower-to-llvm",
      "Lower planned IR (arena views, memplan_rt calls, linalg loops, scf, "
      "cf, arith, math, func) to the LLVM dialect, for mlir-runner",
      buildMemPlanLowerToLLVM);
}
