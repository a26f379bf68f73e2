//===- BFCHeap.h - One best-fit-with-coalescing heap ------------*- C++ -*-===//
//
// Private to lib/Runtime (not installed): a heap's chunks, bins, size cache,
// regions and purging, and what the heaps of one allocator share. The C++
// API users see is BFCAllocator (include/memplan/Runtime/BFCAllocator.h).
//
// A region from a SubAllocator is cut into address-ordered chunks. Free
// chunks sit in bins: one per size below 16 rounding units, then 8 per power
// of two, each sorted by (size, address), with a bitmap of the non-empty
// ones. Allocation takes the smallest free chunk that fits (best fit, lowest
// address first), splits it, and free merges the chunk with free neighbours.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_RUNTIME_BFCHEAP_H
#define MEMPLAN_LIB_RUNTIME_BFCHEAP_H

#include "SubAllocator.h"
#include "memplan/Runtime/BFCAllocator.h"

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
  static constexpr int NumBins = BFCAllocator::NumBins;
  /// Sizes of fewer than ExactUnits rounding units have a bin each; above,
  /// each power of two is cut into SubBins bins.
  static constexpr uint64_t ExactUnits = 16;
  static constexpr int SubBins = 8;

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
  /// \p AnyAge, and with \p Idle (another heap purging this one) only
  /// chunks free since before the last two purge passes: another thread's
  /// growth never takes pages this heap's thread is cycling through.
  uint64_t purgeOldestLocked(uint64_t Want, int32_t Keep, bool AnyAge,
                             bool Idle = false);
  uint64_t cachedBytesLocked() const { return CachedBytes; }
  uint64_t allocatedSizeLocked(const void *Ptr) const;
  uint64_t largestFreeChunkLocked() const;
  bool checkInvariantsLocked(std::string *Why) const;
  int binForSize(uint64_t Bytes) const;
  /// The smallest chunk size of bin \p B.
  uint64_t binMinSize(int B) const;
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
  /// A bit per bin that holds a chunk: the search finds the next non-empty
  /// bin with a bit scan, not a walk over empty bins.
  static constexpr int MaskWords = (NumBins + 63) / 64;
  uint64_t NonEmptyBins[MaskWords] = {};
  bool binNonEmpty(int B) const { return NonEmptyBins[B / 64] >> (B % 64) & 1; }
  /// The first non-empty bin at or above \p B, or -1.
  int nextNonEmptyBin(int B) const;
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

} // namespace memplan::rt

#endif // MEMPLAN_LIB_RUNTIME_BFCHEAP_H
