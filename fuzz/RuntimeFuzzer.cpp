//===- RuntimeFuzzer.cpp - Random op sequences against the BFC allocator -===//
//
// Each input byte group is one op: allocate (size, alignment), free a live
// block, free a bad pointer (interior or double), or release free regions
// (or empty the size cache); options: source, limit, rounding, size cache,
// decommit, heaps, frag cap, thread caches, learned plans (replay). The ops
// run for 1 to 8 rounds, each ending with every block freed (an episode
// the heap may plan); from the second round on, some allocs ask another
// size and some frees are put off to the round after (late frees, a block
// live across episodes).
// After every op the allocator's checkInvariants() must hold and live blocks
// must keep their tags, a byte per 4 KiB page and the last one (no overlap,
// no clobbering, no page purged under them).
//
//===----------------------------------------------------------------------===//

#include "memplan/Runtime/BFCAllocator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace memplan::rt;

static void fail(const std::string &Why) {
  fprintf(stderr, "memplan-fuzz-runtime: %s\n", Why.c_str());
  abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 3)
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
  // Learned plans of repeated episodes, and the rounds that repeat them.
  O.replay = Data[2] & 1;
  int Rounds = 1 + ((Data[2] >> 1) & 7);
  int Perturb = Data[2] >> 4; // of 16: the share of ops changed per round
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  if (!A)
    return 0;
  std::map<char *, std::pair<uint64_t, uint8_t>> Live;
  // Live blocks in alloc order: a free names one by its place there, so
  // that a round that allocates the same sizes frees the same blocks (by
  // address, planned blocks would sort elsewhere than the bins' did).
  std::vector<char *> Order;
  auto Check = [&](char *P) {
    auto [Bytes, Tag] = Live.at(P);
    bool Kept = !Bytes || static_cast<uint8_t>(P[Bytes - 1]) == Tag;
    for (uint64_t Off = 0; Off < Bytes && Kept; Off += 4096)
      Kept = static_cast<uint8_t>(P[Off]) == Tag;
    if (!Kept)
      fail("a live block was clobbered");
  };
  auto Free = [&](char *P) {
    Check(P);
    Live.erase(P);
    Order.erase(std::find(Order.begin(), Order.end(), P));
    if (A->deallocate(P) != MEMPLAN_RT_OK)
      fail("freeing a live block failed");
  };
  std::vector<char *> Late, Later; // frees put off to the round's end
  for (int R = 0; R < Rounds; ++R) {
    for (size_t I = 3; I + 3 < Size && I < 4096; I += 4) {
      uint8_t Op = Data[I] % 8;
      uint64_t Arg = Data[I + 1] | (uint64_t(Data[I + 2]) << 8);
      bool Change = R > 0 && (Data[I + 1] + R) % 16 < Perturb;
      if (Op < 4 || Order.empty()) {
        uint64_t Bytes = Op == 3 ? Arg << (Data[I + 3] % 6) : Arg + 1;
        if (Data[I + 3] == 255)
          Bytes = UINT64_MAX - Arg; // absurd sizes must fail cleanly
        if (Change && Bytes < (uint64_t(1) << 40))
          Bytes = Bytes * 2 + 1; // another size than the recorded one
        uint64_t Align = uint64_t(1) << (Data[I + 3] % 14);
        char *P = static_cast<char *>(A->allocate(Bytes, Align, &S));
        if (P) {
          if (reinterpret_cast<uintptr_t>(P) % Align)
            fail("misaligned block");
          if (Live.count(P))
            fail("a live block handed out again");
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
          Order.push_back(P);
        }
      } else {
        char *P = Order[Arg % Order.size()];
        uint64_t Bytes = Live.at(P).first;
        Check(P);
        if (Op == 7 && Bytes > 64) {
          if (A->deallocate(P + 32) == MEMPLAN_RT_OK)
            fail("an interior pointer was freed");
        } else if (Op == 6) {
          if (Arg & 1)
            A->flushCaches();
          else
            A->releaseFreeRegions();
        } else if (Change &&
                   std::find(Late.begin(), Late.end(), P) == Late.end()) {
          Late.push_back(P); // freed late: at the round's end, or after
        } else if (std::find(Late.begin(), Late.end(), P) == Late.end()) {
          Free(P);
          if (Op == 5 && A->deallocate(P) == MEMPLAN_RT_OK)
            fail("a double free was accepted");
        }
      }
      std::string Why;
      if (!A->checkInvariants(&Why))
        fail("invariant: " + Why);
    }
    // The round ends with every block freed (an episode ends), but half of
    // those freed late, which live on into the next round.
    for (char *P : Later)
      if (Live.count(P)) // (an op may have freed it, and it come back)
        Free(P);
    Later.clear();
    for (size_t K = 0; K < Late.size(); ++K)
      if (K % 2)
        Later.push_back(Late[K]);
    Late.clear();
    for (char *P : std::vector<char *>(Order))
      if (std::find(Later.begin(), Later.end(), P) == Later.end())
        Free(P);
    std::string Why;
    if (!A->checkInvariants(&Why))
      fail("invariant at a round's end: " + Why);
  }
  for (char *P : std::vector<char *>(Order))
    Free(P);
  std::string Why;
  if (!A->checkInvariants(&Why))
    fail("invariant at the end: " + Why);
  return 0;
}
