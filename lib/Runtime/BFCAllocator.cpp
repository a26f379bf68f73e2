//===- BFCAllocator.cpp - Heaps per thread, frees to the owning heap ------===//
//
// The front of the allocator: checks a request, picks the calling thread's
// heap and hands the request to it under that heap's lock. Threads start on
// different heaps and move when their heap's lock is taken, so two threads
// rarely share a lock and none ever spins on one (HeapMutex sleeps in the
// kernel when it must wait). A block goes back to the heap that owns its
// address, whichever thread frees it.
//
//===----------------------------------------------------------------------===//

#include "BFCHeap.h"
#include "Internal.h"
#include "PurgeThread.h"
#include "ThreadCache.h"
#include "ThreadHome.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <new>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace memplan::rt;

namespace {

ThreadHome &threadHome() {
  thread_local ThreadHome H;
  return H;
}
/// A thread moves home after this many allocations in a row found it busy.
constexpr unsigned MoveAfter = 8;
} // namespace

unsigned memplan::rt::defaultNumHeaps() {
  unsigned Cpus = std::thread::hardware_concurrency();
  return std::clamp(Cpus ? 2 * Cpus : 4u, 1u, 16u);
}

std::unique_ptr<BFCAllocator>
BFCAllocator::create(const memplan_rt_options &Opts,
                     memplan_rt_status *Status) {
  auto Fail = [&](memplan_rt_status S) {
    if (Status)
      *Status = S;
    return std::unique_ptr<BFCAllocator>();
  };
  if (!isPow2(Opts.rounding) || Opts.rounding < 16 || Opts.rounding > 65536)
    return Fail(MEMPLAN_RT_BAD_OPTIONS);
  if (!Opts.allow_growth && Opts.memory_limit == 0)
    return Fail(MEMPLAN_RT_BAD_OPTIONS);
  if (Opts.source != MEMPLAN_RT_SOURCE_VIRTUAL &&
      Opts.source != MEMPLAN_RT_SOURCE_MMAP &&
      Opts.source != MEMPLAN_RT_SOURCE_MALLOC)
    return Fail(MEMPLAN_RT_BAD_OPTIONS);
  if (Opts.arenas > 64)
    return Fail(MEMPLAN_RT_BAD_OPTIONS);
  if (!validFragCap(Opts.frag_cap))
    return Fail(MEMPLAN_RT_BAD_OPTIONS);
  if (Opts.replay < 0 || Opts.replay > 2)
    return Fail(MEMPLAN_RT_BAD_OPTIONS);
  // Rounded up or doubled, larger sizes wrapped (a hang, a crash).
  if (Opts.initial_region > kMaxRegionBytes ||
      Opts.growth_granule > kMaxRegionBytes)
    return Fail(MEMPLAN_RT_BAD_OPTIONS);
  std::unique_ptr<BFCAllocator> A(new (std::nothrow) BFCAllocator(Opts));
  if (!A || !A->Shared)
    return Fail(MEMPLAN_RT_OUT_OF_MEMORY);
  A->Shared->Limit = Opts.memory_limit;
  // Several heaps need a source with a fixed address range per heap (so a
  // free finds its heap without a lock) and growth (a limit reserved up
  // front is one region).
  unsigned N = Opts.arenas ? Opts.arenas : defaultNumHeaps();
  if (Opts.source != MEMPLAN_RT_SOURCE_VIRTUAL || !Opts.allow_growth)
    N = 1;
  for (unsigned I = 0; I < N; ++I) {
    memplan_rt_status S = MEMPLAN_RT_OK;
    auto H = BFCHeap::create(Opts, A->Shared.get(), static_cast<int>(I), &S);
    if (!H) {
      if (I == 0)
        return Fail(S);
      break; // fewer heaps: address space ran out
    }
    bool Fixed = H->rangeKnown();
    A->Shared->Heaps.push_back(H.get());
    A->Ranges.push_back(H->range());
    A->Heaps.push_back(std::move(H));
    if (!Fixed)
      break; // the VIRTUAL source fell back to MMAP: one heap
  }
  // Thread caches need every heap's size words (a fixed range), and no
  // limit (a cached block is not free to the other threads) or trace (every
  // event in order).
  bool Ranged = std::all_of(A->Heaps.begin(), A->Heaps.end(),
                            [](auto &H) { return H->rangeKnown(); });
  if (Opts.thread_cache && Ranged && !Opts.memory_limit && !Opts.trace) {
    A->ThreadCacheBytes = std::min<uint64_t>(Opts.thread_cache, 1u << 30);
    A->Caches = std::make_unique<ThreadCaches>();
    for (auto &H : A->Heaps)
      H->enableThreadCache(
          std::min<uint64_t>(A->ThreadCacheBytes, 4096 * Opts.rounding));
    A->CacheFragCap = A->Heaps[0]->fragCap();
    BFCAllocator *Raw = A.get();
    A->Shared->ThreadCached = [Raw] { return Raw->threadCachedBytes(); };
  }
  size_t Count = A->Heaps.size();
  A->HeapMask = (Count & (Count - 1)) == 0 ? Count - 1 : 0;
  // Last: the heaps are ready, and this thread holds none of their locks
  // (HeapMutex's plain path needs that of a thread the runtime starts).
  if (Opts.purge_thread && A->Heaps[0]->delayNs()) {
    A->Purger =
        PurgeThread::start(A->Shared->Heaps, A->Heaps[0]->delayNs() / 8);
    if (!A->Purger)
      std::fprintf(stderr, "memplan_rt: warning: the purge thread could not "
                           "start; free pages go back at the heaps' next "
                           "allocs and frees\n");
  }
  if (Status)
    *Status = MEMPLAN_RT_OK;
  return A;
}

