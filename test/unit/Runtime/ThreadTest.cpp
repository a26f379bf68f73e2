//===- ThreadTest.cpp - Several heaps, cross-thread frees, stats ----------===//
//
// Threads allocate from their own heaps and free blocks other threads
// allocated; afterwards every heap's structure holds and the counters add
// up. Run under ThreadSanitizer by `make check-tsan`. No timing assertions.
//
//===----------------------------------------------------------------------===//

#include "memplan/Runtime/BFCAllocator.h"

#include "gtest/gtest.h"

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

using namespace memplan::rt;

namespace {

memplan_rt_options withHeaps(uint32_t N) {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  O.arenas = N;
  return O;
}

/// A queue of blocks handed from one thread to another.
struct Mailbox {
  std::mutex Mu;
  std::condition_variable Cv;
  std::deque<std::pair<char *, uint64_t>> Q;
  bool Closed = false;
  void put(char *P, uint64_t N) {
    std::lock_guard<std::mutex> L(Mu);
    Q.push_back({P, N});
    Cv.notify_one();
  }
  bool take(std::pair<char *, uint64_t> &Out) {
    std::unique_lock<std::mutex> L(Mu);
    Cv.wait(L, [&] { return Closed || !Q.empty(); });
    if (Q.empty())
      return false;
    Out = Q.front();
    Q.pop_front();
    return true;
  }
  void close() {
    std::lock_guard<std::mutex> L(Mu);
    Closed = true;
    Cv.notify_all();
  }
};

/// Takes a random block out of a pool that threads share; false if empty.
template <typename T>
bool takeAny(std::mutex &Mu, std::vector<T> &Pool, std::mt19937 &Rng, T &Out) {
  std::lock_guard<std::mutex> L(Mu);
  if (Pool.empty())
    return false;
  size_t K = Rng() % Pool.size();
  Out = Pool[K];
  Pool[K] = Pool.back();
  Pool.pop_back();
  return true;
}

TEST(RuntimeThreads, BlocksFreedByAnotherThread) {
  memplan_rt_status S;
  auto A = BFCAllocator::create(withHeaps(4), &S);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->numHeaps(), 4u);
  // Two producers, each sending its blocks to the other thread's consumer.
  Mailbox Box[2];
  auto Producer = [&](int Me) {
    std::mt19937 Rng(Me + 1);
    for (int I = 0; I < 3000; ++I) {
      uint64_t N = 1 + Rng() % 30000;
      char *P = static_cast<char *>(A->allocate(N, 64, nullptr));
      ASSERT_NE(P, nullptr);
      std::memset(P, Me + 1, N);
      Box[1 - Me].put(P, N);
    }
    Box[1 - Me].close();
  };
  auto Consumer = [&](int Me) {
    std::pair<char *, uint64_t> B;
    while (Box[Me].take(B)) {
      char Want = static_cast<char>(2 - Me); // written by the other producer
      if (B.first[0] != Want || B.first[B.second - 1] != Want)
        ADD_FAILURE() << "a block in flight was overwritten";
      EXPECT_EQ(A->deallocate(B.first), MEMPLAN_RT_OK);
    }
  };
  std::thread T[4] = {std::thread(Producer, 0), std::thread(Producer, 1),
                      std::thread(Consumer, 0), std::thread(Consumer, 1)};
  for (auto &X : T)
    X.join();
  memplan_rt_stats St = A->stats();
  EXPECT_EQ(St.num_allocs, 6000u);
  EXPECT_EQ(St.num_frees, 6000u);
  EXPECT_EQ(St.bytes_in_use, 0u);
  EXPECT_EQ(St.requested_bytes_in_use, 0u);
  EXPECT_EQ(St.num_failures, 0u);
  EXPECT_EQ(St.num_free_chunks, St.num_regions); // everything merged back
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  // Double frees and foreign pointers are still caught after the traffic.
  void *P = A->allocate(100, 64, nullptr);
  ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_DOUBLE_FREE);
  int OnStack;
  EXPECT_EQ(A->deallocate(&OnStack), MEMPLAN_RT_FOREIGN_POINTER);
  EXPECT_EQ(A->stats().num_failures, 2u);
}

