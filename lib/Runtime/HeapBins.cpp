//===- HeapBins.cpp - A heap's alloc and free, bins, split and merge ------===//
//
// The hot path of one heap, in one file so that its helpers inline:
// allocation and free, the size cache, the chunk records, the bins with
// their bitmap, the best-fit search, split, merge and coalescing. The caller
// holds the heap's lock.
//
//===----------------------------------------------------------------------===//

#include "BFCHeap.h"
#include "Internal.h"

#include <algorithm>

using namespace memplan::rt;

//===-- Bins by size ------------------------------------------------------===//

// Bins by size in rounding units U: U - 1 below ExactUnits (one size each),
// then SubBins per power of two (the three bits after the leading one), so a
// bin's sizes differ by at most an eighth and its sorted list stays short.
int BFCHeap::binForSize(uint64_t Bytes) const {
  uint64_t U = std::max<uint64_t>(Bytes >> RoundShift, 1);
  if (U < ExactUnits)
    return static_cast<int>(U - 1);
  int L = log2Floor(U);
  int Sub = static_cast<int>((U >> (L - 3)) & (SubBins - 1));
  return std::min(NumBins - 1, int(ExactUnits) - 1 + (L - 4) * SubBins + Sub);
}

uint64_t BFCHeap::binMinSize(int B) const {
  if (B < int(ExactUnits) - 1)
    return (B + 1) * Opts.rounding;
  int K = B - (int(ExactUnits) - 1), L = 4 + K / SubBins;
  return (uint64_t(SubBins + K % SubBins) << (L - 3)) * Opts.rounding;
}

int BFCHeap::nextNonEmptyBin(int B) const {
  int W = B / 64;
  uint64_t M = NonEmptyBins[W] & (~uint64_t(0) << (B % 64));
  while (!M) {
    if (++W == MaskWords)
      return -1;
    M = NonEmptyBins[W];
  }
  return W * 64 + __builtin_ctzll(M);
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
  NonEmptyBins[B / 64] |= uint64_t(1) << (B % 64);
  ++Stats.num_free_chunks;
  if (CanPurge)
    markPurgeable(C);
}

void BFCHeap::removeFromBin(Handle H) {
  Chunk &C = Chunks[H];
  C.Purgeable = false;
  if (C.BinPrev != None)
    Chunks[C.BinPrev].BinNext = C.BinNext;
  else
    BinHead[C.Bin] = C.BinNext;
  if (C.BinNext != None)
    Chunks[C.BinNext].BinPrev = C.BinPrev;
  if (BinHead[C.Bin] == None)
    NonEmptyBins[C.Bin / 64] &= ~(uint64_t(1) << (C.Bin % 64));
  C.Bin = -1;
  C.BinPrev = C.BinNext = None;
  --Stats.num_free_chunks;
}

// Best fit: the first chunk that fits in the first bin that holds one (bins
// are sorted by size). A request aligned past the rounding skips the
// chunks its padding does not fit; that walk stops after MaxAlignedWalk
// chunks of a bin (a bin of equal small chunks can be long, and few of them
// sit at a 4 KiB boundary), and only when no bin has a fit that way is every
// chunk tried, before the heap grows.
BFCHeap::Handle BFCHeap::findChunk(uint64_t Rounded, uint64_t Align) const {
  static constexpr int MaxAlignedWalk = 8;
  bool Bounded = Align > Opts.rounding;
  for (;;) {
    for (int B = nextNonEmptyBin(binForSize(Rounded)); B >= 0;
         B = B + 1 < NumBins ? nextNonEmptyBin(B + 1) : -1) {
      int Walk = Bounded ? MaxAlignedWalk : -1;
      for (Handle H = BinHead[B]; H != None && Walk--; H = Chunks[H].BinNext) {
        const Chunk &C = Chunks[H];
        if (C.Size < Rounded)
          continue;
        uint64_t Addr = reinterpret_cast<uint64_t>(C.Ptr);
        uint64_t Pad = alignUp(Addr, Align) - Addr;
        if (C.Size - Rounded >= Pad)
          return H;
      }
    }
    if (!Bounded)
      return None;
    Bounded = false;
  }
}

//===-- Split and merge ---------------------------------------------------===//

