//===- Heap.cpp - One best-fit-with-coalescing heap -----------------------===//
//
// Setting up one heap (arena), allocation and free; the caller holds its
// lock. Its bins, split and merge are in HeapBins.cpp, its regions and growth
// in HeapRegions.cpp, purging in HeapPurge.cpp; BFCAllocator.cpp spreads
// threads over heaps; the dump and the invariant checker live in Dump.cpp
// and Invariants.cpp.
//
//===----------------------------------------------------------------------===//

#include "BFCHeap.h"
#include "Internal.h"

#include <algorithm>
#include <cstring>
#include <ctime>
#include <new>

using namespace memplan::rt;

namespace {
constexpr uint64_t kRegionAlign = 4096;
} // namespace

bool SharedCounters::tryReserve(uint64_t Bytes) {
  uint64_t Cur = Reserved.load(std::memory_order_relaxed);
  do {
    if (Limit && (Cur > Limit || Bytes > Limit - Cur))
      return false;
  } while (!Reserved.compare_exchange_weak(Cur, Cur + Bytes,
                                           std::memory_order_relaxed));
  uint64_t New = Cur + Bytes;
  uint64_t Peak = PeakReserved.load(std::memory_order_relaxed);
  while (New > Peak && !PeakReserved.compare_exchange_weak(
                           Peak, New, std::memory_order_relaxed))
    ;
  return true;
}

std::unique_ptr<BFCHeap> BFCHeap::create(const memplan_rt_options &Opts,
                                         SharedCounters *Shared, int Index,
                                         memplan_rt_status *Status) {
  auto Fail = [&](memplan_rt_status S) {
    if (Status)
      *Status = S;
    return std::unique_ptr<BFCHeap>();
  };
  std::unique_ptr<BFCHeap> A(new (std::nothrow) BFCHeap(Opts, Shared, Index));
  if (!A)
    return Fail(MEMPLAN_RT_OUT_OF_MEMORY);
  A->Sub = createSubAllocator(Opts.source, Opts.memory_limit);
  if (!A->Sub)
    return Fail(MEMPLAN_RT_OUT_OF_MEMORY);
  auto [Lo, Hi] = A->Sub->range();
  A->RangeLo = Lo;
  A->RangeHi = Hi;
  A->RegionUnit = std::max<uint64_t>(A->Opts.rounding, A->Sub->unit());
  A->Page = A->Sub->unit();
  // Purging needs pages (the VIRTUAL source); under a limit a purged page
  // might not be had back, so limits keep every page they reserved.
  A->CanPurge = Opts.decommit && !Opts.memory_limit && Opts.allow_growth &&
                A->RangeLo && A->Page >= 4096 && !(A->Page & (A->Page - 1));
  if (A->CanPurge && Opts.purge_delay_ms)
    A->DelayNs = Opts.purge_delay_ms * 1000000;
  // Without growth the whole limit is one region, reserved now.
  if (!Opts.allow_growth) {
    uint64_t Bytes = alignDown(Opts.memory_limit, A->RegionUnit);
    if (!Bytes)
      return Fail(MEMPLAN_RT_BAD_OPTIONS);
    void *P = Shared->tryReserve(Bytes) ? A->Sub->alloc(Bytes, A->RegionAlign)
                                        : nullptr;
    if (!P)
      return Fail(MEMPLAN_RT_OUT_OF_MEMORY);
    A->addBlock(static_cast<char *>(P), Bytes);
  }
  if (Status)
    *Status = MEMPLAN_RT_OK;
  return A;
}

BFCHeap::BFCHeap(const memplan_rt_options &O, SharedCounters *Shared, int Index)
    : Opts(O), Shared(Shared), Index(Index) {
  SplitThreshold = std::max<uint64_t>(Opts.split_threshold, Opts.rounding);
  RegionAlign = std::max<uint64_t>(kRegionAlign, Opts.rounding);
  RegionUnit = Opts.rounding;
  CurRegionBytes =
      alignUp(std::max<uint64_t>(Opts.initial_region, 1), Opts.rounding);
  if (Opts.memory_limit)
    CurRegionBytes = std::min(
        CurRegionBytes,
        std::max(alignDown(Opts.memory_limit, Opts.rounding), Opts.rounding));
  for (Handle &H : BinHead)
    H = None;
  Stats.bytes_limit = Opts.memory_limit;
  if (Opts.cache) {
    CacheHead.assign(MaxCacheClass + 1, None);
    CacheMask.assign((MaxCacheClass + 1 + 63) / 64, 0);
  }
  // Ids of allocations are unique over the heaps of one allocator.
  NextAllocId = (int64_t(Index) << 40) + 1;
}