TEST(RuntimeThreads, ManyThreadsSharedPoolWithStatsAndDump) {
  memplan_rt_status S;
  auto A = BFCAllocator::create(withHeaps(3), &S);
  ASSERT_TRUE(A);
  // Blocks go into a shared pool; any thread frees any of them.
  std::mutex PoolMu;
  std::vector<std::pair<char *, uint8_t>> Pool;
  std::atomic<bool> Stop{false};
  auto Work = [&](unsigned Seed) {
    std::mt19937 Rng(Seed);
    for (int I = 0; I < 4000; ++I) {
      if (Rng() % 2) {
        uint64_t N = 1 + Rng() % 5000;
        char *P = static_cast<char *>(A->allocate(N, 128, nullptr));
        ASSERT_NE(P, nullptr);
        ASSERT_EQ(reinterpret_cast<uintptr_t>(P) % 128, 0u);
        uint8_t Tag = static_cast<uint8_t>(Rng());
        P[0] = static_cast<char>(Tag);
        std::lock_guard<std::mutex> L(PoolMu);
        Pool.push_back({P, Tag});
      } else {
        std::pair<char *, uint8_t> B{nullptr, 0};
        if (!takeAny(PoolMu, Pool, Rng, B))
          continue;
        if (static_cast<uint8_t>(B.first[0]) != B.second)
          ADD_FAILURE() << "clobbered";
        EXPECT_EQ(A->deallocate(B.first), MEMPLAN_RT_OK);
      }
      if (I % 500 == 0) {
        // Readers run alongside: stats, dump and the structure check take
        // every heap's lock.
        memplan_rt_stats St = A->stats();
        EXPECT_LE(St.bytes_in_use, St.bytes_reserved);
        EXPECT_FALSE(A->dump(false).empty());
      }
    }
  };
  std::vector<std::thread> Ts;
  for (unsigned T = 0; T < 4; ++T)
    Ts.emplace_back(Work, T + 10);
  for (auto &T : Ts)
    T.join();
  Stop = true;
  for (auto &[P, Tag] : Pool)
    EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  memplan_rt_stats St = A->stats();
  EXPECT_EQ(St.bytes_in_use, 0u);
  EXPECT_EQ(St.num_allocs, St.num_frees);
  // Peak in use is a sum of the heaps' peaks: the ratio is only positive.
  EXPECT_GT(St.frag, 0.0);
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  std::string Text = A->dump(false);
  EXPECT_NE(Text.find("peak bytes reserved: "), std::string::npos);
  EXPECT_NE(Text.find("frag (peak reserved / peak in use): "),
            std::string::npos);
  std::string Json = A->dump(true);
  EXPECT_NE(Json.find("\"frag\":"), std::string::npos);
  EXPECT_NE(Json.find("\"heaps\":3"), std::string::npos);
}

// A frag cap with thread caches, under cross-thread frees: a heap's growth
// or reuse of purged pages purges free pages of the other heaps and sums
// the heaps' bytes in use and the caches' bytes. No page under a live block
// may go (a byte of each page is tagged), and every heap's structure holds.
TEST(RuntimeThreads, FragCapPurgesOtherHeapsUnderCrossThreadFrees) {
  memplan_rt_options O = withHeaps(3);
  O.frag_cap = 1.05;
  O.thread_cache = 64 << 10;
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  ASSERT_TRUE(A);
  struct Block {
    char *P;
    uint64_t N;
    char Tag;
  };
  std::mutex PoolMu;
  std::vector<Block> Pool;
  auto Work = [&](unsigned Seed) {
    std::mt19937 Rng(Seed);
    for (int I = 0; I < 3000; ++I) {
      if (Rng() % 2) {
        uint64_t N = 1 + Rng() % (Rng() % 4 ? 8000 : 300000);
        char *P = static_cast<char *>(A->allocate(N, 64, nullptr));
        ASSERT_NE(P, nullptr);
        char Tag = static_cast<char>(1 + Rng() % 255);
        for (uint64_t Off = 0; Off < N; Off += 4096)
          P[Off] = Tag;
        P[N - 1] = Tag;
        std::lock_guard<std::mutex> L(PoolMu);
        Pool.push_back({P, N, Tag});
        continue;
      }
      Block B{nullptr, 0, 0};
      if (!takeAny(PoolMu, Pool, Rng, B))
        continue;
      for (uint64_t Off = 0; Off < B.N; Off += 4096)
        if (B.P[Off] != B.Tag)
          ADD_FAILURE() << "a page under a live block was purged";
      if (B.P[B.N - 1] != B.Tag)
        ADD_FAILURE() << "a live block was clobbered";
      EXPECT_EQ(A->deallocate(B.P), MEMPLAN_RT_OK);
    }
  };
  std::vector<std::thread> Ts;
  for (unsigned T = 0; T < 4; ++T)
    Ts.emplace_back(Work, T + 20);
  for (auto &T : Ts)
    T.join();
  for (const Block &B : Pool)
    EXPECT_EQ(A->deallocate(B.P), MEMPLAN_RT_OK);
  memplan_rt_stats St = A->stats();
  EXPECT_EQ(St.bytes_in_use, 0u);
  EXPECT_EQ(St.num_allocs, St.num_frees);
  EXPECT_GT(St.bytes_purged, 0u); // the cap was at work
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
}

