//===- RuntimePlan.cpp - Offsets for dynamic buffers, per shape -----------===//
//
// The dynamic buffers of a function whose sizes are all known at its entry
// are planned together when it runs, as TFLite re-plans its arena when an
// input is resized and ONNX Runtime caches a memory pattern per shape. The
// plan is the better of two greedy placements (largest first, as TFLite
// GPU's offsets strategy, and in order of first use), cached by the records
// and sizes, so a repeated shape costs one lookup.
//
//===----------------------------------------------------------------------===//

#include "memplan/Runtime/memplan_runtime.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <numeric>
#include <unordered_map>
#include <vector>

namespace {

struct KeyHash {
  size_t operator()(const std::vector<int64_t> &Key) const {
    uint64_t H = 1469598103934665603ull;
    for (int64_t V : Key)
      H = (H ^ static_cast<uint64_t>(V)) * 1099511628211ull;
    return static_cast<size_t>(H);
  }
};

struct Plan {
  std::vector<int64_t> Offsets;
  int64_t Total = 0;
};

struct Cache {
  std::mutex Lock;
  std::unordered_map<std::vector<int64_t>, Plan, KeyHash> Plans;
  /// Lookups that found a plan, and plans made (under Lock).
  uint64_t Hits = 0, Misses = 0;
};

Cache &cache() {
  static Cache *C = new Cache; // never destroyed: plans may run at exit
  return *C;
}

int64_t alignUp(int64_t V, int64_t Align) {
  return (V + Align - 1) / Align * Align;
}

/// Places the buffers in Order, each at the lowest offset free of the
/// placed buffers it meets in time. No end passes the sizes' sum (each
/// rounded up to Align), which the caller checked.
Plan placeInOrder(const std::vector<int64_t> &Order, const int64_t *Sizes,
                  const int64_t *Firsts, const int64_t *Lasts, int64_t Align) {
  int64_t N = static_cast<int64_t>(Order.size());
  Plan P;
  P.Offsets.assign(N, 0);
  std::vector<int64_t> Placed;
  std::vector<std::pair<int64_t, int64_t>> Busy; // [offset, end) in time
  for (int64_t I : Order) {
    Busy.clear();
    for (int64_t J : Placed)
      if (Firsts[J] <= Lasts[I] && Firsts[I] <= Lasts[J])
        Busy.push_back({P.Offsets[J], P.Offsets[J] + Sizes[J]});
    std::sort(Busy.begin(), Busy.end());
    int64_t At = 0;
    for (auto [Begin, End] : Busy) {
      if (Begin >= At + Sizes[I])
        break;
      At = std::max(At, alignUp(End, Align));
    }
    P.Offsets[I] = At;
    P.Total = std::max(P.Total, alignUp(At + Sizes[I], Align));
    Placed.push_back(I);
  }
  return P;
}

/// The smaller of two greedy plans: largest first (TFLite GPU's offsets
/// strategy) and in order of first use (a heap simulator's order), which
/// wins on chains of growing buffers. Only a new shape pays for both.
Plan planOffsets(int64_t N, const int64_t *Sizes, const int64_t *Firsts,
                 const int64_t *Lasts, int64_t Align) {
  std::vector<int64_t> Order(N);
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](int64_t A, int64_t B) { return Sizes[A] > Sizes[B]; });
  Plan BySize = placeInOrder(Order, Sizes, Firsts, Lasts, Align);
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](int64_t A, int64_t B) { return Firsts[A] < Firsts[B]; });
  Plan InOrder = placeInOrder(Order, Sizes, Firsts, Lasts, Align);
  return InOrder.Total < BySize.Total ? InOrder : BySize;
}

} // namespace

extern "C" {

int64_t memplan_rt_plan_offsets(const int64_t *Table, int64_t Align,
                                int64_t *Offsets) {
  if (!Table)
    return -1; // a C caller's; lowered code always has a table
  int64_t N = Table[0];
  if (N <= 0)
    return 0;
  if (!Offsets)
    return -1;
  if (Align <= 0)
    Align = 1;
  const int64_t *Sizes = Table + 2;
  // Key: the whole table and the alignment. The ranges are the site's, but
  // two sites (from two modules) may share a number: a plan is only reused
  // for the very same records.
  std::vector<int64_t> Key(Table, Table + 2 + 3 * N);
  Key.push_back(Align);
  Cache &C = cache();
  {
    std::lock_guard<std::mutex> G(C.Lock);
    auto It = C.Plans.find(Key);
    if (It != C.Plans.end()) {
      ++C.Hits;
      std::memcpy(Offsets, It->second.Offsets.data(), N * sizeof(int64_t));
      return It->second.Total;
    }
  }
  // No plan (-1 bytes, which the allocator reports; the offsets stay 0) for
  // a negative size (a product that wrapped), an empty task range, or sizes
  // whose sum (each rounded up to Align, plus Align) passes INT64_MAX: a
  // greedy placement ends below that sum, so below it nothing overflows.
  // Checked on a miss only: such a table is never cached.
  const int64_t *Firsts = Sizes + N, *Lasts = Sizes + 2 * N;
  int64_t Sum = Align;
  for (int64_t I = 0; I < N; ++I) {
    int64_t Up;
    if (Sizes[I] < 0 || Firsts[I] > Lasts[I] ||
        __builtin_add_overflow(Sizes[I], Align - 1, &Up) ||
        __builtin_add_overflow(Sum, Up / Align * Align, &Sum)) {
      std::fill(Offsets, Offsets + N, 0);
      return -1;
    }
  }
  Plan P = planOffsets(N, Sizes, Firsts, Lasts, Align);
  std::memcpy(Offsets, P.Offsets.data(), N * sizeof(int64_t));
  std::lock_guard<std::mutex> G(C.Lock);
  int64_t Total = P.Total;
  ++C.Misses;
  // Bounded (memplan_runtime.h says why): the first entry of the hash
  // map's order goes, in O(1) without an order kept on every hit. (Should
  // a thread that raced have just put this key in, one plan goes early.)
  if (C.Plans.size() >= MEMPLAN_RT_PLAN_CACHE_ENTRIES)
    C.Plans.erase(C.Plans.begin());
  C.Plans.emplace(std::move(Key), std::move(P));
  return Total;
}

void memplan_rt_get_plan_cache_stats(memplan_rt_plan_cache_stats *Out) {
  if (!Out)
    return;
  Cache &C = cache();
  std::lock_guard<std::mutex> G(C.Lock);
  Out->hits = C.Hits;
  Out->misses = C.Misses;
  Out->entries = C.Plans.size();
}

int64_t _mlir_ciface_memplan_rt_plan(memplan_rt_memref_i64 *Table,
                                     memplan_rt_memref_i64 *Offsets,
                                     int64_t Align) {
  // Hand-written MLIR may call it too: a table shorter than its count says,
  // or fewer offsets than buffers, would be read or written past its end.
  if (!Table || !Offsets || !Table->aligned || Table->sizes[0] < 1 ||
      Table->strides[0] != 1 || Offsets->strides[0] != 1)
    return -1;
  const int64_t *T = Table->aligned + Table->offset;
  if (T[0] > 0 && (Table->sizes[0] < 2 || (Table->sizes[0] - 2) / 3 < T[0] ||
                   Offsets->sizes[0] < T[0]))
    return -1;
  return memplan_rt_plan_offsets(T, Align, Offsets->aligned + Offsets->offset);
}

} // extern "C"
