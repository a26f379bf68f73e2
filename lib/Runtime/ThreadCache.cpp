//===- ThreadCache.cpp - The allocator's hot path and thread caches -------===//
//
// allocate and free: a block of a size the calling thread freed before comes
// from its thread cache without a lock (a heap's lock is two atomic
// read-modify-writes per call, and the heap's search and stats more); else
// the home heap serves it under its lock. A free goes to the thread's cache
// while the cache holds fewer than options.thread_cache bytes, else to the
// heap that owns the block. The heaps keep a size word per block
// (BFCHeap::sizeWord) that a free reads without a lock. The cache's blocks
// go back to their heaps before the thread's heap would grow (so they never
// make it reserve more), at each heap's purge pass and on a purge (at the
// thread's next call), and when the thread ends.
//
//===----------------------------------------------------------------------===//

#include "ThreadCache.h"
#include "BFCHeap.h"
#include "Internal.h"

#include <algorithm>
#include <cstdlib>

using namespace memplan::rt;

namespace {
thread_local ThreadCache Mine;

// Counters only their thread writes: a load and a store, no locked add.
template <typename T> void bump(std::atomic<T> &C, T By) {
  C.store(C.load(std::memory_order_relaxed) + By, std::memory_order_relaxed);
}
} // namespace

ThreadCache::~ThreadCache() {
  if (BFCAllocator *A = Owner.load(std::memory_order_acquire))
    A->detachThreadCache(*this);
}

BFCAllocator::ThreadCaches::~ThreadCaches() {
  std::lock_guard<std::mutex> L(Lock);
  for (ThreadCache *T : Attached)
    T->Owner.store(nullptr, std::memory_order_release);
}

//===-- The heaps' size words ---------------------------------------------===//

void BFCHeap::enableThreadCache(uint64_t MaxBytes) {
  Replay.reset(); // its blocks have no size words
  NumLeaves = (RangeHi - RangeLo + LeafBytes - 1) / LeafBytes;
  Leaves.reset(new std::atomic<std::atomic<uint64_t> *>[NumLeaves]);
  for (size_t I = 0; I < NumLeaves; ++I)
    Leaves[I].store(nullptr, std::memory_order_relaxed);
  ThreadCacheMax = MaxBytes;
}

// A leaf per 16 MiB of the range, made when a block there is first
// allocated (calloc: untouched pages stay uncommitted) and kept.
std::atomic<uint64_t> &BFCHeap::makeSizeWord(const void *Ptr) {
  uint64_t Off = static_cast<const char *>(Ptr) - RangeLo;
  std::atomic<uint64_t> *Leaf =
      Leaves[Off >> LeafShift].load(std::memory_order_relaxed);
  if (!Leaf) {
    Leaf = static_cast<std::atomic<uint64_t> *>(
        std::calloc(LeafBytes >> RoundShift, sizeof(uint64_t)));
    if (!Leaf) {
      // No word: the block never goes to a thread cache.
      static std::atomic<uint64_t> Spare;
      return Spare;
    }
    Leaves[Off >> LeafShift].store(Leaf, std::memory_order_release);
  }
  return Leaf[(Off & (LeafBytes - 1)) >> RoundShift];
}

//===-- Attaching and flushing --------------------------------------------===//

void BFCAllocator::attachThreadCache(ThreadCache &T) {
  if (BFCAllocator *Old = T.Owner.load(std::memory_order_acquire))
    Old->detachThreadCache(T);
  // Blocks of an allocator destroyed since are gone with it.
  unsigned Shift = log2Floor(Opts.rounding);
  size_t Sizes = std::min<uint64_t>(ThreadCacheBytes >> Shift, 4096) + 1;
  T.Heads.assign(Sizes, nullptr);
  T.NonEmpty.assign((Sizes + 63) / 64, 0);
  T.Bytes = 0;
  T.Shift = Shift;
  T.Allocs.store(0, std::memory_order_relaxed);
  T.Frees.store(0, std::memory_order_relaxed);
  T.Held.store(0, std::memory_order_relaxed);
  T.Requested.store(0, std::memory_order_relaxed);
  std::lock_guard<std::mutex> L(Caches->Lock);
  Caches->Attached.push_back(&T);
  Caches->Count.store(unsigned(Caches->Attached.size()),
                      std::memory_order_relaxed);
  // Under a cap, one more cache shrinks every cache's share: the others
  // flush at their next call and read their limits again (after the count).
  if (CacheFragCap)
    Shared->askThreadCachesBack();
  T.Epoch = Shared->FlushEpoch.load(std::memory_order_relaxed);
  T.Limit = threadCacheLimit();
  T.Owner.store(this, std::memory_order_release);
}