TEST(RuntimeThreads, OneThreadUsesOneHeapAndFragIsPeakRatio) {
  memplan_rt_status S;
  auto A = BFCAllocator::create(withHeaps(4), &S);
  ASSERT_TRUE(A);
  void *P = A->allocate(1 << 20, 64, nullptr);
  void *Q = A->allocate(1 << 20, 64, nullptr);
  ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  ASSERT_EQ(A->deallocate(Q), MEMPLAN_RT_OK);
  memplan_rt_stats St = A->stats();
  EXPECT_EQ(St.num_regions, 1u);
  EXPECT_EQ(St.peak_bytes_in_use, 2u << 20);
  EXPECT_DOUBLE_EQ(St.frag, double(St.peak_bytes_reserved) / (2 << 20));
}

TEST(RuntimeThreads, OtherSourcesUseOneHeap) {
  memplan_rt_options O = withHeaps(4);
  O.source = MEMPLAN_RT_SOURCE_MALLOC;
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->numHeaps(), 1u);
  O = withHeaps(65);
  EXPECT_FALSE(BFCAllocator::create(O, &S));
  EXPECT_EQ(S, MEMPLAN_RT_BAD_OPTIONS);
}

} // namespace

namespace {

/// One heap with the size cache on.
std::unique_ptr<BFCAllocator> withSizeCache() {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  O.cache = 1;
  O.arenas = 1;
  memplan_rt_status S;
  return BFCAllocator::create(O, &S);
}

TEST(RuntimeSizeCache, ReusesExactSizesAndFlushesBeforeGrowing) {
  auto A = withSizeCache();
  ASSERT_TRUE(A);
  void *P = A->allocate(3000, 64, nullptr); // a 3072-byte chunk
  void *Guard = A->allocate(256, 64, nullptr);
  ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  // Freed, counted free, but waiting unmerged in the cache.
  EXPECT_EQ(A->stats().bytes_in_use, 256u);
  EXPECT_EQ(A->allocatedSize(P), 0u);
  EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_DOUBLE_FREE);
  std::string Text = A->dump(false);
  EXPECT_NE(Text.find("chunk +0 size 3072 cached"), std::string::npos) << Text;
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  // The same size comes back from the cache.
  EXPECT_EQ(A->allocate(2900, 64, nullptr), P);
  ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  ASSERT_EQ(A->deallocate(Guard), MEMPLAN_RT_OK);
  // A request no free chunk fits: the cache is emptied (3072 merges with its
  // neighbours) before the heap grows, so reserved bytes do not change.
  uint64_t Reserved = A->stats().bytes_reserved;
  void *Big = A->allocate(Reserved, 64, nullptr);
  ASSERT_NE(Big, nullptr);
  EXPECT_EQ(Big, P);
  EXPECT_EQ(A->stats().bytes_reserved, Reserved);
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  ASSERT_EQ(A->deallocate(Big), MEMPLAN_RT_OK);
  A->flushCaches();
  EXPECT_EQ(A->stats().num_free_chunks, 1u);
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
}

