//===- PurgeTest.cpp - Delayed purging of free pages ----------------------===//
//
// Free pages go back to the system once they have stayed free for the purge
// delay, and pages reused sooner are never purged. The clock is the test's
// own (options.clock_ns), so nothing here depends on how fast it runs; the
// committed bytes are counted twice: by the allocator (bytes_reserved) and by
// the kernel (mincore on the freed blocks).
//
//===----------------------------------------------------------------------===//

#include "DnnShapedReplay.h"
#include "memplan/Runtime/BFCAllocator.h"

#include "gtest/gtest.h"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <random>
#include <string>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace memplan::rt;

namespace {

constexpr uint64_t Ms = 1000000; // in the clock's nanoseconds
constexpr uint64_t MiB = 1 << 20;

uint64_t fakeClock(void *Ctx) { return *static_cast<uint64_t *>(Ctx); }

/// One heap on the test's clock.
memplan_rt_options withClockFn(uint64_t (*Clock)(void *), void *Now,
                               uint64_t DelayMs, int Cache) {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  O.arenas = 1;
  O.cache = Cache;
  O.purge_delay_ms = DelayMs;
  O.clock_ns = Clock;
  O.clock_ctx = Now;
  return O;
}

memplan_rt_options withClock(uint64_t *Now, uint64_t DelayMs, int Cache) {
  return withClockFn(fakeClock, Now, DelayMs, Cache);
}

/// Pages of [P, P + Bytes) the kernel holds in memory.
uint64_t residentPages(void *P, uint64_t Bytes) {
  uintptr_t Page = sysconf(_SC_PAGESIZE);
  uintptr_t Lo = reinterpret_cast<uintptr_t>(P) & ~(Page - 1);
  uintptr_t Hi = reinterpret_cast<uintptr_t>(P) + Bytes;
  std::vector<unsigned char> Vec((Hi - Lo + Page - 1) / Page);
  if (mincore(reinterpret_cast<void *>(Lo), Hi - Lo, Vec.data()) != 0)
    return ~uint64_t(0);
  uint64_t N = 0;
  for (unsigned char V : Vec)
    N += V & 1;
  return N;
}

/// Events enough for the heap to read the clock (it does every 64).
void runSmall(BFCAllocator &A, int Pairs) {
  for (int I = 0; I < Pairs; ++I)
    ASSERT_EQ(A.deallocate(A.allocate(256, 64, nullptr)), MEMPLAN_RT_OK);
}

/// An allocator of two heaps with \p O otherwise; null if it has fewer.
std::unique_ptr<BFCAllocator> twoHeaps(memplan_rt_options O) {
  O.arenas = 2;
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  return A && A->numHeaps() == 2 ? std::move(A) : nullptr;
}

/// Runs \p Work once, on a thread whose heap is not that of \p Mine (a block
/// of the calling thread): three threads live at once take heaps in turn (an
/// ended thread's home goes to the next new thread), and each heap reserves
/// its own address range (64 GiB apart), so a probe block 1 GiB or more from
/// Mine is on another heap. False if no thread landed there. Work runs
/// alone: the other threads have taken their probes and wait, so no heap's
/// lock is busy (a busy heap is not purged: try_lock).
bool onAnotherHeap(BFCAllocator &A, const char *Mine,
                   const std::function<void()> &Work) {
  bool Done = false;
  std::mutex Lock;
  std::atomic<int> Started{0}, Probed{0};
  std::vector<std::thread> Ts;
  for (int I = 0; I < 3; ++I)
    Ts.emplace_back([&] {
      ++Started;
      while (Started.load() < 3) // all three live at once
        std::this_thread::yield();
      char *Probe = static_cast<char *>(A.allocate(256, 64, nullptr));
      ++Probed;
      while (Probed.load() < 3)
        std::this_thread::yield();
      uint64_t Dist = Probe > Mine ? Probe - Mine : Mine - Probe;
      std::lock_guard<std::mutex> L(Lock);
      if (!Done && Probe && Dist >= (uint64_t(1) << 30)) {
        Work();
        Done = true;
      }
      EXPECT_EQ(A.deallocate(Probe), MEMPLAN_RT_OK);
    });
  for (std::thread &T : Ts)
    T.join();
  return Done;
}

// A program that frees a large peak and then runs small gives the peak back
// after the delay, not before, with and without the size cache.
TEST(RuntimePurge, FreedPeakGoesBackAfterTheDelay) {
  for (int Cache : {0, 1}) {
    uint64_t Now = 1000 * Ms;
    memplan_rt_status S;
    auto A = BFCAllocator::create(withClock(&Now, 10, Cache), &S);
    ASSERT_TRUE(A);
    void *Guard = A->allocate(256, 64, nullptr);
    std::vector<void *> Blocks;
    for (int I = 0; I < 64; ++I) {
      Blocks.push_back(A->allocate(MiB, 64, nullptr));
      ASSERT_NE(Blocks.back(), nullptr);
      std::memset(Blocks.back(), 1, MiB);
    }
    char *First = static_cast<char *>(Blocks.front());
    uint64_t Span = static_cast<char *>(Blocks.back()) + MiB - First;
    uint64_t Page = sysconf(_SC_PAGESIZE);
    ASSERT_GE(residentPages(First, Span), Span / Page);
    for (void *P : Blocks)
      ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);

    // The program runs small, 64 allocs and frees a millisecond. 9 ms
    // later everything is still committed: the delay has not passed.
    for (int T = 1; T <= 9; ++T) {
      Now += Ms;
      runSmall(*A, 32);
    }
    memplan_rt_stats St = A->stats();
    EXPECT_EQ(St.bytes_purged, 0u) << "cache " << Cache;
    EXPECT_GE(St.bytes_reserved, 64 * MiB);
    EXPECT_GE(residentPages(First, Span), Span / Page);
    // By 25 ms the pages are gone, counted and in the kernel. (The heap
    // looks every eighth of the delay; cached chunks go back to the bins at
    // the first look and age from there.)
    for (int T = 10; T <= 25; ++T) {
      Now += Ms;
      runSmall(*A, 32);
    }
    St = A->stats();
    EXPECT_LT(St.bytes_reserved, MiB) << "cache " << Cache;
    EXPECT_GE(St.bytes_purged, 63 * MiB);
    EXPECT_GE(St.bytes_held, 64 * MiB); // address space kept for reuse
    EXPECT_LT(residentPages(First, Span), MiB / Page);
    std::string Why;
    EXPECT_TRUE(A->checkInvariants(&Why)) << Why;

    // Reused: counted committed again, zeroed, usable.
    char *P = static_cast<char *>(A->allocate(32 * MiB, 64, nullptr));
    ASSERT_NE(P, nullptr);
    EXPECT_EQ(P[12345], 0);
    std::memset(P, 2, 32 * MiB);
    EXPECT_GE(A->stats().bytes_reserved, 32 * MiB);
    EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
    ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
    ASSERT_EQ(A->deallocate(Guard), MEMPLAN_RT_OK);
  }
}