void BFCAllocator::detachThreadCache(ThreadCache &T) {
  flushThreadCache(T);
  std::lock_guard<std::mutex> L(Caches->Lock);
  Caches->Allocs += T.Allocs.load(std::memory_order_relaxed);
  Caches->Frees += T.Frees.load(std::memory_order_relaxed);
  Caches->Requested += T.Requested.load(std::memory_order_relaxed);
  auto &V = Caches->Attached;
  V.erase(std::remove(V.begin(), V.end(), &T), V.end());
  Caches->Count.store(unsigned(V.size()), std::memory_order_relaxed);
  T.Owner.store(nullptr, std::memory_order_release);
}

// With a frag cap, a thread's cache holds at most its share of the cap's
// slack, (cap - 1) times the peak in use over the threads with caches:
// purges cannot reach cached blocks, and with caches of 1 MiB the DNN trace
// of bench/runtime reached 1.20x its peak under a 1.10 cap. Read again at
// each flush, and when a free finds the cache full (the peak only grows).
uint64_t BFCAllocator::threadCacheLimit() const {
  if (!CacheFragCap)
    return ThreadCacheBytes;
  unsigned N = std::max(1u, Caches->Count.load(std::memory_order_relaxed));
  double Share = (CacheFragCap - 1) *
                 double(Shared->PeakInUse.load(std::memory_order_relaxed)) / N;
  return Share < double(ThreadCacheBytes) ? uint64_t(Share) : ThreadCacheBytes;
}

// Caches->Lock is innermost: a heap's frag cap check calls this under the
// heap's lock.
uint64_t BFCAllocator::threadCachedBytes() const {
  std::lock_guard<std::mutex> L(Caches->Lock);
  uint64_t Bytes = 0;
  for (const ThreadCache *T : Caches->Attached)
    Bytes += T->Held.load(std::memory_order_relaxed);
  return Bytes;
}

// Each block goes back under its heap's lock, with the counters it moves
// from the cache to the heap, so that stats() (every heap locked) sees it
// on one side only.
void BFCAllocator::flushThreadCache(ThreadCache &T) {
  T.Epoch = Shared->FlushEpoch.load(std::memory_order_relaxed);
  T.Limit = threadCacheLimit();
  if (!T.Bytes)
    return;
  for (size_t W = 0; W < T.NonEmpty.size(); ++W) {
    for (uint64_t M = T.NonEmpty[W]; M; M &= M - 1) {
      size_t U = W * 64 + __builtin_ctzll(M);
      uint64_t Bytes = uint64_t(U) << T.Shift;
      for (void *P = T.Heads[U]; P;) {
        void *Next = static_cast<void **>(P)[0];
        BFCHeap *H = heapFor(P);
        std::lock_guard<HeapMutex> L(H->Mu);
        H->deallocateLocked(P, /*FromThreadCache=*/true);
        bump<uint64_t>(T.Frees, -1);
        bump<uint64_t>(T.Held, -Bytes);
        P = Next;
      }
      T.Heads[U] = nullptr;
    }
    T.NonEmpty[W] = 0;
  }
  T.Bytes = 0;
}

void BFCAllocator::flushThreadCache() {
  if (ThreadCacheBytes) {
    Shared->askThreadCachesBack();
    if (Mine.Owner.load(std::memory_order_relaxed) == this)
      flushThreadCache(Mine);
  }
}

//===-- Allocate and free -------------------------------------------------===//

void *BFCAllocator::allocateHome(uint64_t Bytes, uint64_t Rounded,
                                 uint64_t Align) {
  bool Held = ThreadCacheBytes &&
              Mine.Owner.load(std::memory_order_relaxed) == this && Mine.Bytes;
  {
    BFCHeap *Home = lockHome();
    std::lock_guard<HeapMutex> L(Home->Mu, std::adopt_lock);
    if (void *P = Home->allocateLocked(Bytes, Rounded, Align, !Held))
      return P;
  }
  if (!Held)
    return nullptr;
  flushThreadCache(Mine);
  BFCHeap *Home = lockHome();
  std::lock_guard<HeapMutex> L(Home->Mu, std::adopt_lock);
  return Home->allocateLocked(Bytes, Rounded, Align);
}

