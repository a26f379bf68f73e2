//===- SoftFragCapTest.cpp - A frag cap that steps aside when it costs ----===//
//
// options.frag_cap_soft: the cap holds where purging and faulting pages back
// take a small share of the time (a DNN-shaped trace), pauses where they
// take most of it, and holds again, down to the cap, once its pause is
// over. The cap's cost is measured on the real clock, as in a program.
//
//===----------------------------------------------------------------------===//

#include "DnnShapedReplay.h"

#include "memplan/Runtime/BFCAllocator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

using namespace memplan::rt;

namespace {

constexpr uint64_t MiB = 1 << 20;

/// One heap under \p Cap (0: none), soft or not; a 10 s delay, so that only
/// the cap purges.
std::unique_ptr<BFCAllocator> allocator(double Cap, bool Soft) {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  O.arenas = 1;
  O.purge_delay_ms = 10000;
  O.frag_cap = Cap;
  O.frag_cap_soft = Soft;
  memplan_rt_status S;
  return BFCAllocator::create(O, &S);
}

/// Peak committed bytes over peak in use of two replays of bench/runtime's
/// DNN-shaped trace (200k allocs: windows of the soft cap past the warm-up),
/// a byte written in every page of each block, as the bench does.
double dnnFrag(BFCAllocator &A) {
  auto Ts = test::dnnShapedTensors(100000, 1);
  uint64_t PeakLive = 0, PeakReserved = 0;
  for (int R = 0; R < 2; ++R)
    test::replayDnnShaped(
        A, Ts, [&](void *P, const test::Tensor &T, uint64_t L) {
          for (uint64_t I = 0; I < T.Bytes; I += 4096)
            static_cast<volatile char *>(P)[I] = 1;
          PeakLive = std::max(PeakLive, L);
          PeakReserved = std::max(PeakReserved, A.bytesReserved());
        });
  return double(PeakReserved) / double(PeakLive);
}

/// One round of a program whose reuse the cap makes fault: a 4 MiB block
/// and a 4 MiB one above it; the lower freed, 6 MiB that fits no hole
/// placed above; all freed. 10 MiB in use at most, 14 committed, so a 1.10
/// cap purges 3 MiB of the lower hole, which the next round's first block
/// takes back.
void faultingRound(BFCAllocator &A) {
  void *Lo = A.allocate(4 * MiB, 4096, nullptr);
  void *Mid = A.allocate(4 * MiB, 4096, nullptr);
  ASSERT_EQ(A.deallocate(Lo), MEMPLAN_RT_OK);
  void *Hi = A.allocate(6 * MiB, 4096, nullptr);
  ASSERT_NE(Hi, nullptr);
  ASSERT_EQ(A.deallocate(Mid), MEMPLAN_RT_OK);
  ASSERT_EQ(A.deallocate(Hi), MEMPLAN_RT_OK);
}

} // namespace

// The DNN-shaped trace reuses its freed pages soon: under a soft cap,
// purging and faulting pages back take about a tenth of its time, under the
// budget (a quarter), so the cap holds as a hard one does and never pauses.
TEST(SoftFragCap, HoldsWhereFreedPagesComeBackRarely) {
  auto Soft = allocator(1.10, true);
  auto None = allocator(0, false);
  ASSERT_TRUE(Soft && None);
  double SoftFrag = dnnFrag(*Soft);
  double NoneFrag = dnnFrag(*None);
  ASSERT_FALSE(HasFatalFailure());
  EXPECT_LE(SoftFrag, 1.10);
  EXPECT_GT(NoneFrag, 1.10); // what the cap held back
  memplan_rt_stats S = Soft->stats();
  EXPECT_EQ(S.frag_cap_pauses, 0u);
  EXPECT_GT(S.bytes_purged, 0u);
}

// Where every round faults purged pages back (nearly all its time), the soft
// cap pauses: it purges a small share of what the hard cap purges (3 MiB a
// round).
TEST(SoftFragCap, StepsAsideWhereFreedPagesComeBackOften) {
  auto Soft = allocator(1.10, true);
  auto Hard = allocator(1.10, false);
  ASSERT_TRUE(Soft && Hard);
  for (int I = 0; I < 400; ++I) {
    faultingRound(*Soft);
    faultingRound(*Hard);
    ASSERT_FALSE(HasFatalFailure());
  }
  memplan_rt_stats S = Soft->stats(), H = Hard->stats();
  EXPECT_GE(H.bytes_purged, 400 * 3 * MiB);
  EXPECT_GE(S.frag_cap_pauses, 1u);
  EXPECT_EQ(H.frag_cap_pauses, 0u);
  EXPECT_LT(S.bytes_purged * 20, H.bytes_purged);
  std::string Why;
  EXPECT_TRUE(Soft->checkInvariants(&Why)) << Why;
}

// A pause ends: after the first pause's 64 windows of 32768 allocs, the cap
// holds again and takes the committed bytes down to the cap at once
// (nothing else would: the heap neither grows nor reuses a purged page).
TEST(SoftFragCap, HoldsAgainAfterAPause) {
  auto A = allocator(1.10, true);
  ASSERT_TRUE(A);
  for (int I = 0; I < 1000 && !A->stats().frag_cap_pauses; ++I) {
    faultingRound(*A);
    ASSERT_FALSE(HasFatalFailure());
  }
  ASSERT_EQ(A->stats().frag_cap_pauses, 1u);
  // Paused: the rounds commit the 14 MiB they want again.
  faultingRound(*A);
  memplan_rt_stats Paused = A->stats();
  EXPECT_GT(double(Paused.bytes_reserved),
            1.2 * double(Paused.peak_bytes_in_use));
  // Small blocks, each freed at once: the pause and one more window.
  for (int I = 0; I < 65 * 32768 + 1; ++I) {
    void *P = A->allocate(64, 64, nullptr);
    ASSERT_NE(P, nullptr);
    ASSERT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  }
  memplan_rt_stats Back = A->stats();
  EXPECT_EQ(Back.frag_cap_pauses, 1u);
  EXPECT_LE(double(Back.bytes_reserved), 1.10 * double(Back.peak_bytes_in_use));
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
}
