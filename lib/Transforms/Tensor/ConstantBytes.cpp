//===- ConstantBytes.cpp - Layout changes on raw element bytes ------------===//

#include "ConstantBytes.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstring>

using namespace memplan::constant_bytes;

namespace {
/// One dimension of the copy, strides in elements.
struct Dim {
  int64_t Size, Src, Dst;
};

/// Calls F(SrcOffset, DstOffset) for every index of Outer (in elements).
void forEachIndex(llvm::ArrayRef<Dim> Outer,
                  llvm::function_ref<void(int64_t, int64_t)> F) {
  llvm::SmallVector<int64_t> Index(Outer.size(), 0);
  int64_t S = 0, D = 0;
  while (true) {
    F(S, D);
    size_t K = 0;
    for (; K < Outer.size(); ++K) {
      S += Outer[K].Src;
      D += Outer[K].Dst;
      if (++Index[K] < Outer[K].Size)
        break;
      S -= Outer[K].Src * Outer[K].Size;
      D -= Outer[K].Dst * Outer[K].Size;
      Index[K] = 0;
    }
    if (K == Outer.size())
      return;
  }
}

/// The element moves, on a type of the element's size where there is one.
template <typename T> struct Mover {
  static void strided(const char *Src, char *Dst, Dim I) {
    const T *S = reinterpret_cast<const T *>(Src);
    T *D = reinterpret_cast<T *>(Dst);
    for (int64_t X = 0; X < I.Size; ++X)
      D[X * I.Dst] = S[X * I.Src];
  }
  // Dst runs along I, Src along J: a tile of both stays in the cache.
  static void tile(const char *Src, char *Dst, Dim I, Dim J) {
    constexpr int64_t B = 32;
    const T *S = reinterpret_cast<const T *>(Src);
    T *D = reinterpret_cast<T *>(Dst);
    for (int64_t I0 = 0; I0 < I.Size; I0 += B)
      for (int64_t J0 = 0; J0 < J.Size; J0 += B) {
        int64_t IE = std::min(I.Size, I0 + B), JE = std::min(J.Size, J0 + B);
        for (int64_t Y = J0; Y < JE; ++Y)
          for (int64_t X = I0; X < IE; ++X)
            D[X * I.Dst + Y * J.Dst] = S[X * I.Src + Y * J.Src];
      }
  }
};

template <typename T>
void gatherTyped(const char *Src, char *Dst, llvm::ArrayRef<Dim> Dims,
                 unsigned E) {
  // Dims[0] is innermost in Dst (its stride there is 1).
  if (Dims[0].Src == 1) {
    size_t Run = Dims[0].Size * E;
    forEachIndex(Dims.drop_front(), [&](int64_t S, int64_t D) {
      std::memcpy(Dst + D * E, Src + S * E, Run);
    });
    return;
  }
  auto J = llvm::find_if(Dims.drop_front(), [](Dim X) { return X.Src == 1; });
  if (J != Dims.end()) {
    llvm::SmallVector<Dim> Outer;
    for (const Dim *X = Dims.begin() + 1; X != Dims.end(); ++X)
      if (X != J)
        Outer.push_back(*X);
    forEachIndex(Outer, [&](int64_t S, int64_t D) {
      Mover<T>::tile(Src + S * E, Dst + D * E, Dims[0], *J);
    });
    return;
  }
  forEachIndex(Dims.drop_front(), [&](int64_t S, int64_t D) {
    Mover<T>::strided(Src + S * E, Dst + D * E, Dims[0]);
  });
}

/// An element of a size no integer type has, moved with memcpy.
struct Bytes {
  char B[1];
};
} // namespace

void memplan::constant_bytes::gatherStrided(const char *Src, char *Dst,
                                            llvm::ArrayRef<int64_t> Shape,
                                            llvm::ArrayRef<int64_t> SrcStrides,
                                            unsigned ElemBytes) {
  // Innermost first; unit dimensions dropped; dimensions contiguous in both
  // merged, so a reshape or a copy is one memcpy.
  llvm::SmallVector<Dim> Dims;
  int64_t DstStride = 1;
  for (size_t K = Shape.size(); K-- > 0;) {
    if (Shape[K] == 0)
      return;
    if (Shape[K] == 1)
      continue;
    Dim New{Shape[K], SrcStrides[K], DstStride};
    DstStride *= Shape[K];
    if (!Dims.empty() && New.Src == Dims.back().Src * Dims.back().Size &&
        New.Dst == Dims.back().Dst * Dims.back().Size) {
      Dims.back().Size *= New.Size;
      continue;
    }
    Dims.push_back(New);
  }
  if (Dims.empty()) {
    std::memcpy(Dst, Src, ElemBytes);
    return;
  }
  switch (ElemBytes) {
  case 1:
    return gatherTyped<uint8_t>(Src, Dst, Dims, 1);
  case 2:
    return gatherTyped<uint16_t>(Src, Dst, Dims, 2);
  case 4:
    return gatherTyped<uint32_t>(Src, Dst, Dims, 4);
  case 8:
    return gatherTyped<uint64_t>(Src, Dst, Dims, 8);
  default:
    break;
  }
  // Odd element sizes: each element is a run of its own.
  for (Dim &X : Dims) {
    X.Src *= ElemBytes;
    X.Dst *= ElemBytes;
  }
  Dims.insert(Dims.begin(), Dim{int64_t(ElemBytes), 1, 1});
  gatherTyped<Bytes>(Src, Dst, Dims, 1);
}