// A block freed and allocated again within the delay is never purged, however
// long the program runs.
// The longest delays are long: milliseconds times 10^6 once wrapped, and
// a delay of 18446744073710 ms purged after 0.5 ms.
TEST(RuntimePurge, LongestDelaysDoNotWrap) {
  for (uint64_t DelayMs :
       {uint64_t(18446744073709), uint64_t(18446744073710), ~uint64_t(0)}) {
    uint64_t Now = 1000 * Ms;
    memplan_rt_status S;
    auto A = BFCAllocator::create(withClock(&Now, DelayMs, 0), &S);
    ASSERT_TRUE(A);
    void *Guard = A->allocate(256, 64, nullptr);
    void *Big = A->allocate(8 * MiB, 64, nullptr);
    ASSERT_NE(Big, nullptr);
    std::memset(Big, 1, 8 * MiB);
    ASSERT_EQ(A->deallocate(Big), MEMPLAN_RT_OK);
    for (uint64_t Step : {Ms, 1000 * Ms, 1000000 * Ms}) {
      Now += Step;
      runSmall(*A, 256);
      EXPECT_EQ(A->stats().bytes_purged, 0u)
          << DelayMs << " ms, at " << Now / Ms << " ms";
    }
    ASSERT_EQ(A->deallocate(Guard), MEMPLAN_RT_OK);
  }
}

TEST(RuntimePurge, PagesReusedSoonAreNeverPurged) {
  uint64_t Now = 1000 * Ms;
  memplan_rt_status S;
  auto A = BFCAllocator::create(withClock(&Now, 10, 1), &S);
  ASSERT_TRUE(A);
  void *Guard = A->allocate(256, 64, nullptr);
  for (int Round = 0; Round < 2000; ++Round) {
    void *P = A->allocate(4 * MiB, 64, nullptr);
    void *Q = A->allocate(MiB + 4096 * (Round % 3), 64, nullptr);
    ASSERT_TRUE(P && Q);
    static_cast<char *>(P)[0] = 1;
    ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
    ASSERT_EQ(A->deallocate(Q), MEMPLAN_RT_OK);
    Now += Ms; // a round takes 1 ms: 2 s in all
  }
  memplan_rt_stats St = A->stats();
  EXPECT_EQ(St.bytes_purged, 0u);
  EXPECT_EQ(St.num_allocs, 4001u);
  ASSERT_EQ(A->deallocate(Guard), MEMPLAN_RT_OK);
}

