//===- BFCAllocatorTest.cpp - Split, coalesce, bins, growth, limits -------===//

#include "memplan/Runtime/BFCAllocator.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <string>

using namespace memplan::rt;

namespace {

memplan_rt_options defaults() {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  return O;
}

std::unique_ptr<BFCAllocator> make(const memplan_rt_options &O) {
  memplan_rt_status S = MEMPLAN_RT_BAD_OPTIONS;
  auto A = BFCAllocator::create(O, &S);
  EXPECT_EQ(S, MEMPLAN_RT_OK);
  return A;
}

void *alloc(BFCAllocator &A, uint64_t Bytes, uint64_t Align = 0) {
  memplan_rt_status S = MEMPLAN_RT_BAD_OPTIONS;
  void *P = A.allocate(Bytes, Align, &S);
  EXPECT_EQ(S, MEMPLAN_RT_OK) << memplan_rt_status_string(S);
  EXPECT_NE(P, nullptr);
  return P;
}

char *at(void *P, long Off) { return static_cast<char *>(P) + Off; }

#define EXPECT_INVARIANTS(A)                                                   \
  do {                                                                         \
    std::string Why;                                                           \
    EXPECT_TRUE((A).checkInvariants(&Why)) << Why;                             \
  } while (0)

TEST(BFCAllocator, RoundsAndSplits) {
  auto A = make(defaults());
  void *P1 = alloc(*A, 1000);
  EXPECT_EQ(A->allocatedSize(P1), 1024u);
  // The rest of the region was split off: the next chunk starts right after.
  void *P2 = alloc(*A, 1);
  EXPECT_EQ(P2, at(P1, 1024));
  EXPECT_EQ(A->allocatedSize(P2), 256u);
  memplan_rt_stats S = A->stats();
  EXPECT_EQ(S.num_allocs, 2u);
  EXPECT_EQ(S.bytes_in_use, 1024u + 256u);
  EXPECT_EQ(S.requested_bytes_in_use, 1001u);
  EXPECT_EQ(S.num_free_chunks, 1u);
  EXPECT_INVARIANTS(*A);
}

TEST(BFCAllocator, SplitThresholdKeepsSmallRemainders) {
  memplan_rt_options O = defaults();
  O.split_threshold = 2048;
  O.growth_granule = 64 << 10; // one 64 KiB region: big remainders split
  auto A = make(O);
  void *Hole = alloc(*A, 3072);
  void *Guard = alloc(*A, 256);
  ASSERT_EQ(A->deallocate(Hole), MEMPLAN_RT_OK);
  // 3072 - 1024 = 2048 >= threshold: split.
  void *P = alloc(*A, 1024);
  EXPECT_EQ(P, Hole);
  EXPECT_EQ(A->allocatedSize(P), 1024u);
  // The 2048 remainder, asked for 512: 1536 left < 2048, not split.
  void *Q = alloc(*A, 512);
  EXPECT_EQ(Q, at(Hole, 1024));
  EXPECT_EQ(A->allocatedSize(Q), 2048u);
  EXPECT_EQ(A->stats().bytes_in_use, 1024u + 2048u + 256u);
  (void)Guard;
  EXPECT_INVARIANTS(*A);
}

TEST(BFCAllocator, CoalescesWithBothNeighbours) {
  auto A = make(defaults());
  void *P[6]; // P[5] stays live: a guard before the region's free tail
  for (void *&X : P)
    X = alloc(*A, 1024);
  uint64_t FreeBefore = A->stats().num_free_chunks; // the region's tail
  ASSERT_EQ(A->deallocate(P[0]), MEMPLAN_RT_OK);
  ASSERT_EQ(A->deallocate(P[2]), MEMPLAN_RT_OK);
  EXPECT_EQ(A->stats().num_free_chunks, FreeBefore + 2);
  EXPECT_INVARIANTS(*A);
  // P[1] merges with P[0] (previous) and P[2] (next): one chunk of 3072.
  ASSERT_EQ(A->deallocate(P[1]), MEMPLAN_RT_OK);
  EXPECT_EQ(A->stats().num_free_chunks, FreeBefore + 1);
  EXPECT_INVARIANTS(*A);
  void *Big = alloc(*A, 3072);
  EXPECT_EQ(Big, P[0]);
  EXPECT_EQ(A->allocatedSize(Big), 3072u);
  // Next only: free P[3] then Big; Big merges with P[3] and nothing before.
  ASSERT_EQ(A->deallocate(P[3]), MEMPLAN_RT_OK);
  ASSERT_EQ(A->deallocate(Big), MEMPLAN_RT_OK);
  EXPECT_EQ(A->stats().num_free_chunks, FreeBefore + 1);
  void *Again = alloc(*A, 4096);
  EXPECT_EQ(Again, P[0]);
  EXPECT_EQ(A->allocatedSize(Again), 4096u);
  // Previous only: free Again, then P[4], whose next (P[5]) is in use.
  ASSERT_EQ(A->deallocate(Again), MEMPLAN_RT_OK);
  EXPECT_EQ(A->stats().num_free_chunks, FreeBefore + 1);
  ASSERT_EQ(A->deallocate(P[4]), MEMPLAN_RT_OK);
  EXPECT_EQ(A->stats().num_free_chunks, FreeBefore + 1);
  EXPECT_INVARIANTS(*A);
  void *All = alloc(*A, 5120);
  EXPECT_EQ(All, P[0]);
  EXPECT_EQ(A->allocatedSize(All), 5120u);
  ASSERT_EQ(A->deallocate(All), MEMPLAN_RT_OK);
  ASSERT_EQ(A->deallocate(P[5]), MEMPLAN_RT_OK);
  EXPECT_EQ(A->stats().num_free_chunks, 1u);
  EXPECT_EQ(A->stats().bytes_in_use, 0u);
  EXPECT_INVARIANTS(*A);
}

TEST(BFCAllocator, BinBoundaries) {
  auto A = make(defaults());
  // One bin per size below 16 units of 256 bytes.
  for (int U = 1; U < 16; ++U)
    EXPECT_EQ(A->binForSize(uint64_t(256) * U), U - 1) << U;
  EXPECT_EQ(A->binForSize(511), 0);
  // Then 8 per power of two: [16, 18) units, [18, 20), ... [30, 32), then
  // [32, 36), ...
  EXPECT_EQ(A->binForSize(256 * 16), 15);
  EXPECT_EQ(A->binForSize(256 * 17), 15);
  EXPECT_EQ(A->binForSize(256 * 18), 16);
  EXPECT_EQ(A->binForSize(256 * 31), 22);
  EXPECT_EQ(A->binForSize(256 * 32), 23);
  EXPECT_EQ(A->binForSize(256 * 35), 23);
  EXPECT_EQ(A->binForSize(256 * 36), 24);
  // Bins are ordered by size, and every bin is reached.
  int Prev = 0;
  for (uint64_t U = 1; U < (uint64_t(1) << 34); U += 1 + U / 16) {
    int B = A->binForSize(256 * U);
    EXPECT_TRUE(B == Prev || B == Prev + 1) << U;
    Prev = B;
  }
  EXPECT_EQ(Prev, BFCAllocator::NumBins - 1);
  // The last bin is unbounded.
  EXPECT_EQ(A->binForSize(uint64_t(256) << 50), BFCAllocator::NumBins - 1);
}

TEST(BFCAllocator, BestFitAcrossAndWithinBins) {
  auto A = make(defaults());
  // Free holes of 4096, 2048 and 3072 (three bins), each followed by a
  // guard; then requests pick the smallest hole that fits.
  void *H4096 = alloc(*A, 4096);
  alloc(*A, 256);
  void *H3072 = alloc(*A, 3072);
  alloc(*A, 256);
  void *H2048 = alloc(*A, 2048);
  alloc(*A, 256);
  for (void *P : {H4096, H3072, H2048})
    ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  EXPECT_EQ(alloc(*A, 2500), H3072);
  EXPECT_EQ(alloc(*A, 1800), H2048);
  EXPECT_EQ(alloc(*A, 3000), H4096);
  EXPECT_INVARIANTS(*A);
  // Within one bin ([18, 20) units), on a fresh heap (no old holes to take
  // the guards): 19 units freed first, 18 after; a request of 17.5 units
  // takes the 18, the smaller.
  auto B = make(defaults());
  ASSERT_EQ(B->binForSize(256 * 18), B->binForSize(256 * 19));
  void *H19 = alloc(*B, 256 * 19);
  alloc(*B, 256);
  void *H18 = alloc(*B, 256 * 18);
  alloc(*B, 256);
  for (void *P : {H19, H18})
    ASSERT_EQ(B->deallocate(P), MEMPLAN_RT_OK);
  EXPECT_EQ(alloc(*B, 256 * 17 + 128), H18);
  EXPECT_EQ(alloc(*B, 256 * 17 + 128), H19);
  EXPECT_INVARIANTS(*B);
}

TEST(BFCAllocator, DoublingRegionsFromMalloc) {
  for (memplan_rt_source Src :
       {MEMPLAN_RT_SOURCE_MALLOC, MEMPLAN_RT_SOURCE_MMAP}) {
    memplan_rt_options O = defaults();
    O.source = Src;
    O.initial_region = 1 << 20;
    auto A = make(O);
    alloc(*A, 1 << 20); // region 1: 1 MiB, full
    EXPECT_EQ(A->stats().num_regions, 1u);
    EXPECT_EQ(A->stats().bytes_reserved, 1u << 20);
    alloc(*A, 256); // region 2: 2 MiB
    EXPECT_EQ(A->stats().num_regions, 2u);
    EXPECT_EQ(A->stats().bytes_reserved, 3u << 20);
    alloc(*A, 5 << 20); // does not fit 2 MiB left nor 4 MiB: 8 MiB region
    EXPECT_EQ(A->stats().num_regions, 3u);
    EXPECT_EQ(A->stats().bytes_reserved, 11u << 20);
    EXPECT_EQ(A->stats().peak_bytes_reserved, 11u << 20);
    EXPECT_INVARIANTS(*A);
  }
}

TEST(BFCAllocator, VirtualSourceGrowsOneRegionExactly) {
  auto A = make(defaults());
  void *P = alloc(*A, 1 << 20);
  void *Q = alloc(*A, 1 << 20);
  EXPECT_EQ(Q, at(P, 1 << 20));
  memplan_rt_stats S = A->stats();
  EXPECT_EQ(S.num_regions, 1u);
  EXPECT_EQ(S.bytes_reserved, 2u << 20);
  // A free tail is extended, not skipped: after freeing Q, 1.5 MiB more
  // needs only 512 KiB more.
  ASSERT_EQ(A->deallocate(Q), MEMPLAN_RT_OK);
  alloc(*A, 3 << 19);
  EXPECT_EQ(A->stats().bytes_reserved, (2u << 20) + (1u << 19));
  EXPECT_EQ(A->stats().num_regions, 1u);
  EXPECT_INVARIANTS(*A);
}

TEST(BFCAllocator, LimitFailsCleanly) {
  memplan_rt_options O = defaults();
  O.memory_limit = 1 << 20;
  auto A = make(O);
  void *P = alloc(*A, 768 << 10);
  memplan_rt_status S = MEMPLAN_RT_OK;
  EXPECT_EQ(A->allocate(512 << 10, 0, &S), nullptr);
  EXPECT_EQ(S, MEMPLAN_RT_OUT_OF_MEMORY);
  EXPECT_EQ(A->allocate(uint64_t(1) << 62, 0, &S), nullptr);
  EXPECT_EQ(S, MEMPLAN_RT_OUT_OF_MEMORY);
  EXPECT_EQ(A->stats().num_failures, 2u);
  EXPECT_LE(A->stats().bytes_reserved, 1u << 20);
  ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  EXPECT_NE(A->allocate(1 << 20, 0, &S), nullptr);
  EXPECT_EQ(S, MEMPLAN_RT_OK);
  EXPECT_INVARIANTS(*A);
}

TEST(BFCAllocator, NoGrowthReservesTheLimitUpFront) {
  memplan_rt_options O = defaults();
  O.allow_growth = 0;
  O.memory_limit = 3 << 20;
  auto A = make(O);
  EXPECT_EQ(A->stats().bytes_reserved, 3u << 20);
  alloc(*A, 2 << 20);
  memplan_rt_status S = MEMPLAN_RT_OK;
  EXPECT_EQ(A->allocate(2 << 20, 0, &S), nullptr);
  EXPECT_EQ(S, MEMPLAN_RT_OUT_OF_MEMORY);
  EXPECT_EQ(A->stats().bytes_reserved, 3u << 20);

  O.memory_limit = 0; // nothing to reserve
  EXPECT_EQ(BFCAllocator::create(O, &S), nullptr);
  EXPECT_EQ(S, MEMPLAN_RT_BAD_OPTIONS);
  O = defaults();
  O.rounding = 100;
  EXPECT_EQ(BFCAllocator::create(O, &S), nullptr);
  EXPECT_EQ(S, MEMPLAN_RT_BAD_OPTIONS);
}

TEST(BFCAllocator, ReleasesWhollyFreeRegions) {
  for (int Release : {0, 1}) {
    memplan_rt_options O = defaults();
    O.source = MEMPLAN_RT_SOURCE_MALLOC;
    O.memory_limit = 3 << 20;
    O.release_free_regions = Release;
    auto A = make(O);
    void *P = alloc(*A, 1 << 20);
    ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
    // 2.5 MiB: the free 1 MiB region is too small and only 2 MiB remain
    // under the limit, unless that region is given back first.
    memplan_rt_status S = MEMPLAN_RT_OK;
    void *Q = A->allocate(5 << 19, 0, &S);
    EXPECT_EQ(Q != nullptr, Release == 1);
    EXPECT_EQ(S, Release ? MEMPLAN_RT_OK : MEMPLAN_RT_OUT_OF_MEMORY);
    EXPECT_EQ(A->stats().num_regions, 1u);
    EXPECT_INVARIANTS(*A);
    if (Q) {
      ASSERT_EQ(A->deallocate(Q), MEMPLAN_RT_OK);
      // The region was capped by the limit: min(4 MiB, 3 MiB).
      EXPECT_EQ(A->releaseFreeRegions(), 3u << 20);
      EXPECT_EQ(A->stats().bytes_reserved, 0u);
      EXPECT_EQ(A->stats().num_regions, 0u);
      EXPECT_INVARIANTS(*A);
    }
  }
}

TEST(BFCAllocator, AlignmentUpTo4096AndBeyond) {
  auto A = make(defaults());
  std::vector<void *> Live;
  for (uint64_t Align = 1; Align <= 65536; Align *= 2) {
    for (uint64_t Bytes : {1u, 300u, 5000u}) {
      void *P = alloc(*A, Bytes, Align);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(P) % Align, 0u)
          << "align " << Align << " bytes " << Bytes;
      Live.push_back(P);
      EXPECT_INVARIANTS(*A);
    }
    // Free every other one so later requests land in holes that need
    // padding.
    for (size_t I = 0; I < Live.size(); I += 2)
      if (Live[I]) {
        ASSERT_EQ(A->deallocate(Live[I]), MEMPLAN_RT_OK);
        Live[I] = nullptr;
      }
  }
  memplan_rt_status S = MEMPLAN_RT_OK;
  EXPECT_EQ(A->allocate(64, 3, &S), nullptr);
  EXPECT_EQ(S, MEMPLAN_RT_BAD_ALIGNMENT);
  EXPECT_EQ(A->allocate(64, MEMPLAN_RT_MAX_ALIGNMENT * 2, &S), nullptr);
  EXPECT_EQ(S, MEMPLAN_RT_BAD_ALIGNMENT);
  EXPECT_INVARIANTS(*A);
}

