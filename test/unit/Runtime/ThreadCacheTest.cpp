//===- ThreadCacheTest.cpp - Blocks a thread keeps for itself -------------===//
//
// options.thread_cache: a freed block waits in its thread's cache for the
// next request of its size, taken without a lock; the stats still count it
// free, a second free is still caught, and the blocks go back to their heaps
// before a heap grows, on a purge and when the thread ends.
//
//===----------------------------------------------------------------------===//

#include "DnnShapedReplay.h"
#include "memplan/Runtime/BFCAllocator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace memplan::rt;

namespace {

std::unique_ptr<BFCAllocator>
withThreadCache(uint64_t Bytes, uint32_t Arenas = 1, double FragCap = 0) {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  O.arenas = Arenas;
  O.thread_cache = Bytes;
  O.frag_cap = FragCap;
  memplan_rt_status S;
  return BFCAllocator::create(O, &S);
}

TEST(RuntimeThreadCache, FreedBlockComesBackAndStatsCountItFree) {
  auto A = withThreadCache(1 << 20);
  ASSERT_TRUE(A);
  void *Guard = A->allocate(256, 64, nullptr);
  void *P = A->allocate(3000, 64, nullptr); // a 3072-byte chunk
  ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  memplan_rt_stats St = A->stats();
  EXPECT_EQ(St.bytes_thread_cached, 3072u);
  EXPECT_EQ(St.bytes_in_use, 256u);
  EXPECT_EQ(St.requested_bytes_in_use, 256u);
  EXPECT_EQ(St.num_frees, 1u);
  EXPECT_EQ(A->allocatedSize(P), 0u);
  // Freed twice: caught, though its heap still holds the chunk.
  EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_DOUBLE_FREE);
  // The same size comes back from the cache, with its new request.
  EXPECT_EQ(A->allocate(2900, 64, nullptr), P);
  St = A->stats();
  EXPECT_EQ(St.bytes_thread_cached, 0u);
  EXPECT_EQ(St.num_allocs, 3u);
  EXPECT_EQ(St.requested_bytes_in_use, 256u + 2900u);
  EXPECT_EQ(A->allocatedSize(P), 3072u);
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  ASSERT_EQ(A->deallocate(Guard), MEMPLAN_RT_OK);
  // A purge gives the blocks back first: one free chunk, nothing in use.
  A->purge();
  St = A->stats();
  EXPECT_EQ(St.bytes_thread_cached, 0u);
  EXPECT_EQ(St.bytes_in_use, 0u);
  EXPECT_EQ(St.requested_bytes_in_use, 0u);
  EXPECT_EQ(St.num_allocs, St.num_frees);
  EXPECT_EQ(St.num_free_chunks, 1u);
  EXPECT_EQ(St.num_failures, 1u);
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
}

TEST(RuntimeThreadCache, BoundedInBytes) {
  auto A = withThreadCache(8192);
  ASSERT_TRUE(A);
  std::vector<void *> Blocks;
  for (int I = 0; I < 8; ++I)
    Blocks.push_back(A->allocate(2048, 64, nullptr));
  for (void *P : Blocks)
    ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  memplan_rt_stats St = A->stats();
  EXPECT_EQ(St.bytes_thread_cached, 8192u);
  EXPECT_EQ(St.bytes_in_use, 0u);
  EXPECT_EQ(St.num_frees, 8u);
}

// The cached blocks go back to the heap before it grows, so they never make
// it reserve more.
TEST(RuntimeThreadCache, GivenBackBeforeTheHeapGrows) {
  auto A = withThreadCache(1 << 20);
  ASSERT_TRUE(A);
  void *P = A->allocate(64 << 10, 64, nullptr);
  void *Q = A->allocate(64 << 10, 64, nullptr);
  ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  ASSERT_EQ(A->deallocate(Q), MEMPLAN_RT_OK);
  uint64_t Reserved = A->stats().bytes_reserved;
  EXPECT_EQ(Reserved, 128u << 10);
  // 128 KiB fits only where both blocks were, merged.
  void *Big = A->allocate(128 << 10, 64, nullptr);
  EXPECT_EQ(Big, P);
  memplan_rt_stats St = A->stats();
  EXPECT_EQ(St.bytes_reserved, Reserved);
  EXPECT_EQ(St.bytes_thread_cached, 0u);
  EXPECT_EQ(St.bytes_in_use, 128u << 10);
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  ASSERT_EQ(A->deallocate(Big), MEMPLAN_RT_OK);
}