// When the committed bytes would pass their peak: eager (delay 0) purges
// every free page, a delay only the oldest free pages, as many as needed
// (the last chunk in part, from its top).
TEST(RuntimePurge, PeakPurgesOldestFirstOrAllWhenEager) {
  for (uint64_t Delay : {0, 10}) {
    uint64_t Now = 1000 * Ms;
    memplan_rt_status S;
    auto A = BFCAllocator::create(withClock(&Now, Delay, 0), &S);
    ASSERT_TRUE(A);
    void *Old = A->allocate(2 * MiB, 64, nullptr); // at the region's base
    void *G1 = A->allocate(256, 64, nullptr);
    void *Young = A->allocate(2 * MiB, 64, nullptr); // 256 B past a page
    void *G2 = A->allocate(256, 64, nullptr);
    void *Tail = A->allocate(3 * MiB / 2, 64, nullptr);
    for (void *P : {Old, Young})
      std::memset(P, 1, 2 * MiB);
    for (void *P : {Old, Young, Tail})
      ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
    // The peak purges only chunks idle for a whole pass interval (passes
    // are an eighth of the delay apart): 5 ms pass, not the delay.
    for (int T = 1; T <= 5; ++T) {
      Now += Ms;
      runSmall(*A, 64);
    }
    memplan_rt_stats St = A->stats();
    EXPECT_EQ(St.bytes_purged, 0u);
    uint64_t Peak = St.peak_bytes_reserved;
    ASSERT_EQ(St.bytes_reserved, Peak);
    // 2.5 MiB fits in no hole: the free tail grows by 1 MiB, which would
    // pass the peak by 1 MiB. The top half of the oldest hole covers it;
    // eager purges both holes (all but their partial pages) and keeps the
    // tail it extends.
    void *Big = A->allocate(5 * MiB / 2, 64, nullptr);
    ASSERT_EQ(Big, Tail);
    St = A->stats();
    EXPECT_EQ(St.bytes_purged, Delay ? MiB : 4 * MiB - 4096)
        << "delay " << Delay;
    EXPECT_EQ(St.peak_bytes_reserved, Peak);
    char *OldTop = static_cast<char *>(Old) + MiB;
    EXPECT_EQ(residentPages(OldTop, MiB), 0u);
    EXPECT_EQ(residentPages(Old, MiB), Delay ? MiB / 4096 : 0u);
    uint64_t YoungPages = residentPages(Young, 2 * MiB);
    if (Delay)
      EXPECT_GE(YoungPages, 2 * MiB / 4096);
    else
      EXPECT_LE(YoungPages, 2u); // the pages it shares with the guards
    std::string Why;
    EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
    for (void *P : {Big, G1, G2})
      ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  }
}

// A thread frees a large peak on its heap and ends; the program goes on
// small on another heap. The peak still goes back after the delay: the
// running heap makes the idle heap's passes.
TEST(RuntimePurge, IdleHeapPurgedByTheOthers) {
  uint64_t Now = 1000 * Ms;
  auto A = twoHeaps(withClock(&Now, 10, 1));
  ASSERT_TRUE(A);
  char *Mine = static_cast<char *>(A->allocate(256, 64, nullptr));
  ASSERT_NE(Mine, nullptr);
  // The peak, on the other heap, by a thread that then ends.
  char *Far = nullptr;
  ASSERT_TRUE(onAnotherHeap(*A, Mine, [&] {
    Far = static_cast<char *>(A->allocate(64 * MiB, 64, nullptr));
    ASSERT_NE(Far, nullptr);
    std::memset(Far, 1, 64 * MiB);
    ASSERT_EQ(A->deallocate(Far), MEMPLAN_RT_OK);
  })) << "no thread landed on the other heap";
  EXPECT_GE(A->stats().bytes_reserved, 64 * MiB);
  for (int T = 1; T <= 25; ++T) {
    Now += Ms;
    runSmall(*A, 32);
  }
  memplan_rt_stats St = A->stats();
  EXPECT_LT(St.bytes_reserved, MiB);
  EXPECT_GE(St.bytes_purged, 63 * MiB);
  EXPECT_LT(residentPages(Far, 64 * MiB), MiB / 4096);
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  ASSERT_EQ(A->deallocate(Mine), MEMPLAN_RT_OK);
}

// Reusing purged pages commits them again but purges no other free pages to
// make up for them, even past the peak: that traded one refault for another
// (the random mix of bench/runtime faulted 4x the pages glibc does).
TEST(RuntimePurge, ReusingPurgedPagesPurgesNothingElse) {
  uint64_t Now = 1000 * Ms;
  memplan_rt_status S;
  auto A = BFCAllocator::create(withClock(&Now, 10, 0), &S);
  ASSERT_TRUE(A);
  void *Aged = A->allocate(2 * MiB, 4096, nullptr);
  void *G1 = A->allocate(256, 64, nullptr);
  void *Fresh = A->allocate(2 * MiB, 4096, nullptr);
  void *G2 = A->allocate(256, 64, nullptr);
  ASSERT_TRUE(Aged && G1 && Fresh && G2);
  ASSERT_LT(Aged, Fresh);
  for (void *P : {Aged, Fresh})
    std::memset(P, 1, 2 * MiB);
  // Aged stays free past the delay and goes back to the system.
  ASSERT_EQ(A->deallocate(Aged), MEMPLAN_RT_OK);
  for (int T = 1; T <= 25; ++T) {
    Now += Ms;
    runSmall(*A, 32);
  }
  memplan_rt_stats St = A->stats();
  ASSERT_GE(St.bytes_purged, 2 * MiB - 4096);
  uint64_t Purged = St.bytes_purged;
  // A block too large for the hole grows the heap (a little past the
  // peak); then Fresh is freed and the clock stands still for 1200 allocs
  // and frees: Fresh is young in time, however many events pass.
  void *Tail = A->allocate(2 * MiB + 64 * 1024, 64, nullptr);
  ASSERT_GT(Tail, Fresh);
  ASSERT_EQ(A->deallocate(Fresh), MEMPLAN_RT_OK);
  runSmall(*A, 600);
  uint64_t Peak = A->stats().peak_bytes_reserved;
  // Both holes fit 2 MiB; best fit takes the lower one, Aged, whose pages
  // come back: the committed bytes pass the peak, and Fresh stays.
  void *Again = A->allocate(2 * MiB, 4096, nullptr);
  ASSERT_EQ(Again, Aged);
  St = A->stats();
  EXPECT_EQ(St.bytes_purged, Purged);
  EXPECT_GT(St.peak_bytes_reserved, Peak);
  EXPECT_GE(residentPages(Fresh, 2 * MiB), 2 * MiB / 4096);
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  for (void *P : {Again, Tail, G1, G2})
    ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
}

