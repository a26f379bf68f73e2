//===- DnnShapedReplay.h - bench/runtime's DNN-shaped trace, for tests ----===//
//
// The DNN-shaped tensors of bench/runtime (bench/DnnShapedTensors.h),
// replayed on an allocator: the runtime tests that hold a frag cap against
// a DNN-like trace share it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TEST_UNIT_RUNTIME_DNNSHAPEDREPLAY_H
#define MEMPLAN_TEST_UNIT_RUNTIME_DNNSHAPEDREPLAY_H

#include "DnnShapedTensors.h"
#include "memplan/Runtime/BFCAllocator.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <vector>

namespace memplan::rt::test {

using Tensor = memplan::bench::DnnTensor;
using memplan::bench::dnnShapedTensors;

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