TEST(BFCAllocator, SizeZero) {
  auto A = make(defaults());
  memplan_rt_status S = MEMPLAN_RT_BAD_OPTIONS;
  EXPECT_EQ(A->allocate(0, 64, &S), nullptr);
  EXPECT_EQ(S, MEMPLAN_RT_OK);
  EXPECT_EQ(A->deallocate(nullptr), MEMPLAN_RT_OK);
  memplan_rt_stats St = A->stats();
  EXPECT_EQ(St.num_allocs, 0u);
  EXPECT_EQ(St.num_failures, 0u);
  EXPECT_EQ(St.bytes_reserved, 0u);
}

TEST(BFCAllocator, BadFreesAreErrors) {
  auto A = make(defaults());
  void *P = alloc(*A, 1024);
  void *Q = alloc(*A, 1024);
  int OnStack = 0;
  void *Heap = std::malloc(64);
  EXPECT_EQ(A->deallocate(&OnStack), MEMPLAN_RT_FOREIGN_POINTER);
  EXPECT_EQ(A->deallocate(Heap), MEMPLAN_RT_FOREIGN_POINTER);
  EXPECT_EQ(A->deallocate(at(P, 256)), MEMPLAN_RT_FOREIGN_POINTER);
  EXPECT_EQ(A->deallocate(at(P, 1)), MEMPLAN_RT_FOREIGN_POINTER);
  ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_DOUBLE_FREE);
  // Freed and merged into the free neighbour: still reported as a double
  // free.
  ASSERT_EQ(A->deallocate(Q), MEMPLAN_RT_OK);
  EXPECT_EQ(A->deallocate(Q), MEMPLAN_RT_DOUBLE_FREE);
  EXPECT_EQ(A->stats().num_failures, 6u);
  EXPECT_EQ(A->stats().num_frees, 2u);
  EXPECT_EQ(A->stats().bytes_in_use, 0u);
  EXPECT_INVARIANTS(*A);
  std::free(Heap);
}

