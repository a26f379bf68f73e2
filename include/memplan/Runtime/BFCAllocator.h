//===- BFCAllocator.h - Best-fit with coalescing allocator ------*- C++ -*-===//
//
// Modelled on TensorFlow's BFCAllocator: memory comes in regions from a
// SubAllocator; a region is cut into address-ordered chunks; free chunks sit
// in 21 power-of-two bins (bin b holds sizes in [R << b, R << (b + 1)), the
// last bin is unbounded, R = rounding); allocation takes the smallest free
// chunk that fits (best fit), splits it, and free merges the chunk with free
// neighbours. Each heap (arena) has its own lock, a std::mutex; threads
// spread over the heaps (see BFCAllocator).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_RUNTIME_BFCALLOCATOR_H
#define MEMPLAN_RUNTIME_BFCALLOCATOR_H

#include "memplan/Runtime/SubAllocator.h"
#include "memplan/Runtime/memplan_runtime.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace memplan::rt {

/// What the heaps of one allocator share: the memory limit is global, so the
/// bytes reserved are counted once for all of them (atomically; they change
/// only when a region is added or returned).
struct SharedCounters {
  uint64_t Limit = 0; // 0: none
  std::atomic<uint64_t> Reserved{0};
  std::atomic<uint64_t> PeakReserved{0};
  std::atomic<uint64_t> TraceSeq{0};
  /// Every heap of the allocator, for purging the others when one grows.
  std::vector<class BFCHeap *> Heaps;
  /// Counts \p Bytes as reserved unless that would pass the limit.
  bool tryReserve(uint64_t Bytes);
  void unreserve(uint64_t Bytes) {
    Reserved.fetch_sub(Bytes, std::memory_order_relaxed);
  }
};

/// One best-fit-with-coalescing heap (one arena): its own regions, chunks,
/// bins, counters and lock. The caller holds Mu around every *Locked call.
class BFCHeap {
public:
  static constexpr int NumBins = 21;

  /// Null when the source cannot be set up (out of memory).
  static std::unique_ptr<BFCHeap> create(const memplan_rt_options &Opts,
                                         SharedCounters *Shared, int Index,
                                         memplan_rt_status *Status);
  ~BFCHeap();
  BFCHeap(const BFCHeap &) = delete;
  BFCHeap &operator=(const BFCHeap &) = delete;

  /// A block for a valid request (Rounded = Bytes rounded up, Align at least
  /// the rounding), or null when neither the bins nor growth can serve it.
  void *allocateLocked(uint64_t Bytes, uint64_t Rounded, uint64_t Align);
  /// Anything but a live block's start is an error (counted here).
  memplan_rt_status deallocateLocked(void *Ptr);
  /// True when Ptr lies in this heap's address range; only for sources with
  /// a fixed range (VIRTUAL), and then without the lock.
  bool owns(const void *Ptr) const {
    return static_cast<const char *>(Ptr) >= RangeLo &&
           static_cast<const char *>(Ptr) < RangeHi;
  }
  bool rangeKnown() const { return RangeLo != nullptr; }
  uint64_t releaseFreeRegionsLocked();
  /// Returns the chunks waiting in the size cache to the bins; gives their
  /// bytes.
  uint64_t flushCacheLocked();
  /// Gives the whole pages of free chunks (of at least PurgeMin bytes) back
  /// to the system, except those of chunk \p Keep; gives the bytes.
  uint64_t purgeLocked(int32_t Keep = -1);
  /// The same, oldest free chunk first, until \p Want bytes are purged;
  /// only chunks free for at least MinAgeEvents allocs and frees unless
  /// \p AnyAge.
  uint64_t purgeOldestLocked(uint64_t Want, int32_t Keep, bool AnyAge);
  uint64_t cachedBytesLocked() const { return CachedBytes; }
  uint64_t allocatedSizeLocked(const void *Ptr) const;
  uint64_t largestFreeChunkLocked() const;
  bool checkInvariantsLocked(std::string *Why) const;
  int binForSize(uint64_t Bytes) const;
  const memplan_rt_stats &countersLocked() const { return Stats; }
  size_t numRegionsLocked() const { return Regions.size(); }

