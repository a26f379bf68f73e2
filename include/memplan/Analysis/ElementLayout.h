//===- ElementLayout.h - Bytes and alignment of memref elements -*- C++ -*-===//

#ifndef MEMPLAN_ANALYSIS_ELEMENTLAYOUT_H
#define MEMPLAN_ANALYSIS_ELEMENTLAYOUT_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Types.h"
#include "llvm/Support/Error.h"

#include <optional>

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

/// A buffer of a memref type: Size is the element's size times the static
/// dimensions (a dynamic dimension multiplies at run time), Alignment the
/// element's. An error names why memplan cannot place it: a non-identity
/// layout, an element type without a known size, or 64-bit overflow.
llvm::Expected<ElementLayout> getBufferLayout(mlir::MemRefType Type,
                                              mlir::Operation *Scope);

/// The bytes of the buffer a ranked tensor of type T becomes (its memref with
/// the identity layout), each dynamic dimension counted once: the static
/// part a dynamic size multiplies; none when T is no ranked tensor or its
/// layout is unknown.
std::optional<uint64_t> tensorStaticPartBytes(mlir::Type T,
                                              mlir::Operation *Scope);

/// The same for a static-shape ranked tensor only: all of its bytes.
std::optional<uint64_t> staticTensorBytes(mlir::Type T, mlir::Operation *Scope);

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_ELEMENTLAYOUT_H