// A block placed over purged pages gets them back in one call, before the
// program touches them (MADV_POPULATE_WRITE), not one fault per page at
// its first writes; only the purged pages under the block, not the rest of
// the hole.
TEST(RuntimePurge, PurgedPagesComeBackWhenABlockIsPlacedOnThem) {
  // Kernels before 5.14 lack the call: there the touch faults them in.
  long Page = sysconf(_SC_PAGESIZE);
  void *Probe = mmap(nullptr, Page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(Probe, MAP_FAILED);
  bool Populates = madvise(Probe, Page, MADV_POPULATE_WRITE) == 0;
  munmap(Probe, Page);
  if (!Populates)
    GTEST_SKIP() << "no MADV_POPULATE_WRITE on this kernel";
  uint64_t Now = 1000 * Ms;
  memplan_rt_status S;
  auto A = BFCAllocator::create(withClock(&Now, 10000, 0), &S);
  ASSERT_TRUE(A);
  char *Hole = static_cast<char *>(A->allocate(4 * MiB, 4096, nullptr));
  void *Guard = A->allocate(256, 64, nullptr);
  ASSERT_TRUE(Hole && Guard);
  std::memset(Hole, 1, 4 * MiB);
  ASSERT_EQ(A->deallocate(Hole), MEMPLAN_RT_OK);
  EXPECT_GE(A->purge(), 4 * MiB);
  ASSERT_EQ(residentPages(Hole, 4 * MiB), 0u);
  char *Again = static_cast<char *>(A->allocate(MiB, 4096, nullptr));
  ASSERT_EQ(Again, Hole);
  EXPECT_EQ(residentPages(Again, MiB), MiB / Page);
  EXPECT_EQ(residentPages(Again + MiB, 3 * MiB), 0u);
  EXPECT_EQ(Again[0] | Again[MiB - 1], 0); // zeroed, as after a fault
  EXPECT_EQ(A->stats().bytes_reserved, MiB + uint64_t(Page));
  for (void *P : {static_cast<void *>(Again), Guard})
    ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
}

TEST(RuntimePurge, PurgeNowAndTheEnvironment) {
  uint64_t Now = 1000 * Ms;
  memplan_rt_status S;
  auto A = BFCAllocator::create(withClock(&Now, 10000, 1), &S);
  ASSERT_TRUE(A);
  void *P = A->allocate(8 * MiB, 64, nullptr);
  void *Guard = A->allocate(256, 64, nullptr);
  std::memset(P, 1, 8 * MiB);
  ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  EXPECT_GE(A->stats().bytes_reserved, 8 * MiB);
  // A program about to idle need not wait for the delay.
  EXPECT_GE(A->purge(), 8 * MiB - 4096);
  EXPECT_LT(A->stats().bytes_reserved, 2 * 4096u);
  EXPECT_EQ(residentPages(P, 8 * MiB), 0u);
  ASSERT_EQ(A->deallocate(Guard), MEMPLAN_RT_OK);

  memplan_rt_options O;
  setenv("MEMPLAN_RT_PURGE_DELAY_MS", "0", 1);
  memplan_rt_options_from_env(&O);
  EXPECT_EQ(O.purge_delay_ms, 0u);
  EXPECT_EQ(O.cache, 1);
  setenv("MEMPLAN_RT_PURGE_DELAY_MS", "250", 1);
  memplan_rt_options_from_env(&O);
  EXPECT_EQ(O.purge_delay_ms, 250u);
  memplan_rt_options D;
  memplan_rt_options_init(&D);
  setenv("MEMPLAN_RT_PURGE_DELAY_MS", "soon", 1);
  testing::internal::CaptureStderr();
  memplan_rt_options_from_env(&O);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(O.purge_delay_ms, D.purge_delay_ms);
  EXPECT_NE(Err.find("ignoring MEMPLAN_RT_PURGE_DELAY_MS=soon"),
            std::string::npos);
  unsetenv("MEMPLAN_RT_PURGE_DELAY_MS");
}

uint64_t atomicClock(void *Ctx) {
  return static_cast<std::atomic<uint64_t> *>(Ctx)->load();
}

/// A clock the purge thread may read while the test moves it.
memplan_rt_options withAtomicClock(std::atomic<uint64_t> *Now, uint64_t DelayMs,
                                   bool Thread) {
  memplan_rt_options O = withClockFn(atomicClock, Now, DelayMs, 0);
  O.purge_thread = Thread;
  return O;
}

/// Frees a 16 MiB peak, then makes no alloc or free while the clock runs
/// \p Steps times 2 ms ahead (one real millisecond each, for the thread to
/// wake); stops early once the peak is gone. Gives the bytes reserved at
/// the end, and whether the peak's pages left memory.
std::pair<uint64_t, bool> idleAfterPeak(bool Thread, int Steps) {
  std::atomic<uint64_t> Now{1000 * Ms};
  memplan_rt_status S;
  auto A = BFCAllocator::create(withAtomicClock(&Now, 10, Thread), &S);
  EXPECT_TRUE(A);
  if (!A)
    return {0, false};
  void *Peak = A->allocate(16 * MiB, 64, nullptr);
  void *Guard = A->allocate(256, 64, nullptr);
  std::memset(Peak, 1, 16 * MiB);
  EXPECT_EQ(A->deallocate(Peak), MEMPLAN_RT_OK);
  EXPECT_GE(A->stats().bytes_reserved, 16 * MiB);
  // stats() takes the heap's lock but makes no pass: only allocs and frees
  // (and the thread) do.
  for (int I = 0; I < Steps && A->stats().bytes_reserved >= MiB; ++I) {
    Now += 2 * Ms;
    usleep(1000);
  }
  uint64_t Reserved = A->stats().bytes_reserved;
  bool Gone = residentPages(Peak, 16 * MiB) < MiB / 4096;
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  EXPECT_EQ(A->deallocate(Guard), MEMPLAN_RT_OK);
  return {Reserved, Gone};
}

// A program that frees its peak and then makes no call at all keeps the
// pages (the heaps purge on their allocs and frees) unless the purge thread
// makes the passes: then they go back after the delay, as when it runs
// small.
TEST(RuntimePurge, PurgeThreadPurgesAnIdleProgram) {
  auto [Kept, KeptGone] = idleAfterPeak(false, 50);
  EXPECT_GE(Kept, 16 * MiB);
  EXPECT_FALSE(KeptGone);
  // Up to 10 s of real time for a loaded machine; about 15 ms unloaded.
  auto [Left, Gone] = idleAfterPeak(true, 10000);
  EXPECT_LT(Left, MiB);
  EXPECT_TRUE(Gone);
}

// Not before the delay: the thread's passes age pages as the heap's own
// calls do.
TEST(RuntimePurge, PurgeThreadWaitsForTheDelay) {
  std::atomic<uint64_t> Now{1000 * Ms};
  memplan_rt_status S;
  auto A = BFCAllocator::create(withAtomicClock(&Now, 1000, true), &S);
  ASSERT_TRUE(A);
  void *Peak = A->allocate(16 * MiB, 64, nullptr);
  void *Guard = A->allocate(256, 64, nullptr);
  std::memset(Peak, 1, 16 * MiB);
  ASSERT_EQ(A->deallocate(Peak), MEMPLAN_RT_OK);
  // The clock stands 900 ms past the free while the thread wakes every
  // 125 ms of real time: it makes a pass, which purges nothing.
  for (int I = 0; I < 9; ++I)
    Now += 100 * Ms;
  usleep(400 * 1000);
  EXPECT_GE(A->stats().bytes_reserved, 16 * MiB);
  EXPECT_EQ(A->stats().bytes_purged, 0u);
  ASSERT_EQ(A->deallocate(Guard), MEMPLAN_RT_OK);
}

// A child forked while the thread runs has no thread, and no heap lock
// left held by it: it allocates, frees and destroys its allocator (which
// does not wait for a thread it lacks). A deadlock ends the child by alarm.
TEST(RuntimePurge, ForkWhileThePurgeThreadRuns) {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  O.purge_delay_ms = 1; // a pass every 125 us: forks meet passes
  O.purge_thread = 1;
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  ASSERT_TRUE(A);
  for (int I = 0; I < 50; ++I) {
    void *P = A->allocate(1 * MiB, 64, nullptr);
    std::memset(P, 1, MiB);
    ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
    pid_t Pid = fork();
    ASSERT_GE(Pid, 0);
    if (Pid == 0) {
      alarm(10);
      void *Q = A->allocate(2 * MiB, 64, nullptr);
      bool Ok = Q && A->deallocate(Q) == MEMPLAN_RT_OK;
      A->purge();
      A.reset();
      _exit(Ok ? 0 : 1);
    }
    int Status = 0;
    ASSERT_EQ(waitpid(Pid, &Status, 0), Pid);
    ASSERT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0)
        << "child " << I << " status " << Status;
  }
}

