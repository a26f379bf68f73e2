//===- HeapRegions.cpp - The memory of one heap: regions, growth, purge ---===//
//
// What a heap takes from its SubAllocator and gives back: regions (adding a
// block, finding a pointer's region), growth under the memory limit and
// whole free regions returned. The pages of free chunks are purged in
// HeapPurge.cpp. The caller holds the heap's lock.
//
//===----------------------------------------------------------------------===//

#include "BFCHeap.h"
#include "Internal.h"

#include <algorithm>

using namespace memplan::rt;

//===-- Regions -----------------------------------------------------------===//

// Several regions (the MMAP and MALLOC sources): a binary search.
const BFCHeap::Region *BFCHeap::regionForSlow(const char *P) const {
  auto It = std::upper_bound(
      Regions.begin(), Regions.end(), P,
      [](const char *V, const Region &R) { return V < R.Base; });
  if (It == Regions.begin())
    return nullptr;
  --It;
  return P < It->Base + It->Size ? &*It : nullptr;
}

// Takes a block from the sub-allocator into the allocator: a new region, or,
// when the source is contiguous and the block starts where a region ends, the
// tail of that region (merged with its last chunk when that one is free).
void BFCHeap::addBlock(char *Ptr, uint64_t Bytes) {
  Stats.bytes_held += Bytes;
  Stats.bytes_reserved += Bytes;
  Stats.peak_bytes_reserved =
      std::max(Stats.peak_bytes_reserved, Stats.bytes_reserved);
  Handle H = newChunk();
  Chunks[H].Ptr = Ptr;
  Chunks[H].Size = Bytes;
  Chunks[H].FreeSince = uint32_t(PassSeq);
  Region *Ext = nullptr;
  if (Sub->contiguous())
    for (Region &R : Regions)
      if (R.Base + R.Size == Ptr)
        Ext = &R;
  if (Ext) {
    Handle Last = Ext->Last;
    Ext->Size += Bytes;
    Ext->Slots.resize(Ext->Size / Opts.rounding, None);
    if (CanPurge)
      Ext->Gone.resize((Ext->Size / Page + 63) / 64, 0);
    Chunks[H].Prev = Last;
    Chunks[Last].Next = H;
    Ext->Last = H;
  } else {
    Region R;
    R.Base = Ptr;
    R.Size = Bytes;
    R.Last = H;
    R.Slots.assign(Bytes / Opts.rounding, None);
    // A bit per page only where pages are purged: the MALLOC source's
    // "page" is a byte.
    if (CanPurge)
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
        const Chunk &T = Chunks[R->Last];
        if (T.isFree()) {
          Tail = R->Last;
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
    // The next size is kept only once a region of it is had: a request
    // the system refused (16 TiB) once left it doubled, every later small
    // request asked for more, and the doubling wrapped to 0 and spun.
    uint64_t Want = CurRegionBytes; // Need < 2^63: no wrap
    while (Need > Want)
      Want *= 2;
    Bytes = alignUp(std::min(Want, Avail), RegionUnit);
    if (!reserveRegion(Bytes, Rounded, Tail)) {
      // As TF's BFC backs off: a region just large enough may still be had;
      // the next region is tried at the size that failed.
      uint64_t Least = alignUp(Need, RegionUnit);
      return Least < Bytes && reserveRegion(Least, Rounded, Tail);
    }
    CurRegionBytes =
        std::min(Want > CurRegionBytes ? Want : 2 * Want, kMaxRegionBytes);
    return true;
  }
  return reserveRegion(Bytes, Rounded, Tail);
}

bool BFCHeap::reserveRegion(uint64_t Bytes, uint64_t Rounded, Handle Tail) {
  if (FragCap)
    holdFragCap(Bytes, Rounded, Tail);
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
    Stats.bytes_held -= R.Size;
    Stats.bytes_reserved -= R.Size - R.GoneBytes;
    Shared->unreserve(R.Size - R.GoneBytes);
    GoneBytes -= R.GoneBytes;
    Released += R.Size;
    Regions.erase(Regions.begin() + I);
  }
  return Released;
}
