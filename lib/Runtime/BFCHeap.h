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

#include "HeapMutex.h"
#include "Internal.h"
#include "ReplayPlan.h"
#include "SubAllocator.h"
#include "memplan/Runtime/BFCAllocator.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
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
  /// Raised when the thread caches should give their blocks back (a purge
  /// pass, a purge, growth past the peak); each thread looks at its next
  /// call (ThreadCache.cpp).
  std::atomic<uint64_t> FlushEpoch{0};
  void askThreadCachesBack() {
    FlushEpoch.fetch_add(1, std::memory_order_relaxed);
  }
  /// Every heap of the allocator, for purging the others when one grows.
  std::vector<class BFCHeap *> Heaps;
  /// With a frag cap: the peak of the bytes in use over all heaps, less the
  /// blocks thread caches hold, as far as the cap's checks have seen it (a
  /// lower bound: the cap never holds more loosely than it says).
  std::atomic<uint64_t> PeakInUse{0};
  /// The peaks of the bytes in use and requested over all heaps (thread
  /// caches' blocks counted in use, as each heap counts them), as far as
  /// each heap's own peaks saw them: a lower bound with several heaps.
  std::atomic<uint64_t> PeakInUseAll{0}, PeakRequestedAll{0};
  /// Raises \p Peak to \p V; gives the peak then (the larger of the two).
  static uint64_t raise(std::atomic<uint64_t> &Peak, uint64_t V) {
    uint64_t Cur = Peak.load(std::memory_order_relaxed);
    while (V > Cur &&
           !Peak.compare_exchange_weak(Cur, V, std::memory_order_relaxed))
      ;
    return std::max(Cur, V);
  }
  /// A soft cap (options.frag_cap_soft): the heaps' cap windows ended so
  /// far, the window at which a paused cap holds again, the next pause's
  /// length in windows, and how many pauses there were.
  std::atomic<uint64_t> CapWindows{0}, CapResumeAt{0}, CapPause{64},
      CapPauses{0};
  bool capPaused() const {
    return CapWindows.load(std::memory_order_relaxed) <
           CapResumeAt.load(std::memory_order_relaxed);
  }
  /// The bytes thread caches hold (unset without thread caches).
  std::function<uint64_t()> ThreadCached;
  /// Counts \p Bytes as reserved unless that would pass the limit.
  bool tryReserve(uint64_t Bytes);
  void unreserve(uint64_t Bytes) {
    Reserved.fetch_sub(Bytes, std::memory_order_relaxed);
  }
};

/// One best-fit-with-coalescing heap (one arena): its own regions, chunks,
/// bins, counters and lock. The caller holds Mu around every *Locked call.
/// Heaps are allocated one after another, and every call writes a heap's
/// fields: on lines of their own, one thread's heap does not invalidate the
/// line of another's lock (with 2 threads, a DNN trace replay took 2.2x the
/// time per pair of 1 thread when they shared one).
class alignas(64) BFCHeap {
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
  /// the rounding), or null when neither the plan, the bins nor (if
  /// \p MayGrow) growth can serve it.
  void *allocateLocked(uint64_t Bytes, uint64_t Rounded, uint64_t Align,
                       bool MayGrow = true) {
    if (!Replay)
      return allocateChunkLocked(Bytes, Rounded, Align, MayGrow);
    if (void *P = replayLocked(Bytes, Rounded, Align))
      return P;
    void *P = allocateChunkLocked(Bytes, Rounded, Align, MayGrow);
    // Out of room (the limit): the plans' arena is in use to the bins, so
    // with none of its blocks live it goes back first.
    if (!P && MayGrow && Replay->dropForRoom()) {
      freeDroppedArena();
      P = allocateChunkLocked(Bytes, Rounded, Align, MayGrow);
    }
    if (P)
      Replay->noteAlloc(NextAllocId - 1, Rounded, Align);
    else
      Replay->noteFailure();
    return P;
  }
  /// Anything but a live block's start is an error (counted here), and so is
  /// a block in a thread cache unless \p FromThreadCache (its flush).
  memplan_rt_status deallocateLocked(void *Ptr, bool FromThreadCache = false);