  mutable std::mutex Mu;

private:
  using Handle = int32_t;
  static constexpr Handle None = -1;

  struct Chunk {
    char *Ptr = nullptr;
    uint64_t Size = 0;
    uint64_t Requested = 0;
    int64_t AllocId = -1;                  // -1 while free
    Handle Prev = None, Next = None;       // address neighbours
    Handle BinPrev = None, BinNext = None; // bin list, sorted (size, address)
    int32_t Bin = -1;                      // -1 when not in a bin
    /// Free chunks with pages to purge, oldest free first (see Age*).
    Handle AgePrev = None, AgeNext = None;
    bool InAge = false;
    /// Some of its pages may be purged (set by a purge, kept by splits and
    /// merges, cleared by recommit): an allocation from memory never purged
    /// skips the page bitmap.
    bool MayBeGone = false;
    /// When it was freed: the heap's purge pass count and its count of
    /// allocs and frees (after a merge, the part with more committed bytes).
    uint64_t FreeSince = 0, FreeEvent = 0;
    bool inUse() const { return AllocId >= 0; }
    /// Free and in a bin (not waiting in the size cache).
    bool isFree() const { return AllocId == -1; }
    bool cached() const { return AllocId == Cached; }
  };
  /// AllocId of a freed chunk kept in the size cache (linked by BinNext).
  static constexpr int64_t Cached = -2;
  /// Chunks of up to this many rounding units are cached.
  static constexpr uint64_t MaxCacheClass = 4096;

  struct Region {
    char *Base = nullptr;
    uint64_t Size = 0;
    /// Handle of the chunk starting at each rounding unit, None elsewhere.
    std::vector<Handle> Slots;
    /// One bit per page: given back to the system (not counted reserved).
    std::vector<uint64_t> Gone;
    uint64_t GoneBytes = 0;
  };

  struct TraceEvent {
    uint64_t Seq;
    int64_t Id;
    bool IsAlloc;
    const char *Ptr;
    uint64_t Size, Requested;
  };

  BFCHeap(const memplan_rt_options &Opts, SharedCounters *Shared, int Index);

  Handle newChunk();
  void deleteChunk(Handle H);
  void *markAllocated(Handle H, uint64_t Bytes);
  void ageInsert(Handle H);
  void ageRemove(Handle H);
  void tick();
  /// A pass over the age list if an eighth of the delay has passed since
  /// the last one; false if not.
  bool passLocked(uint64_t Now);
  uint64_t readClock() const;
  uint64_t purgeAged(uint64_t Now);
  void recommit(Chunk &C);
  void makeRoom(uint64_t Bytes, Handle Keep);
  uint64_t purgeChunk(Region &R, Chunk &C);
  void insertIntoBin(Handle H);
  void removeFromBin(Handle H);
  Handle findChunk(uint64_t Rounded, uint64_t Align) const;
  Handle split(Handle H, uint64_t Bytes);
  void merge(Handle H1, Handle H2);
  Handle coalesce(Handle H);
  bool extend(uint64_t Rounded, uint64_t Align);
  void addBlock(char *Ptr, uint64_t Bytes);
  Region *regionFor(const void *Ptr);
  const Region *regionFor(const void *Ptr) const;
  void setSlot(const char *Ptr, Handle H);
  Handle lastChunk(const Region &R) const;
  memplan_rt_status classifyBadFree(const Region &R, const char *Ptr) const;

  memplan_rt_options Opts;
  SharedCounters *Shared;
  int Index;
  uint64_t SplitThreshold;
  uint64_t RegionAlign;
  uint64_t RegionUnit;
  uint64_t CurRegionBytes; // doubling growth
  std::unique_ptr<SubAllocator> Sub;
  const char *RangeLo = nullptr, *RangeHi = nullptr;