// Cuts H after Bytes; the second part becomes a new chunk, not in any bin.
BFCHeap::Handle BFCHeap::split(Handle H, uint64_t Bytes) {
  Handle N = newChunk();
  Chunk &C = Chunks[H];
  Chunk &New = Chunks[N];
  New.Ptr = C.Ptr + Bytes;
  New.Size = C.Size - Bytes;
  New.FreeSince = C.FreeSince; // free all along
  New.MayBeGone = C.MayBeGone;
  New.Prev = H;
  New.Next = C.Next;
  if (C.Next != None)
    Chunks[C.Next].Prev = N;
  C.Size = Bytes;
  C.Next = N;
  if (New.Next == None)
    regionFor(C.Ptr)->Last = N;
  return N;
}

// Merges H2 (the address successor of H1) into H1; neither is in a bin.
void BFCHeap::merge(Handle H1, Handle H2) {
  Chunk &C1 = Chunks[H1];
  Chunk &C2 = Chunks[H2];
  C1.Size += C2.Size;
  C1.MayBeGone |= C2.MayBeGone;
  C1.Next = C2.Next;
  if (C2.Next != None)
    Chunks[C2.Next].Prev = H1;
  else
    regionFor(C1.Ptr)->Last = H1;
  deleteChunk(H2);
}

// Merges the free chunk H (in no bin) with its free neighbours, taking them
// out of their bins; returns the merged chunk, still in no bin.
// The merged chunk is as old as its part with the most committed bytes (a
// purged neighbour counts none), so that small frees next to a large old
// hole neither keep it young nor make it purged at once.
BFCHeap::Handle BFCHeap::coalesce(Handle H) {
  uint64_t Weight = Chunks[H].Size;
  uint32_t Since = Chunks[H].FreeSince;
  auto Take = [&](Handle N) {
    uint64_t W = Chunks[N].Purgeable ? Chunks[N].Size : 0;
    if (W > Weight) {
      Weight = W;
      Since = Chunks[N].FreeSince;
    }
  };
  Handle Next = Chunks[H].Next;
  if (Next != None && Chunks[Next].isFree()) {
    Take(Next);
    removeFromBin(Next);
    merge(H, Next);
  }
  Handle Prev = Chunks[H].Prev;
  if (Prev != None && Chunks[Prev].isFree()) {
    Take(Prev);
    removeFromBin(Prev);
    merge(Prev, H);
    H = Prev;
  }
  Chunks[H].FreeSince = Since;
  return H;
}

//===-- The size cache ----------------------------------------------------===//

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
        Chunks[H].FreeSince = uint32_t(PassSeq);
        insertIntoBin(coalesce(H));
        H = Next;
      }
      CacheHead[Class] = None;
    }
  std::fill(CacheMask.begin(), CacheMask.end(), 0);
  CachedBytes = 0;
  return Bytes;
}

void BFCHeap::endCacheWindow() {
  CacheTakes = 2 * uint64_t(WindowHits) >= WindowAllocs;
  WindowAllocs = WindowHits = 0;
  if (WouldHoldBytes) {
    std::fill(WouldHold.begin(), WouldHold.end(), 0);
    WouldHoldBytes = 0;
  }
}

//===-- Allocate and free -------------------------------------------------===//

void BFCHeap::notePeaks() {
  if (Shared->Heaps.size() < 2)
    return; // one heap: its own peaks are the allocator's
  uint64_t InUse = 0, Requested = 0;
  for (BFCHeap *H : Shared->Heaps) {
    InUse += H == this ? Stats.bytes_in_use
                       : H->InUseShared.load(std::memory_order_relaxed);
    Requested += H == this ? Stats.requested_bytes_in_use
                           : H->RequestedShared.load(std::memory_order_relaxed);
  }
  SharedCounters::raise(Shared->PeakInUseAll, InUse);
  SharedCounters::raise(Shared->PeakRequestedAll, Requested);
}

