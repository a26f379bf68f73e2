//===- RuntimePlanTest.cpp - Run-time planning of dynamic buffers ---------===//

#include "RunSelf.h"
#include "memplan/Runtime/memplan_runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

namespace {

/// [n, site, sizes, firsts, lasts], as the lowered IR builds it.
std::vector<int64_t> table(int64_t Site, const std::vector<int64_t> &Sizes,
                           const std::vector<int64_t> &Firsts,
                           const std::vector<int64_t> &Lasts) {
  std::vector<int64_t> T{static_cast<int64_t>(Sizes.size()), Site};
  T.insert(T.end(), Sizes.begin(), Sizes.end());
  T.insert(T.end(), Firsts.begin(), Firsts.end());
  T.insert(T.end(), Lasts.begin(), Lasts.end());
  return T;
}

/// Buffers live at the same time never share a byte; offsets are aligned;
/// every buffer is inside the arena.
void expectValid(const std::vector<int64_t> &Sizes,
                 const std::vector<int64_t> &Firsts,
                 const std::vector<int64_t> &Lasts,
                 const std::vector<int64_t> &Offsets, int64_t Total,
                 int64_t Align) {
  for (size_t I = 0; I < Sizes.size(); ++I) {
    EXPECT_EQ(Offsets[I] % Align, 0);
    EXPECT_LE(Offsets[I] + Sizes[I], Total);
    for (size_t J = I + 1; J < Sizes.size(); ++J) {
      if (Firsts[I] <= Lasts[J] && Firsts[J] <= Lasts[I]) {
        EXPECT_TRUE(Offsets[I] + Sizes[I] <= Offsets[J] ||
                    Offsets[J] + Sizes[J] <= Offsets[I])
            << I << " and " << J << " overlap";
      }
    }
  }
}

TEST(RuntimePlan, ChainSharesBytes) {
  // t(k+1) = f(t(k), t(k-1)): three live at once, six buffers of 1000 B.
  std::vector<int64_t> Sizes(6, 1000), Firsts, Lasts;
  for (int64_t K = 0; K < 6; ++K) {
    Firsts.push_back(K);
    Lasts.push_back(K + 2);
  }
  std::vector<int64_t> T = table(1, Sizes, Firsts, Lasts), Offsets(6);
  int64_t Total = memplan_rt_plan_offsets(T.data(), 64, Offsets.data());
  expectValid(Sizes, Firsts, Lasts, Offsets, Total, 64);
  // Three live at once, each 1000 B rounded to 1024: the bound is reached.
  EXPECT_EQ(Total, 3 * 1024);
}

// No plan, -1 bytes (which memplan_rt_alloc reports), for what no arena
// can be promised to hold or no table should say. Greedy placement ends
// below the sizes' sum (each rounded up to the alignment), so past
// INT64_MAX - align that sum is refused: three buffers of 2^62 bytes live
// at once end at 3 * 2^62, and the third one's offset (2^63) once wrapped
// negative.
TEST(RuntimePlan, NoPlanPastInt64MaxOrForABadTable) {
  const int64_t Big = int64_t(1) << 62;
  struct Case {
    const char *What;
    std::vector<int64_t> Sizes, Firsts, Lasts;
    int64_t Align;
  } Cases[] = {
      {"three of 2^62 at once", {Big, Big, Big}, {0, 0, 0}, {2, 2, 2}, 1},
      {"INT64_MAX rounded up", {INT64_MAX}, {0}, {0}, 64},
      {"a wrapped size", {100, -4}, {0, 1}, {1, 2}, 8},
      {"a first task after its last", {100, 200}, {0, 3}, {1, 2}, 8},
  };
  for (const Case &C : Cases) {
    size_t N = C.Sizes.size();
    std::vector<int64_t> T = table(91, C.Sizes, C.Firsts, C.Lasts);
    std::vector<int64_t> Offsets(N, 7);
    memplan_rt_plan_cache_stats Before, After;
    memplan_rt_get_plan_cache_stats(&Before);
    EXPECT_EQ(memplan_rt_plan_offsets(T.data(), C.Align, Offsets.data()), -1)
        << C.What;
    EXPECT_EQ(Offsets, std::vector<int64_t>(N, 0)) << C.What;
    memplan_rt_get_plan_cache_stats(&After);
    EXPECT_EQ(After.entries, Before.entries) << C.What << ": cached";
  }
  // A C caller's null table or offsets.
  std::vector<int64_t> One = table(94, {8}, {0}, {0});
  EXPECT_EQ(memplan_rt_plan_offsets(nullptr, 8, nullptr), -1);
  EXPECT_EQ(memplan_rt_plan_offsets(One.data(), 8, nullptr), -1);
  // Through the MLIR entry point, a table shorter than its count says, or
  // fewer offsets than buffers (hand-written MLIR may call it).
  std::vector<int64_t> Two = table(95, {8, 8}, {0, 0}, {1, 1}), Out(2, 7);
  auto Ref = [](std::vector<int64_t> &V, int64_t Size) {
    return memplan_rt_memref_i64{V.data(), V.data(), 0, {Size}, {1}};
  };
  memplan_rt_memref_i64 TableRef = Ref(Two, 8), OutRef = Ref(Out, 2);
  EXPECT_EQ(_mlir_ciface_memplan_rt_plan(&TableRef, &OutRef, 8), 16);
  TableRef = Ref(Two, 7);
  EXPECT_EQ(_mlir_ciface_memplan_rt_plan(&TableRef, &OutRef, 8), -1);
  TableRef = Ref(Two, 8);
  OutRef = Ref(Out, 1);
  EXPECT_EQ(_mlir_ciface_memplan_rt_plan(&TableRef, &OutRef, 8), -1);
  // Just below: 1 + 2^62 + (2^62 - 2) is INT64_MAX, and both fit.
  std::vector<int64_t> Sizes{Big, Big - 2}, Firsts{0, 0}, Lasts{1, 1};
  std::vector<int64_t> T = table(92, Sizes, Firsts, Lasts), Offsets(2);
  int64_t Total = memplan_rt_plan_offsets(T.data(), 1, Offsets.data());
  EXPECT_EQ(Total, INT64_MAX - 1);
  expectValid(Sizes, Firsts, Lasts, Offsets, Total, 1);
  // One byte more is refused.
  Sizes[1] = Big - 1;
  T = table(92, Sizes, Firsts, Lasts);
  EXPECT_EQ(memplan_rt_plan_offsets(T.data(), 1, Offsets.data()), -1);
}

TEST(RuntimePlan, CachedPerShape) {
  std::vector<int64_t> Firsts{0, 1, 2}, Lasts{1, 2, 3}, Offsets(3);
  std::vector<int64_t> Small = table(7, {100, 200, 300}, Firsts, Lasts);
  std::vector<int64_t> Large = table(7, {1000, 2000, 3000}, Firsts, Lasts);
  int64_t A = memplan_rt_plan_offsets(Small.data(), 8, Offsets.data());
  std::vector<int64_t> First = Offsets;
  int64_t B = memplan_rt_plan_offsets(Large.data(), 8, Offsets.data());
  expectValid({1000, 2000, 3000}, Firsts, Lasts, Offsets, B, 8);
  EXPECT_GT(B, A);
  // The small shape again: the cached plan, the same offsets.
  EXPECT_EQ(memplan_rt_plan_offsets(Small.data(), 8, Offsets.data()), A);
  EXPECT_EQ(Offsets, First);
}

// The cache is what makes a repeated shape cost one lookup: the second call
// with the same table is served by it (a hit, no new plan), a new shape is a
// miss. Without the cache no call is ever a hit, and this fails.
TEST(RuntimePlan, RepeatedShapeIsACacheHit) {
  std::vector<int64_t> Firsts{0, 1, 2}, Lasts{1, 2, 3}, Offsets(3);
  // A site no other test (or repetition of this one) uses: the cache is
  // process-wide.
  static int64_t Site = 4242;
  std::vector<int64_t> T = table(Site++, {123, 456, 789}, Firsts, Lasts);
  memplan_rt_plan_cache_stats S0, S1, S2, S3;
  memplan_rt_get_plan_cache_stats(&S0);
  int64_t A = memplan_rt_plan_offsets(T.data(), 16, Offsets.data());
  memplan_rt_get_plan_cache_stats(&S1);
  EXPECT_EQ(S1.misses, S0.misses + 1);
  EXPECT_EQ(S1.hits, S0.hits);
  EXPECT_EQ(S1.entries,
            std::min<uint64_t>(S0.entries + 1, MEMPLAN_RT_PLAN_CACHE_ENTRIES));
  std::vector<int64_t> First = Offsets;
  std::fill(Offsets.begin(), Offsets.end(), -1);
  EXPECT_EQ(memplan_rt_plan_offsets(T.data(), 16, Offsets.data()), A);
  EXPECT_EQ(Offsets, First);
  memplan_rt_get_plan_cache_stats(&S2);
  EXPECT_EQ(S2.hits, S1.hits + 1);
  EXPECT_EQ(S2.misses, S1.misses);
  EXPECT_EQ(S2.entries, S1.entries);
  // Another alignment is another plan.
  memplan_rt_plan_offsets(T.data(), 32, Offsets.data());
  memplan_rt_get_plan_cache_stats(&S3);
  EXPECT_EQ(S3.misses, S2.misses + 1);
  EXPECT_EQ(S3.hits, S2.hits);
  // The allocator stats carry the same process-wide counts.
  memplan_rt_allocator *Alloc = memplan_rt_create(nullptr, nullptr);
  ASSERT_NE(Alloc, nullptr);
  memplan_rt_stats St;
  memplan_rt_get_stats(Alloc, &St);
  EXPECT_EQ(St.plan_cache_hits, S3.hits);
  EXPECT_EQ(St.plan_cache_misses, S3.misses);
  memplan_rt_destroy(Alloc);
}

TEST(RuntimePlan, RandomSetsAreValid) {
  std::mt19937_64 Rng(42);
  for (int Round = 0; Round < 200; ++Round) {
    int64_t N = 1 + Rng() % 20;
    std::vector<int64_t> Sizes, Firsts, Lasts, Offsets(N);
    for (int64_t I = 0; I < N; ++I) {
      Sizes.push_back(1 + Rng() % 5000);
      int64_t F = Rng() % 30;
      Firsts.push_back(F);
      Lasts.push_back(F + Rng() % 10);
    }
    int64_t Align = int64_t(1) << (Rng() % 8);
    std::vector<int64_t> T = table(1000 + Round, Sizes, Firsts, Lasts);
    int64_t Total = memplan_rt_plan_offsets(T.data(), Align, Offsets.data());
    expectValid(Sizes, Firsts, Lasts, Offsets, Total, Align);
  }
}

// A program whose sizes keep changing (a decoder's length at each step)
// makes a plan per shape: the cache keeps at most
// MEMPLAN_RT_PLAN_CACHE_ENTRIES of them (it once grew by 1 KiB a shape, 1 GiB
// over 10^6 shapes), and a shape whose plan was replaced is planned again,
// the same.
TEST(RuntimePlan, CacheHoldsABoundedNumberOfPlans) {
  const int64_t N = 4, Shapes = MEMPLAN_RT_PLAN_CACHE_ENTRIES + 500;
  std::vector<int64_t> Firsts{0, 1, 2, 3}, Lasts{1, 2, 3, 4};
  auto Sizes = [&](int64_t Shape) {
    std::vector<int64_t> S;
    for (int64_t I = 0; I < N; ++I)
      S.push_back(64 * (Shape + 1) * (I + 1));
    return S;
  };
  memplan_rt_plan_cache_stats S0, S1;
  memplan_rt_get_plan_cache_stats(&S0);
  std::vector<int64_t> First(N), Offsets(N);
  std::vector<int64_t> T0 = table(93, Sizes(0), Firsts, Lasts);
  int64_t Total0 = memplan_rt_plan_offsets(T0.data(), 64, First.data());
  for (int64_t Shape = 1; Shape < Shapes; ++Shape) {
    std::vector<int64_t> T = table(93, Sizes(Shape), Firsts, Lasts);
    int64_t Total = memplan_rt_plan_offsets(T.data(), 64, Offsets.data());
    expectValid(Sizes(Shape), Firsts, Lasts, Offsets, Total, 64);
  }
  memplan_rt_get_plan_cache_stats(&S1);
  EXPECT_LE(S1.entries, uint64_t(MEMPLAN_RT_PLAN_CACHE_ENTRIES));
  EXPECT_GE(S1.misses - S0.misses, uint64_t(Shapes)); // all new
  EXPECT_GE(S1.misses - S1.entries,
            uint64_t(Shapes) - MEMPLAN_RT_PLAN_CACHE_ENTRIES);
  // The first shape's plan, whether still held or made again.
  EXPECT_EQ(memplan_rt_plan_offsets(T0.data(), 64, Offsets.data()), Total0);
  EXPECT_EQ(Offsets, First);
}

// Once the cache is full, shapes that come back are kept: ten shapes that
// are every other call, among shapes never seen again, hit in every call
// once each was planned. (The cache once replaced the first plan of its
// hash map's order, which says nothing of use: the ten shapes hit
// in 409 of their 1024 calls in one run of this suite.) Then two new shapes
// called in turn miss once each, and hit.
TEST(RuntimePlan, AFullCacheKeepsShapesThatComeBack) {
  std::vector<int64_t> Firsts{0, 1}, Lasts{1, 2}, Offsets(2);
  auto Table = [&](int64_t Shape) {
    return table(97, {16 * (Shape + 1), 32 * (Shape + 1)}, Firsts, Lasts);
  };
  const int64_t Calls = 2 * MEMPLAN_RT_PLAN_CACHE_ENTRIES;
  int64_t OneOff = 100;
  auto Run = [&] {
    for (int64_t I = 0; I < Calls; ++I) {
      int64_t Shape = I % 2 ? OneOff++ : I / 2 % 10;
      memplan_rt_plan_offsets(Table(Shape).data(), 16, Offsets.data());
    }
  };
  Run(); // fills the cache
  memplan_rt_plan_cache_stats S0, S1, S2;
  memplan_rt_get_plan_cache_stats(&S0);
  ASSERT_EQ(S0.entries, uint64_t(MEMPLAN_RT_PLAN_CACHE_ENTRIES));
  Run();
  memplan_rt_get_plan_cache_stats(&S1);
  EXPECT_EQ(S1.hits - S0.hits, uint64_t(Calls / 2));
  EXPECT_EQ(S1.misses - S0.misses, uint64_t(Calls / 2));
  std::vector<int64_t> X = Table(1 << 20), Y = Table(1 << 21);
  for (int Round = 0; Round < 10; ++Round) {
    memplan_rt_plan_offsets(X.data(), 16, Offsets.data());
    memplan_rt_plan_offsets(Y.data(), 16, Offsets.data());
  }
  memplan_rt_get_plan_cache_stats(&S2);
  EXPECT_EQ(S2.misses - S1.misses, 2u);
  EXPECT_EQ(S2.hits - S1.hits, 18u);
  EXPECT_EQ(S2.entries, uint64_t(MEMPLAN_RT_PLAN_CACHE_ENTRIES));
}

// Threads share the cache (its lock) while it replaces plans: four threads
// plan 800 shapes each, half of them the same across threads, so hits,
// misses, two threads planning one new shape, and evictions interleave
// (make check-tsan runs it). Every plan stays valid.
TEST(RuntimePlan, ThreadsShareTheCacheWhileItReplacesPlans) {
  std::vector<int64_t> Firsts{0, 1, 2}, Lasts{2, 3, 4};
  auto Work = [&](int64_t Thread) {
    std::vector<int64_t> Offsets(3);
    for (int64_t K = 0; K < 800; ++K) {
      int64_t Shape = K % 2 ? K : 100000 * (Thread + 1) + K;
      std::vector<int64_t> Sizes{8 * (Shape + 1), 16 * (Shape + 1), 24};
      std::vector<int64_t> T = table(96, Sizes, Firsts, Lasts);
      int64_t Total = memplan_rt_plan_offsets(T.data(), 32, Offsets.data());
      expectValid(Sizes, Firsts, Lasts, Offsets, Total, 32);
    }
  };
  std::vector<std::thread> Threads;
  for (int64_t I = 0; I < 4; ++I)
    Threads.emplace_back(Work, I);
  for (std::thread &T : Threads)
    T.join();
  memplan_rt_plan_cache_stats S;
  memplan_rt_get_plan_cache_stats(&S);
  EXPECT_LE(S.entries, uint64_t(MEMPLAN_RT_PLAN_CACHE_ENTRIES));
}

} // namespace