TEST(RuntimePurge, PurgeThreadEnvironment) {
  memplan_rt_options O;
  setenv("MEMPLAN_RT_PURGE_THREAD", "1", 1);
  memplan_rt_options_from_env(&O);
  EXPECT_EQ(O.purge_thread, 1);
  setenv("MEMPLAN_RT_PURGE_THREAD", "0", 1);
  memplan_rt_options_from_env(&O);
  EXPECT_EQ(O.purge_thread, 0);
  // Without purging by age there is nothing for it to do: ignored, said.
  setenv("MEMPLAN_RT_PURGE_THREAD", "1", 1);
  setenv("MEMPLAN_RT_PURGE_DELAY_MS", "0", 1);
  testing::internal::CaptureStderr();
  memplan_rt_options_from_env(&O);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(O.purge_thread, 0);
  EXPECT_NE(Err.find("ignoring MEMPLAN_RT_PURGE_THREAD=1"), std::string::npos);
  unsetenv("MEMPLAN_RT_PURGE_DELAY_MS");
  unsetenv("MEMPLAN_RT_PURGE_THREAD");
}

} // namespace

// Purged pages count in the largest free chunk but not in the free bytes:
// the fragmentation figure used to wrap around to about 7e13 (found by the
// decoder bench's pattern: growing blocks pinned by small ones, purged
// eagerly). It is a share of the free bytes, so within [0, 1].
TEST(RuntimePurge, FragmentationStaysAShareWhenPagesArePurged) {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  O.purge_delay_ms = 0;
  memplan_rt_allocator *A = memplan_rt_create(&O, nullptr);
  ASSERT_NE(A, nullptr);
  std::vector<void *> Pins;
  for (int I = 0; I < 64; ++I) {
    memplan_rt_status St;
    void *P = memplan_rt_allocate(A, 14000 + 256 * I, 64, &St);
    ASSERT_NE(P, nullptr);
    Pins.push_back(memplan_rt_allocate(A, 256, 64, &St));
    memplan_rt_deallocate(A, P);
  }
  for (void *P : Pins)
    memplan_rt_deallocate(A, P);
  memplan_rt_stats S;
  memplan_rt_get_stats(A, &S);
  EXPECT_GE(S.fragmentation, 0.0);
  EXPECT_LE(S.fragmentation, 1.0);
  memplan_rt_destroy(A);
}