  /// Thread caches (ThreadCache.cpp) find a live block's size without a lock
  /// in a word per rounding unit of the heap's range, written under the lock
  /// when a block of up to \p MaxBytes is allocated: units << 32 | requested
  /// bytes, InThreadCache while a thread cache holds it, 0 otherwise.
  void enableThreadCache(uint64_t MaxBytes);
  static constexpr uint64_t InThreadCache = uint64_t(1) << 63;
  /// The word of \p Ptr (in this heap's range), or null if none was made.
  std::atomic<uint64_t> *sizeWord(const void *Ptr) const {
    uint64_t Off = static_cast<const char *>(Ptr) - RangeLo;
    if (!ThreadCacheMax || Off >= uint64_t(RangeHi - RangeLo))
      return nullptr;
    std::atomic<uint64_t> *Leaf =
        Leaves[Off >> LeafShift].load(std::memory_order_acquire);
    return Leaf && !(Off & (Opts.rounding - 1))
               ? Leaf + ((Off & (LeafBytes - 1)) >> RoundShift)
               : nullptr;
  }
  /// Requested bytes the thread caches' counters owe (see deallocateLocked).
  int64_t requestedFixLocked() const { return ReqFix; }
  /// The address range every block of this heap lies in (VIRTUAL source),
  /// or {null, null}.
  bool rangeKnown() const { return RangeLo != nullptr; }
  std::pair<const char *, const char *> range() const {
    return {RangeLo, RangeHi};
  }
  uint64_t releaseFreeRegionsLocked();
  /// Returns the chunks waiting in the size cache to the bins; gives their
  /// bytes.
  uint64_t flushCacheLocked();
  /// Gives the whole pages of free chunks (of at least PurgeMin bytes) back
  /// to the system, except those of chunk \p Keep; gives the bytes.
  uint64_t purgeLocked(int32_t Keep = -1);
  /// The purge pass that the heap's own calls make every eighth of the
  /// delay, for a caller that is not the heap's (PurgeThread); nothing
  /// without a delay.
  void agePassLocked() {
    if (DelayNs)
      passLocked(readClock());
  }
  /// The purge delay; 0 when pages are purged eagerly or never.
  uint64_t delayNs() const { return DelayNs; }
  /// The same, oldest free chunk first, until \p Want bytes are purged;
  /// unless \p AnyAge only chunks idle for a whole pass interval (freed
  /// before the last pass but one): a block freed and reused in a loop never
  /// pays a purge and a fault per round.
  uint64_t purgeOldestLocked(uint64_t Want, int32_t Keep, bool AnyAge);
  /// The committed pages of free chunks (not \p Keep's), highest first,
  /// until \p Want bytes are purged (what a frag cap asks).
  uint64_t purgeTopLocked(uint64_t Want, int32_t Keep);
  uint64_t cachedBytesLocked() const { return CachedBytes; }
  uint64_t allocatedSizeLocked(const void *Ptr) const;
  uint64_t largestFreeChunkLocked() const;
  bool checkInvariantsLocked(std::string *Why) const;
  int binForSize(uint64_t Bytes) const;
  /// The smallest chunk size of bin \p B.
  uint64_t binMinSize(int B) const;
  const memplan_rt_stats &countersLocked() const { return Stats; }
  /// Plans made and allocs served by them (options.replay).
  uint64_t replayPlansLocked() const {
    return Replay ? Replay->plansMade() : 0;
  }
  uint64_t replayedLocked() const { return Replay ? Replay->replayed() : 0; }
  /// options.frag_cap where pages are purged, else 0.
  double fragCap() const { return FragCap; }
  size_t numRegionsLocked() const { return Regions.size(); }

  alignas(64) mutable HeapMutex Mu;

private:
  /// Stats.bytes_in_use and requested_bytes_in_use, for the other heaps'
  /// frag cap checks and the allocator's peaks (kept with a cap or several
  /// heaps), on the lock's line: written under the lock.
  std::atomic<uint64_t> InUseShared{0}, RequestedShared{0};

  using Handle = int32_t;
  static constexpr Handle None = -1;

  /// One cache line: a free walks the chunk, its neighbours and their bin
  /// neighbours, a line each (72 bytes had most records on two lines).
  struct alignas(64) Chunk {
    char *Ptr = nullptr;
    uint64_t Size = 0;
    uint64_t Requested = 0;
    int64_t AllocId = -1;                  // -1 while free
    Handle Prev = None, Next = None;       // address neighbours
    Handle BinPrev = None, BinNext = None; // bin list, sorted (size, address)
    /// When it was freed: the heap's purge pass count, modulo 2^32 (after a
    /// merge, that of the part with more committed bytes). Read only as
    /// passSince(), the passes since, and a purgeable chunk is purged 16
    /// passes after it was freed, long before the count wraps.
    uint32_t FreeSince = 0;
    int16_t Bin = -1; // -1 when not in a bin
    /// Free in a bin with whole pages a pass may purge (not purged yet).
    bool Purgeable = false;
    /// Some of its pages may be purged (set by a purge, kept by splits and
    /// merges, cleared by recommit): an allocation from memory never purged
    /// skips the page bitmap.
    bool MayBeGone = false;
    bool inUse() const { return AllocId >= 0; }
    /// Free and in a bin (not waiting in the size cache).
    bool isFree() const { return AllocId == -1; }
    bool cached() const { return AllocId == Cached; }
  };
  static_assert(sizeof(Chunk) == 64, "a chunk record is one cache line");
  /// Passes since \p C was freed.
  uint32_t passesSince(const Chunk &C) const {
    return uint32_t(PassSeq) - C.FreeSince;
  }