// Inline: every allocate and free with thread caches calls it, and only
// this file does.
inline ThreadCache &BFCAllocator::readyThreadCache() {
  ThreadCache &T = Mine;
  if (__builtin_expect(T.Owner.load(std::memory_order_relaxed) != this, 0))
    attachThreadCache(T);
  else if (__builtin_expect(
               Shared->FlushEpoch.load(std::memory_order_relaxed) != T.Epoch,
               0))
    flushThreadCache(T);
  return T;
}

void *BFCAllocator::allocate(uint64_t Bytes, uint64_t Align,
                             memplan_rt_status *Status) {
  // The common case (the thread cache or the home heap serves it) builds no
  // AllocResult; anything else takes tryAllocate's way.
  if (Bytes && Bytes <= (UINT64_MAX >> 2) &&
      Align <= MEMPLAN_RT_MAX_ALIGNMENT && !(Align & (Align - 1))) {
    uint64_t Rounded = alignUp(Bytes, Opts.rounding);
    if (ThreadCacheBytes && Align <= Opts.rounding) {
      ThreadCache &T = readyThreadCache();
      uint64_t U = Rounded >> T.Shift;
      if (U < T.Heads.size() && T.Heads[U]) {
        void **Link = static_cast<void **>(T.Heads[U]);
        T.Heads[U] = Link[0];
        static_cast<std::atomic<uint64_t> *>(Link[1])->store(
            U << 32 | Bytes, std::memory_order_relaxed);
        T.Bytes -= Rounded;
        bump<uint64_t>(T.Allocs, 1);
        bump<uint64_t>(T.Held, -Rounded);
        bump<int64_t>(T.Requested, int64_t(Bytes));
        if (Status)
          *Status = MEMPLAN_RT_OK;
        return Link;
      }
    }
    if (void *P = allocateHome(Bytes, Rounded,
                               std::max<uint64_t>(Align, Opts.rounding))) {
      if (Status)
        *Status = MEMPLAN_RT_OK;
      return P;
    }
  }
  AllocResult R = tryAllocate(Bytes, Align);
  if (Status)
    *Status = R.Status;
  return R.Ptr;
}

memplan_rt_status BFCAllocator::deallocate(void *Ptr) {
  if (!Ptr)
    return MEMPLAN_RT_OK;
  BFCHeap *H = heapFor(Ptr);
  if (!H) {
    Failures.fetch_add(1, std::memory_order_relaxed);
    return MEMPLAN_RT_FOREIGN_POINTER;
  }
  if (ThreadCacheBytes) {
    ThreadCache &T = readyThreadCache();
    if (std::atomic<uint64_t> *W = H->sizeWord(Ptr)) {
      uint64_t V = W->load(std::memory_order_relaxed);
      if (V & BFCHeap::InThreadCache) {
        Failures.fetch_add(1, std::memory_order_relaxed);
        return MEMPLAN_RT_DOUBLE_FREE;
      }
      uint64_t U = V >> 32, Bytes = U << T.Shift;
      if (V && U < T.Heads.size() &&
          (T.Bytes + Bytes <= T.Limit ||
           (T.Limit < ThreadCacheBytes &&
            T.Bytes + Bytes <= (T.Limit = threadCacheLimit())))) {
        W->store(BFCHeap::InThreadCache | U << 32, std::memory_order_relaxed);
        void **Link = static_cast<void **>(Ptr);
        Link[0] = T.Heads[U];
        Link[1] = W;
        T.Heads[U] = Ptr;
        T.NonEmpty[U / 64] |= uint64_t(1) << (U % 64);
        T.Bytes += Bytes;
        bump<uint64_t>(T.Frees, 1);
        bump<uint64_t>(T.Held, Bytes);
        bump<int64_t>(T.Requested, -int64_t(V & 0xffffffff));
        return MEMPLAN_RT_OK;
      }
    }
  }
  std::lock_guard<HeapMutex> L(H->Mu);
  return H->deallocateLocked(Ptr);
}
