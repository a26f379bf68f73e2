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

#include "HeapMutex.h"
#include "memplan/Runtime/memplan_runtime.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <numeric>
#include <unordered_map>
#include <vector>

namespace {

/// A table and its alignment, hashed four words at a time in four
/// independent lanes (one FNV-1a chain waited on its multiply for every word:
/// most of a 128-buffer hit's 417 ns).
uint64_t hashKey(const int64_t *Table, size_t Len, int64_t Align) {
  constexpr uint64_t Prime = 1099511628211ull;
  uint64_t L[4] = {1469598103934665603ull, 0x9E3779B97F4A7C15ull,
                   0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull};
  size_t I = 0;
  for (; I + 4 <= Len; I += 4)
    for (int K = 0; K < 4; ++K)
      L[K] = (L[K] ^ static_cast<uint64_t>(Table[I + K])) * Prime;
  for (; I < Len; ++I)
    L[0] = (L[0] ^ static_cast<uint64_t>(Table[I])) * Prime;
  uint64_t H = static_cast<uint64_t>(Align);
  for (uint64_t V : L)
    H = (H ^ V ^ (V >> 29)) * Prime;
  return H;
}

struct Plan {
  std::vector<int64_t> Offsets;
  int64_t Total = 0;
};

/// A plan and the table and alignment it was made for.
struct Entry {
  std::vector<int64_t> Table;
  int64_t Align;
  Plan P;
  uint64_t Hash;
  /// Found since the clock hand last passed (second chance).
  bool Used = false;
  bool is(const int64_t *T, size_t Len, int64_t A) const {
    return Align == A && Table.size() == Len &&
           std::equal(Table.begin(), Table.end(), T);
  }
};

/// Plans by the hash of their table: a lookup compares the caller's table
/// where it is, so a hit copies and allocates nothing (a key vector per call
/// cost a malloc and a free: a hit of 8 buffers took 57 ns, 21 without it
/// and 16 with hashKey's lanes). Full, it replaces plans by the clock
/// (second chance): the hand clears the mark of a plan found since it last
/// passed, and replaces the first unmarked one, so shapes that come back
/// stay while shapes seen once go. (Replacing the first plan of the hash
/// map's order, which says nothing of use, lost them: ten shapes that were half
/// the calls, among shapes never seen again, found their plan in about 1%
/// of their calls, memplan-bench-plan-cache's BM_PlanCacheHotAmongNew.) The
/// ring points into the map, so a hit reads the plan where the lookup
/// found it: with a slot index in between, a hit of 8 buffers took 18 ns.
struct Cache {
  memplan::rt::HeapMutex Lock; // plain while the process has one thread
  std::unordered_multimap<uint64_t, Entry> Plans;
  /// The plans in the clock's order (a map's elements stay where they are).
  std::vector<Entry *> Ring;
  size_t Hand = 0;
  /// Lookups that found a plan, and plans made (under Lock).
  uint64_t Hits = 0, Misses = 0;
  Entry *find(uint64_t H, const int64_t *T, size_t Len, int64_t A) {
    auto [B, E] = Plans.equal_range(H);
    for (; B != E; ++B)
      if (B->second.is(T, Len, A))
        return &B->second;
    return nullptr;
  }
  void insert(Entry New) {
    if (Ring.size() < MEMPLAN_RT_PLAN_CACHE_ENTRIES) {
      uint64_t H = New.Hash;
      Ring.push_back(&Plans.emplace(H, std::move(New))->second);
      return;
    }
    while (Ring[Hand]->Used) {
      Ring[Hand]->Used = false;
      Hand = (Hand + 1) % Ring.size();
    }
    auto [B, E] = Plans.equal_range(Ring[Hand]->Hash);
    for (; B != E; ++B)
      if (&B->second == Ring[Hand]) {
        Plans.erase(B);
        break;
      }
    uint64_t H = New.Hash;
    Ring[Hand] = &Plans.emplace(H, std::move(New))->second;
    Hand = (Hand + 1) % Ring.size();
  }
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
  size_t Len = static_cast<size_t>(2 + 3 * N);
  uint64_t Hash = hashKey(Table, Len, Align);
  Cache &C = cache();
  {
    std::lock_guard<memplan::rt::HeapMutex> G(C.Lock);
    if (Entry *E = C.find(Hash, Table, Len, Align)) {
      ++C.Hits;
      E->Used = true;
      std::memcpy(Offsets, E->P.Offsets.data(), N * sizeof(int64_t));
      return E->P.Total;
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
  std::lock_guard<memplan::rt::HeapMutex> G(C.Lock);
  int64_t Total = P.Total;
  ++C.Misses;
  // A thread that raced may have put the same table in meanwhile.
  if (C.find(Hash, Table, Len, Align))
    return Total;
  // Bounded (memplan_runtime.h says why).
  C.insert(Entry{std::vector<int64_t>(Table, Table + Len), Align, std::move(P),
                 Hash});
  return Total;
}

void memplan_rt_get_plan_cache_stats(memplan_rt_plan_cache_stats *Out) {
  if (!Out)
    return;
  Cache &C = cache();
  std::lock_guard<memplan::rt::HeapMutex> G(C.Lock);
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
