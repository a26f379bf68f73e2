//===- SingleThreadTest.cpp - The heaps' lock before and after a thread ---===//
//
// A heap's lock is a plain load and store while the process has one thread
// (HeapMutex.h). A process that has run threads never has one again, not
// even a forked child, so the test runs itself again (RunSelf.h) for a fresh
// process: there the lock must be plain, an
// allocator must work, and a lock taken the plain way must still exclude the
// threads that start while it is held, and be handed over once released.
//
//===----------------------------------------------------------------------===//

#include "BFCHeap.h"
#include "RunSelf.h"

#include "gtest/gtest.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

using namespace memplan::rt;

namespace {

constexpr const char *ChildEnv = "MEMPLAN_TEST_SINGLE_THREAD_CHILD";

#if defined(__SANITIZE_THREAD__)
constexpr bool UnderTSan = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool UnderTSan = true;
#else
constexpr bool UnderTSan = false;
#endif
#else
constexpr bool UnderTSan = false;
#endif

/// Writes and checks a block's bytes: a block handed out twice at once
/// shows as another block's pattern.
void fill(char *P, uint64_t N, char V) { std::memset(P, V, N); }
bool holds(const char *P, uint64_t N, char V) {
  for (uint64_t I = 0; I < N; I += 61)
    if (P[I] != V)
      return false;
  return P[N - 1] == V;
}

/// Random allocs and frees from the calling thread; false if a live block
/// was overwritten or an allocation failed.
bool churn(BFCAllocator &A, unsigned Seed, int Steps) {
  std::mt19937 Rng(Seed);
  std::vector<std::pair<char *, uint64_t>> Live;
  bool Ok = true;
  char Mark = static_cast<char>(Seed % 100 + 1);
  for (int I = 0; I < Steps; ++I) {
    if (!Live.empty() && Rng() % 2) {
      size_t K = Rng() % Live.size();
      Ok &= holds(Live[K].first, Live[K].second, Mark);
      Ok &= A.deallocate(Live[K].first) == MEMPLAN_RT_OK;
      Live[K] = Live.back();
      Live.pop_back();
      continue;
    }
    uint64_t N = 1 + Rng() % 50000;
    char *P = static_cast<char *>(A.allocate(N, 64, nullptr));
    if (!P)
      return false;
    fill(P, N, Mark);
    Live.push_back({P, N});
  }
  for (auto &[P, N] : Live) {
    Ok &= holds(P, N, Mark);
    Ok &= A.deallocate(P) == MEMPLAN_RT_OK;
  }
  return Ok;
}

} // namespace

// Runs only in the child that the next test starts.
TEST(RuntimeSingleThread, ChildBody) {
  if (!std::getenv(ChildEnv))
    GTEST_SKIP() << "runs in the process RuntimeSingleThread.Plain... starts";
  // A ThreadSanitizer runtime may start a thread of its own (the one CI
  // uses does not: the child runs under `make check-tsan`).
  if (UnderTSan && !singleThreaded())
    GTEST_SKIP() << "a sanitizer thread runs: no single-threaded process";
  ASSERT_TRUE(singleThreaded());

  HeapMutex Mu;
  EXPECT_TRUE(Mu.try_lock());
  EXPECT_FALSE(Mu.try_lock()); // held: the plain way still says so
  Mu.unlock();
  EXPECT_TRUE(Mu.try_lock());

  memplan_rt_options O;
  memplan_rt_options_init(&O);
  O.arenas = 4;
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  ASSERT_TRUE(A);
  EXPECT_TRUE(churn(*A, 1, 20000));
  EXPECT_TRUE(singleThreaded());

  // Mu is held, taken the plain way. Threads start, so locks are atomic from
  // now on; they wait for Mu, and then take turns with a plain counter.
  constexpr int Threads = 4, Rounds = 20000;
  uint64_t Counter = 0;
  std::atomic<int> Started{0};
  std::atomic<bool> Bad{false};
  std::vector<std::thread> Ts;
  for (int T = 0; T < Threads; ++T)
    Ts.emplace_back([&, T] {
      Started.fetch_add(1);
      for (int I = 0; I < Rounds; ++I) {
        std::lock_guard<HeapMutex> L(Mu);
        ++Counter;
      }
      if (!churn(*A, 10 + T, 5000))
        Bad = true;
    });
  EXPECT_FALSE(singleThreaded());
  while (Started.load() < Threads)
    std::this_thread::yield();
  // Nobody got in while the plain lock was held.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  uint64_t Before = Counter; // no thread can write it yet
  Mu.unlock();
  for (auto &T : Ts)
    T.join();
  EXPECT_EQ(Before, 0u);
  EXPECT_EQ(Counter, uint64_t(Threads) * Rounds);
  EXPECT_FALSE(Bad.load());
  EXPECT_TRUE(churn(*A, 2, 5000));
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  EXPECT_EQ(A->stats().bytes_in_use, 0u);
}

TEST(RuntimeSingleThread, PlainLockUntilTheFirstThreadStarts) {
  if (std::getenv(ChildEnv))
    GTEST_SKIP() << "the child runs ChildBody only";
#ifndef MEMPLAN_RT_HAVE_SINGLE_THREADED
  GTEST_SKIP() << "no __libc_single_threaded here: the lock is always atomic";
#endif
  EXPECT_EQ(memplan::test::runSelf("RuntimeSingleThread.ChildBody", ChildEnv),
            0)
      << "RuntimeSingleThread.ChildBody failed";
}
