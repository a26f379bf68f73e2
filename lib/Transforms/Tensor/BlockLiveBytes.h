//===- BlockLiveBytes.h - Live bytes of a tensor block, by op ---*- C++ -*-===//
//
// A model of what one-shot bufferization allocates in a block of tensor ops
// and when it is live, for passes that must judge a rewrite by the peak it
// leads to before any buffer exists.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_TENSOR_BLOCKLIVEBYTES_H
#define MEMPLAN_LIB_TRANSFORMS_TENSOR_BLOCKLIVEBYTES_H

#include "mlir/IR/Block.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <vector>

namespace mlir::linalg {
class GenericOp;
} // namespace mlir::linalg

namespace memplan {

/// A dying input the elementwise `G` may overwrite instead of its fresh
/// tensor.empty init: same type as the result, read at the same index (the
/// identity, or 0 on a unit dimension), used by nothing else, and computed
/// in this block by a destination-style op (never an argument or a
/// constant). The payload must not read the init.
mlir::Value dyingInput(mlir::linalg::GenericOp G);

/// Live bytes at each op of a block. Values a destination-style op writes
/// in place (a result and its init), slices and reshapes share their
/// source's buffer; a buffer is a tensor.empty's (live from its first user)
/// or the result of another tensor op; arguments, constants and tensors read
/// from memrefs hold no bytes. A buffer lives to the last op of the block
/// that uses one of its values, or to the end if the block's terminator or
/// a nested region does.
class BlockLiveBytes {
public:
  explicit BlockLiveBytes(mlir::Block &B);

  /// Position of `Op`, or of its ancestor in the block.
  unsigned position(mlir::Operation *Op) const;
  /// Highest live bytes in the block.
  uint64_t peak() const;
  /// Highest live bytes if `Delta[i]` were added at position i (signed).
  uint64_t peakWith(const std::vector<int64_t> &Delta) const;
  unsigned size() const { return Curve.size(); }

private:
  mlir::Block &B;
  llvm::DenseMap<mlir::Operation *, unsigned> Position;
  std::vector<uint64_t> Curve;
};

} // namespace memplan

#endif
