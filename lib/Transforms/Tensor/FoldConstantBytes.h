//===- FoldConstantBytes.h - Fold layout ops on raw bytes -------*- C++ -*-===//
//
// tensor-mem-hoist-constants folds the layout ops and element casts of
// constant data (dense attributes and dense_resource blobs of any size) on
// their raw bytes: FoldConstantBytes.cpp matches the ops and builds the new
// constant, FoldConstantElements.cpp evaluates one element op exactly,
// ConstantBytes.cpp moves the bytes.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_TENSOR_FOLDCONSTANTBYTES_H
#define MEMPLAN_LIB_TRANSFORMS_TENSOR_FOLDCONSTANTBYTES_H

#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace memplan::constant_bytes {

/// The byte size of an element the folder handles (signless integers and
/// floats of 8, 16, 32 or 64 bits), else nothing: i1 is bit-packed in dense
/// attributes and index has no fixed size.
std::optional<unsigned> elementBytes(mlir::Type T);

/// One operand of an element op: N elements of its type, or one (Scalar)
/// that every element reads.
struct ElementOperand {
  const char *Data;
  bool Scalar;
};

/// Whether Op is an element op whose result evaluateElements computes
/// bit-exactly as the compiled program would: casts, negf, and f32/f64 or
/// integer add/sub/mul (and the bitwise ops), without fast-math flags or a
/// rounding mode of their own.
bool isExactElementOp(mlir::Operation *Op);

/// Writes N results of the element op Op (isExactElementOp) to Out. Fails
/// when some element has no value the program surely computes (a NaN, a
/// float out of an integer's range): then nothing is folded.
mlir::LogicalResult evaluateElements(mlir::Operation *Op,
                                     llvm::ArrayRef<ElementOperand> Operands,
                                     char *Out, int64_t N);

/// Replaces Op, when all it reads is constant data present in the IR (a
/// dense attribute or a dense_resource blob, not an elided one), by an
/// arith.constant of its result computed on raw bytes: a reshape
/// (tensor.collapse_shape, expand_shape, reshape, cast) shares the bytes
/// under the new type; a linalg op whose loops are parallel and whose
/// payload yields an input or one exact element op of inputs and scalar
/// constants (a transpose, a permuting or cast generic) and an elementwise
/// arith op on tensors gather their inputs row by row. The result is a blob
/// when an input is one or it is larger than DenseLimit bytes, else a dense
/// attribute. Constants and empty tensors left without uses are erased.
/// Ops on splats only are left to the folders that keep them splats.
mlir::LogicalResult foldOnBytes(mlir::Operation *Op,
                                mlir::RewriterBase &Rewriter,
                                uint64_t DenseLimit);

} // namespace memplan::constant_bytes

#endif // MEMPLAN_LIB_TRANSFORMS_TENSOR_FOLDCONSTANTBYTES_H
