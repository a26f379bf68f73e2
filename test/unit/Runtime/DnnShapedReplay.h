//===- DnnShapedReplay.h - bench/runtime's DNN-shaped trace, for tests ----===//
//
// The DNN-shaped tensors of bench/runtime (one op per step, its output read
// by the next one or two, some skip connections, a few long-lived tensors;
// 64 B to 1 MiB), replayed on an allocator: the runtime tests that hold a
// frag cap against a DNN-like trace share it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TEST_UNIT_RUNTIME_DNNSHAPEDREPLAY_H
#define MEMPLAN_TEST_UNIT_RUNTIME_DNNSHAPEDREPLAY_H

#include "memplan/Runtime/BFCAllocator.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <random>
#include <vector>

namespace memplan::rt::test {

struct Tensor {
  uint64_t First, Last, Bytes;
};

inline std::vector<Tensor> dnnShapedTensors(size_t N, uint64_t Seed) {
  std::mt19937_64 Rng(Seed);
  std::vector<Tensor> Ts;
  for (uint64_t I = 0; I < N; ++I) {
    uint64_t Len = 1 + Rng() % 2;
    unsigned Kind = Rng() % 100;
    if (Kind < 8)
      Len = 2 + Rng() % 30; // skip connections
    else if (Kind == 8)
      Len = Rng() % 2000; // long-lived
    uint64_t Channels = 16ull << (Rng() % 6), Spatial = 1ull << (Rng() % 10);
    Ts.push_back({I, I + Len, Channels * Spatial * 4});
  }
  return Ts;
}

/// Step I frees the tensors whose last use was step I - 1, then allocates
/// tensor I (64-byte aligned) and calls AfterAlloc(Ptr, Tensor, Live), Live
/// the bytes of the tensors live then; every tensor is freed by the end.
template <typename Fn>
void replayDnnShaped(BFCAllocator &A, const std::vector<Tensor> &Ts,
                     Fn AfterAlloc) {
  std::vector<std::vector<size_t>> Dies(Ts.size() + 2001);
  for (size_t I = 0; I < Ts.size(); ++I)
    Dies[Ts[I].Last + 1].push_back(I);
  std::vector<void *> Ptrs(Ts.size());
  uint64_t Live = 0;
  for (size_t Step = 0; Step < Dies.size(); ++Step) {
    for (size_t D : Dies[Step]) {
      ASSERT_EQ(A.deallocate(Ptrs[D]), MEMPLAN_RT_OK);
      Live -= Ts[D].Bytes;
    }
    if (Step >= Ts.size())
      continue;
    Ptrs[Step] = A.allocate(Ts[Step].Bytes, 64, nullptr);
    ASSERT_NE(Ptrs[Step], nullptr);
    Live += Ts[Step].Bytes;
    AfterAlloc(Ptrs[Step], Ts[Step], Live);
  }
}

} // namespace memplan::rt::test

#endif // MEMPLAN_TEST_UNIT_RUNTIME_DNNSHAPEDREPLAY_H
