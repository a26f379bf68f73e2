//===- MemrefCopy.cpp - The strided copy MLIR's memref lowering calls -----===//
//
// finalize-memref-to-llvm lowers a memref.copy whose source or target is not
// contiguous to a call of `memrefCopy`, which MLIR ships in
// libmlir_c_runner_utils. memplan-pipeline bufferizes with identity layouts
// at function boundaries, so a function returning a strided view (a cast of
// an unranked argument, a subview) copies it into a fresh buffer: its output
// needs `memrefCopy` where the input alone did not. This definition lets a
// program that loads only libmemplan_runtime run. It is weak and does what
// upstream's does (CRunnerUtils.cpp), so with both libraries loaded either
// serves the call.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstring>
#include <vector>

namespace {
// MLIR's unranked memref: a rank and a pointer to the ranked descriptor
// {allocated, aligned, offset, sizes[rank], strides[rank]}.
struct UnrankedMemRef {
  int64_t Rank;
  void *Descriptor;
};

struct View {
  char *Data;
  const int64_t *Sizes;
  const int64_t *Strides;
};

View viewOf(const UnrankedMemRef &M, int64_t ElemSize) {
  auto **Ptrs = static_cast<char **>(M.Descriptor);
  auto *Ints = reinterpret_cast<const int64_t *>(Ptrs + 2);
  return {Ptrs[1] + Ints[0] * ElemSize, Ints + 1, Ints + 1 + M.Rank};
}
} // namespace

extern "C" __attribute__((weak, visibility("default"))) void
memrefCopy(int64_t ElemSize, UnrankedMemRef *SrcArg, UnrankedMemRef *DstArg) {
  int64_t Rank = SrcArg->Rank;
  View Src = viewOf(*SrcArg, ElemSize), Dst = viewOf(*DstArg, ElemSize);
  for (int64_t D = 0; D < Rank; ++D)
    if (Src.Sizes[D] == 0)
      return;
  if (Rank == 0) {
    std::memcpy(Dst.Data, Src.Data, ElemSize);
    return;
  }
  // An odometer over the indices; offsets in bytes, moved per step.
  std::vector<int64_t> Index(Rank, 0);
  int64_t Read = 0, Write = 0;
  for (;;) {
    std::memcpy(Dst.Data + Write, Src.Data + Read, ElemSize);
    for (int64_t Axis = Rank - 1;; --Axis) {
      Read += Src.Strides[Axis] * ElemSize;
      Write += Dst.Strides[Axis] * ElemSize;
      if (++Index[Axis] < Src.Sizes[Axis])
        break;
      if (Axis == 0)
        return;
      Index[Axis] = 0;
      Read -= Src.Sizes[Axis] * Src.Strides[Axis] * ElemSize;
      Write -= Src.Sizes[Axis] * Dst.Strides[Axis] * ElemSize;
    }
  }
}
