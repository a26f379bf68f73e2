//===- HeapRegions.cpp - The memory of one heap: regions, growth, purge ---===//
//
// What a heap takes from its SubAllocator and gives back: regions (adding a
// block, finding a pointer's region), growth under the memory limit, whole
// free regions returned, and the pages of free chunks purged (decommitted)
// and recommitted. The caller holds the heap's lock.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"
#include "memplan/Runtime/BFCAllocator.h"

#include <algorithm>

using namespace memplan::rt;

//===-- Regions -----------------------------------------------------------===//

const BFCHeap::Region *BFCHeap::regionFor(const void *Ptr) const {
  const char *P = static_cast<const char *>(Ptr);
  // The VIRTUAL source merges its blocks into one region: no search.
  if (Regions.size() == 1)
    return P >= Regions[0].Base && P < Regions[0].Base + Regions[0].Size
               ? &Regions[0]
               : nullptr;
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
  Stats.bytes_held += Bytes;
  Stats.bytes_reserved += Bytes;
  Stats.peak_bytes_reserved =
      std::max(Stats.peak_bytes_reserved, Stats.bytes_reserved);
  Handle H = newChunk();
  Chunks[H].Ptr = Ptr;
  Chunks[H].Size = Bytes;
  Chunks[H].FreeSince = PassSeq;
  Chunks[H].FreeEvent = events();
  Region *Ext = nullptr;
  if (Sub->contiguous())
    for (Region &R : Regions)
      if (R.Base + R.Size == Ptr)
        Ext = &R;
  if (Ext) {
    Handle Last = lastChunk(*Ext);
    Ext->Size += Bytes;
    Ext->Slots.resize(Ext->Size / Opts.rounding, None);
    if (CanPurge)
      Ext->Gone.resize((Ext->Size / Page + 63) / 64, 0);
    Chunks[H].Prev = Last;
    Chunks[Last].Next = H;
  } else {
    Region R;
    R.Base = Ptr;
    R.Size = Bytes;
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
    Stats.bytes_held -= R.Size;
    Stats.bytes_reserved -= R.Size - R.GoneBytes;
    Shared->unreserve(R.Size - R.GoneBytes);
    GoneBytes -= R.GoneBytes;
    Released += R.Size;
    Regions.erase(Regions.begin() + I);
  }
  return Released;
}

//===-- Purging -----------------------------------------------------------===//

// The pages under an allocated chunk are counted reserved again (the system
// gives them back, zeroed, at the first touch).
void BFCHeap::recommit(Chunk &C) {
  C.MayBeGone = false;
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
  if (!Pages)
    return;
  uint64_t Bytes = Pages * Page;
  R->GoneBytes -= Bytes;
  GoneBytes -= Bytes;
  // No makeRoom here: purging other chunks to pay for these pages traded
  // one refault for another (the random mix faulted 4x the pages glibc
  // does). Pages come back only when free for the delay, or when the heap
  // grows past the peak (extend).
  Stats.bytes_reserved += Bytes;
  Shared->tryReserve(Bytes); // no limit when purging: always succeeds
}

