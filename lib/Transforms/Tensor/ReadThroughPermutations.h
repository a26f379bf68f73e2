//===- ReadThroughPermutations.h - No buffer for a permuted constant -*- C++
//-*-===//

#ifndef MEMPLAN_LIB_TRANSFORMS_READTHROUGHPERMUTATIONS_H
#define MEMPLAN_LIB_TRANSFORMS_READTHROUGHPERMUTATIONS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SetVector.h"

namespace memplan {

/// Rewrites every linalg op that reads a permuted copy of a constant-derived
/// tensor (a linalg.transpose, or a generic that only moves elements, into a
/// tensor.empty) to read the original through a composed indexing map, and
/// erases the copy: a weight transposed only to feed a matmul then needs no
/// buffer and no second copy. \p Derived are the constant-derived ops of
/// \p Fn's entry block. Returns the bytes of the copies removed.
uint64_t
readThroughPermutations(mlir::func::FuncOp Fn,
                        const llvm::SetVector<mlir::Operation *> &Derived,
                        unsigned &NumRemoved);

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_READTHROUGHPERMUTATIONS_H
