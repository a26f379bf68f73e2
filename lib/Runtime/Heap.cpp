//===- Heap.cpp - One best-fit-with-coalescing heap -----------------------===//
//
// Allocation, free, bins, regions and growth of one heap (arena); the caller
// holds its lock. BFCAllocator.cpp spreads threads over heaps; the dump and
// the invariant checker live in Dump.cpp and Invariants.cpp.
//
//===----------------------------------------------------------------------===//

#include "memplan/Runtime/BFCAllocator.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <sys/mman.h>

using namespace memplan::rt;

namespace {
uint64_t alignUp(uint64_t X, uint64_t A) { return (X + A - 1) & ~(A - 1); }
uint64_t alignDown(uint64_t X, uint64_t A) { return X & ~(A - 1); }
int log2Floor(uint64_t X) { return 63 - __builtin_clzll(X); }
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

int BFCHeap::binForSize(uint64_t Bytes) const {
  uint64_t Units = std::max<uint64_t>(Bytes / Opts.rounding, 1);
  return std::min(NumBins - 1, log2Floor(Units));
}

//===-- Chunk records and bins --------------------------------------------===//

BFCHeap::Handle BFCHeap::newChunk() {
  if (FreeHandles != None) {
    Handle H = FreeHandles;
    FreeHandles = Chunks[H].Next;
    Chunks[H] = Chunk();
    return H;
  }
  Chunks.emplace_back();
  return static_cast<Handle>(Chunks.size() - 1);
}

void BFCHeap::deleteChunk(Handle H) {
  setSlot(Chunks[H].Ptr, None);
  Chunks[H] = Chunk();
  Chunks[H].Next = FreeHandles;
  FreeHandles = H;
}

// Bins are intrusive lists sorted by (size, address): the first chunk that
// fits is the best fit, with ties going to the lowest address as in TF's
// std::set ordering, and inserting costs a walk over one bin, which holds few
// chunks in DNN workloads.
void BFCHeap::insertIntoBin(Handle H) {
  Chunk &C = Chunks[H];
  int B = binForSize(C.Size);
  C.Bin = B;
  Handle Prev = None, Cur = BinHead[B];
  while (Cur != None) {
    const Chunk &O = Chunks[Cur];
    if (O.Size > C.Size || (O.Size == C.Size && O.Ptr > C.Ptr))
      break;
    Prev = Cur;
    Cur = O.BinNext;
  }
  C.BinPrev = Prev;
  C.BinNext = Cur;
  if (Cur != None)
    Chunks[Cur].BinPrev = H;
  if (Prev != None)
    Chunks[Prev].BinNext = H;
  else
    BinHead[B] = H;
  NonEmptyBins |= 1u << B;
  ++Stats.num_free_chunks;
}

void BFCHeap::removeFromBin(Handle H) {
  Chunk &C = Chunks[H];
  if (C.BinPrev != None)
    Chunks[C.BinPrev].BinNext = C.BinNext;
  else
    BinHead[C.Bin] = C.BinNext;
  if (C.BinNext != None)
    Chunks[C.BinNext].BinPrev = C.BinPrev;
  if (BinHead[C.Bin] == None)
    NonEmptyBins &= ~(1u << C.Bin);
  C.Bin = -1;
  C.BinPrev = C.BinNext = None;
  --Stats.num_free_chunks;
}

BFCHeap::Handle BFCHeap::findChunk(uint64_t Rounded, uint64_t Align) const {
  int B = binForSize(Rounded);
  uint32_t Mask = NonEmptyBins & ~((1u << B) - 1);
  while (Mask) {
    B = __builtin_ctz(Mask);
    Mask &= Mask - 1;
    for (Handle H = BinHead[B]; H != None; H = Chunks[H].BinNext) {
      const Chunk &C = Chunks[H];
      if (C.Size < Rounded)
        continue;
      uint64_t Addr = reinterpret_cast<uint64_t>(C.Ptr);
      uint64_t Pad = alignUp(Addr, Align) - Addr;
      if (C.Size - Rounded >= Pad)
        return H;
    }
  }
  return None;
}

//===-- Regions -----------------------------------------------------------===//

const BFCHeap::Region *BFCHeap::regionFor(const void *Ptr) const {
  const char *P = static_cast<const char *>(Ptr);
  auto It = std::upper_bound(
      Regions.begin(), Regions.end(), P,
      [](const char *V, const Region &R) { return V < R.Base; });
  if (It == Regions.begin())
    return nullptr;
  --It;
  return P < It->Base + It->Size ? &*It : nullptr;
}

BFCHeap::Region *BFCHeap::regionFor(const void *Ptr) {
  return const_cast<Region *>(
      static_cast<const BFCHeap *>(this)->regionFor(Ptr));
}

void BFCHeap::setSlot(const char *Ptr, Handle H) {
  Region *R = regionFor(Ptr);
  R->Slots[(Ptr - R->Base) / Opts.rounding] = H;
}

BFCHeap::Handle BFCHeap::lastChunk(const Region &R) const {
  for (size_t I = R.Slots.size(); I-- > 0;)
    if (R.Slots[I] != None)
      return R.Slots[I];
  return None;
}

// Takes a block from the sub-allocator into the allocator: a new region, or,
// when the source is contiguous and the block starts where a region ends, the
// tail of that region (merged with its last chunk when that one is free).
void BFCHeap::addBlock(char *Ptr, uint64_t Bytes) {
  Stats.bytes_reserved += Bytes;
  Stats.peak_bytes_reserved =
      std::max(Stats.peak_bytes_reserved, Stats.bytes_reserved);
  Handle H = newChunk();
  Chunks[H].Ptr = Ptr;
  Chunks[H].Size = Bytes;
  Region *Ext = nullptr;
  if (Sub->contiguous())
    for (Region &R : Regions)
      if (R.Base + R.Size == Ptr)
        Ext = &R;
  if (Ext) {
    Handle Last = lastChunk(*Ext);
    Ext->Size += Bytes;
    Ext->Slots.resize(Ext->Size / Opts.rounding, None);
    Ext->Gone.resize((Ext->Size / Page + 63) / 64, 0);
    Chunks[H].Prev = Last;
    Chunks[Last].Next = H;
  } else {
    Region R;
    R.Base = Ptr;
    R.Size = Bytes;
    R.Slots.assign(Bytes / Opts.rounding, None);
    R.Gone.assign((Bytes / Page + 63) / 64, 0);
    auto It = std::upper_bound(
        Regions.begin(), Regions.end(), Ptr,
        [](const char *V, const Region &O) { return V < O.Base; });
    Regions.insert(It, std::move(R));
  }
  setSlot(Ptr, H);
  insertIntoBin(coalesce(H));
}

bool BFCHeap::extend(uint64_t Rounded, uint64_t Align) {
  if (!Opts.allow_growth)
    return false;
  // The limit holds for all heaps together.
  uint64_t Avail = UINT64_MAX;
  if (Opts.memory_limit) {
    uint64_t Total = Shared->Reserved.load(std::memory_order_relaxed);
    Avail = Opts.memory_limit > Total
                ? alignDown(Opts.memory_limit - Total, RegionUnit)
                : 0;
  }
  // Worst-case padding to reach the alignment inside a fresh region.
  uint64_t Need = Rounded + (Align > RegionAlign ? Align - RegionAlign : 0);
  uint64_t Bytes;
  Handle Tail = None; // a free chunk the new block merges with
  if (Sub->contiguous()) {
    // Grow by what is missing: the new block merges with a free tail chunk
    // of the region it extends, so reserved memory tracks the high-water
    // mark instead of doubling.
    uint64_t Step =
        alignUp(std::max<uint64_t>(Opts.growth_granule, 1), RegionUnit);
    Bytes = alignUp(Need, Step);
    const char *Next = Sub->nextAddress();
    if (const Region *R = Next ? regionFor(Next - 1) : nullptr) {
      if (R->Base + R->Size == Next) {
        const Chunk &T = Chunks[lastChunk(*R)];
        if (T.isFree()) {
          Tail = lastChunk(*R);
          uint64_t Addr = reinterpret_cast<uint64_t>(T.Ptr);
          uint64_t End = alignUp(Addr, Align) + Rounded;
          Bytes = alignUp(End - (Addr + T.Size), Step);
        }
      }
    }
    if (Bytes > Avail)
      return false;
  } else {
    // TF's allow_growth: regions double, and one that is too small for the
    // request is skipped.
    if (Need > Avail)
      return false;
    bool Increased = false;
    while (Need > CurRegionBytes) {
      CurRegionBytes *= 2;
      Increased = true;
    }
    Bytes = alignUp(std::min(CurRegionBytes, Avail), RegionUnit);
    if (!Increased)
      CurRegionBytes *= 2;
  }
  makeRoom(Bytes, Tail);
  if (!Shared->tryReserve(Bytes))
    return false; // another heap took what was left under the limit
  void *P = Sub->alloc(Bytes, RegionAlign);
  if (!P) {
    Shared->unreserve(Bytes);
    return false;
  }
  addBlock(static_cast<char *>(P), Bytes);
  return true;
}

uint64_t BFCHeap::releaseFreeRegionsLocked() {
  uint64_t Released = 0;
  for (size_t I = 0; I < Regions.size();) {
    Region &R = Regions[I];
    Handle H = R.Slots.empty() ? None : R.Slots[0];
    if (H == None || !Chunks[H].isFree() || Chunks[H].Size != R.Size) {
      ++I;
      continue;
    }
    removeFromBin(H);
    Chunks[H] = Chunk();
    Chunks[H].Next = FreeHandles;
    FreeHandles = H;
    Sub->free(R.Base, R.Size);
    Stats.bytes_reserved -= R.Size - R.GoneBytes;
    Shared->unreserve(R.Size - R.GoneBytes);
    GoneBytes -= R.GoneBytes;
    Released += R.Size;
    Regions.erase(Regions.begin() + I);
  }
  return Released;
}

//===-- Split and merge ---------------------------------------------------===//

// Cuts H after Bytes; the second part becomes a new chunk, not in any bin.
BFCHeap::Handle BFCHeap::split(Handle H, uint64_t Bytes) {
  Handle N = newChunk();
  Chunk &C = Chunks[H];
  Chunk &New = Chunks[N];
  New.Ptr = C.Ptr + Bytes;
  New.Size = C.Size - Bytes;
  New.Prev = H;
  New.Next = C.Next;
  if (C.Next != None)
    Chunks[C.Next].Prev = N;
  C.Size = Bytes;
  C.Next = N;
  setSlot(New.Ptr, N);
  return N;
}

// Merges H2 (the address successor of H1) into H1; neither is in a bin.
void BFCHeap::merge(Handle H1, Handle H2) {
  Chunk &C1 = Chunks[H1];
  Chunk &C2 = Chunks[H2];
  C1.Size += C2.Size;
  C1.Next = C2.Next;
  if (C2.Next != None)
    Chunks[C2.Next].Prev = H1;
  deleteChunk(H2);
}

// Merges the free chunk H (in no bin) with its free neighbours, taking them
// out of their bins; returns the merged chunk, still in no bin.
BFCHeap::Handle BFCHeap::coalesce(Handle H) {
  Handle Next = Chunks[H].Next;
  if (Next != None && Chunks[Next].isFree()) {
    removeFromBin(Next);
    merge(H, Next);
  }
  Handle Prev = Chunks[H].Prev;
  if (Prev != None && Chunks[Prev].isFree()) {
    removeFromBin(Prev);
    merge(Prev, H);
    H = Prev;
  }
  return H;
}

//===-- Allocate and free -------------------------------------------------===//

void *BFCHeap::allocateLocked(uint64_t Bytes, uint64_t Rounded,
                              uint64_t Align) {
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
    insertIntoBin(Lead);
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
  if (GoneBytes)
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
  Chunk &C = Chunks[H];
  if (Opts.trace)
    Trace.push_back(
        {Shared->TraceSeq++, C.AllocId, false, C.Ptr, C.Size, C.Requested});
  ++Stats.num_frees;
  Stats.bytes_in_use -= C.Size;
  Stats.requested_bytes_in_use -= C.Requested;
  C.Requested = 0;
  // A chunk of a common size waits in the cache for the next request of its
  // size: no merge now, no split then. The cache holds at most a quarter of
  // the bytes in use, or 1 MiB.
  uint64_t Class = C.Size / Opts.rounding;
  if (Opts.cache && Class <= MaxCacheClass &&
      CachedBytes + C.Size <=
          std::max<uint64_t>(Stats.bytes_in_use / 4, 1 << 20)) {
    C.AllocId = Cached;
    C.BinNext = CacheHead[Class];
    CacheHead[Class] = H;
    CacheMask[Class / 64] |= uint64_t(1) << (Class % 64);
    CachedBytes += C.Size;
    return MEMPLAN_RT_OK;
  }
  C.AllocId = -1;
  insertIntoBin(coalesce(H));
  return MEMPLAN_RT_OK;
}

//===-- Purging -----------------------------------------------------------===//

// The pages under an allocated chunk are counted reserved again (the system
// gives them back, zeroed, at the first touch).
void BFCHeap::recommit(const Chunk &C) {
  Region *R = regionFor(C.Ptr);
  if (!R->GoneBytes)
    return;
  uint64_t First = (C.Ptr - R->Base) / Page;
  uint64_t Last = (C.Ptr + C.Size - 1 - R->Base) / Page;
  uint64_t Pages = 0;
  for (uint64_t P = First; P <= Last; ++P) {
    uint64_t &W = R->Gone[P / 64];
    if (!W) {
      P |= 63; // skip the word
      continue;
    }
    uint64_t Bit = uint64_t(1) << (P % 64);
    if (W & Bit) {
      W &= ~Bit;
      ++Pages;
    }
  }
  uint64_t Bytes = Pages * Page;
  R->GoneBytes -= Bytes;
  GoneBytes -= Bytes;
  makeRoom(Bytes, None);
  Stats.bytes_reserved += Bytes;
  Shared->tryReserve(Bytes); // no limit when purging: always succeeds
}

// Reserving Bytes more would raise the peak of bytes reserved: first give
// the pages of free chunks back, here and in every heap whose lock is free
// (try_lock: never waits), so that the peak follows what is in use over all
// heaps. Below the peak nothing is purged: a program that repeats itself
// (the same network run again) pays no system calls once warm.
void BFCHeap::makeRoom(uint64_t Bytes, Handle Keep) {
  if (!CanPurge || Shared->Reserved.load(std::memory_order_relaxed) + Bytes <=
                       Shared->PeakReserved.load(std::memory_order_relaxed))
    return;
  // Hysteresis: while this heap's free committed bytes are under 1/32 of
  // its bytes in use (or 64 KiB), the peak may rise instead; once it has, a
  // repeating program stays under it and never purges again.
  uint64_t FreeCommitted = Stats.bytes_reserved - Stats.bytes_in_use;
  if (FreeCommitted < std::max<uint64_t>(Stats.bytes_in_use / 32, 64 << 10))
    return;
  // Cached chunks are free memory too: merge them back first.
  flushCacheLocked();
  purgeLocked(Keep);
  for (BFCHeap *O : Shared->Heaps)
    if (O != this && O->CanPurge && O->Mu.try_lock()) {
      O->flushCacheLocked();
      O->purgeLocked();
      O->Mu.unlock();
    }
}

uint64_t BFCHeap::purgeChunk(Region &R, const Chunk &C) {
  uint64_t Lo = alignUp(C.Ptr - R.Base, Page);
  uint64_t Hi = alignDown(C.Ptr + C.Size - R.Base, Page);
  if (Hi <= Lo || Hi - Lo < PurgeMin)
    return 0;
  uint64_t Pages = 0;
  for (uint64_t P = Lo / Page; P < Hi / Page; ++P)
    Pages += !(R.Gone[P / 64] & (uint64_t(1) << (P % 64)));
  if (!Pages || !Sub->decommit(R.Base + Lo, Hi - Lo))
    return 0;
  for (uint64_t P = Lo / Page; P < Hi / Page; ++P)
    R.Gone[P / 64] |= uint64_t(1) << (P % 64);
  uint64_t Bytes = Pages * Page;
  R.GoneBytes += Bytes;
  GoneBytes += Bytes;
  Stats.bytes_reserved -= Bytes;
  Shared->unreserve(Bytes);
  return Bytes;
}

uint64_t BFCHeap::purgeLocked(Handle Keep) {
  if (!CanPurge)
    return 0;
  uint64_t Bytes = 0;
  for (int B = 0; B < NumBins; ++B)
    for (Handle H = BinHead[B]; H != None; H = Chunks[H].BinNext)
      if (H != Keep && Chunks[H].Size >= PurgeMin)
        Bytes += purgeChunk(*regionFor(Chunks[H].Ptr), Chunks[H]);
  return Bytes;
}

uint64_t BFCHeap::flushCacheLocked() {
  uint64_t Bytes = CachedBytes;
  if (!Bytes)
    return 0;
  // Only the sizes that hold chunks (the mask), not all 4097.
  for (size_t W = 0; W < CacheMask.size(); ++W)
    for (uint64_t M = CacheMask[W]; M; M &= M - 1) {
      size_t Class = W * 64 + __builtin_ctzll(M);
      for (Handle H = CacheHead[Class]; H != None;) {
        Handle Next = Chunks[H].BinNext;
        Chunks[H].AllocId = -1;
        Chunks[H].BinNext = None;
        insertIntoBin(coalesce(H));
        H = Next;
      }
      CacheHead[Class] = None;
    }
  std::fill(CacheMask.begin(), CacheMask.end(), 0);
  CachedBytes = 0;
  return Bytes;
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
