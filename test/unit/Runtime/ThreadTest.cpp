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
        {
          std::lock_guard<std::mutex> L(PoolMu);
          if (Pool.empty())
            continue;
          size_t K = Rng() % Pool.size();
          B = Pool[K];
          Pool[K] = Pool.back();
          Pool.pop_back();
        }
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
  EXPECT_GE(St.frag, 1.0);
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
