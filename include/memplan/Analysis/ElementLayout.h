//===- ElementLayout.h - Bytes and alignment of memref elements -*- C++ -*-===//

#ifndef MEMPLAN_ANALYSIS_ELEMENTLAYOUT_H
#define MEMPLAN_ANALYSIS_ELEMENTLAYOUT_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "llvm/Support/Error.h"

namespace memplan {

/// What LLVM lowering allocates per element of a memref, and the alignment
/// the lowered loads and stores assume.
struct ElementLayout {
  uint64_t Size = 0;
  uint64_t Alignment = 1;
};

/// The layout of an integer, float, index, complex or (fixed) vector element
/// under the data layout closest to Scope; an error naming why otherwise.
llvm::Expected<ElementLayout> getElementLayout(mlir::Type Element,
                                               mlir::Operation *Scope);

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_ELEMENTLAYOUT_H