BFCAllocator::BFCAllocator(const memplan_rt_options &Opts)
    : Opts(Opts), Shared(new (std::nothrow) SharedCounters) {}

// The purge thread stops first, then the thread caches let go (their blocks
// die with the heaps); the heaps go before the counters they point to.
BFCAllocator::~BFCAllocator() {
  Purger.reset(); // no pass after this
  Caches.reset();
  Heaps.clear();
}

uint64_t BFCAllocator::bytesReserved() const {
  return Shared->Reserved.load(std::memory_order_relaxed);
}

int BFCAllocator::binForSize(uint64_t Bytes) const {
  return Heaps[0]->binForSize(Bytes);
}

// The home heap's lock, or when another thread holds it (a thread sharing
// the heap, a free from another thread, a stats reader; perhaps descheduled
// while it holds the lock) the first idle heap: nothing waits while a heap is
// idle. A thread that keeps finding home busy moves home; one that finds it
// busy now and then stays, so its blocks stay together. Only when every heap
// is busy does it block, on home's mutex (no spinning).
BFCHeap *BFCAllocator::lockHome() {
  size_t N = Heaps.size();
  if (N == 1) {
    Heaps[0]->Mu.lock();
    return Heaps[0].get();
  }
  ThreadHome &T = threadHome();
  size_t First = HeapMask ? (T.Index & HeapMask) : T.Index % N;
  if (Heaps[First]->Mu.try_lock()) {
    T.Contended = 0;
    return Heaps[First].get();
  }
  for (size_t I = 1; I < N; ++I) {
    size_t K = First + I < N ? First + I : First + I - N;
    if (Heaps[K]->Mu.try_lock()) {
      if (++T.Contended >= MoveAfter) {
        T.Index = static_cast<unsigned>(K);
        T.Contended = 0;
      }
      return Heaps[K].get();
    }
  }
  Heaps[First]->Mu.lock();
  return Heaps[First].get();
}

void BFCAllocator::fail(AllocResult &R, memplan_rt_status S) {
  Failures.fetch_add(1, std::memory_order_relaxed);
  R.Ptr = nullptr;
  R.Status = S;
  memplan_rt_stats St = stats();
  R.BytesInUse = St.bytes_in_use;
  R.BytesReserved = St.bytes_reserved;
  R.Limit = Opts.memory_limit;
}