namespace {

constexpr const char *AtExitEnv = "MEMPLAN_TEST_PLAN_AT_EXIT_CHILD";

/// Plans a 3-buffer chain at exit, from a static destructor (after the
/// objects made since, as a plan cache that is destroyed would be), and ends
/// the process with 0 only if the plan is the one made before.
struct PlanAtExit {
  std::vector<int64_t> T =
      table(7001, {1000, 2000, 3000}, {0, 1, 2}, {1, 2, 3});
  std::vector<int64_t> Want = std::vector<int64_t>(3);
  int64_t WantTotal = 0;
  ~PlanAtExit() {
    std::vector<int64_t> Got(3);
    int64_t Total = memplan_rt_plan_offsets(T.data(), 64, Got.data());
    // A new table too, so that the miss path runs as well.
    std::vector<int64_t> T2 = T;
    T2[2] = 1500;
    std::vector<int64_t> Got2(3);
    int64_t Total2 = memplan_rt_plan_offsets(T2.data(), 64, Got2.data());
    std::_Exit(Total == WantTotal && Got == Want && Total2 > 0 ? 0 : 1);
  }
};

} // namespace

// Runs only in the child the next test starts.
TEST(RuntimePlan, AtExitChildBody) {
  if (!std::getenv(AtExitEnv))
    GTEST_SKIP() << "runs in the process RuntimePlan.PlansAtExit starts";
  static PlanAtExit P; // destroyed after what is made after it
  P.WantTotal = memplan_rt_plan_offsets(P.T.data(), 64, P.Want.data());
  ASSERT_GT(P.WantTotal, 0);
}

// A program's static destructor may run a planned function: the plan cache
// is never destroyed (under ASan, `make check-asan`, a cache that is
// destroyed at exit fails this with a heap-use-after-free).
TEST(RuntimePlan, PlansAtExit) {
  if (std::getenv(AtExitEnv))
    GTEST_SKIP() << "the child runs AtExitChildBody only";
  EXPECT_EQ(memplan::test::runSelf("RuntimePlan.AtExitChildBody", AtExitEnv),
            0);
}