  /// AllocId of a freed chunk kept in the size cache (linked by BinNext).
  static constexpr int64_t Cached = -2;
  /// Chunks of up to this many rounding units are cached.
  static constexpr uint64_t MaxCacheClass = 4096;

  struct Region {
    char *Base = nullptr;
    uint64_t Size = 0;
    /// The handle of the chunk at each rounding unit where a block was
    /// allocated, and of the first chunk at the base; nothing else is kept
    /// up to date, so an entry names that chunk only if the chunk's Ptr is
    /// the unit's address (slotChunk). Split and merge write no entry: in
    /// the random mix (a 60 MB region, a 940 KB table) those writes missed
    /// the cache.
    std::vector<Handle> Slots;
    /// The chunk at the region's end (growth merges with it when free).
    Handle Last = None;
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

  /// The bins' and growth's block (allocateLocked without the plan).
  void *allocateChunkLocked(uint64_t Bytes, uint64_t Rounded, uint64_t Align,
                            bool MayGrow);
  /// A block of the learned plan (ReplayPlan.h), or null.
  void *replayLocked(uint64_t Bytes, uint64_t Rounded, uint64_t Align);
  /// Frees a block of the plan's arena.
  memplan_rt_status giveLocked(const char *P);
  /// After the heap freed block \p Id.
  void noteFreeLocked(int64_t Id) {
    Replay->noteFree(Id);
    freeDroppedArena();
  }
  /// The chunk of a plan just dropped goes back to the bins.
  void freeDroppedArena();
  /// A plan with no episode under way is dropped, its chunk back.
  void dropIdlePlan() {
    Replay->dropIfIdle();
    freeDroppedArena();
  }
  /// The counters of an alloc and a free of \p Size chunk bytes, \p Bytes
  /// requested.
  void countAlloc(uint64_t Size, uint64_t Bytes);
  void countFree(uint64_t Size, uint64_t Bytes) {
    ++Stats.num_frees;
    Stats.bytes_in_use -= Size;
    Stats.requested_bytes_in_use -= Bytes;
    shareInUse();
  }

  Handle newChunk();
  void deleteChunk(Handle H);
  void *markAllocated(Handle H, uint64_t Bytes);
  inline void markPurgeable(Chunk &C);
  /// The purgeable chunks that pass \p Old, in bin order.
  template <typename Pred> std::vector<Handle> purgeableChunks(Pred Old) const;
  void tick();
  /// A pass over the bins if an eighth of the delay has passed since
  /// the last one; false if not.
  bool passLocked(uint64_t Now);
  uint64_t readClock() const;
  uint64_t purgeAged(uint64_t Now);
  void recommit(Chunk &C);
  void makeRoom(uint64_t Bytes, Handle Keep);
  /// Purges the committed whole pages of free chunk \p C, from its end
  /// down, until \p Want bytes are purged; gives the bytes.
  uint64_t purgeChunk(Region &R, Chunk &C, uint64_t Want = UINT64_MAX);
  /// purgeChunk on each of \p Order in turn until \p Want bytes are purged.
  uint64_t purgeInTurn(const std::vector<Handle> &Order, uint64_t Want);
  /// Purge(Heap, Want) on the other heaps that are free to lock, in turn,
  /// until \p Want bytes are purged.
  template <typename Fn> uint64_t purgeOthers(uint64_t Want, Fn Purge);
  void insertIntoBin(Handle H);
  void removeFromBin(Handle H);
  Handle findChunk(uint64_t Rounded, uint64_t Align) const;
  Handle split(Handle H, uint64_t Bytes);
  void merge(Handle H1, Handle H2);
  Handle coalesce(Handle H);
  bool extend(uint64_t Rounded, uint64_t Align);
  /// Takes a new block of \p Bytes from the source into the heap (under the
  /// limit and the frag cap); false if none is had.
  bool reserveRegion(uint64_t Bytes, uint64_t Rounded, Handle Tail);
  void addBlock(char *Ptr, uint64_t Bytes);
  inline Region *regionFor(const void *Ptr);
  inline const Region *regionFor(const void *Ptr) const;
  const Region *regionForSlow(const char *P) const;
  inline void setSlot(const char *Ptr, Handle H);
  /// The chunk starting at \p Ptr (in \p R) if Ptr is a multiple of the
  /// rounding from R's base and its slot names that chunk, else None.
  inline Handle slotChunk(const Region &R, const char *Ptr) const;
  memplan_rt_status classifyBadFree(const Region &R, const char *Ptr) const;