namespace {

/// One heap under \p Cap (0: none) whose clock (\p Now) the test moves; a
/// 10 s delay, so that only the cap purges.
std::unique_ptr<BFCAllocator> cappedAllocator(uint64_t *Now, double Cap) {
  memplan_rt_options O = withClock(Now, 10000, 0);
  O.frag_cap = Cap;
  memplan_rt_status S;
  return BFCAllocator::create(O, &S);
}

/// Eight 1 MiB blocks with guards between them; every other one freed (4 MiB
/// of committed holes); four 1.5 MiB blocks that fit no hole (the heap
/// grows); those freed and four 1 MiB blocks placed in the holes (best fit:
/// the exact holes). The clock stands still, so no page is ever old enough
/// for the delay. Gives the committed bytes / peak in use after the growth
/// and after the reuse of the holes.
std::pair<double, double> capRun(double Cap, uint64_t *Purged) {
  uint64_t Now = 1000 * Ms;
  auto A = cappedAllocator(&Now, Cap);
  EXPECT_TRUE(A);
  if (!A)
    return {0, 0};
  std::vector<void *> Live;
  std::vector<void *> Holes;
  for (int I = 0; I < 8; ++I) {
    void *P = A->allocate(MiB, 4096, nullptr);
    std::memset(P, 1, MiB);
    (I % 2 ? Live : Holes).push_back(P);
    Live.push_back(A->allocate(256, 64, nullptr));
  }
  for (void *P : Holes)
    EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  std::vector<void *> Large;
  for (int I = 0; I < 4; ++I) {
    Large.push_back(A->allocate(3 * MiB / 2, 4096, nullptr));
    std::memset(Large.back(), 1, 3 * MiB / 2);
  }
  auto Ratio = [&] {
    memplan_rt_stats St = A->stats();
    *Purged = St.bytes_purged;
    return double(St.bytes_reserved) / double(St.peak_bytes_in_use);
  };
  double AfterGrowth = Ratio();
  for (void *P : Large)
    EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  for (void *Hole : Holes) {
    void *P = A->allocate(MiB, 4096, nullptr);
    EXPECT_EQ(P, Hole);
    std::memset(P, 1, MiB);
    Live.push_back(P);
  }
  double AfterReuse = Ratio();
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  for (void *P : Live)
    EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  return {AfterGrowth, AfterReuse};
}

} // namespace

// With frag_cap, growth purges the holes (whatever their age) and reusing
// purged holes purges other free pages, so that the committed bytes stay
// within the cap of the peak in use; without it (the same program), growth
// past the peak purges only pages idle for the delay, and reuse nothing.
TEST(RuntimePurge, FragCapHoldsCommittedBytesWithinTheCap) {
  uint64_t PurgedCapped = 0, PurgedFree = 0;
  auto [GrowCapped, ReuseCapped] = capRun(1.10, &PurgedCapped);
  auto [GrowFree, ReuseFree] = capRun(0, &PurgedFree);
  EXPECT_LE(GrowCapped, 1.10);
  EXPECT_LE(ReuseCapped, 1.10);
  EXPECT_GE(PurgedCapped, 3 * MiB);
  // What the cap prevented: 4 MiB of holes on top of 10 MiB in use.
  EXPECT_GT(GrowFree, 1.3);
  EXPECT_GT(ReuseFree, 1.3);
  EXPECT_EQ(PurgedFree, 0u);
}