  std::vector<Chunk> Chunks;
  Handle FreeHandles = None;   // recycled chunk records, linked by Next
  std::vector<Region> Regions; // sorted by Base
  Handle BinHead[NumBins];
  uint32_t NonEmptyBins = 0;
  int64_t NextAllocId = 1;
  memplan_rt_stats Stats{};
  std::vector<TraceEvent> Trace;
  /// Size cache (Opts.cache): per chunk size in rounding units, the freed
  /// chunks of that size, most recent first.
  std::vector<Handle> CacheHead;
  std::vector<uint64_t> CacheMask; // bit per size whose list is not empty
  uint64_t CachedBytes = 0;
  /// Purging (VIRTUAL source, no limit): pages of free chunks given back.
  bool CanPurge = false;
  uint64_t Page = 4096;
  uint64_t GoneBytes = 0;
  static constexpr uint64_t PurgeMin = 4096;
  /// Delayed purging: free chunks with committed whole pages in the order
  /// they were freed; the clock is read every CheckEvery allocs and frees.
  Handle AgeHead = None, AgeTail = None;
  uint64_t DelayNs = 0; // 0: eager (or no purging)
  /// Passes over the age list, at least an eighth of the delay apart; a
  /// chunk freed after pass P was freed before pass P + 1, whose time is
  /// kept while the delay may not have passed since.
  uint64_t NextPass = 0, PassSeq = 0;
  uint64_t PassTimes[16] = {};
  uint32_t EventsToCheck = 1;
  static constexpr uint32_t CheckEvery = 64;
  /// At the peak, a free chunk is purged only once this many allocs and
  /// frees of its heap have passed since it was freed: a block freed and
  /// reused in a loop never pays a purge and a fault per round.
  static constexpr uint64_t MinAgeEvents = 1024;
  uint64_t events() const { return Stats.num_allocs + Stats.num_frees; }

  friend struct DumpWriter;
};

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
/// waits on a lock while another heap is idle), and blocks (std::mutex: no
/// spinning) only when every heap is busy. A block is freed into the heap it
/// came from, whichever thread frees it. With the VIRTUAL source each heap
/// has its own address-space reservation, so finding a pointer's heap takes
/// no lock; the other sources use one heap.
class BFCAllocator {
public:
  static constexpr int NumBins = BFCHeap::NumBins;

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
  uint64_t bytesReserved() const {
    return Shared.Reserved.load(std::memory_order_relaxed);
  }
  /// Returns wholly free regions to the source (after emptying the size
  /// caches); gives the bytes returned.
  uint64_t releaseFreeRegions();
  /// Returns every chunk waiting in a size cache to the bins; gives bytes.
  uint64_t flushCaches();
  /// Purges every free page of every heap now, whatever its age; gives the
  /// bytes purged.
  uint64_t purge();
  /// Chunk bytes behind a live allocation, 0 for anything else.
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
  int binForSize(uint64_t Bytes) const { return Heaps[0]->binForSize(Bytes); }

private:
  explicit BFCAllocator(const memplan_rt_options &Opts) : Opts(Opts) {}
  BFCHeap *lockHome(std::unique_lock<std::mutex> &L);
  BFCHeap *heapFor(const void *Ptr) const;
  memplan_rt_stats statsLocked() const;
  void fail(AllocResult &R, memplan_rt_status S);

  memplan_rt_options Opts;
  SharedCounters Shared;
  std::vector<std::unique_ptr<BFCHeap>> Heaps;
  size_t HeapMask = 0; // number of heaps - 1 when a power of two, else 0
  std::atomic<uint64_t> Failures{0}; // rejected requests, foreign frees

  friend struct DumpWriter;
};

} // namespace memplan::rt

#endif // MEMPLAN_RUNTIME_BFCALLOCATOR_H
