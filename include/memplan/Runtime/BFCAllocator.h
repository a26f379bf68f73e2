//===- BFCAllocator.h - Best-fit with coalescing allocator ------*- C++ -*-===//
//
// The runtime's C++ API, beside the C ABI of memplan_runtime.h. Modelled on
// TensorFlow's BFCAllocator: memory comes in regions; a region is cut into
// address-ordered chunks; allocation takes the smallest free chunk that fits
// (best fit, lowest address first), splits it, and free merges the chunk
// with free neighbours. Each heap (arena) has its own lock; threads spread
// over the heaps. The heaps themselves are private (lib/Runtime/BFCHeap.h).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_RUNTIME_BFCALLOCATOR_H
#define MEMPLAN_RUNTIME_BFCALLOCATOR_H

#include "memplan/Runtime/memplan_runtime.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace memplan::rt {

class BFCHeap;
class PurgeThread;
struct SharedCounters;
struct ThreadCache;

/// What a C++ caller gets back from tryAllocate: the block, or why there is
/// none, with the numbers a message needs.
struct AllocResult {
  void *Ptr = nullptr;
  memplan_rt_status Status = MEMPLAN_RT_OK;
  uint64_t Bytes = 0, Align = 0;
  uint64_t BytesInUse = 0, BytesReserved = 0, Limit = 0; // at the failure
  explicit operator bool() const { return Status == MEMPLAN_RT_OK; }
  /// "allocation of N bytes (align A) failed: <status>; in use U bytes,
  /// reserved R bytes, limit L" (empty when Status is OK).
  std::string message() const;
};

/// Heaps when memplan_rt_options::arenas is 0: twice the processors, at
/// most 16.
unsigned defaultNumHeaps();

/// The allocator: one heap per arena. A thread allocates from its home heap;
/// when that heap's lock is taken it moves to a free one (so a thread never
/// waits on a lock while another heap is idle), and blocks (a futex: no
/// spinning) only when every heap is busy. A block is freed into the heap it
/// came from, whichever thread frees it. With the VIRTUAL source each heap
/// has its own address-space reservation, so finding a pointer's heap takes
/// no lock; the other sources use one heap.
class BFCAllocator {
public:
  /// Free-chunk bins of a heap: one per size below 16 rounding units, then
  /// 8 per power of two (see binForSize); the last is unbounded.
  static constexpr int NumBins = 15 + 8 * 30;

  /// Null on bad options or when the up-front reservation fails; the reason
  /// goes to \p Status.
  static std::unique_ptr<BFCAllocator> create(const memplan_rt_options &Opts,
                                              memplan_rt_status *Status);
  ~BFCAllocator();
  BFCAllocator(const BFCAllocator &) = delete;
  BFCAllocator &operator=(const BFCAllocator &) = delete;

  /// \p Bytes == 0 gives null with MEMPLAN_RT_OK; failures give null and set
  /// \p Status (which may be null).
  void *allocate(uint64_t Bytes, uint64_t Align, memplan_rt_status *Status);
  /// The same as a value: the block, or the reason and the sizes involved.
  AllocResult tryAllocate(uint64_t Bytes, uint64_t Align);
  memplan_rt_status deallocate(void *Ptr);

  /// Sums over the heaps; with several heaps in use, peak_bytes_in_use is
  /// the sum of their peaks. peak_bytes_reserved is exact.
  memplan_rt_stats stats() const;
  /// Bytes held from the source now, without taking any lock.
  uint64_t bytesReserved() const;
  /// Returns wholly free regions to the source (after emptying the size
  /// caches); gives the bytes returned.
  uint64_t releaseFreeRegions();
  /// Returns every chunk waiting in a size cache to the bins; gives bytes.
  uint64_t flushCaches();
  /// Purges every free page of every heap now, whatever its age; gives the
  /// bytes purged.
  uint64_t purge();
  /// Chunk bytes behind a live allocation, 0 for anything else. It may grow
  /// while the block lives: the padding in front of a later, more aligned
  /// block next to it joins it (and is freed with it).
  uint64_t allocatedSize(const void *Ptr) const;
  const memplan_rt_options &options() const { return Opts; }
  size_t numHeaps() const { return Heaps.size(); }

  /// Text (regions, chunks, bins, stats, trace) or the same as JSON.
  std::string dump(bool Json) const;

  /// Checks the structure of every heap: the chunks of each region
  /// address-ordered, contiguous and covering it; no two free chunks
  /// adjacent; the bins hold exactly the free chunks, each in the bin of its
  /// size and sorted; the in-use byte counters equal the sums over live
  /// chunks; the heaps' reserved bytes add up to the shared count. On failure
  /// returns false and says why in \p Why.
  bool checkInvariants(std::string *Why) const;

  /// Bin of a chunk of \p Bytes (a multiple of the rounding).
  int binForSize(uint64_t Bytes) const;

private:
  explicit BFCAllocator(const memplan_rt_options &Opts);
  /// The calling thread's heap, its lock taken.
  BFCHeap *lockHome();
  BFCHeap *heapFor(const void *Ptr) const;
  memplan_rt_stats statsLocked() const;
  /// The home heap's block; before it grows, the calling thread's cache
  /// gives its blocks back.
  void *allocateHome(uint64_t Bytes, uint64_t Rounded, uint64_t Align);
  /// The calling thread's cache (ThreadCache.cpp) gives its blocks back.
  void flushThreadCache();
  void flushThreadCache(ThreadCache &T);
  void attachThreadCache(ThreadCache &T);
  /// The calling thread's cache, attached to this allocator and flushed if
  /// a purge asked for it since.
  ThreadCache &readyThreadCache();
  void detachThreadCache(ThreadCache &T);
  /// The bytes every thread cache holds now.
  uint64_t threadCachedBytes() const;
  /// The bytes one thread's cache may hold now (ThreadCache.cpp).
  uint64_t threadCacheLimit() const;
  friend struct ThreadCache;
  void fail(AllocResult &R, memplan_rt_status S);

  memplan_rt_options Opts;
  std::unique_ptr<SharedCounters> Shared;
  std::vector<std::unique_ptr<BFCHeap>> Heaps;
  /// Each heap's address range, side by side: a free finds its heap
  /// without touching the heaps.
  std::vector<std::pair<const char *, const char *>> Ranges;
  size_t HeapMask = 0; // number of heaps - 1 when a power of two, else 0
  std::atomic<uint64_t> Failures{0}; // rejected requests, foreign frees
  /// Per-thread caches of freed blocks (options.thread_cache bytes each,
  /// 0: none): those attached, and the counters of those gone.
  uint64_t ThreadCacheBytes = 0;
  /// With thread caches: the frag cap (0: none).
  double CacheFragCap = 0;
  struct ThreadCaches;
  std::unique_ptr<ThreadCaches> Caches;
  /// options.purge_thread: the heaps' purge passes, made by a thread.
  std::unique_ptr<PurgeThread> Purger;

  friend struct DumpWriter;
};

} // namespace memplan::rt

#endif // MEMPLAN_RUNTIME_BFCALLOCATOR_H
