//===- InvariantTest.cpp - Randomized structural checks of the allocator --===//
//
// 10^5 random allocs/frees (sizes log-uniform over 1 B..256 KiB with some
// MiB-sized ones, random alignments, bad frees mixed in); after every op the
// allocator's own structure check must pass and its counters must equal
// what the test tracks independently.
//
//===----------------------------------------------------------------------===//

#include "memplan/Runtime/BFCAllocator.h"

#include "gtest/gtest.h"

#include <cstring>
#include <map>
#include <random>
#include <thread>

using namespace memplan::rt;

namespace {

struct Live {
  uint64_t Bytes;
  uint8_t Tag;
};

void runRandom(memplan_rt_options O, unsigned Seed, int Ops) {
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  ASSERT_TRUE(A) << memplan_rt_status_string(S);
  std::mt19937_64 Rng(Seed);
  std::map<char *, Live> Allocs; // by address, to check for overlap
  uint64_t Requested = 0;
  for (int Op = 0; Op < Ops; ++Op) {
    bool DoAlloc = Allocs.empty() || (Rng() % 100) < 52;
    if (DoAlloc) {
      uint64_t Bytes;
      if (Rng() % 200 == 0)
        Bytes = 1 + Rng() % (4 << 20);
      else
        Bytes = 1 + (Rng() % (uint64_t(1) << (Rng() % 19)));
      uint64_t Align = uint64_t(1) << (Rng() % 13); // 1 .. 4096
      char *P = static_cast<char *>(A->allocate(Bytes, Align, &S));
      if (!P) {
        // Only the limit may refuse.
        ASSERT_EQ(S, MEMPLAN_RT_OUT_OF_MEMORY) << "op " << Op;
        ASSERT_NE(O.memory_limit, 0u);
      } else {
        ASSERT_EQ(S, MEMPLAN_RT_OK);
        ASSERT_EQ(reinterpret_cast<uintptr_t>(P) % Align, 0u);
        auto Next = Allocs.lower_bound(P);
        if (Next != Allocs.end()) {
          ASSERT_LE(P + Bytes, Next->first) << "overlap, op " << Op;
        }
        if (Next != Allocs.begin()) {
          auto Prev = std::prev(Next);
          ASSERT_LE(Prev->first + Prev->second.Bytes, P) << "overlap";
        }
        uint8_t Tag = static_cast<uint8_t>(Rng());
        P[0] = static_cast<char>(Tag);
        P[Bytes - 1] = static_cast<char>(Tag);
        Allocs[P] = {Bytes, Tag};
        Requested += Bytes;
      }
    } else if (Rng() % 50 == 0) {
      // A bad free: double free of a freed block, or an interior pointer.
      auto It = Allocs.begin();
      std::advance(It, Rng() % Allocs.size());
      char *P = It->first;
      if (It->second.Bytes > 256) {
        ASSERT_EQ(A->deallocate(P + 256), MEMPLAN_RT_FOREIGN_POINTER);
      } else {
        Requested -= It->second.Bytes;
        Allocs.erase(It);
        ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
        memplan_rt_status Again = A->deallocate(P);
        // The memory is free now unless... nothing reused it: no alloc ran.
        ASSERT_EQ(Again, MEMPLAN_RT_DOUBLE_FREE);
      }
    } else {
      auto It = Allocs.begin();
      std::advance(It, Rng() % std::min<size_t>(Allocs.size(), 64));
      char *P = It->first;
      ASSERT_EQ(static_cast<uint8_t>(P[0]), It->second.Tag) << "clobbered";
      ASSERT_EQ(static_cast<uint8_t>(P[It->second.Bytes - 1]), It->second.Tag)
          << "clobbered";
      Requested -= It->second.Bytes;
      Allocs.erase(It);
      ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
    }
    std::string Why;
    ASSERT_TRUE(A->checkInvariants(&Why)) << "op " << Op << ": " << Why;
    memplan_rt_stats St = A->stats();
    ASSERT_EQ(St.requested_bytes_in_use, Requested) << "op " << Op;
    // Summed afresh: a live block grows when the padding of a later, more
    // aligned block next to it joins it.
    uint64_t Rounded = 0;
    for (auto &[P, L] : Allocs) {
      ASSERT_GE(A->allocatedSize(P), L.Bytes);
      Rounded += A->allocatedSize(P);
    }
    ASSERT_EQ(St.bytes_in_use, Rounded) << "op " << Op;
    ASSERT_LE(St.bytes_in_use, St.bytes_reserved);
    if (O.memory_limit) {
      ASSERT_LE(St.bytes_reserved, O.memory_limit);
    }
  }
  for (auto &[P, L] : Allocs)
    ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  if (O.cache) {
    std::string Why;
    ASSERT_TRUE(A->checkInvariants(&Why)) << Why;
    A->flushCaches(); // cached chunks merge back only now
  }
  memplan_rt_stats St = A->stats();
  EXPECT_EQ(St.bytes_in_use, 0u);
  EXPECT_EQ(St.num_free_chunks, St.num_regions); // all merged back
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
}

memplan_rt_options defaults() {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  return O;
}

TEST(BFCInvariants, RandomVirtualSource) { runRandom(defaults(), 1, 100000); }

TEST(BFCInvariants, RandomMallocSourceWithLimit) {
  memplan_rt_options O = defaults();
  O.source = MEMPLAN_RT_SOURCE_MALLOC;
  O.memory_limit = 24 << 20;
  O.release_free_regions = 1;
  O.initial_region = 256 << 10;
  runRandom(O, 2, 100000);
}

TEST(BFCInvariants, RandomSmallRoundingAndSplitThreshold) {
  memplan_rt_options O = defaults();
  O.rounding = 64;
  O.split_threshold = 1024;
  O.memory_limit = 64 << 20;
  runRandom(O, 3, 30000);
}

TEST(BFCInvariants, RandomWithSizeCache) {
  memplan_rt_options O = defaults();
  O.cache = 1;
  runRandom(O, 4, 60000);
  O.source = MEMPLAN_RT_SOURCE_MALLOC;
  O.memory_limit = 24 << 20;
  O.release_free_regions = 1;
  O.initial_region = 256 << 10;
  runRandom(O, 5, 60000);
}

TEST(BFCInvariants, TwoThreads) {
  memplan_rt_status S;
  auto A = BFCAllocator::create(defaults(), &S);
  ASSERT_TRUE(A);
  auto Work = [&](unsigned Seed) {
    std::mt19937 Rng(Seed);
    std::vector<std::pair<char *, uint8_t>> Mine;
    for (int I = 0; I < 20000; ++I) {
      if (Mine.empty() || Rng() % 2) {
        uint64_t Bytes = 1 + Rng() % 20000;
        char *P = static_cast<char *>(A->allocate(Bytes, 64, nullptr));
        if (!P)
          continue;
        uint8_t Tag = static_cast<uint8_t>(Seed * 31 + I);
        std::memset(P, Tag, Bytes);
        Mine.push_back({P, Tag});
      } else {
        size_t K = Rng() % Mine.size();
        if (static_cast<uint8_t>(Mine[K].first[0]) != Mine[K].second)
          ADD_FAILURE() << "another thread wrote into this block";
        A->deallocate(Mine[K].first);
        Mine[K] = Mine.back();
        Mine.pop_back();
      }
    }
    for (auto &[P, T] : Mine)
      A->deallocate(P);
  };
  std::thread T1(Work, 1), T2(Work, 2);
  T1.join();
  T2.join();
  memplan_rt_stats St = A->stats();
  EXPECT_EQ(St.bytes_in_use, 0u);
  EXPECT_EQ(St.num_allocs, St.num_frees);
  EXPECT_EQ(St.num_failures, 0u);
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
}

} // namespace
