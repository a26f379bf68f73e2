//===- DnnShapedTensors.h - The DNN-shaped tensors of the benches -*- C++
//-*-===//
//
// One op per step, its output read by the next one or two ops, some skip
// connections (residual blocks), a few long-lived tensors (a network's
// input, a big skip); activation sizes of a few shapes, 64 B to 1 MiB. The
// strategy bench plans them, the runtime bench replays them, and the
// runtime's frag-cap tests replay the same tensors: one generator, so that
// what the tests hold is what the benches measure.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_BENCH_DNNSHAPEDTENSORS_H
#define MEMPLAN_BENCH_DNNSHAPEDTENSORS_H

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace memplan::bench {

/// Live from step First to step Last, both included.
struct DnnTensor {
  uint64_t First, Last, Bytes;
};

inline std::vector<DnnTensor> dnnShapedTensors(size_t N, uint64_t Seed) {
  std::mt19937_64 Rng(Seed);
  std::vector<DnnTensor> Ts;
  Ts.reserve(N);
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

} // namespace memplan::bench

#endif // MEMPLAN_BENCH_DNNSHAPEDTENSORS_H