AllocResult BFCAllocator::tryAllocate(uint64_t Bytes, uint64_t Align) {
  AllocResult R;
  R.Bytes = Bytes;
  R.Align = Align;
  if (Align == 0)
    Align = 1;
  if (!isPow2(Align) || Align > MEMPLAN_RT_MAX_ALIGNMENT) {
    fail(R, MEMPLAN_RT_BAD_ALIGNMENT);
    return R;
  }
  if (Bytes == 0)
    return R;
  if (Bytes > (UINT64_MAX >> 2)) {
    fail(R, MEMPLAN_RT_OUT_OF_MEMORY);
    return R;
  }
  uint64_t Rounded = alignUp(Bytes, Opts.rounding);
  // Chunks start at multiples of the rounding, so smaller alignments hold.
  if (Align < Opts.rounding)
    Align = Opts.rounding;

  if ((R.Ptr = allocateHome(Bytes, Rounded, Align)))
    return R;
  // The home heap is full and cannot grow (the limit): another heap may hold
  // free chunks, and with release_free_regions their empty regions may make
  // room.
  for (int Pass = 0; Pass < (Opts.release_free_regions ? 2 : 1); ++Pass) {
    if (Heaps.size() == 1)
      break;
    if (Pass == 1)
      releaseFreeRegions();
    for (auto &H : Heaps) {
      std::lock_guard<HeapMutex> L(H->Mu);
      if ((R.Ptr = H->allocateLocked(Bytes, Rounded, Align)))
        return R;
    }
  }
  fail(R, MEMPLAN_RT_OUT_OF_MEMORY);
  return R;
}

uint64_t BFCAllocator::releaseFreeRegions() {
  flushThreadCache();
  uint64_t Bytes = 0;
  for (auto &H : Heaps) {
    std::lock_guard<HeapMutex> L(H->Mu);
    H->flushCacheLocked();
    Bytes += H->releaseFreeRegionsLocked();
  }
  return Bytes;
}

uint64_t BFCAllocator::flushCaches() {
  flushThreadCache();
  uint64_t Bytes = 0;
  for (auto &H : Heaps) {
    std::lock_guard<HeapMutex> L(H->Mu);
    Bytes += H->flushCacheLocked();
  }
  return Bytes;
}

uint64_t BFCAllocator::purge() {
  flushThreadCache();
  uint64_t Bytes = 0;
  for (auto &H : Heaps) {
    std::lock_guard<HeapMutex> L(H->Mu);
    H->flushCacheLocked();
    Bytes += H->purgeLocked();
  }
  return Bytes;
}

uint64_t BFCAllocator::allocatedSize(const void *Ptr) const {
  BFCHeap *H = Ptr ? heapFor(Ptr) : nullptr;
  if (!H)
    return 0;
  std::lock_guard<HeapMutex> L(H->Mu);
  // A block in a thread cache is free, though its chunk is in use.
  std::atomic<uint64_t> *W = H->sizeWord(Ptr);
  if (W && W->load(std::memory_order_relaxed) & BFCHeap::InThreadCache)
    return 0;
  return H->allocatedSizeLocked(Ptr);
}