// The cache takes chunks only while at least half of the requests of a
// window (4096 allocations) found their size in it, or while it takes none,
// would have: a heap whose requests never match a freed size stops holding
// chunks unmerged, and one whose requests match starts again.
TEST(RuntimeSizeCache, TakesChunksOnlyWhileRequestsFindThem) {
  auto A = withSizeCache();
  ASSERT_TRUE(A);
  constexpr int Window = 4096;
  // Before any window ends the cache takes a freed chunk.
  void *First = A->allocate(256, 64, nullptr);
  ASSERT_EQ(A->deallocate(First), MEMPLAN_RT_OK);
  EXPECT_EQ(A->flushCaches(), 256u);
  // A window of requests none of which the cache serves (nothing is freed).
  std::vector<void *> Live;
  for (int I = 1; I < Window; ++I)
    Live.push_back(A->allocate(256, 64, nullptr));
  ASSERT_EQ(A->deallocate(Live.back()), MEMPLAN_RT_OK);
  Live.pop_back();
  EXPECT_EQ(A->flushCaches(), 0u) << "a cache no request found still took";
  // A window where every request is the size just freed: it would have
  // served them all, so it takes chunks again.
  for (int I = 0; I < Window; ++I) {
    void *P = A->allocate(256, 64, nullptr);
    ASSERT_NE(P, nullptr);
    ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  }
  void *P = A->allocate(256, 64, nullptr);
  ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  EXPECT_EQ(A->flushCaches(), 256u) << "a cache every request found took none";
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  for (void *L : Live)
    ASSERT_EQ(A->deallocate(L), MEMPLAN_RT_OK);
  A->flushCaches();
  EXPECT_EQ(A->stats().bytes_in_use, 0u);
  EXPECT_EQ(A->stats().num_free_chunks, 1u);
}

TEST(RuntimeSizeCache, CrossThreadFreesUnderTheCache) {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  O.cache = 1;
  O.arenas = 2;
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  ASSERT_TRUE(A);
  std::vector<void *> Blocks[2];
  for (int Round = 0; Round < 20; ++Round) {
    std::thread T[2];
    for (int I = 0; I < 2; ++I)
      T[I] = std::thread([&, I] {
        // Free what the other thread allocated last round, then allocate.
        for (void *P : Blocks[1 - I])
          EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
        Blocks[1 - I].clear();
      });
    for (auto &X : T)
      X.join();
    for (int I = 0; I < 2; ++I)
      T[I] = std::thread([&, I] {
        for (int K = 0; K < 200; ++K)
          Blocks[I].push_back(A->allocate(256 << (K % 6), 64, nullptr));
      });
    for (auto &X : T)
      X.join();
  }
  for (auto &V : Blocks)
    for (void *P : V)
      EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  EXPECT_EQ(A->stats().bytes_in_use, 0u);
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  A->flushCaches();
  EXPECT_EQ(A->stats().num_free_chunks, A->stats().num_regions);
}

} // namespace

namespace {

TEST(RuntimeDecommit, GrowthGivesFreePagesBackAndReuseCountsThemAgain) {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  O.arenas = 1;
  ASSERT_EQ(O.decommit, 1);
  O.purge_delay_ms = 0; // eager; PurgeTest.cpp covers the delay
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  ASSERT_TRUE(A);
  void *Hole = A->allocate(1 << 20, 64, nullptr);
  void *Guard = A->allocate(256, 64, nullptr);
  ASSERT_EQ(A->deallocate(Hole), MEMPLAN_RT_OK);
  uint64_t Before = A->stats().bytes_reserved;
  // 2 MiB fits nowhere: the heap grows, and the free 1 MiB hole's pages go
  // back to the system first.
  void *Big = A->allocate(2 << 20, 64, nullptr);
  ASSERT_NE(Big, nullptr);
  memplan_rt_stats St = A->stats();
  EXPECT_EQ(St.bytes_reserved, Before - (1u << 20) + (2u << 20));
  EXPECT_EQ(St.peak_bytes_reserved, Before + (1u << 20));
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  // Reusing the hole counts its pages again; the memory works (zeroed).
  char *Again = static_cast<char *>(A->allocate(1 << 20, 64, nullptr));
  EXPECT_EQ(Again, Hole);
  EXPECT_EQ(Again[12345], 0);
  Again[(1 << 20) - 1] = 7;
  EXPECT_EQ(A->stats().bytes_reserved, Before + (2u << 20));
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  for (void *P : {static_cast<void *>(Again), Guard, Big})
    ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  EXPECT_EQ(A->releaseFreeRegions(), Before + (2u << 20));
  EXPECT_EQ(A->stats().bytes_reserved, 0u);
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
}

} // namespace
