//===- Invariants.cpp - Structural self-check of the BFC allocator --------===//

#include "BFCHeap.h"

#include <string>

using namespace memplan::rt;

bool BFCHeap::checkInvariantsLocked(std::string *Why) const {
  auto Fail = [&](const std::string &Msg) {
    if (Why)
      *Why = Msg;
    return false;
  };
  uint64_t InUse = 0, Requested = 0, Reserved = 0, FreeInRegions = 0;
  uint64_t CachedInRegions = 0, CachedSum = 0;
  const char *PrevEnd = nullptr;
  for (size_t RI = 0; RI < Regions.size(); ++RI) {
    const Region &R = Regions[RI];
    std::string Where = "region " + std::to_string(RI) + ": ";
    if (PrevEnd && R.Base < PrevEnd)
      return Fail(Where + "regions overlap or are not sorted");
    PrevEnd = R.Base + R.Size;
    Reserved += R.Size - R.GoneBytes;
    uint64_t GonePages = 0;
    for (uint64_t W : R.Gone)
      GonePages += __builtin_popcountll(W);
    if (GonePages * Page != R.GoneBytes)
      return Fail(Where + "purged pages do not add up");
    if (R.Slots.size() != R.Size / Opts.rounding)
      return Fail(Where + "slot table size mismatch");
    Handle H = R.Slots.empty() ? None : R.Slots[0];
    if (H == None || Chunks[H].Prev != None)
      return Fail(Where + "no first chunk at the region base");
    const char *Expect = R.Base;
    size_t NumChunks = 0;
    bool PrevFree = false;
    for (Handle Prev = None; H != None; Prev = H, H = Chunks[H].Next) {
      const Chunk &C = Chunks[H];
      if (C.Ptr != Expect)
        return Fail(Where + "chunks not contiguous and address-ordered");
      if (C.Prev != Prev)
        return Fail(Where + "broken prev link");
      if (C.Size == 0 || C.Size % Opts.rounding)
        return Fail(Where + "chunk size not a positive multiple of rounding");
      if (C.Ptr + C.Size > R.Base + R.Size)
        return Fail(Where + "chunk runs past the region");
      if ((C.inUse() || C.cached() || Prev == None) &&
          R.Slots[(C.Ptr - R.Base) / Opts.rounding] != H)
        return Fail(Where + "slot of a block or region start does not name it");
      if (C.Next == None && R.Last != H)
        return Fail(Where + "the region's last chunk is not its end");
      if (C.inUse()) {
        if (C.Bin != -1)
          return Fail(Where + "chunk in use sits in a bin");
        if (C.Requested == 0 || C.Requested > C.Size)
          return Fail(Where + "requested size outside (0, chunk size]");
        InUse += C.Size;
        Requested += C.Requested;
        PrevFree = false;
      } else if (C.cached()) {
        if (!Opts.cache || C.Bin != -1 || C.Requested != 0)
          return Fail(Where + "cached chunk in a bin or with a request");
        ++CachedInRegions;
        CachedSum += C.Size;
        PrevFree = false;
      } else {
        if (!C.isFree())
          return Fail(Where + "chunk in an unknown state");
        if (PrevFree)
          return Fail(Where + "two free chunks are adjacent");
        if (C.Bin != binForSize(C.Size))
          return Fail(Where + "free chunk not in the bin of its size");
        ++FreeInRegions;
        PrevFree = true;
      }
      // A purged page inside a chunk: the chunk is free and knows it may
      // hold purged pages (else an allocation would skip recommitting it).
      if (!R.Gone.empty() && !C.MayBeGone) {
        uint64_t Lo = (C.Ptr - R.Base + Page - 1) / Page;
        uint64_t Hi = (C.Ptr + C.Size - R.Base) / Page;
        for (uint64_t P = Lo; P < Hi; ++P)
          if (R.Gone[P / 64] & (uint64_t(1) << (P % 64)))
            return Fail(Where + "purged page in a chunk not marked purged");
      }
      Expect = C.Ptr + C.Size;
      if (++NumChunks > Chunks.size())
        return Fail(Where + "cycle in the chunk list");
    }
    if (Expect != R.Base + R.Size)
      return Fail(Where + "chunks do not cover the region");
  }

  uint64_t InBins = 0;
  for (int B = 0; B < NumBins; ++B) {
    bool Empty = BinHead[B] == None;
    if (Empty == binNonEmpty(B))
      return Fail("bin " + std::to_string(B) + ": non-empty mask is wrong");
    Handle Prev = None;
    for (Handle H = BinHead[B]; H != None; Prev = H, H = Chunks[H].BinNext) {
      const Chunk &C = Chunks[H];
      if (!C.isFree() || C.Bin != B || C.BinPrev != Prev)
        return Fail("bin " + std::to_string(B) + ": holds a bad chunk");
      if (!regionFor(C.Ptr))
        return Fail("bin " + std::to_string(B) + ": chunk outside regions");
      if (Prev != None) {
        const Chunk &P = Chunks[Prev];
        if (P.Size > C.Size || (P.Size == C.Size && P.Ptr >= C.Ptr))
          return Fail("bin " + std::to_string(B) + ": not sorted");
      }
      if (++InBins > Chunks.size())
        return Fail("bin " + std::to_string(B) + ": cycle");
    }
  }
  // Every free chunk of a region is in the bin of its size (checked above),
  // and every bin entry is a free chunk: equal counts make the sets equal.
  if (InBins != FreeInRegions || InBins != Stats.num_free_chunks)
    return Fail("bins hold " + std::to_string(InBins) + " chunks, regions " +
                std::to_string(FreeInRegions) + " free chunks");
  uint64_t InCache = 0;
  for (size_t Class = 0; Class < CacheHead.size(); ++Class) {
    if ((CacheHead[Class] != None) !=
        bool(CacheMask[Class / 64] & (uint64_t(1) << (Class % 64))))
      return Fail("size cache " + std::to_string(Class) + ": mask is wrong");
    for (Handle H = CacheHead[Class]; H != None; H = Chunks[H].BinNext) {
      if (!Chunks[H].cached() || Chunks[H].Size != Class * Opts.rounding)
        return Fail("size cache " + std::to_string(Class) +
                    ": holds a chunk that is not cached or of another size");
      if (++InCache > Chunks.size())
        return Fail("size cache: cycle");
    }
  }
  if (InCache != CachedInRegions || CachedSum != CachedBytes)
    return Fail("size caches hold " + std::to_string(InCache) +
                " chunks, regions " + std::to_string(CachedInRegions) +
                " cached chunks");
  // Only free chunks in bins are purgeable.
  uint64_t Held = 0;
  for (const Chunk &C : Chunks)
    if (C.Purgeable && (!C.isFree() || C.Bin < 0))
      return Fail("purgeable: a chunk that is not free in a bin");
  for (const Region &R : Regions)
    Held += R.Size;
  if (Held != Stats.bytes_held)
    return Fail("bytes_held does not match the regions");
  // A plan's arena chunk is not in use to the program; its live blocks are.
  if (Replay) {
    if (const char *Arena = Replay->arena()) {
      const Region *R = regionFor(Arena);
      Handle H = R ? slotChunk(*R, Arena) : None;
      if (H == None || !Chunks[H].inUse() ||
          Chunks[H].Size < Replay->arenaBytes())
        return Fail("the replay plan's arena is not a chunk in use");
      InUse -= Chunks[H].Size;
      Requested -= Chunks[H].Requested;
    }
    InUse += Replay->liveBytes();
    Requested += Replay->liveRequested();
  }
  if (InUse != Stats.bytes_in_use)
    return Fail("bytes_in_use " + std::to_string(Stats.bytes_in_use) +
                " but live chunks hold " + std::to_string(InUse));
  if (Requested != Stats.requested_bytes_in_use)
    return Fail("requested_bytes_in_use does not match live chunks");
  if (Reserved != Stats.bytes_reserved)
    return Fail("bytes_reserved does not match the regions");
  return true;
}

bool BFCAllocator::checkInvariants(std::string *Why) const {
  uint64_t Reserved = 0;
  for (size_t I = 0; I < Heaps.size(); ++I) {
    std::lock_guard<HeapMutex> L(Heaps[I]->Mu);
    std::string HeapWhy;
    if (!Heaps[I]->checkInvariantsLocked(&HeapWhy)) {
      if (Why)
        *Why = (Heaps.size() > 1 ? "heap " + std::to_string(I) + ": " : "") +
               HeapWhy;
      return false;
    }
    Reserved += Heaps[I]->countersLocked().bytes_reserved;
  }
  if (Reserved != Shared->Reserved.load()) {
    if (Why)
      *Why = "heaps reserve " + std::to_string(Reserved) +
             " bytes, the shared count says " +
             std::to_string(Shared->Reserved.load());
    return false;
  }
  return true;
}
