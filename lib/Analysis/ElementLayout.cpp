//===- ElementLayout.cpp - Bytes and alignment of memref elements ---------===//

#include "memplan/Analysis/ElementLayout.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

llvm::Expected<memplan::ElementLayout>
memplan::getElementLayout(Type Element, Operation *Scope) {
  if (auto Vec = dyn_cast<VectorType>(Element))
    if (Vec.isScalable())
      return llvm::createStringError("scalable vector element type");
  // Only vectors unwrap: a memref of memrefs holds descriptors, not floats.
  Type Scalar = Element;
  if (auto Vec = dyn_cast<VectorType>(Element))
    Scalar = Vec.getElementType();
  if (auto C = dyn_cast<ComplexType>(Scalar))
    Scalar = C.getElementType();
  if (!isa<IntegerType, FloatType, IndexType>(Scalar))
    return llvm::createStringError("element type has no known byte size");
  // The data layout's size is the store size (i24: 3 bytes, f80: 10, i65: 9),
  // but LLVM pads every element to its ABI alignment (i24: 4, f80 and i65:
  // 16 on x86-64), which is at most the store size rounded up to a power of
  // two: round up, never undercount. i1 and i4 take a byte, index its width.
  // Complex numbers are a pair; vector<AxBxT> is an array of A padded
  // vectors <B x T>, each aligned to its padded size.
  auto Padded = [](uint64_t Bits) {
    return llvm::PowerOf2Ceil(llvm::divideCeil(Bits, 8));
  };
  uint64_t ScalarBits =
      DataLayout::closest(Scope).getTypeSizeInBits(Scalar).getFixedValue();
  ElementLayout L;
  L.Alignment = Padded(ScalarBits);
  L.Size = L.Alignment;
  if (isa<ComplexType>(Element))
    L.Size *= 2;
  if (auto Vec = dyn_cast<VectorType>(Element)) {
    std::optional<uint64_t> Bits = llvm::checkedMulUnsigned(
        static_cast<uint64_t>(Vec.getShape().back()), ScalarBits);
    if (!Bits || *Bits > UINT64_MAX - 7)
      return llvm::createStringError("byte size overflows 64 bits");
    L.Alignment = Padded(*Bits);
    std::optional<uint64_t> Bytes = L.Alignment;
    for (int64_t Dim : Vec.getShape().drop_back())
      if (Bytes)
        Bytes = llvm::checkedMulUnsigned(*Bytes, static_cast<uint64_t>(Dim));
    if (!Bytes)
      return llvm::createStringError("byte size overflows 64 bits");
    L.Size = *Bytes;
  }
  return L;
}

llvm::Expected<memplan::ElementLayout>
memplan::getBufferLayout(mlir::MemRefType Type, mlir::Operation *Scope) {
  if (!Type.getLayout().isIdentity())
    return llvm::createStringError("non-identity layout");
  auto Element = getElementLayout(Type.getElementType(), Scope);
  if (!Element)
    return Element.takeError();
  std::optional<uint64_t> Bytes = Element->Size;
  for (int64_t Dim : Type.getShape())
    if (Bytes && !mlir::ShapedType::isDynamic(Dim))
      Bytes = llvm::checkedMulUnsigned(*Bytes, static_cast<uint64_t>(Dim));
  if (!Bytes)
    return llvm::createStringError("byte size overflows 64 bits");
  return ElementLayout{*Bytes, Element->Alignment};
}

std::optional<uint64_t> memplan::staticTensorBytes(Type T, Operation *Scope) {
  auto Tensor = dyn_cast<RankedTensorType>(T);
  if (!Tensor || !Tensor.hasStaticShape())
    return std::nullopt;
  return tensorStaticPartBytes(T, Scope);
}

std::optional<uint64_t> memplan::tensorStaticPartBytes(Type T,
                                                       Operation *Scope) {
  auto Tensor = dyn_cast<RankedTensorType>(T);
  if (!Tensor)
    return std::nullopt;
  llvm::Expected<ElementLayout> Layout = getBufferLayout(
      MemRefType::get(Tensor.getShape(), Tensor.getElementType()), Scope);
  if (!Layout) {
    llvm::consumeError(Layout.takeError());
    return std::nullopt;
  }
  return Layout->Size;
}
