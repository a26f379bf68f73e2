//===- Heap.cpp - One best-fit-with-coalescing heap -----------------------===//
//
// Setting up one heap (arena) and its queries; the caller holds its lock.
// Allocation and free, with the bins, split and merge they use, are in
// HeapBins.cpp, its regions and growth in HeapRegions.cpp, purging in
// HeapPurge.cpp; BFCAllocator.cpp spreads
// threads over heaps; the dump and the invariant checker live in Dump.cpp
// and Invariants.cpp.
//
//===----------------------------------------------------------------------===//

#include "BFCHeap.h"
#include "Internal.h"

#include <algorithm>
#include <cstdlib>
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
  // A delay past 2^62 ns (146 years) is taken as that: milliseconds times
  // 10^6 once wrapped, and a delay of 18446744073710 ms purged in 0.5 ms.
  constexpr uint64_t MaxDelayNs = uint64_t(1) << 62;
  if (A->CanPurge && Opts.purge_delay_ms)
    A->DelayNs = Opts.purge_delay_ms > MaxDelayNs / 1000000
                     ? MaxDelayNs
                     : Opts.purge_delay_ms * 1000000;
  if (A->CanPurge) {
    A->FragCap = Opts.frag_cap;
    A->CapSoft = Opts.frag_cap && Opts.frag_cap_soft;
    A->CapWindowStartNs = A->readClock();
  }
  // The plan's records name blocks by id, and a trace or a thread cache
  // would see blocks the bins never made.
  if (Opts.replay && !Opts.trace)
    A->Replay = std::make_unique<ReplayPlan>(A->RoundShift, Opts.replay == 2);
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
  RoundShift = log2Floor(Opts.rounding);
  SplitThreshold = std::max<uint64_t>(Opts.split_threshold, Opts.rounding);
  RegionAlign = std::max<uint64_t>(kRegionAlign, Opts.rounding);
  RegionUnit = Opts.rounding;
  // BFCAllocator::create refused sizes past kMaxRegionBytes: no wrap here.
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
    WouldHold.assign(MaxCacheClass + 1, 0);
  }
  // Ids of allocations are unique over the heaps of one allocator.
  NextAllocId = (int64_t(Index) << 40) + 1;
}

BFCHeap::~BFCHeap() {
  for (size_t I = 0; I < NumLeaves; ++I)
    std::free(Leaves[I].load(std::memory_order_relaxed));
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
  if (Replay && Replay->owns(Ptr))
    return Replay->liveSize(static_cast<const char *>(Ptr));
  const Region *R = Ptr ? regionFor(Ptr) : nullptr;
  if (!R)
    return 0;
  Handle H = slotChunk(*R, static_cast<const char *>(Ptr));
  return H != None && Chunks[H].inUse() ? Chunks[H].Size : 0;
}

// Says why Ptr, which is not the start of a live chunk of R, cannot be freed:
// it points into free memory (freed already) or into the middle of a chunk.
memplan_rt_status BFCHeap::classifyBadFree(const Region &R,
                                           const char *Ptr) const {
  // The slots of free chunks are not kept: walk the region's chunks (an
  // error's path only).
  for (Handle H = R.Slots.empty() ? None : R.Slots[0]; H != None;
       H = Chunks[H].Next) {
    const Chunk &C = Chunks[H];
    if (Ptr >= C.Ptr && Ptr < C.Ptr + C.Size)
      return C.inUse() ? MEMPLAN_RT_FOREIGN_POINTER : MEMPLAN_RT_DOUBLE_FREE;
  }
  return MEMPLAN_RT_FOREIGN_POINTER;
}