// 64 blocks of 16 KiB allocated (a 1 MiB peak in use), then freed.
void peakOf64BlocksFreed(BFCAllocator &A) {
  std::vector<void *> Blocks;
  for (int I = 0; I < 64; ++I)
    Blocks.push_back(A.allocate(16 << 10, 64, nullptr));
  for (void *P : Blocks)
    ASSERT_EQ(A.deallocate(P), MEMPLAN_RT_OK);
}

// Under a frag cap a cache holds at most its share of the cap's slack,
// (cap - 1) times the peak in use: the purges that hold the cap cannot
// reach cached blocks.
TEST(RuntimeThreadCache, UnderAFragCapHoldsItsShareOfTheSlack) {
  for (double Cap : {0.0, 1.0, 1.10}) {
    auto A = withThreadCache(1 << 20, 1, Cap);
    ASSERT_TRUE(A);
    peakOf64BlocksFreed(*A);
    memplan_rt_stats St = A->stats();
    ASSERT_EQ(St.peak_bytes_in_use, 1u << 20);
    // No cap: the cache fills to its 1 MiB. A cap of 1.10: whole blocks up
    // to a tenth of the 1 MiB peak, 6 of 16 KiB; of 1.0: none.
    uint64_t Share = Cap ? uint64_t((Cap - 1) * (1 << 20)) : 1 << 20;
    EXPECT_EQ(St.bytes_thread_cached, Share / (16 << 10) * (16 << 10))
        << "cap " << Cap;
    std::string Why;
    EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  }
}

// A thread that attaches a cache shrinks the others' shares: they flush at
// their next call, so the caches together stay within the slack.
TEST(RuntimeThreadCache, ASecondCacheHalvesTheFirstOnesShare) {
  auto A = withThreadCache(1 << 20, 1, 1.10);
  ASSERT_TRUE(A);
  peakOf64BlocksFreed(*A);
  const uint64_t Slack = uint64_t(0.10 * (1 << 20)); // 6 blocks' worth
  ASSERT_EQ(A->stats().bytes_thread_cached, 6u * (16 << 10));
  std::atomic<bool> Attached{false}, Done{false};
  std::thread Other([&] {
    ASSERT_EQ(A->deallocate(A->allocate(16 << 10, 64, nullptr)), MEMPLAN_RT_OK);
    Attached = true;
    while (!Done)
      std::this_thread::yield();
  });
  while (!Attached)
    std::this_thread::yield();
  // This thread's next call flushes; its share is now half the slack.
  ASSERT_EQ(A->deallocate(A->allocate(16 << 10, 64, nullptr)), MEMPLAN_RT_OK);
  memplan_rt_stats St = A->stats();
  EXPECT_LE(St.bytes_thread_cached, Slack);
  // A block each: this one's cache was emptied, then took the block just
  // freed (within half the slack), and so did the other's.
  EXPECT_EQ(St.bytes_thread_cached, 2u * (16 << 10));
  Done = true;
  Other.join();
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
}

