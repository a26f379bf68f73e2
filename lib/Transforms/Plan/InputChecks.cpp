//===- InputChecks.cpp - What tensor-mem-plan says of its input -----------===//
//
// Diagnostics about the input as a whole, before any buffer is planned.
//
//===----------------------------------------------------------------------===//

#include "TensorMemPlanInternal.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace memplan;

/// Warns when Fn still holds tensors but has nothing to plan: the input was
/// most likely never bufferized.
void memplan::warnIfNotBufferized(FunctionOpInterface Fn,
                                  const FunctionBuffers &Buffers) {
  if (!Buffers.Planned.empty() || !Buffers.Unplanned.empty())
    return;
  std::optional<Location> Where;
  if (llvm::any_of(Fn.getArgumentTypes(), llvm::IsaPred<TensorType>) ||
      llvm::any_of(Fn.getResultTypes(), llvm::IsaPred<TensorType>))
    Where = Fn.getLoc();
  if (!Where)
    Fn.getFunctionBody().walk([&](Operation *Op) {
      if (llvm::any_of(Op->getResultTypes(), llvm::IsaPred<TensorType>)) {
        Where = Op->getLoc();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
  if (Where)
    mlir::emitWarning(*Where)
        << "tensor-mem-plan: the input has tensor values; run "
           "one-shot-bufferize first (nothing planned in '"
        << Fn.getName() << "')";
}

LogicalResult memplan::rejectFreesBeforeDeallocation(FunctionOpInterface Fn) {
  auto Frees = [](Operation *Op) {
    if (isa<bufferization::DeallocOp>(Op))
      return true;
    auto Effects = dyn_cast<MemoryEffectOpInterface>(Op);
    if (!Effects || isa<memref::ReallocOp>(Op) ||
        Op->hasAttr(bufferization::BufferizationDialect::kManualDeallocation))
      return false;
    return llvm::any_of(Op->getOperands(), [&](Value V) {
      return isa<BaseMemRefType>(V.getType()) &&
             Effects.getEffectOnValue<MemoryEffects::Free>(V).has_value();
    });
  };
  Operation *First = nullptr;
  Fn.getFunctionBody().walk([&](Operation *Op) {
    if (!Frees(Op))
      return WalkResult::advance();
    First = Op;
    return WalkResult::interrupt();
  });
  if (!First)
    return success();
  return First->emitError()
         << "tensor-mem-plan: '" << First->getName()
         << "' frees a buffer, but the deallocation that runs after this pass "
            "(deallocation-runs-after; memplan-pipeline's deallocate=true) "
            "places every free itself and rejects a program that frees its "
            "own: run memplan-pipeline with deallocate=false to keep this "
            "program's frees, or remove them";
}
