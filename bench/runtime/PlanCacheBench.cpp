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

/// Ten shapes that come back, every other call, among shapes never seen
/// again (a served model's common lengths among odd ones), in a full cache:
/// per iteration one of each. hot_hit_rate: the share of the ten's calls
/// that found their plan (1 once each was planned; the cache that replaced
/// the first plan of its hash map's order gave 0.008-0.012).
void BM_PlanCacheHotAmongNew(benchmark::State &State) {
  int64_t N = State.range(0), SeqLen = 1 << 20;
  std::vector<std::vector<int64_t>> Hot;
  for (int64_t I = 0; I < 10; ++I)
    Hot.push_back(table(N, 100 + I));
  std::vector<int64_t> Offsets(N);
  for (int64_t I = 0; I < 2 * MEMPLAN_RT_PLAN_CACHE_ENTRIES; ++I) {
    std::vector<int64_t> T = table(N, ++SeqLen); // fills the cache
    memplan_rt_plan_offsets(T.data(), 64, Offsets.data());
  }
  memplan_rt_plan_cache_stats S0, S1;
  memplan_rt_get_plan_cache_stats(&S0);
  int64_t I = 0;
  for (auto _ : State) {
    benchmark::DoNotOptimize(
        memplan_rt_plan_offsets(Hot[I++ % 10].data(), 64, Offsets.data()));
    std::vector<int64_t> T = table(N, ++SeqLen);
    benchmark::DoNotOptimize(
        memplan_rt_plan_offsets(T.data(), 64, Offsets.data()));
  }
  memplan_rt_get_plan_cache_stats(&S1);
  State.counters["hot_hit_rate"] =
      I ? double(S1.hits - S0.hits) / double(I) : 0.0;
}
BENCHMARK(BM_PlanCacheHotAmongNew)->Arg(32);

} // namespace

BENCHMARK_MAIN();