// The cap holds with a cache far larger than its slack: a DNN-shaped
// replay (as bench/runtime's: blocks of 64 B to 1 MiB, most freed by the
// next op or the one after), committed bytes checked after every alloc
// against 1.10 times the peak in use so far. Without the share above, the
// committed bytes reached 1.34 times that peak here.
TEST(RuntimeThreadCache, FragCapHoldsWithACacheLargerThanItsSlack) {
  auto A = withThreadCache(1 << 20, 1, 1.10);
  ASSERT_TRUE(A);
  uint64_t Peak = 0, MostCached = 0;
  double Worst = 0;
  test::replayDnnShaped(
      *A, test::dnnShapedTensors(20000, 7),
      [&](void *, const test::Tensor &, uint64_t) {
        // bytes_in_use: cached blocks not in it
        memplan_rt_stats St = A->stats();
        Peak = std::max(Peak, St.bytes_in_use);
        MostCached = std::max(MostCached, St.bytes_thread_cached);
        Worst = std::max(Worst, double(St.bytes_reserved) / double(Peak));
      });
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_LE(Worst, 1.10 + 1e-9);
  EXPECT_GT(MostCached, 0u); // the cache was used
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
}

// A thread's blocks go back when it ends; blocks freed by another thread go
// to that thread's cache and come back to its requests.
TEST(RuntimeThreadCache, ThreadsGiveBackAtExitAndCrossThreadFrees) {
  auto A = withThreadCache(1 << 20, 2);
  ASSERT_TRUE(A);
  std::vector<void *> Blocks[2];
  for (int Round = 0; Round < 20; ++Round) {
    std::thread T[2];
    for (int I = 0; I < 2; ++I)
      T[I] = std::thread([&, I] {
        for (void *P : Blocks[1 - I])
          EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
        Blocks[1 - I].clear();
        for (int K = 0; K < 200; ++K)
          Blocks[1 - I].push_back(A->allocate(256 << (K % 6), 64, nullptr));
      });
    for (auto &X : T)
      X.join();
    memplan_rt_stats St = A->stats();
    EXPECT_EQ(St.bytes_thread_cached, 0u) << "round " << Round;
    EXPECT_EQ(St.num_allocs, 400u * (Round + 1));
    EXPECT_EQ(St.num_frees, 400u * Round);
  }
  for (auto &V : Blocks)
    for (void *P : V)
      EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  A->flushCaches();
  memplan_rt_stats St = A->stats();
  EXPECT_EQ(St.bytes_in_use, 0u);
  EXPECT_EQ(St.requested_bytes_in_use, 0u);
  EXPECT_EQ(St.num_allocs, St.num_frees);
  EXPECT_EQ(St.num_free_chunks, St.num_regions);
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
}

// A thread holding blocks of an allocator that is destroyed drops them and
// works with the next one.
TEST(RuntimeThreadCache, AllocatorDestroyedUnderAThreadCache) {
  auto A = withThreadCache(1 << 20);
  ASSERT_TRUE(A);
  ASSERT_EQ(A->deallocate(A->allocate(4096, 64, nullptr)), MEMPLAN_RT_OK);
  A.reset();
  auto B = withThreadCache(1 << 20);
  ASSERT_TRUE(B);
  void *P = B->allocate(4096, 64, nullptr);
  ASSERT_NE(P, nullptr);
  ASSERT_EQ(B->deallocate(P), MEMPLAN_RT_OK);
  EXPECT_EQ(B->allocate(4096, 64, nullptr), P);
  ASSERT_EQ(B->deallocate(P), MEMPLAN_RT_OK);
  memplan_rt_stats St = B->stats();
  EXPECT_EQ(St.num_allocs, 2u);
  EXPECT_EQ(St.num_frees, 2u);
}

// Off under a limit and with a trace; the environment turns it on.
TEST(RuntimeThreadCache, OffUnderALimitAndTheEnvironment) {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  EXPECT_EQ(O.thread_cache, 0u);
  O.thread_cache = 1 << 20;
  O.memory_limit = 1 << 20;
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  ASSERT_TRUE(A);
  void *P = A->allocate(4096, 64, nullptr);
  ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  EXPECT_EQ(A->stats().bytes_thread_cached, 0u);
  setenv("MEMPLAN_RT_THREAD_CACHE", "64K", 1);
  memplan_rt_options_from_env(&O);
  unsetenv("MEMPLAN_RT_THREAD_CACHE");
  EXPECT_EQ(O.thread_cache, 64u << 10);
}

} // namespace