// The cap purges the highest free pages, and only as many as it must: best
// fit places the next blocks low, where the pages stay committed. Two 1 MiB
// holes, the lower one freed first; growth past the cap by less than a hole
// purges the top of the upper hole only, and a 1 MiB block then takes the
// lower hole without a fault. (Purging the oldest chunk whole took the lower
// hole, and the next block there refaulted it.)
TEST(RuntimePurge, FragCapPurgesTheHighestFreePagesAndNoMore) {
  uint64_t Now = 1000 * Ms;
  auto A = cappedAllocator(&Now, 1.3);
  ASSERT_TRUE(A);
  std::vector<void *> Blocks, Guards;
  for (int I = 0; I < 4; ++I) {
    Blocks.push_back(A->allocate(MiB, 4096, nullptr));
    ASSERT_NE(Blocks.back(), nullptr);
    std::memset(Blocks.back(), 1, MiB);
    Guards.push_back(A->allocate(256, 64, nullptr));
  }
  void *Low = Blocks[1], *High = Blocks[3];
  ASSERT_EQ(A->deallocate(Low), MEMPLAN_RT_OK);
  Now += 100 * Ms;
  ASSERT_EQ(A->deallocate(High), MEMPLAN_RT_OK);
  // 2 MiB in use, 4 MiB and the guards committed; 2.5 MiB more fits no hole.
  memplan_rt_stats Before = A->stats();
  ASSERT_EQ(Before.bytes_purged, 0u);
  void *Big = A->allocate(5 * MiB / 2, 4096, nullptr);
  ASSERT_NE(Big, nullptr);
  memplan_rt_stats After = A->stats();
  double Cap = 1.3 * double(After.peak_bytes_in_use);
  EXPECT_LE(double(After.bytes_reserved), Cap);
  // What passed the cap, in whole pages (the block's chunk may be a little
  // larger than the request the cap counted): part of one hole.
  uint64_t Page = sysconf(_SC_PAGESIZE);
  double Over = double(After.bytes_reserved + After.bytes_purged) - Cap;
  EXPECT_GT(Over, 0.0);
  EXPECT_LT(double(After.bytes_purged), Over + 2.0 * double(Page));
  EXPECT_LT(After.bytes_purged, MiB);
  // From the top of the upper hole; the lower hole keeps every page.
  uint64_t Gone = After.bytes_purged / Page;
  char *HighEnd = static_cast<char *>(High) + MiB;
  EXPECT_EQ(residentPages(HighEnd - Gone * Page, Gone * Page), 0u);
  EXPECT_EQ(residentPages(High, MiB - Gone * Page), MiB / Page - Gone);
  EXPECT_EQ(residentPages(Low, MiB), MiB / Page);
  void *Again = A->allocate(MiB, 4096, nullptr);
  EXPECT_EQ(Again, Low);
  memplan_rt_stats Reused = A->stats();
  EXPECT_EQ(Reused.bytes_reserved, After.bytes_reserved);
  EXPECT_EQ(Reused.bytes_purged, After.bytes_purged);
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  for (void *P : {Again, Big, Blocks[0], Blocks[2]})
    EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  for (void *P : Guards)
    EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
}

// The cap holds for the allocator, not for each heap: a thread whose heap
// grows purges the free pages of another heap. (Per heap, the second heap
// stayed within the cap of its own peak and the first kept its 4 MiB hole:
// twice the peak in use.)
TEST(RuntimePurge, FragCapHoldsOverAllHeaps) {
  uint64_t Now = 1000 * Ms;
  memplan_rt_options O = withClock(&Now, 10000, 0);
  O.frag_cap = 1.10;
  auto A = twoHeaps(O);
  ASSERT_TRUE(A);
  char *Mine = static_cast<char *>(A->allocate(256, 64, nullptr));
  char *Hole = static_cast<char *>(A->allocate(4 * MiB, 4096, nullptr));
  ASSERT_NE(Hole, nullptr);
  std::memset(Hole, 1, 4 * MiB);
  ASSERT_EQ(A->deallocate(Hole), MEMPLAN_RT_OK);
  ASSERT_EQ(A->stats().bytes_purged, 0u);
  // The other heap takes 4 MiB.
  char *Far = nullptr;
  ASSERT_TRUE(onAnotherHeap(*A, Mine, [&] {
    Far = static_cast<char *>(A->allocate(4 * MiB, 4096, nullptr));
    ASSERT_NE(Far, nullptr);
    std::memset(Far, 1, 4 * MiB);
  })) << "no thread landed on the other heap";
  // In use at most: one 4 MiB block at a time, and Mine and the probes,
  // each with the padding up to the next page (a 4 KiB-aligned block after
  // a small one leaves that padding with the small one).
  memplan_rt_stats St = A->stats();
  EXPECT_LE(double(St.bytes_reserved), 1.10 * double(4 * MiB + 4 * 4096));
  EXPECT_GE(St.bytes_purged, 3 * MiB);
  // From the top of the first heap's hole.
  EXPECT_EQ(residentPages(Hole + MiB, 3 * MiB), 0u);
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  EXPECT_EQ(A->deallocate(Far), MEMPLAN_RT_OK);
  EXPECT_EQ(A->deallocate(Mine), MEMPLAN_RT_OK);
}

