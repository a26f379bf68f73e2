//===- PlanCacheBench.cpp - Cost of a run-time plan, hit and miss ---------===//
//
// memplan_rt_plan_offsets for a function's dynamic buffers: a shape seen
// before (the common case: a served model sees few shapes) is one lookup;
// a new shape is planned greedily by size. Issue goal: a hit under 1 us.
//
//===----------------------------------------------------------------------===//

#include "memplan/Runtime/memplan_runtime.h"

#include <benchmark/benchmark.h>

#include <vector>

namespace {

/// N buffers of a BERT-like layer: sizes grow with the sequence length,
/// each live over a few tasks.
std::vector<int64_t> table(int64_t N, int64_t SeqLen) {
  std::vector<int64_t> T{N, 1};
  for (int64_t I = 0; I < N; ++I)
    T.push_back(SeqLen * (64 << (I % 3)) * 4);
  for (int64_t I = 0; I < N; ++I)
    T.push_back(I);
  for (int64_t I = 0; I < N; ++I)
    T.push_back(I + 1 + I % 4);
  return T;
}

void BM_PlanCacheHit(benchmark::State &State) {
  int64_t N = State.range(0);
  std::vector<int64_t> T = table(N, 128), Offsets(N);
  memplan_rt_plan_offsets(T.data(), 64, Offsets.data()); // warm
  for (auto _ : State)
    benchmark::DoNotOptimize(
        memplan_rt_plan_offsets(T.data(), 64, Offsets.data()));
}
BENCHMARK(BM_PlanCacheHit)->Arg(8)->Arg(32)->Arg(128);

void BM_PlanCacheMiss(benchmark::State &State) {
  int64_t N = State.range(0), SeqLen = 1;
  std::vector<int64_t> Offsets(N);
  for (auto _ : State) {
    std::vector<int64_t> T = table(N, ++SeqLen); // a new shape every time
    benchmark::DoNotOptimize(
        memplan_rt_plan_offsets(T.data(), 64, Offsets.data()));
  }
}
BENCHMARK(BM_PlanCacheMiss)->Arg(8)->Arg(32)->Arg(128);

} // namespace

BENCHMARK_MAIN();