// Split and merge leave the slot table alone (only allocations write it), so
// a freed block's slot may still name a chunk record that was merged away
// and reused elsewhere: a free there must still be refused, and a free of
// a pointer inside a block that now covers it too.
TEST(BFCAllocator, StaleSlotsOfMergedChunksAreRefused) {
  auto A = make(defaults());
  void *P = alloc(*A, 1024);
  void *Q = alloc(*A, 1024);
  void *Guard = alloc(*A, 1024);
  ASSERT_EQ(A->deallocate(Q), MEMPLAN_RT_OK);
  ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK); // Q's chunk merges into P's
  EXPECT_EQ(A->deallocate(Q), MEMPLAN_RT_DOUBLE_FREE);
  EXPECT_EQ(A->allocatedSize(Q), 0u);
  // The merged hole is the best fit of 2048 bytes (the exact size, lowest
  // address): Q is now inside a live block.
  void *R = alloc(*A, 2048);
  ASSERT_EQ(R, P);
  EXPECT_EQ(A->deallocate(Q), MEMPLAN_RT_FOREIGN_POINTER);
  // A split elsewhere reuses the record Q's slot still names (for the rest
  // of the chunk S is cut from), and T takes that rest: the record is in
  // use, for T. Freeing Q must not free T.
  void *S = alloc(*A, 256);
  void *T = alloc(*A, 256);
  EXPECT_EQ(A->deallocate(Q), MEMPLAN_RT_FOREIGN_POINTER);
  EXPECT_EQ(A->allocatedSize(Q), 0u);
  EXPECT_EQ(A->allocatedSize(R), 2048u);
  EXPECT_EQ(A->allocatedSize(T), 256u);
  EXPECT_INVARIANTS(*A);
  for (void *X : {R, S, T, Guard})
    ASSERT_EQ(A->deallocate(X), MEMPLAN_RT_OK);
  EXPECT_EQ(A->stats().bytes_in_use, 0u);
  EXPECT_INVARIANTS(*A);
}

