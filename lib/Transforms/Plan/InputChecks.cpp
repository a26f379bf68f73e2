//===- InputChecks.cpp - What tensor-mem-plan says of its input -----------===//
//
// Diagnostics about the input as a whole, before any buffer is planned.
//
//===----------------------------------------------------------------------===//

#include "TensorMemPlanInternal.h"

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
