//===- SplitEmptyTensors.h - One tensor.empty per use -----------*- C++ -*-===//
//
// The one splitter of shared tensor.empty ops: tensor-mem-split-empty and
// tensor-mem-schedule differ only in where each clone goes.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_TENSOR_SPLITEMPTYTENSORS_H
#define MEMPLAN_LIB_TRANSFORMS_TENSOR_SPLITEMPTYTENSORS_H

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace memplan {

/// Where splitEmptyTensor puts the clone of each use.
enum class EmptyPlacement {
  /// Right before the op that uses it, in whatever region that op is.
  BeforeUser,
  /// Right before the user's ancestor in the tensor.empty's own block: the
  /// op tensor-mem-schedule orders, so the clone moves with it.
  BeforeUserInBlock,
};

/// Gives each use of Empty a clone of its own, placed by Where, and erases
/// Empty: one-shot-bufferize allocates one buffer per tensor.empty, live
/// from its first writer to its last reader, where each clone's buffer
/// starts at its own user. Its sizes dominate Empty, hence every clone.
/// Returns the number of clones.
unsigned splitEmptyTensor(mlir::tensor::EmptyOp Empty, EmptyPlacement Where);

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_TENSOR_SPLITEMPTYTENSORS_H