TEST(BFCAllocator, DumpShowsRegionsChunksBinsAndTrace) {
  memplan_rt_options O = defaults();
  O.trace = 1;
  auto A = make(O);
  void *P = alloc(*A, 1000);
  void *Q = alloc(*A, 5000);
  alloc(*A, 256);
  ASSERT_EQ(A->deallocate(Q), MEMPLAN_RT_OK);
  std::string Text = A->dump(false);
  EXPECT_NE(Text.find("region 0:"), std::string::npos) << Text;
  EXPECT_NE(Text.find("chunk +0 size 1024 in use id 1 requested 1000"),
            std::string::npos)
      << Text;
  // Q's 5120 bytes (20 units) are free in bin 17 ([20, 22) units).
  EXPECT_NE(Text.find("chunk +1024 size 5120 free bin 17"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("bin 17 (>= 5120 bytes): 1 free chunks, 5120 bytes"),
            std::string::npos)
      << Text;
  EXPECT_NE(
      Text.find("bytes in use: " + std::to_string(A->allocatedSize(P) + 256)),
      std::string::npos)
      << Text;
  EXPECT_NE(Text.find("trace 3: free id 2"), std::string::npos) << Text;

  std::string Json = A->dump(true);
  auto Count = [&](const std::string &Needle) {
    size_t N = 0;
    for (size_t Pos = Json.find(Needle); Pos != std::string::npos;
         Pos = Json.find(Needle, Pos + 1))
      ++N;
    return N;
  };
  EXPECT_EQ(Count("\"in_use\":true"), 2u) << Json;
  EXPECT_EQ(Count("\"in_use\":false"), A->stats().num_free_chunks) << Json;
  EXPECT_EQ(Count("\"event\":\"alloc\""), 3u);
  EXPECT_EQ(Count("\"event\":\"free\""), 1u);
  EXPECT_EQ(Count("{\"bin\":"), size_t(BFCAllocator::NumBins));
  EXPECT_NE(Json.find("{\"offset\":1024,\"size\":5120,\"in_use\":false"),
            std::string::npos)
      << Json;
  EXPECT_EQ(Json.front(), '{');
  EXPECT_EQ(Json.substr(Json.size() - 3), "]}\n");
}

} // namespace