BFCHeap::~BFCHeap() {
  for (const Region &R : Regions) {
    Sub->free(R.Base, R.Size);
    Shared->unreserve(R.Size - R.GoneBytes);
  }
}

uint64_t BFCHeap::readClock() const {
  if (Opts.clock_ns)
    return Opts.clock_ns(Opts.clock_ctx);
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return uint64_t(T.tv_sec) * 1000000000 + uint64_t(T.tv_nsec);
}

//===-- Allocate and free -------------------------------------------------===//

void *BFCHeap::allocateLocked(uint64_t Bytes, uint64_t Rounded,
                              uint64_t Align) {
  if (DelayNs && !--EventsToCheck)
    tick();
  if (Opts.cache) {
    uint64_t Class = Rounded / Opts.rounding;
    if (Class <= MaxCacheClass && CacheHead[Class] != None) {
      Handle H = CacheHead[Class];
      Chunk &C = Chunks[H];
      if (!(reinterpret_cast<uintptr_t>(C.Ptr) & (Align - 1))) {
        CacheHead[Class] = C.BinNext;
        if (C.BinNext == None)
          CacheMask[Class / 64] &= ~(uint64_t(1) << (Class % 64));
        C.BinNext = None;
        CachedBytes -= C.Size;
        return markAllocated(H, Bytes);
      }
    }
  }
  Handle H = findChunk(Rounded, Align);
  // Cached chunks go back to the bins (merging) before the heap grows, so the
  // cache never makes the heap reserve more.
  if (H == None && CachedBytes && flushCacheLocked())
    H = findChunk(Rounded, Align);
  if (H == None && extend(Rounded, Align))
    H = findChunk(Rounded, Align);
  if (H == None && Opts.release_free_regions && releaseFreeRegionsLocked() &&
      extend(Rounded, Align))
    H = findChunk(Rounded, Align);
  if (H == None)
    return nullptr;
  removeFromBin(H);
  // The chosen chunk was free, so its neighbours are in use (free neighbours
  // are always merged): the pieces split off below need no coalescing.
  uint64_t Addr = reinterpret_cast<uint64_t>(Chunks[H].Ptr);
  if (uint64_t Pad = alignUp(Addr, Align) - Addr) {
    Handle Lead = H;
    H = split(Lead, Pad);
    // Padding behind a block in use becomes that block's internal waste
    // instead of a free sliver: such slivers (under 4 KiB, mostly) filled
    // the small bins of the random mix, whose sorted lists every free then
    // walked (9% of its instructions; frag the same). It comes back with
    // that block.
    Handle Before = Chunks[Lead].Prev;
    if (Before != None && Chunks[Before].inUse()) {
      merge(Before, Lead);
      Stats.bytes_in_use += Pad;
      Stats.peak_bytes_in_use =
          std::max(Stats.peak_bytes_in_use, Stats.bytes_in_use);
    } else {
      insertIntoBin(Lead);
    }
  }
  // Split rule: cut off the rest when it is at least SplitThreshold bytes
  // (by default the rounding, i.e. whenever the rest can be a chunk). TF
  // splits only when the chunk is twice the request, which wastes up to half
  // a chunk; we keep internal waste below the threshold instead.
  if (Chunks[H].Size - Rounded >= SplitThreshold)
    insertIntoBin(split(H, Rounded));

  return markAllocated(H, Bytes);
}

void *BFCHeap::markAllocated(Handle H, uint64_t Bytes) {
  Chunks[H].AllocId = NextAllocId++; // in use before recommit may merge
  if (Chunks[H].MayBeGone)
    recommit(Chunks[H]);
  Chunk &C = Chunks[H];
  C.Requested = Bytes;
  ++Stats.num_allocs;
  Stats.bytes_in_use += C.Size;
  Stats.peak_bytes_in_use =
      std::max(Stats.peak_bytes_in_use, Stats.bytes_in_use);
  Stats.requested_bytes_in_use += Bytes;
  Stats.peak_requested_bytes_in_use =
      std::max(Stats.peak_requested_bytes_in_use, Stats.requested_bytes_in_use);
  Stats.largest_alloc_size = std::max(Stats.largest_alloc_size, C.Size);
  if (Opts.trace)
    Trace.push_back(
        {Shared->TraceSeq++, C.AllocId, true, C.Ptr, C.Size, Bytes});
  return C.Ptr;
}

