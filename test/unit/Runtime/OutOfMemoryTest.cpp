//===- OutOfMemoryTest.cpp - Failed allocations: C++ errors, C ABI exits --===//
//
// The C++ API reports a failed allocation as a value (tryAllocate's
// AllocResult, or null plus a status); the MLIR entry points never hand
// lowered code a null buffer: they print what failed and end the process
// (death tests, each in a fresh process so that the global allocator reads
// the environment the test sets).
//
//===----------------------------------------------------------------------===//

#include "memplan/Runtime/BFCAllocator.h"
#include "memplan/Runtime/memplan_runtime.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

using namespace memplan::rt;

namespace {

memplan_rt_options defaults() {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  return O;
}

TEST(RuntimeOutOfMemory, CxxResultCarriesTheNumbers) {
  memplan_rt_options O = defaults();
  O.memory_limit = 1 << 20;
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  ASSERT_TRUE(A);
  AllocResult Ok = A->tryAllocate(768 << 10, 64);
  ASSERT_TRUE(Ok);
  EXPECT_NE(Ok.Ptr, nullptr);
  EXPECT_EQ(Ok.message(), "");

  AllocResult Bad = A->tryAllocate(512 << 10, 64);
  EXPECT_FALSE(Bad);
  EXPECT_EQ(Bad.Ptr, nullptr);
  EXPECT_EQ(Bad.Status, MEMPLAN_RT_OUT_OF_MEMORY);
  EXPECT_EQ(Bad.Bytes, 512u << 10);
  EXPECT_EQ(Bad.BytesInUse, 768u << 10);
  EXPECT_EQ(Bad.Limit, 1u << 20);
  EXPECT_LE(Bad.BytesReserved, 1u << 20);
  std::string M = Bad.message();
  EXPECT_NE(M.find("allocation of 524288 bytes (align 64) failed"),
            std::string::npos)
      << M;
  EXPECT_NE(M.find("in use 786432 bytes"), std::string::npos) << M;
  EXPECT_NE(M.find("limit 1048576 bytes"), std::string::npos) << M;

  AllocResult Align = A->tryAllocate(64, 48);
  EXPECT_EQ(Align.Status, MEMPLAN_RT_BAD_ALIGNMENT);
  EXPECT_EQ(Align.Ptr, nullptr);
  AllocResult TooAligned = A->tryAllocate(64, MEMPLAN_RT_MAX_ALIGNMENT << 1);
  EXPECT_EQ(TooAligned.Status, MEMPLAN_RT_BAD_ALIGNMENT);
  EXPECT_EQ(A->stats().num_failures, 3u);

  // The allocator is intact: freeing makes room again.
  ASSERT_EQ(A->deallocate(Ok.Ptr), MEMPLAN_RT_OK);
  EXPECT_TRUE(A->tryAllocate(512 << 10, 64));
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
}

TEST(RuntimeOutOfMemory, LimitHoldsOverAllHeaps) {
  memplan_rt_options O = defaults();
  O.memory_limit = 4 << 20;
  O.arenas = 4;
  O.release_free_regions = 1;
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  ASSERT_TRUE(A);
  ASSERT_EQ(A->numHeaps(), 4u);
  // Threads fill different heaps; together they never pass the limit.
  std::vector<void *> Got[4];
  std::vector<std::thread> Ts;
  for (int T = 0; T < 4; ++T)
    Ts.emplace_back([&, T] {
      for (int I = 0; I < 64; ++I)
        if (void *P = A->allocate(100 << 10, 64, nullptr))
          Got[T].push_back(P);
    });
  for (auto &T : Ts)
    T.join();
  memplan_rt_stats St = A->stats();
  EXPECT_LE(St.bytes_reserved, 4u << 20);
  EXPECT_LE(St.peak_bytes_reserved, 4u << 20);
  EXPECT_GT(St.num_failures, 0u);
  // Freed by a thread that did not allocate them.
  std::thread Freer([&] {
    for (auto &V : Got)
      for (void *P : V)
        EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  });
  Freer.join();
  EXPECT_EQ(A->stats().bytes_in_use, 0u);
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  // 3 MiB fits under the limit only once the other heaps' free regions are
  // given back (release_free_regions).
  AllocResult R = A->tryAllocate(3 << 20, 64);
  EXPECT_TRUE(R) << R.message();
  EXPECT_LE(A->stats().bytes_reserved, 4u << 20);
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
}

// A region the system refuses (2^61 bytes is past any address space) fails
// that request only: the doubling sources once kept the doubled size, so
// every later request asked for more, failed, and once the size wrapped to
// 0 the next one spun for ever.
TEST(RuntimeOutOfMemory, ARefusedRegionLeavesLaterRequestsServed) {
  std::vector<memplan_rt_source> Sources = {MEMPLAN_RT_SOURCE_MMAP,
                                            MEMPLAN_RT_SOURCE_VIRTUAL};
  // A sanitizer's malloc ends the process on a size past its maximum, where
  // the system's returns null (check-asan failed here, not the runtime).
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  Sources.push_back(MEMPLAN_RT_SOURCE_MALLOC);
#endif
  for (memplan_rt_source Src : Sources) {
    memplan_rt_options O = defaults();
    O.source = Src;
    memplan_rt_status S;
    auto A = BFCAllocator::create(O, &S);
    ASSERT_TRUE(A) << Src;
    for (int Round = 0; Round < 3; ++Round) {
      AllocResult Huge = A->tryAllocate(uint64_t(1) << 61, 64);
      EXPECT_EQ(Huge.Status, MEMPLAN_RT_OUT_OF_MEMORY) << Src;
      std::vector<void *> Small;
      for (int I = 0; I < 70; ++I) {
        // Past the first region, so that regions are asked for again.
        Small.push_back(A->allocate(64 << 10, 64, &S));
        ASSERT_NE(Small.back(), nullptr)
            << Src << ": " << memplan_rt_status_string(S);
      }
      for (void *P : Small)
        ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
    }
    std::string Why;
    EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  }
}

// Region sizes that rounding or doubling would wrap are refused at create
// (2^64 - 1 as a growth step once crashed the first allocation).
TEST(RuntimeOutOfMemory, RegionSizesThatWouldWrapAreBadOptions) {
  for (uint64_t Big :
       {(uint64_t(1) << 62) + 1, uint64_t(1) << 63, ~uint64_t(0)}) {
    memplan_rt_options O = defaults();
    O.initial_region = Big;
    memplan_rt_status S = MEMPLAN_RT_OK;
    EXPECT_FALSE(BFCAllocator::create(O, &S));
    EXPECT_EQ(S, MEMPLAN_RT_BAD_OPTIONS);
    O = defaults();
    O.growth_granule = Big;
    S = MEMPLAN_RT_OK;
    EXPECT_FALSE(BFCAllocator::create(O, &S));
    EXPECT_EQ(S, MEMPLAN_RT_BAD_OPTIONS);
  }
  // The largest taken: a first request still fails cleanly or is served.
  memplan_rt_options O = defaults();
  O.source = MEMPLAN_RT_SOURCE_MMAP;
  O.initial_region = uint64_t(1) << 62;
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  ASSERT_TRUE(A);
  void *P = A->allocate(5000, 64, &S);
  if (P)
    EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  else
    EXPECT_EQ(S, MEMPLAN_RT_OUT_OF_MEMORY);
}

// Each death test re-runs this binary (threadsafe style), so the global
// allocator of the child is created under the environment set here.
class RuntimeDeath : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

void allocFromLoweredCode(int64_t Bytes, int64_t Align) {
  memplan_rt_memref_i8 M{};
  _mlir_ciface_memplan_rt_alloc(&M, Bytes, Align);
  // Never reached on failure; a null buffer would be written through here.
  M.aligned[0] = 1;
}

TEST_F(RuntimeDeath, OutOfMemoryExitsWithTheNumbers) {
  EXPECT_EXIT(
      {
        setenv("MEMPLAN_RT_LIMIT", "1M", 1);
        setenv("MEMPLAN_RT_ON_OOM", "exit", 1);
        allocFromLoweredCode(512 << 10, 64);
        allocFromLoweredCode(768 << 10, 64);
      },
      ::testing::ExitedWithCode(MEMPLAN_RT_EXIT_STATUS),
      "memplan_rt: fatal: allocation of 786432 bytes \\(align 64\\) failed: "
      "out of memory.*in use 524288 bytes.*limit 1048576 bytes");
}

TEST_F(RuntimeDeath, OutOfMemoryAbortsByDefault) {
  EXPECT_DEATH(
      {
        setenv("MEMPLAN_RT_LIMIT", "1M", 1);
        unsetenv("MEMPLAN_RT_ON_OOM");
        allocFromLoweredCode(2 << 20, 64);
      },
      "allocation of 2097152 bytes \\(align 64\\) failed.*limit 1048576");
  EXPECT_DEATH(
      {
        setenv("MEMPLAN_RT_LIMIT", "1M", 1);
        setenv("MEMPLAN_RT_ON_OOM", "abort", 1);
        allocFromLoweredCode(2 << 20, 64);
      },
      "in use 0 bytes");
}

TEST_F(RuntimeDeath, AlignmentTheRuntimeCannotServe) {
  EXPECT_EXIT(
      {
        setenv("MEMPLAN_RT_ON_OOM", "exit", 1);
        allocFromLoweredCode(100, 48);
      },
      ::testing::ExitedWithCode(MEMPLAN_RT_EXIT_STATUS),
      "allocation of 100 bytes \\(align 48\\) failed: alignment is not a "
      "power of two or is too large");
  EXPECT_EXIT(
      {
        setenv("MEMPLAN_RT_ON_OOM", "exit", 1);
        allocFromLoweredCode(100, int64_t(MEMPLAN_RT_MAX_ALIGNMENT) * 2);
      },
      ::testing::ExitedWithCode(MEMPLAN_RT_EXIT_STATUS),
      "align 2097152\\) failed: alignment");
  EXPECT_DEATH(allocFromLoweredCode(100, -64), "align -64\\) failed");
  EXPECT_DEATH(allocFromLoweredCode(-1, 64),
               "allocation of -1 bytes \\(align 64\\) failed: the byte count "
               "passed 2\\^63 - 1");
}

TEST(RuntimeOutOfMemory, LoweredCodeGetsABufferOrNothingForZeroBytes) {
  memplan_rt_memref_i8 M{};
  _mlir_ciface_memplan_rt_alloc(&M, 4096, MEMPLAN_RT_MAX_ALIGNMENT);
  ASSERT_NE(M.aligned, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(M.aligned) % MEMPLAN_RT_MAX_ALIGNMENT,
            0u);
  M.aligned[4095] = 1;
  _mlir_ciface_memplan_rt_free(&M);
}

} // namespace