// The peaks in use are of the sum over the heaps, not the sum of each
// heap's peak: 4 MiB on one heap, freed, then 4 MiB on another is a peak of
// 4 MiB (and some small blocks). The sum of the heaps' peaks was 8 MiB,
// above the peak reserved: frag 0.73-0.84 in the dynamic-shapes probe.
TEST(RuntimePurge, StatsPeaksAreOfTheSumOverHeaps) {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  auto A = twoHeaps(O);
  ASSERT_TRUE(A);
  char *Mine = static_cast<char *>(A->allocate(256, 64, nullptr));
  ASSERT_EQ(A->deallocate(A->allocate(4 * MiB, 64, nullptr)), MEMPLAN_RT_OK);
  ASSERT_TRUE(onAnotherHeap(*A, Mine, [&] {
    ASSERT_EQ(A->deallocate(A->allocate(4 * MiB, 64, nullptr)), MEMPLAN_RT_OK);
  })) << "no thread landed on the other heap";
  memplan_rt_stats St = A->stats();
  EXPECT_GE(St.peak_bytes_in_use, 4 * MiB);
  EXPECT_LT(St.peak_bytes_in_use, 4 * MiB + 64 * 1024);
  EXPECT_GE(St.peak_requested_bytes_in_use, 4 * MiB);
  EXPECT_LT(St.peak_requested_bytes_in_use, 4 * MiB + 64 * 1024);
  EXPECT_GE(St.frag, 1.0);
  EXPECT_EQ(A->deallocate(Mine), MEMPLAN_RT_OK);
}

// With thread caches, the cap holds against the peak the program had: the
// blocks a thread cache holds are free to it, though its heap counts them
// in use. A DNN-shaped trace (as bench/runtime's, 20k tensors) on one
// thread; the clock stands still, so only the cap purges. (Counting the
// cached blocks in use, the committed bytes reached 1.15x this peak.)
TEST(RuntimePurge, FragCapDoesNotCountThreadCachedBlocks) {
  uint64_t Now = 1000 * Ms;
  memplan_rt_options O = withClock(&Now, 10000, 1);
  O.frag_cap = 1.10;
  O.thread_cache = 256 << 10;
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  ASSERT_TRUE(A);
  uint64_t PeakLive = 0, PeakReserved = 0;
  test::replayDnnShaped(*A, test::dnnShapedTensors(20000, 1),
                        [&](void *P, const test::Tensor &T, uint64_t Live) {
                          std::memset(P, 1, T.Bytes);
                          PeakLive = std::max(PeakLive, Live);
                          PeakReserved =
                              std::max(PeakReserved, A->bytesReserved());
                        });
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_LE(double(PeakReserved), 1.10 * double(PeakLive));
  EXPECT_GT(A->stats().bytes_purged, 0u); // the cap, not luck
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
}

TEST(RuntimePurge, FragCapOptionAndEnvironment) {
  memplan_rt_status S = MEMPLAN_RT_OK;
  for (double Bad : {0.5, -1.0, 1e9, std::nan("")}) {
    memplan_rt_options O;
    memplan_rt_options_init(&O);
    O.frag_cap = Bad;
    EXPECT_FALSE(BFCAllocator::create(O, &S)) << Bad;
    EXPECT_EQ(S, MEMPLAN_RT_BAD_OPTIONS) << Bad;
  }
  // No cap in the C defaults; lowered code (the environment's defaults) gets
  // a soft 1.10 cap, hard with MEMPLAN_RT_FRAG_CAP_SOFT=0 (the C default),
  // none with MEMPLAN_RT_FRAG_CAP=0.
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  EXPECT_EQ(O.frag_cap, 0.0);
  EXPECT_EQ(O.frag_cap_soft, 0);
  memplan_rt_options_from_env(&O);
  EXPECT_EQ(O.frag_cap, 1.10);
  EXPECT_EQ(O.frag_cap_soft, 1);
  setenv("MEMPLAN_RT_FRAG_CAP", "0", 1);
  memplan_rt_options_from_env(&O);
  EXPECT_EQ(O.frag_cap, 0.0);
  EXPECT_TRUE(BFCAllocator::create(O, &S));
  unsetenv("MEMPLAN_RT_FRAG_CAP");
  setenv("MEMPLAN_RT_FRAG_CAP_SOFT", "0", 1);
  memplan_rt_options_from_env(&O);
  EXPECT_EQ(O.frag_cap_soft, 0);
  unsetenv("MEMPLAN_RT_FRAG_CAP_SOFT");
  setenv("MEMPLAN_RT_FRAG_CAP", "1.2", 1);
  memplan_rt_options_from_env(&O);
  EXPECT_EQ(O.frag_cap, 1.2);
  EXPECT_EQ(O.frag_cap_soft, 1);
  EXPECT_TRUE(BFCAllocator::create(O, &S));
  setenv("MEMPLAN_RT_FRAG_CAP", "0.5", 1);
  testing::internal::CaptureStderr();
  memplan_rt_options_from_env(&O);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(O.frag_cap, 1.10); // the default kept
  EXPECT_NE(Err.find("ignoring MEMPLAN_RT_FRAG_CAP=0.5 (0, or a number from "
                     "1 to 1000)"),
            std::string::npos)
      << Err;
  unsetenv("MEMPLAN_RT_FRAG_CAP");
}
