//===- HeapMutexTest.cpp - A heap's lock under contention -----------------===//
//
// Eight threads (more than the 2 cores CI has) take one HeapMutex in turn
// and write a plain counter under it: any overlap loses increments (and
// ThreadSanitizer, in `make check-tsan`, reports the race). Waiters sleep on
// the futex, and the unlock's plain store may miss a wake; the bounded sleep
// lets every thread finish regardless. No timing assertions.
//
//===----------------------------------------------------------------------===//

#include "HeapMutex.h"

#include "gtest/gtest.h"

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

using namespace memplan::rt;

TEST(RuntimeThreads, HeapMutexExcludesAndEveryWaiterGetsIn) {
  constexpr int Threads = 8, Rounds = 100000;
  HeapMutex Mu;
  std::atomic<int> Ready{0};
  uint64_t Counter = 0; // not atomic: only the lock orders its writes
  std::vector<std::thread> Ts;
  for (int T = 0; T < Threads; ++T)
    Ts.emplace_back([&, T] {
      // All start together, or the first ones finish before the last start.
      Ready.fetch_add(1);
      while (Ready.load() < Threads)
        std::this_thread::yield();
      for (int I = 0; I < Rounds; ++I) {
        if ((I + T) % 4 == 0 && Mu.try_lock()) {
          ++Counter;
          Mu.unlock();
          continue;
        }
        std::lock_guard<HeapMutex> L(Mu);
        // A long hold now and then, so that others go to sleep on it.
        if (I % 1024 == 0)
          std::this_thread::yield();
        ++Counter;
      }
    });
  for (auto &T : Ts)
    T.join();
  EXPECT_EQ(Counter, uint64_t(Threads) * Rounds);
  // Free again: the next try_lock gets it.
  EXPECT_TRUE(Mu.try_lock());
  EXPECT_FALSE(Mu.try_lock());
  Mu.unlock();
}