  std::atomic<uint64_t> &makeSizeWord(const void *Ptr);
  static constexpr int LeafShift = 24;
  static constexpr uint64_t LeafBytes = uint64_t(1) << LeafShift;
  uint64_t ThreadCacheMax = 0; // 0: no thread caches
  /// log2 of the rounding (a power of two): the hot paths shift instead of
  /// dividing by a run-time value, a 64-bit div of 10-18 cycles each, about
  /// eight per alloc+free pair.
  unsigned RoundShift = 0;
  std::unique_ptr<std::atomic<std::atomic<uint64_t> *>[]> Leaves;
  size_t NumLeaves = 0;
  int64_t ReqFix = 0;

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
  /// options.replay: the learned plan of repeated episodes; null without.
  std::unique_ptr<ReplayPlan> Replay;
  /// Allocs the plan served at the last purge pass: a plan idle for a whole
  /// pass is dropped, so its arena can be purged.
  uint64_t ReplayedAtPass = UINT64_MAX;
  /// Set around the heap's own alloc and free of a plan's arena chunk: not
  /// a block of the program's, so not counted.
  bool Quiet = false;
  /// Size cache (Opts.cache): per chunk size in rounding units, the freed
  /// chunks of that size, most recent first.
  std::vector<Handle> CacheHead;
  std::vector<uint64_t> CacheMask; // bit per size whose list is not empty
  uint64_t CachedBytes = 0;
  /// The cache pays only where requests find their size in it: where few
  /// do, the chunks it holds unmerged cost more than its hits save
  /// (MiniMalloc's J: 10% of requests served from it, 1.5x the time per
  /// pair of the cache off; the DNN trace: 62%, 0.8x). Each window of
  /// CacheWindow allocations counts the requests it served, or while it
  /// takes no chunks those it would have (WouldHold: a count per size of
  /// the chunks it would hold, within its budget); the next window takes
  /// chunks only if they were at least half.
  static constexpr uint32_t CacheWindow = 4096;
  uint32_t WindowAllocs = 0, WindowHits = 0;
  bool CacheTakes = true;
  std::vector<uint8_t> WouldHold;
  uint64_t WouldHoldBytes = 0;
  void endCacheWindow();
  uint64_t cacheBudget() const {
    return std::max<uint64_t>(Stats.bytes_in_use / 128, 64 << 10);
  }
  /// Purging (VIRTUAL source, no limit): pages of free chunks given back.
  bool CanPurge = false;
  uint64_t Page = 4096;
  uint64_t GoneBytes = 0;
  /// options.frag_cap where pages are purged, else 0.
  double FragCap = 0;
  /// With a cap: before \p Bytes more are committed for a block of \p InUse
  /// more bytes in use, free pages (not \p Keep's) go back until the
  /// committed bytes stay within the cap.
  void holdFragCap(uint64_t Bytes, uint64_t InUse, Handle Keep);
  /// A soft cap's window: allocs left in it, the time spent purging and
  /// faulting purged pages back in it, when it started, the peak in use
  /// then, and whether the cap held for all of it so far.
  bool CapSoft = false;
  static constexpr uint32_t CapWindow = 32768;
  static constexpr uint64_t CapMinPause = 64, CapMaxPause = 1024,
                            CapEarlyNs = 1000000;
  uint32_t CapWindowLeft = CapWindow;
  uint64_t CapWindowCostNs = 0, CapWindowStartNs = 0, CapWindowPeak = 0;
  bool CapWindowHeld = true;
  void endCapWindow(bool Thrashing);
  /// More than a quarter of the window's time so far.
  bool capCostly(uint64_t Now) const {
    return CapWindowCostNs > (Now - CapWindowStartNs) / 4;
  }
  /// Costly already, with a millisecond more than three quarters of the
  /// time so far, or 4 ms more than a quarter.
  bool capThrashing(uint64_t Now) const {
    uint64_t Elapsed = Now - CapWindowStartNs;
    return CapWindowCostNs >
           (CapWindowCostNs >= 4 * CapEarlyNs ? Elapsed / 4 : Elapsed / 4 * 3);
  }
  /// A new peak of this heap's own: the allocator's peaks are the sums over
  /// the heaps then (what one heap's peak is not, or the sum of theirs:
  /// with two heaps that summed 1.37x the peak reserved).
  void notePeaks();
  void shareInUse() {
    if (FragCap || Shared->Heaps.size() > 1) {
      InUseShared.store(Stats.bytes_in_use, std::memory_order_relaxed);
      RequestedShared.store(Stats.requested_bytes_in_use,
                            std::memory_order_relaxed);
    }
  }
  static constexpr uint64_t PurgeMin = 4096;
  /// Delayed purging: the clock is read every CheckEvery allocs and frees.
  uint64_t DelayNs = 0; // 0: eager (or no purging)
  /// Passes over the bins, at least an eighth of the delay apart; a
  /// chunk freed after pass P was freed before pass P + 1, whose time is
  /// kept while the delay may not have passed since.
  uint64_t NextPass = 0, PassSeq = 0;
  uint64_t PassTimes[16] = {};
  uint32_t EventsToCheck = 1;
  static constexpr uint32_t CheckEvery = 64;

