//===- RuntimeFuzzer.cpp - Random op sequences against the BFC allocator -===//
//
// Each input byte group is one op: allocate (size, alignment), free a live
// block, free a bad pointer (interior or double), or release free regions
// (or empty the size cache); options: source, limit, rounding, size cache,
// decommit, heaps, frag cap, thread caches.
// After every op the allocator's checkInvariants() must hold and live blocks
// must keep their tags, a byte per 4 KiB page and the last one (no overlap,
// no clobbering, no page purged under them).
//
//===----------------------------------------------------------------------===//

#include "memplan/Runtime/BFCAllocator.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

using namespace memplan::rt;

static void fail(const std::string &Why) {
  fprintf(stderr, "memplan-fuzz-runtime: %s\n", Why.c_str());
  abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 2)
    return 0;
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  O.source = static_cast<memplan_rt_source>(Data[0] % 3);
  O.memory_limit = (Data[1] & 1) ? (uint64_t(1) << 24) : 0;
  O.release_free_regions = (Data[1] >> 1) & 1;
  O.rounding = uint64_t(16) << ((Data[1] >> 2) % 5);
  O.cache = (Data[0] >> 2) & 1;    // the size cache
  O.decommit = (Data[0] >> 3) & 1; // free pages given back before growth
  O.arenas = 1 + ((Data[0] >> 4) & 3);
  // A frag cap purges free pages (parts of chunks, the highest first)
  // whenever growth or reuse would pass it: the tags below catch a purged
  // page under a live block.
  static const double Caps[] = {0, 1.0, 1.1, 1.5};
  O.frag_cap = Caps[Data[0] >> 6];
  // Soft: the cap may pause (4 ms of purging in a window) and hold again.
  O.frag_cap_soft = (Data[1] >> 6) & 1;
  // Thread caches: freed blocks held unmerged, counted free by the cap.
  O.thread_cache = (Data[1] >> 7) ? (64 << 10) : 0;
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  if (!A)
    return 0;
  std::map<char *, std::pair<uint64_t, uint8_t>> Live;
  for (size_t I = 2; I + 3 < Size && I < 4096; I += 4) {
    uint8_t Op = Data[I] % 8;
    uint64_t Arg = Data[I + 1] | (uint64_t(Data[I + 2]) << 8);
    if (Op < 4 || Live.empty()) {
      uint64_t Bytes = Op == 3 ? Arg << (Data[I + 3] % 6) : Arg + 1;
      if (Data[I + 3] == 255)
        Bytes = UINT64_MAX - Arg; // absurd sizes must fail cleanly
      uint64_t Align = uint64_t(1) << (Data[I + 3] % 14);
      char *P = static_cast<char *>(A->allocate(Bytes, Align, &S));
      if (P) {
        if (reinterpret_cast<uintptr_t>(P) % Align)
          fail("misaligned block");
        uint8_t Tag = Data[I + 2];
        if (Bytes) {
          for (uint64_t Off = 0; Off < Bytes; Off += 4096)
            P[Off] = static_cast<char>(Tag);
          P[Bytes - 1] = static_cast<char>(Tag);
        }
        auto Next = Live.lower_bound(P);
        if (Next != Live.end() && P + Bytes > Next->first)
          fail("overlapping blocks");
        if (Next != Live.begin()) {
          auto Prev = std::prev(Next);
          if (Prev->first + Prev->second.first > P)
            fail("overlapping blocks");
        }
        Live[P] = {Bytes, Tag};
      }
    } else {
      auto It = Live.begin();
      std::advance(It, Arg % Live.size());
      char *P = It->first;
      auto [Bytes, Tag] = It->second;
      bool Kept = !Bytes || static_cast<uint8_t>(P[Bytes - 1]) == Tag;
      for (uint64_t Off = 0; Off < Bytes && Kept; Off += 4096)
        Kept = static_cast<uint8_t>(P[Off]) == Tag;
      if (!Kept)
        fail("a live block was clobbered");
      if (Op == 7 && Bytes > 64) {
        if (A->deallocate(P + 32) == MEMPLAN_RT_OK)
          fail("an interior pointer was freed");
      } else if (Op == 6) {
        if (Arg & 1)
          A->flushCaches();
        else
          A->releaseFreeRegions();
      } else {
        Live.erase(It);
        if (A->deallocate(P) != MEMPLAN_RT_OK)
          fail("freeing a live block failed");
        if (Op == 5 && A->deallocate(P) == MEMPLAN_RT_OK)
          fail("a double free was accepted");
      }
    }
    std::string Why;
    if (!A->checkInvariants(&Why))
      fail("invariant: " + Why);
  }
  for (auto &[P, L] : Live)
    if (A->deallocate(P) != MEMPLAN_RT_OK)
      fail("final free failed");
  std::string Why;
  if (!A->checkInvariants(&Why))
    fail("invariant at the end: " + Why);
  return 0;
}
