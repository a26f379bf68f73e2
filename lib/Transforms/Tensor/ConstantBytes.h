//===- ConstantBytes.h - Layout changes on raw element bytes ----*- C++ -*-===//
//
// Folding a transpose of a 400 MB weight element by element through
// attributes takes minutes; moving its bytes takes a fraction of a second.
// These helpers work on raw row-major bytes only: no MLIR, no element types
// beyond their size.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_TENSOR_CONSTANTBYTES_H
#define MEMPLAN_LIB_TRANSFORMS_TENSOR_CONSTANTBYTES_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>

namespace memplan::constant_bytes {

/// Writes the row-major array Dst of Shape, elements of ElemBytes bytes, with
/// Dst[y] = Src[sum_k y[k] * SrcStrides[k]] (strides in elements; 0 repeats
/// an element). Runs of elements contiguous in both are copied with memcpy;
/// a transpose goes through cache-sized tiles.
void gatherStrided(const char *Src, char *Dst, llvm::ArrayRef<int64_t> Shape,
                   llvm::ArrayRef<int64_t> SrcStrides, unsigned ElemBytes);

} // namespace memplan::constant_bytes

#endif // MEMPLAN_LIB_TRANSFORMS_TENSOR_CONSTANTBYTES_H