  friend struct DumpWriter;
};

// The helpers below run several times per alloc and free: inline, and the
// alloc and free paths sit in the file of the bins (HeapBins.cpp). Calls
// across files were 5% of the instructions of a MiniMalloc trace replay
// (callgrind).

const BFCHeap::Region *BFCHeap::regionFor(const void *Ptr) const {
  const char *P = static_cast<const char *>(Ptr);
  // The VIRTUAL source merges its blocks into one region: no search.
  if (Regions.size() == 1)
    return P >= Regions[0].Base && P < Regions[0].Base + Regions[0].Size
               ? &Regions[0]
               : nullptr;
  return regionForSlow(P);
}

BFCHeap::Region *BFCHeap::regionFor(const void *Ptr) {
  return const_cast<Region *>(
      static_cast<const BFCHeap *>(this)->regionFor(Ptr));
}

void BFCHeap::setSlot(const char *Ptr, Handle H) {
  Region *R = regionFor(Ptr);
  R->Slots[(Ptr - R->Base) >> RoundShift] = H;
}

BFCHeap::Handle BFCHeap::slotChunk(const Region &R, const char *Ptr) const {
  if ((Ptr - R.Base) & (Opts.rounding - 1))
    return None;
  Handle H = R.Slots[(Ptr - R.Base) >> RoundShift];
  return H != None && Chunks[H].Ptr == Ptr ? H : None;
}

// A free chunk with whole pages a pass may purge is marked, not linked into
// a list by age: the list touched two more chunk records (cache lines) per
// bin insert and removal. Without it a MiniMalloc trace replay (blocks not
// touched) runs 4% fewer instructions (callgrind) and takes 7% less CPU
// time; the passes (an eighth of the delay apart) and growth past the peak
// walk the bins instead.
void BFCHeap::markPurgeable(Chunk &C) {
  uint64_t Addr = reinterpret_cast<uint64_t>(C.Ptr);
  uint64_t Lo = alignUp(Addr, Page), Hi = alignDown(Addr + C.Size, Page);
  C.Purgeable = Hi > Lo && Hi - Lo >= PurgeMin;
}

template <typename Pred>
std::vector<BFCHeap::Handle> BFCHeap::purgeableChunks(Pred Old) const {
  std::vector<Handle> Out;
  for (int W = 0; W < MaskWords; ++W)
    for (uint64_t M = NonEmptyBins[W]; M; M &= M - 1)
      for (Handle H = BinHead[W * 64 + __builtin_ctzll(M)]; H != None;
           H = Chunks[H].BinNext)
        if (Chunks[H].Purgeable && Old(H))
          Out.push_back(H);
  return Out;
}

// Here, not in BFCAllocator.cpp: every free calls it, and ThreadCache.cpp's
// free path inlines it.
inline BFCHeap *BFCAllocator::heapFor(const void *Ptr) const {
  if (Heaps.size() == 1)
    return Heaps[0].get();
  const char *P = static_cast<const char *>(Ptr);
  for (size_t I = 0; I < Ranges.size(); ++I)
    if (P >= Ranges[I].first && P < Ranges[I].second)
      return Heaps[I].get();
  return nullptr;
}

} // namespace memplan::rt

#endif // MEMPLAN_LIB_RUNTIME_BFCHEAP_H