// Growing the heap by Bytes would raise the peak of bytes reserved (committed):
// first give free pages back, here and in every heap whose lock is free
// (try_lock: never waits), so that the peak follows what is in use over all
// heaps. Eager (no delay): every free page. With a delay: the oldest free
// chunks first, only as many bytes as would pass the peak, so pages freed
// lately (likely reused soon) stay. Below the peak nothing is purged here: a
// program that repeats itself pays no system calls once warm.
void BFCHeap::makeRoom(uint64_t Bytes, Handle Keep) {
  uint64_t Reserved = Shared->Reserved.load(std::memory_order_relaxed);
  uint64_t Peak = Shared->PeakReserved.load(std::memory_order_relaxed);
  if (!CanPurge || Reserved + Bytes <= Peak)
    return;
  // Hysteresis: while this heap's free committed bytes are under 1/32 of
  // its bytes in use (or 64 KiB), the peak may rise instead; once it has, a
  // repeating program stays under it and never purges again.
  uint64_t FreeCommitted = Stats.bytes_reserved - Stats.bytes_in_use;
  if (FreeCommitted < std::max<uint64_t>(Stats.bytes_in_use / 32, 64 << 10))
    return;
  if (DelayNs) {
    uint64_t Want = Reserved + Bytes - Peak;
    uint64_t Got = purgeOldestLocked(Want, Keep, false);
    for (BFCHeap *O : Shared->Heaps)
      if (Got < Want && O != this && O->CanPurge && O->Mu.try_lock()) {
        Got += O->purgeOldestLocked(Want - Got, None, false);
        O->Mu.unlock();
      }
    return;
  }
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

uint64_t BFCHeap::purgeChunk(Region &R, Chunk &C) {
  uint64_t Lo = alignUp(C.Ptr - R.Base, Page);
  uint64_t Hi = alignDown(C.Ptr + C.Size - R.Base, Page);
  if (Hi <= Lo || Hi - Lo < PurgeMin)
    return 0;
  uint64_t Pages = 0;
  for (uint64_t P = Lo / Page; P < Hi / Page; ++P)
    Pages += !(R.Gone[P / 64] & (uint64_t(1) << (P % 64)));
  if (!Pages || !Sub->decommit(R.Base + Lo, Hi - Lo))
    return 0;
  C.MayBeGone = true;
  for (uint64_t P = Lo / Page; P < Hi / Page; ++P)
    R.Gone[P / 64] |= uint64_t(1) << (P % 64);
  uint64_t Bytes = Pages * Page;
  R.GoneBytes += Bytes;
  GoneBytes += Bytes;
  Stats.bytes_reserved -= Bytes;
  Stats.bytes_purged += Bytes;
  Shared->unreserve(Bytes);
  return Bytes;
}

uint64_t BFCHeap::purgeLocked(Handle Keep) {
  return purgeOldestLocked(UINT64_MAX, Keep, true);
}

uint64_t BFCHeap::purgeOldestLocked(uint64_t Want, Handle Keep, bool AnyAge) {
  uint64_t Bytes = 0;
  uint64_t Young = events() > MinAgeEvents ? events() - MinAgeEvents : 0;
  for (Handle H = AgeHead; H != None && Bytes < Want;) {
    Handle Next = Chunks[H].AgeNext;
    if (H != Keep && (AnyAge || Chunks[H].FreeEvent <= Young)) {
      Bytes += purgeChunk(*regionFor(Chunks[H].Ptr), Chunks[H]);
      ageRemove(H);
    }
    H = Next;
  }
  return Bytes;
}

// The free chunks whose whole pages may be purged join the age list in the
// order they were freed; a chunk leaves it when allocated, merged or purged.
void BFCHeap::ageInsert(Handle H) {
  Chunk &C = Chunks[H];
  uint64_t Addr = reinterpret_cast<uint64_t>(C.Ptr);
  uint64_t Lo = alignUp(Addr, Page), Hi = alignDown(Addr + C.Size, Page);
  if (Hi <= Lo || Hi - Lo < PurgeMin)
    return;
  C.InAge = true;
  C.AgePrev = AgeTail;
  C.AgeNext = None;
  if (AgeTail != None)
    Chunks[AgeTail].AgeNext = H;
  else
    AgeHead = H;
  AgeTail = H;
}

void BFCHeap::ageRemove(Handle H) {
  Chunk &C = Chunks[H];
  if (C.AgePrev != None)
    Chunks[C.AgePrev].AgeNext = C.AgeNext;
  else
    AgeHead = C.AgeNext;
  if (C.AgeNext != None)
    Chunks[C.AgeNext].AgePrev = C.AgePrev;
  else
    AgeTail = C.AgePrev;
  C.AgePrev = C.AgeNext = None;
  C.InAge = false;
}

// Every CheckEvery allocs and frees: the pages of chunks free for the delay
// go back. Reading the clock on every call would cost more than the call.
void BFCHeap::tick() {
  EventsToCheck = CheckEvery;
  uint64_t Now = readClock();
  if (!passLocked(Now))
    return;
  // A heap nobody calls any more (its thread ended or went quiet) would
  // keep its free pages for ever: the heaps that run make its passes, when
  // its lock is free (try_lock: never waits).
  for (BFCHeap *O : Shared->Heaps)
    if (O != this && O->DelayNs && O->Mu.try_lock()) {
      O->passLocked(Now);
      O->Mu.unlock();
    }
}

bool BFCHeap::passLocked(uint64_t Now) {
  // The list is in the order of going into a bin, but a split or merge
  // keeps the older age: a full walk, every eighth of the delay.
  if (Now < NextPass)
    return false;
  NextPass = Now + std::max<uint64_t>(DelayNs / 8, 1);
  ++PassSeq;
  PassTimes[PassSeq % 16] = Now;
  // Chunks waiting in the size cache go to the bins to age like the rest
  // (an idle cache would hold its bytes for ever).
  flushCacheLocked();
  purgeAged(Now);
  return true;
}

uint64_t BFCHeap::purgeAged(uint64_t Now) {
  uint64_t Bytes = 0;
  for (Handle H = AgeHead; H != None;) {
    Handle Next = Chunks[H].AgeNext;
    // Freed before pass After: surely free since that pass's time. Passes
    // 16 back are more than the delay ago.
    uint64_t After = Chunks[H].FreeSince + 1;
    if (After <= PassSeq &&
        (PassSeq - After >= 16 || PassTimes[After % 16] + DelayNs <= Now)) {
      Bytes += purgeChunk(*regionFor(Chunks[H].Ptr), Chunks[H]);
      ageRemove(H);
    }
    H = Next;
  }
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
        Chunks[H].FreeSince = PassSeq;
        Chunks[H].FreeEvent = events();
        insertIntoBin(coalesce(H));
        H = Next;
      }
      CacheHead[Class] = None;
    }
  std::fill(CacheMask.begin(), CacheMask.end(), 0);
  CachedBytes = 0;
  return Bytes;
}