// Says why Ptr, which is not the start of a live chunk of R, cannot be freed:
// it points into free memory (freed already) or into the middle of a chunk.
memplan_rt_status BFCHeap::classifyBadFree(const Region &R,
                                           const char *Ptr) const {
  size_t Slot = (Ptr - R.Base) / Opts.rounding;
  while (R.Slots[Slot] == None && Slot > 0)
    --Slot;
  Handle H = R.Slots[Slot];
  if (H == None)
    return MEMPLAN_RT_FOREIGN_POINTER;
  const Chunk &C = Chunks[H];
  if (!C.inUse())
    return MEMPLAN_RT_DOUBLE_FREE;
  return MEMPLAN_RT_FOREIGN_POINTER;
}

memplan_rt_status BFCHeap::deallocateLocked(void *Ptr) {
  const char *P = static_cast<const char *>(Ptr);
  const Region *R = regionFor(P);
  memplan_rt_status Bad = MEMPLAN_RT_OK;
  Handle H = None;
  if (!R) {
    Bad = MEMPLAN_RT_FOREIGN_POINTER;
  } else {
    uint64_t Off = P - R->Base;
    H = Off % Opts.rounding ? None : R->Slots[Off / Opts.rounding];
    if (H == None || !Chunks[H].inUse())
      Bad = classifyBadFree(*R, P);
  }
  if (Bad != MEMPLAN_RT_OK) {
    ++Stats.num_failures;
    return Bad;
  }
  if (DelayNs && !--EventsToCheck)
    tick();
  Chunk &C = Chunks[H];
  if (Opts.trace)
    Trace.push_back(
        {Shared->TraceSeq++, C.AllocId, false, C.Ptr, C.Size, C.Requested});
  ++Stats.num_frees;
  Stats.bytes_in_use -= C.Size;
  Stats.requested_bytes_in_use -= C.Requested;
  C.Requested = 0;
  // A chunk of a common size waits in the cache for the next request of its
  // size: no merge now, no split then. The cache holds at most 1/128 of the
  // bytes in use, or 64 KiB: cached chunks stay unmerged, and a quarter (as
  // it once was) kept holes from merging so often that the peak reserved
  // rose 10% (random mix: frag 1.27 against 1.16; DNN trace 1.31 against
  // 1.17), while the hits that make it fast need only a few chunks.
  uint64_t Class = C.Size / Opts.rounding;
  if (Opts.cache && Class <= MaxCacheClass &&
      CachedBytes + C.Size <=
          std::max<uint64_t>(Stats.bytes_in_use / 128, 64 << 10)) {
    C.AllocId = Cached;
    C.BinNext = CacheHead[Class];
    CacheHead[Class] = H;
    CacheMask[Class / 64] |= uint64_t(1) << (Class % 64);
    CachedBytes += C.Size;
    return MEMPLAN_RT_OK;
  }
  C.AllocId = -1;
  C.FreeSince = uint32_t(PassSeq);
  insertIntoBin(coalesce(H));
  return MEMPLAN_RT_OK;
}

//===-- Queries -----------------------------------------------------------===//

uint64_t BFCHeap::largestFreeChunkLocked() const {
  for (int B = NumBins - 1; B >= 0; --B) {
    uint64_t Max = 0;
    for (Handle H = BinHead[B]; H != None; H = Chunks[H].BinNext)
      Max = Chunks[H].Size;
    if (Max)
      return Max;
  }
  return 0;
}

uint64_t BFCHeap::allocatedSizeLocked(const void *Ptr) const {
  const Region *R = Ptr ? regionFor(Ptr) : nullptr;
  if (!R)
    return 0;
  uint64_t Off = static_cast<const char *>(Ptr) - R->Base;
  if (Off % Opts.rounding)
    return 0;
  Handle H = R->Slots[Off / Opts.rounding];
  return H != None && Chunks[H].inUse() ? Chunks[H].Size : 0;
}