memplan_rt_stats BFCAllocator::statsLocked() const {
  memplan_rt_stats S{};
  uint64_t LargestFree = 0;
  for (const auto &H : Heaps) {
    const memplan_rt_stats &C = H->countersLocked();
    S.replay_plans += H->replayPlansLocked();
    S.replayed_allocs += H->replayedLocked();
    S.num_allocs += C.num_allocs;
    S.num_frees += C.num_frees;
    S.num_failures += C.num_failures;
    S.bytes_in_use += C.bytes_in_use;
    S.peak_bytes_in_use += C.peak_bytes_in_use;
    S.requested_bytes_in_use += C.requested_bytes_in_use;
    S.peak_requested_bytes_in_use += C.peak_requested_bytes_in_use;
    S.largest_alloc_size = std::max(S.largest_alloc_size, C.largest_alloc_size);
    S.bytes_reserved += C.bytes_reserved;
    S.bytes_held += C.bytes_held;
    S.bytes_purged += C.bytes_purged;
    S.num_regions += H->numRegionsLocked();
    S.num_free_chunks += C.num_free_chunks;
    LargestFree = std::max(LargestFree, H->largestFreeChunkLocked());
  }
  S.num_failures += Failures.load(std::memory_order_relaxed);
  if (Caches) {
    // The heaps count the blocks of thread caches in use; the caches count
    // what the heaps did not see.
    int64_t Requested = 0;
    for (const auto &H : Heaps)
      Requested += H->requestedFixLocked();
    std::lock_guard<std::mutex> L(Caches->Lock);
    Requested += Caches->Requested;
    S.num_allocs += Caches->Allocs;
    S.num_frees += Caches->Frees;
    for (const ThreadCache *T : Caches->Attached) {
      S.num_allocs += T->Allocs.load(std::memory_order_relaxed);
      S.num_frees += T->Frees.load(std::memory_order_relaxed);
      S.bytes_thread_cached += T->Held.load(std::memory_order_relaxed);
      Requested += T->Requested.load(std::memory_order_relaxed);
    }
    S.bytes_in_use -= std::min(S.bytes_in_use, S.bytes_thread_cached);
    S.requested_bytes_in_use += Requested;
  }
  S.peak_bytes_reserved = Shared->PeakReserved.load(std::memory_order_relaxed);
  // Several heaps: the peak of their sum, not the sum of their peaks.
  if (Heaps.size() > 1) {
    S.peak_bytes_in_use = Shared->PeakInUseAll.load(std::memory_order_relaxed);
    S.peak_requested_bytes_in_use =
        Shared->PeakRequestedAll.load(std::memory_order_relaxed);
  }
  S.frag_cap_pauses = Shared->CapPauses.load(std::memory_order_relaxed);
  S.bytes_limit = Opts.memory_limit;
  memplan_rt_plan_cache_stats P;
  memplan_rt_get_plan_cache_stats(&P);
  S.plan_cache_hits = P.hits;
  S.plan_cache_misses = P.misses;
  uint64_t Free =
      S.bytes_reserved > S.bytes_in_use ? S.bytes_reserved - S.bytes_in_use : 0;
  // The largest free chunk may span purged pages, which the free bytes of
  // the reserved ones leave out: then one chunk is all there is.
  LargestFree = std::min(LargestFree, Free);
  S.fragmentation = Free ? static_cast<double>(Free - LargestFree) / Free : 0.0;
  S.frag = S.peak_bytes_in_use ? static_cast<double>(S.peak_bytes_reserved) /
                                     S.peak_bytes_in_use
                               : 0.0;
  return S;
}

memplan_rt_stats BFCAllocator::stats() const {
  std::vector<std::unique_lock<HeapMutex>> Locks;
  Locks.reserve(Heaps.size());
  for (const auto &H : Heaps) // always in index order: no deadlock
    Locks.emplace_back(H->Mu);
  return statsLocked();
}

std::string AllocResult::message() const {
  if (Status == MEMPLAN_RT_OK)
    return {};
  char Buf[320];
  char LimitText[32] = "none";
  if (Limit)
    std::snprintf(LimitText, sizeof(LimitText), "%" PRIu64 " bytes", Limit);
  std::snprintf(Buf, sizeof(Buf),
                "allocation of %" PRIu64 " bytes (align %" PRIu64
                ") failed: %s; in use %" PRIu64 " bytes, reserved %" PRIu64
                " bytes, limit %s",
                Bytes, Align, memplan_rt_status_string(Status), BytesInUse,
                BytesReserved, LimitText);
  return Buf;
}