void *BFCHeap::allocateChunkLocked(uint64_t Bytes, uint64_t Rounded,
                                   uint64_t Align, bool MayGrow) {
  // (Not for a plan's own chunk: a pass then could drop the plan under it.)
  if (DelayNs && !Quiet && !--EventsToCheck)
    tick();
  if (CapSoft && !--CapWindowLeft)
    endCapWindow(false);
  if (Opts.cache) {
    if (++WindowAllocs == CacheWindow)
      endCacheWindow();
    uint64_t Class = Rounded >> RoundShift;
    if (Class <= MaxCacheClass && CacheHead[Class] != None) {
      Handle H = CacheHead[Class];
      Chunk &C = Chunks[H];
      if (!(reinterpret_cast<uintptr_t>(C.Ptr) & (Align - 1))) {
        CacheHead[Class] = C.BinNext;
        if (C.BinNext == None)
          CacheMask[Class / 64] &= ~(uint64_t(1) << (Class % 64));
        C.BinNext = None;
        CachedBytes -= C.Size;
        ++WindowHits;
        return markAllocated(H, Bytes);
      }
    }
    if (!CacheTakes && Class <= MaxCacheClass && WouldHold[Class]) {
      --WouldHold[Class];
      WouldHoldBytes -= Rounded;
      ++WindowHits;
    }
  }
  Handle H = findChunk(Rounded, Align);
  // Cached chunks go back to the bins (merging) before the heap grows, so the
  // cache never makes the heap reserve more.
  if (H == None && CachedBytes && flushCacheLocked())
    H = findChunk(Rounded, Align);
  if (H == None && MayGrow && extend(Rounded, Align))
    H = findChunk(Rounded, Align);
  if (H == None && MayGrow && Opts.release_free_regions &&
      releaseFreeRegionsLocked() && extend(Rounded, Align))
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
    // (Not into a plan's arena chunk: it is not counted in use.)
    if (Before != None && Chunks[Before].inUse() &&
        !(Replay && Chunks[Before].Ptr == Replay->arena())) {
      merge(Before, Lead);
      Stats.bytes_in_use += Pad;
      shareInUse();
      if (Stats.bytes_in_use > Stats.peak_bytes_in_use) {
        Stats.peak_bytes_in_use = Stats.bytes_in_use;
        notePeaks();
      }
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

void BFCHeap::countAlloc(uint64_t Size, uint64_t Bytes) {
  ++Stats.num_allocs;
  Stats.bytes_in_use += Size;
  Stats.requested_bytes_in_use += Bytes;
  shareInUse();
  if (Stats.bytes_in_use > Stats.peak_bytes_in_use ||
      Stats.requested_bytes_in_use > Stats.peak_requested_bytes_in_use) {
    Stats.peak_bytes_in_use =
        std::max(Stats.peak_bytes_in_use, Stats.bytes_in_use);
    Stats.peak_requested_bytes_in_use = std::max(
        Stats.peak_requested_bytes_in_use, Stats.requested_bytes_in_use);
    notePeaks();
  }
  Stats.largest_alloc_size = std::max(Stats.largest_alloc_size, Size);
}

void *BFCHeap::markAllocated(Handle H, uint64_t Bytes) {
  setSlot(Chunks[H].Ptr, H);
  Chunks[H].AllocId = NextAllocId++; // in use before recommit may merge
  if (Chunks[H].MayBeGone)
    recommit(Chunks[H]);
  Chunk &C = Chunks[H];
  C.Requested = Bytes;
  if (Quiet)
    return C.Ptr;
  countAlloc(C.Size, Bytes);
  if (C.Size <= ThreadCacheMax)
    makeSizeWord(C.Ptr).store((C.Size >> RoundShift) << 32 | Bytes,
                              std::memory_order_relaxed);
  if (Opts.trace)
    Trace.push_back(
        {Shared->TraceSeq++, C.AllocId, true, C.Ptr, C.Size, Bytes});
  return C.Ptr;
}

void *BFCHeap::replayLocked(uint64_t Bytes, uint64_t Rounded, uint64_t Align) {
  // The arena comes from free chunks, never growth: a plan must not make
  // the heap reserve more (with 2 threads, blocks another thread left in
  // the heap's range made room for it only past the end: frag 1.9-2.0
  // against 1.3 on bench/runtime's wide-mix). None fits: no plan.
  // Only for an episode whose first request is the plan's first block: a
  // program that went on to other work (small blocks after a freed peak)
  // would commit the purged pages of a chunk it never uses.
  if (!Replay->inEpisode() && Replay->needsArena() &&
      Replay->startsWith(Rounded)) {
    Quiet = true;
    void *Arena = allocateChunkLocked(
        Replay->arenaBytes(), Replay->arenaBytes(),
        std::max<uint64_t>(Replay->arenaAlign(), Opts.rounding), false);
    Quiet = false;
    Replay->setArena(static_cast<char *>(Arena));
    freeDroppedArena();
  }
  char *P = Replay->take(Rounded, Align, Bytes, NextAllocId);
  if (!P) {
    freeDroppedArena(); // a plan gone astray
    return nullptr;
  }
  if (DelayNs && !--EventsToCheck)
    tick();
  countAlloc(Rounded, Bytes);
  return P;
}

memplan_rt_status BFCHeap::giveLocked(const char *P) {
  uint64_t Rounded = 0, Requested = 0;
  memplan_rt_status S = Replay->give(P, Rounded, Requested);
  if (S != MEMPLAN_RT_OK) {
    ++Stats.num_failures;
    return S;
  }
  if (DelayNs && !--EventsToCheck)
    tick();
  countFree(Rounded, Requested);
  freeDroppedArena();
  return MEMPLAN_RT_OK;
}

void BFCHeap::freeDroppedArena() {
  if (char *Arena = Replay->takeDroppedArena()) {
    Quiet = true;
    deallocateLocked(Arena);
    Quiet = false;
  }
}

memplan_rt_status BFCHeap::deallocateLocked(void *Ptr, bool FromThreadCache) {
  const char *P = static_cast<const char *>(Ptr);
  if (Replay && Replay->owns(P))
    return giveLocked(P);
  const Region *R = regionFor(P);
  memplan_rt_status Bad = MEMPLAN_RT_OK;
  Handle H = None;
  if (!R) {
    Bad = MEMPLAN_RT_FOREIGN_POINTER;
  } else {
    H = slotChunk(*R, P);
    if (H == None || !Chunks[H].inUse())
      Bad = classifyBadFree(*R, P);
  }
  // A block in a thread cache is free to its program; the chunk stays in
  // use here. Requested bytes: the thread caches' counters hold (the bytes
  // the block has now) - (those of our record); this free settles it.
  std::atomic<uint64_t> *Word =
      Bad == MEMPLAN_RT_OK && ThreadCacheMax ? sizeWord(P) : nullptr;
  if (uint64_t W = Word ? Word->load(std::memory_order_relaxed) : 0) {
    if ((W & InThreadCache) && !FromThreadCache)
      Bad = MEMPLAN_RT_DOUBLE_FREE;
    else
      ReqFix += int64_t(Chunks[H].Requested) -
                int64_t(W & InThreadCache ? 0 : W & 0xffffffff);
  }
  if (Bad != MEMPLAN_RT_OK) {
    ++Stats.num_failures;
    return Bad;
  }
  if (Word)
    Word->store(0, std::memory_order_relaxed);
  if (DelayNs && !Quiet && !--EventsToCheck)
    tick();
  Chunk &C = Chunks[H];
  if (Opts.trace)
    Trace.push_back(
        {Shared->TraceSeq++, C.AllocId, false, C.Ptr, C.Size, C.Requested});
  if (!Quiet)
    countFree(C.Size, C.Requested);
  C.Requested = 0;
  // The plan hears of the free once the chunk is back (it may end an
  // episode and free its arena chunk then).
  int64_t Id = Replay && !Quiet ? C.AllocId : -1;
  // A chunk of a common size waits in the cache for the next request of its
  // size: no merge now, no split then. The cache holds at most 1/128 of the
  // bytes in use, or 64 KiB: cached chunks stay unmerged, and a quarter (as
  // it once was) kept holes from merging so often that the peak reserved
  // rose 10% (random mix: frag 1.27 against 1.16; DNN trace 1.31 against
  // 1.17), while the hits that make it fast need only a few chunks.
  // Not the plans' arena (a quiet free): it goes back to be merged and
  // purged, not parked where a purge cannot reach it.
  uint64_t Class = C.Size >> RoundShift;
  if (Opts.cache && !Quiet && Class <= MaxCacheClass) {
    if (!CacheTakes) {
      if (WouldHoldBytes + C.Size <= cacheBudget() && WouldHold[Class] < 255) {
        ++WouldHold[Class];
        WouldHoldBytes += C.Size;
      }
    } else if (CachedBytes + C.Size <= cacheBudget()) {
      C.AllocId = Cached;
      C.BinNext = CacheHead[Class];
      CacheHead[Class] = H;
      CacheMask[Class / 64] |= uint64_t(1) << (Class % 64);
      CachedBytes += C.Size;
      if (Id >= 0)
        noteFreeLocked(Id);
      return MEMPLAN_RT_OK;
    }
  }
  C.AllocId = -1;
  C.FreeSince = uint32_t(PassSeq);
  insertIntoBin(coalesce(H));
  if (Id >= 0)
    noteFreeLocked(Id);
  return MEMPLAN_RT_OK;
}
