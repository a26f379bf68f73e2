//===- ReplayPlanTest.cpp - A heap's learned plan of repeated episodes ----===//
//
// options.replay: an episode that repeats is served from one planned chunk;
// a late free, another size, an extra or missing alloc or an alignment the
// plan's address misses leaves the plan for the bins; bad frees of planned
// blocks are told apart; an idle plan gives its chunk back; tiny blocks are
// not planned. Every live block is tagged and checked for overlap, and the
// heap's invariants hold after every call.
//
//===----------------------------------------------------------------------===//

#include "ReplayPlan.h"
#include "memplan/Runtime/BFCAllocator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace memplan::rt;

namespace {

memplan_rt_options replayOptions(uint32_t Arenas, int Replay) {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  O.arenas = Arenas;
  O.replay = Replay;
  return O;
}

std::unique_ptr<BFCAllocator> replayAllocator(uint32_t Arenas = 1,
                                              int Replay = 1) {
  memplan_rt_status S;
  return BFCAllocator::create(replayOptions(Arenas, Replay), &S);
}

/// Live blocks, tagged in every page and at their last byte: a block handed
/// out over a live one, or a live page purged, shows.
struct Checker {
  BFCAllocator &A;
  std::map<char *, std::pair<uint64_t, uint8_t>> Live;
  uint8_t NextTag = 1;

  char *alloc(uint64_t Bytes, uint64_t Align = 64) {
    memplan_rt_status S;
    char *P = static_cast<char *>(A.allocate(Bytes, Align, &S));
    EXPECT_NE(P, nullptr);
    if (!P)
      return nullptr;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(P) % Align, 0u);
    auto Next = Live.lower_bound(P);
    if (Next != Live.end()) {
      EXPECT_LE(P + Bytes, Next->first) << "a block over a live one";
    }
    if (Next != Live.begin()) {
      EXPECT_LE(std::prev(Next)->first + std::prev(Next)->second.first, P)
          << "a block over a live one";
    }
    uint8_t Tag = NextTag++ | 1;
    for (uint64_t Off = 0; Off < Bytes; Off += 4096)
      P[Off] = char(Tag);
    P[Bytes - 1] = char(Tag);
    Live[P] = {Bytes, Tag};
    check();
    return P;
  }
  void free(char *P) {
    auto It = Live.find(P);
    ASSERT_NE(It, Live.end());
    auto [Bytes, Tag] = It->second;
    for (uint64_t Off = 0; Off < Bytes; Off += 4096)
      EXPECT_EQ(uint8_t(P[Off]), Tag) << "a live block was clobbered";
    EXPECT_EQ(uint8_t(P[Bytes - 1]), Tag) << "a live block was clobbered";
    Live.erase(It);
    EXPECT_EQ(A.deallocate(P), MEMPLAN_RT_OK);
    check();
  }
  void check() {
    std::string Why;
    EXPECT_TRUE(A.checkInvariants(&Why)) << Why;
  }
};

/// One step of an episode: alloc block Id of Bytes at Align, or free it.
struct Step {
  bool Alloc;
  int Id;
  uint64_t Bytes = 0, Align = 64;
};

/// A DNN-like chain: each block read by the next one or two, then freed.
std::vector<Step> chain(int N, uint64_t Unit) {
  std::vector<Step> E;
  for (int I = 0; I < N; ++I) {
    E.push_back({true, I, Unit * (1 + I % 5)});
    if (I >= 2)
      E.push_back({false, I - 2});
  }
  E.push_back({false, N - 2});
  E.push_back({false, N - 1});
  return E;
}

/// Runs \p E once; gives the blocks' addresses by id.
std::vector<char *> run(Checker &C, const std::vector<Step> &E) {
  std::vector<char *> Ptr;
  for (const Step &S : E) {
    if (S.Alloc) {
      Ptr.resize(std::max<size_t>(Ptr.size(), S.Id + 1));
      Ptr[S.Id] = C.alloc(S.Bytes, S.Align);
    } else {
      C.free(Ptr[S.Id]);
    }
  }
  return Ptr;
}

/// Two blocks of \p Bytes allocated, then freed: an episode \p Times over.
void runPair(Checker &C, uint64_t Bytes, int Times) {
  std::vector<Step> E = {
      {true, 0, Bytes}, {true, 1, Bytes}, {false, 0}, {false, 1}};
  for (int R = 0; R < Times; ++R)
    run(C, E);
}

TEST(RuntimeReplay, RepeatedEpisodesAreServedFromOnePlan) {
  auto A = replayAllocator();
  Checker C{*A};
  std::vector<Step> E = chain(50, 64 << 10);
  run(C, E);
  EXPECT_EQ(A->stats().replay_plans, 1u);
  EXPECT_EQ(A->stats().replayed_allocs, 0u); // the first one is recorded
  std::vector<char *> First = run(C, E);
  for (int R = 0; R < 8; ++R)
    EXPECT_EQ(run(C, E), First) << "the plan's offsets, each episode";
  memplan_rt_stats S = A->stats();
  EXPECT_EQ(S.replay_plans, 1u);
  EXPECT_EQ(S.replayed_allocs, 9u * 50);
  EXPECT_EQ(S.num_allocs, 10u * 50);
  EXPECT_EQ(S.num_frees, 10u * 50);
  EXPECT_EQ(S.bytes_in_use, 0u);
  // Three blocks live at most (each step frees the one two back): the plan
  // needs no more than the three largest, 3 x 5 units.
  char *Lo = *std::min_element(First.begin(), First.end());
  char *Hi = *std::max_element(First.begin(), First.end());
  EXPECT_LE(uint64_t(Hi - Lo), uint64_t(15) * (64 << 10));
}

TEST(RuntimeReplay, OffByDefault) {
  auto A = replayAllocator(1, 0);
  Checker C{*A};
  std::vector<Step> E = chain(20, 64 << 10);
  for (int R = 0; R < 3; ++R)
    run(C, E);
  EXPECT_EQ(A->stats().replay_plans, 0u);
  EXPECT_EQ(A->stats().replayed_allocs, 0u);
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  EXPECT_EQ(O.replay, 0);
}

// a, then b over a's bytes once a is freed (c live throughout, so that
// it is one episode); replayed with a freed late, b must not land on a.
TEST(RuntimeReplay, ALateFreeIsNeverOverlapped) {
  auto A = replayAllocator();
  Checker C{*A};
  std::vector<Step> E = {{true, 0, 256 << 10}, {true, 2, 64 << 10}, {false, 0},
                         {true, 1, 256 << 10}, {false, 1},          {false, 2}};
  run(C, E);
  std::vector<char *> P = run(C, E);
  ASSERT_EQ(A->stats().replayed_allocs, 3u);
  EXPECT_EQ(P[0], P[1]) << "planned over each other";
  char *X = C.alloc(256 << 10);
  EXPECT_EQ(X, P[0]);
  char *Z = C.alloc(64 << 10);
  char *Y = C.alloc(256 << 10); // X still live: Checker sees any overlap
  EXPECT_EQ(A->stats().replayed_allocs, 5u);
  C.free(X);
  C.free(Y);
  C.free(Z);
  // That episode left the plan: it is dropped, and learnt again after a
  // wait of one episode.
  EXPECT_EQ(A->stats().replay_plans, 1u);
  run(C, E);
  run(C, E);
  EXPECT_EQ(A->stats().replay_plans, 2u);
  uint64_t Before = A->stats().replayed_allocs;
  run(C, E);
  EXPECT_EQ(A->stats().replayed_allocs, Before + 3);
}

TEST(RuntimeReplay, AnotherSizeOrAlignmentGoesToTheBins) {
  auto A = replayAllocator();
  Checker C{*A};
  std::vector<Step> E = chain(10, 64 << 10);
  run(C, E);
  run(C, E);
  uint64_t Replayed = A->stats().replayed_allocs;
  ASSERT_EQ(Replayed, 10u);
  // The third block one rounding unit larger: the bins serve it, the plan
  // skips its block and serves the other nine, and is kept (2 of 10 missed).
  std::vector<Step> Bigger = E;
  for (Step &S : Bigger)
    if (S.Alloc && S.Id == 2)
      S.Bytes += 256;
  run(C, Bigger);
  EXPECT_EQ(A->stats().replayed_allocs, Replayed + 9);
  run(C, E);
  EXPECT_EQ(A->stats().replayed_allocs, Replayed + 19);
  EXPECT_EQ(A->stats().replay_plans, 1u);
  // Every block of another size: it starts no plan, so none is served and
  // it is recorded as a second kind of episode; then each kind is served
  // from its own plan, and the first one was not dropped.
  std::vector<Step> Other = E;
  for (Step &S : Other)
    S.Bytes += 256;
  run(C, Other);
  EXPECT_EQ(A->stats().replayed_allocs, Replayed + 19);
  EXPECT_EQ(A->stats().replay_plans, 2u);
  run(C, E);
  run(C, Other);
  std::vector<char *> Planned = run(C, E);
  EXPECT_EQ(A->stats().replay_plans, 2u);
  EXPECT_EQ(A->stats().replayed_allocs, Replayed + 49);
  // An alignment the planned address misses: that block from the bins.
  Replayed = A->stats().replayed_allocs;
  std::vector<Step> Aligned = E;
  for (Step &S : Aligned)
    if (S.Alloc && S.Id == 0)
      S.Align = uint64_t(1) << 16;
  std::vector<char *> P = run(C, Aligned);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(P[0]) % (uint64_t(1) << 16), 0u);
  bool Fits =
      reinterpret_cast<uintptr_t>(Planned[0]) % (uint64_t(1) << 16) == 0;
  EXPECT_EQ(A->stats().replayed_allocs, Replayed + (Fits ? 10 : 9));
}

TEST(RuntimeReplay, ExtraAndMissingAllocsGoToTheBins) {
  auto A = replayAllocator();
  Checker C{*A};
  std::vector<Step> E = chain(8, 64 << 10);
  run(C, E);
  run(C, E);
  ASSERT_EQ(A->stats().replayed_allocs, 8u);
  // One past the plan's end: the ninth block is the bins'; the plan stays.
  run(C, chain(9, 64 << 10));
  EXPECT_EQ(A->stats().replayed_allocs, 16u);
  EXPECT_EQ(A->stats().replay_plans, 1u);
  run(C, E);
  EXPECT_EQ(A->stats().replayed_allocs, 24u);
  // Three short of it (more than a quarter): dropped, learnt again after
  // one episode's wait.
  run(C, chain(5, 64 << 10));
  EXPECT_EQ(A->stats().replayed_allocs, 29u);
  run(C, E);
  run(C, E);
  EXPECT_EQ(A->stats().replay_plans, 2u);
  run(C, E);
  EXPECT_EQ(A->stats().replayed_allocs, 37u);
}

TEST(RuntimeReplay, BadFreesOfPlannedBlocks) {
  auto A = replayAllocator();
  Checker C{*A};
  runPair(C, 100000, 1);
  char *X = C.alloc(100000);
  char *Y = C.alloc(100000);
  ASSERT_EQ(A->stats().replayed_allocs, 2u);
  EXPECT_EQ(A->allocatedSize(X), 100096u); // rounded to 256
  EXPECT_EQ(A->deallocate(X + 256), MEMPLAN_RT_FOREIGN_POINTER);
  EXPECT_EQ(A->deallocate(X + 8), MEMPLAN_RT_FOREIGN_POINTER);
  C.free(X);
  EXPECT_EQ(A->deallocate(X), MEMPLAN_RT_DOUBLE_FREE);
  EXPECT_EQ(A->allocatedSize(X), 0u);
  EXPECT_EQ(A->stats().num_failures, 3u);
  C.free(Y);
  C.check();
}

TEST(RuntimeReplay, AnIdlePlanGivesItsArenaBack) {
  auto A = replayAllocator();
  Checker C{*A};
  std::vector<Step> E = chain(20, 1 << 20);
  for (int R = 0; R < 3; ++R)
    run(C, E);
  ASSERT_GT(A->stats().replayed_allocs, 0u);
  // Three blocks of up to 5 MiB live at once: the arena is several MiB,
  // committed while the plan holds it, and purged with it once dropped.
  A->purge();
  EXPECT_LT(A->stats().bytes_reserved, uint64_t(1) << 20);
  EXPECT_EQ(A->stats().bytes_in_use, 0u);
  C.check();
  // Learnt again.
  for (int R = 0; R < 3; ++R)
    run(C, E);
  EXPECT_EQ(A->stats().replay_plans, 2u);
}

TEST(RuntimeReplay, AlwaysPlansTinyBlocksAndOtherValuesAreBad) {
  auto A = replayAllocator(1, 2);
  ASSERT_TRUE(A);
  Checker C{*A};
  std::vector<Step> E = chain(200, 256);
  for (int R = 0; R < 3; ++R)
    run(C, E);
  EXPECT_EQ(A->stats().replay_plans, 1u);
  EXPECT_EQ(A->stats().replayed_allocs, 2u * 200);
  for (int Bad : {-1, 3}) {
    memplan_rt_status S;
    EXPECT_FALSE(BFCAllocator::create(replayOptions(1, Bad), &S));
    EXPECT_EQ(S, MEMPLAN_RT_BAD_OPTIONS);
  }
}

// Found by a probe: the chunk of a small plan dropped at memplan_rt_purge
// went into the size cache (flushed just before), so it stayed committed
// and unmerged until a later purge. It goes back to the bins now.
TEST(RuntimeReplay, APurgedSmallArenaIsNotCached) {
  memplan_rt_options O = replayOptions(1, 1);
  O.cache = 1;
  memplan_rt_status S;
  auto A = BFCAllocator::create(O, &S);
  ASSERT_TRUE(A);
  Checker C{*A};
  runPair(C, 16384, 4);
  ASSERT_EQ(A->stats().replayed_allocs, 6u); // a 32 KiB arena, cacheable
  A->purge();
  EXPECT_EQ(A->stats().bytes_reserved, 0u);
  C.check();
}

// Found by a probe: a request that failed (out of memory) began an episode
// that no block would end, so the plan never went idle and its arena stayed
// committed through every purge.
TEST(RuntimeReplay, AFailedAllocLeavesNoEpisodeOpen) {
  auto A = replayAllocator();
  Checker C{*A};
  runPair(C, 1 << 20, 4);
  ASSERT_GT(A->stats().replayed_allocs, 0u);
  memplan_rt_status S;
  EXPECT_EQ(A->allocate(uint64_t(1) << 52, 64, &S), nullptr);
  EXPECT_EQ(S, MEMPLAN_RT_OUT_OF_MEMORY);
  A->purge();
  EXPECT_EQ(A->stats().bytes_reserved, 0u);
  C.check();
}

// Found by a probe: under a limit, an idle plan's arena (in use to the
// bins) made a request fail that fits with nothing in use. Out of room,
// the plans go and their arena with them, then the request is served.
TEST(RuntimeReplay, AnArenaGivesWayUnderALimit) {
  for (int Replay : {0, 1, 2}) {
    memplan_rt_options O = replayOptions(1, Replay);
    O.memory_limit = 4 << 20;
    O.release_free_regions = 1;
    memplan_rt_status S;
    auto A = BFCAllocator::create(O, &S);
    ASSERT_TRUE(A);
    Checker C{*A};
    runPair(C, 1 << 20, 4);
    EXPECT_EQ(A->stats().replayed_allocs, Replay ? 6u : 0u);
    char *Big = C.alloc(3 << 20);
    EXPECT_NE(Big, nullptr) << "replay " << Replay;
    if (Big)
      C.free(Big);
    // The plan is relearnt later, and its episodes served again.
    runPair(C, 1 << 20, 4);
    if (Replay) {
      EXPECT_GT(A->stats().replayed_allocs, 6u) << "replay " << Replay;
    }
  }
}

// After a plan of large blocks, an episode of other work (a small block):
// the plan's chunk is not taken for it, so its pages can be purged while
// that episode runs (taking it would commit them again for nothing).
TEST(RuntimeReplay, NoArenaForAnEpisodeThatStartsElsewhere) {
  auto A = replayAllocator();
  Checker C{*A};
  std::vector<Step> E = chain(20, 1 << 20);
  run(C, E);
  ASSERT_EQ(A->stats().replay_plans, 1u);
  char *Small = C.alloc(4096);
  A->purge(); // an episode is under way: the plan stays
  EXPECT_LT(A->stats().bytes_reserved, uint64_t(1) << 20);
  C.free(Small);
  EXPECT_EQ(A->stats().replayed_allocs, 0u);
  // That episode was of another kind: planned too (its one block is a
  // sixteenth of nothing but itself); the first plan stays and serves.
  EXPECT_EQ(A->stats().replay_plans, 2u);
  run(C, E);
  EXPECT_EQ(A->stats().replayed_allocs, 20u);
  EXPECT_EQ(A->stats().replay_plans, 2u);
}

// A purge pass may drop an idle plan while the heap takes its chunk (the
// heap no longer makes passes then, but the plan must not depend on it):
// the chunk comes straight back, and no later plan is served from it (one
// of another size would have been, over its end).
TEST(RuntimeReplay, APlanDroppedWhileItsChunkIsTakenGetsNone) {
  ReplayPlan RP(8, false); // 256-byte rounding
  RP.noteAlloc(1, 64 << 10, 256);
  RP.noteAlloc(2, 64 << 10, 256);
  RP.noteFree(1);
  RP.noteFree(2);
  ASSERT_EQ(RP.plansMade(), 1u);
  ASSERT_TRUE(RP.needsArena());
  ASSERT_EQ(RP.arenaBytes(), uint64_t(128) << 10);
  alignas(256) static char Chunk[128 << 10];
  RP.dropIfIdle(); // the pass, between the heap's check and setArena
  RP.setArena(Chunk);
  EXPECT_EQ(RP.takeDroppedArena(), Chunk);
  EXPECT_FALSE(RP.owns(Chunk));
  EXPECT_FALSE(RP.needsArena());
  EXPECT_EQ(RP.arena(), nullptr);
}

// Where first fit in alloc order needs less than greedy by size, its plan
// is kept. Blocks of 4, 2, 1 and 4 units (64 KiB), alloc order 0 1 2 3,
// events: a0 a1 f0 a2 f1 a3 f2 f3. By size (0, 3, 1, 2): 0 at 0, 3 at 0 (0
// freed before it), 1 at 4 (over 0), 2 at 6 (over 3's 0-4 and 1's 4-6):
// 7 units. In order: 0 at 0, 1 at 4, 2 at 0 (0 freed), 3 at 1 (over 2's
// 0-1): 6 units, the peak (0 and 1 live).
TEST(RuntimeReplay, TheSmallerOfTwoOrdersIsKept) {
  ReplayPlan RP(8, false);
  constexpr uint64_t U = 64 << 10;
  RP.noteAlloc(1, 4 * U, 256);
  RP.noteAlloc(2, 2 * U, 256);
  RP.noteFree(1);
  RP.noteAlloc(3, 1 * U, 256);
  RP.noteFree(2);
  RP.noteAlloc(4, 4 * U, 256);
  RP.noteFree(3);
  RP.noteFree(4);
  ASSERT_EQ(RP.plansMade(), 1u);
  EXPECT_EQ(RP.arenaBytes(), 6 * U);
}

TEST(RuntimeReplay, TinyBlocksAreNotPlanned) {
  // Records of 40 bytes per block against a peak of 3 x 1 KiB: they would
  // cost more than the plan saves.
  auto A = replayAllocator();
  Checker C{*A};
  std::vector<Step> E = chain(2000, 256);
  for (int R = 0; R < 4; ++R)
    run(C, E);
  EXPECT_EQ(A->stats().replay_plans, 0u);
  // The same episode with blocks of 1 MiB is planned.
  std::vector<Step> Big = chain(2000, 1 << 20);
  for (int R = 0; R < 8; ++R)
    run(C, Big);
  EXPECT_EQ(A->stats().replay_plans, 1u);
}

// A block that outlives the episodes (a KV cache, a model's state) is
// outside them once a recording gives up (its records past a sixteenth of
// the peak and 16 KiB: about 900 blocks here); the episodes inside are
// planned.
TEST(RuntimeReplay, ABlockLiveAcrossEpisodes) {
  auto A = replayAllocator();
  Checker C{*A};
  char *Kept = C.alloc(256 << 10);
  std::vector<Step> E = chain(30, 4096);
  for (int R = 0; R < 6; ++R)
    run(C, E);
  EXPECT_EQ(A->stats().replay_plans, 0u) << "one episode so far";
  for (int R = 0; R < 80; ++R)
    run(C, E);
  EXPECT_GE(A->stats().replay_plans, 1u);
  EXPECT_GT(A->stats().replayed_allocs, 0u);
  C.free(Kept);
}

// Episodes of two kinds that take turns (a trace with everything freed
// twice in it, a loop body calling two functions): a plan each, in one
// arena as large as the larger plan needs.
TEST(RuntimeReplay, EpisodesThatTakeTurnsKeepAPlanEach) {
  auto A = replayAllocator();
  Checker C{*A};
  std::vector<Step> X = chain(12, 64 << 10), Y = chain(20, 96 << 10);
  run(C, X);
  run(C, Y);
  ASSERT_EQ(A->stats().replay_plans, 2u);
  std::vector<char *> PX = run(C, X), PY = run(C, Y);
  char *Lo = std::min(*std::min_element(PX.begin(), PX.end()),
                      *std::min_element(PY.begin(), PY.end()));
  char *Hi = std::max(*std::max_element(PX.begin(), PX.end()),
                      *std::max_element(PY.begin(), PY.end()));
  for (int R = 0; R < 5; ++R) {
    EXPECT_EQ(run(C, X), PX);
    EXPECT_EQ(run(C, Y), PY);
  }
  memplan_rt_stats S = A->stats();
  EXPECT_EQ(S.replay_plans, 2u);
  EXPECT_EQ(S.replayed_allocs, 6u * (12 + 20));
  // One arena: Y's plan (three blocks of up to 5 x 96 KiB live) holds X's.
  EXPECT_LT(uint64_t(Hi - Lo), uint64_t(15) * (96 << 10));
  C.check();
}

// Five kinds in turn, four plans kept: four are served every round, and the
// fifth never takes a slot from a plan in use (no plan is made again).
TEST(RuntimeReplay, MoreKindsThanPlansDoNotThrash) {
  auto A = replayAllocator();
  Checker C{*A};
  std::vector<std::vector<Step>> Kinds;
  for (int I = 0; I < 5; ++I)
    Kinds.push_back(chain(10, uint64_t(64 + 16 * I) << 10));
  for (int R = 0; R < 6; ++R)
    for (const auto &E : Kinds)
      run(C, E);
  memplan_rt_stats S = A->stats();
  EXPECT_EQ(S.replay_plans, 4u);
  EXPECT_EQ(S.replayed_allocs, 5u * 4 * 10);
}

// Episodes that never repeat: a plan that served no episode and is replaced
// counts as a failure, so recording backs off (1, 3, 7 ... 63 episodes).
TEST(RuntimeReplay, EpisodesThatNeverRepeatBackOff) {
  auto A = replayAllocator();
  Checker C{*A};
  for (int R = 0; R < 300; ++R)
    run(C, chain(4, uint64_t(64 + R) << 10));
  memplan_rt_stats S = A->stats();
  EXPECT_EQ(S.replayed_allocs, 0u);
  // 4 slots, then a replacement after waits of 1, 3, ... 63 episodes and
  // every 64 after: 4 + 6 + 3 at most in 300 episodes.
  EXPECT_LE(S.replay_plans, 13u);
  EXPECT_GE(S.replay_plans, 8u);
}

/// Random episodes of 1-3 kinds in random turns, replayed with random
/// changes (frees late or early, sizes, alignments, blocks added or
/// skipped, a block kept across episodes): nothing the plans serve ever
/// overlaps a live block, and they are used where the episodes repeat.
TEST(RuntimeReplay, RandomEpisodesNeverOverlap) {
  uint64_t Replayed = 0;
  int SeveralKinds = 0;
  for (unsigned Seed = 1; Seed <= 60; ++Seed) {
    std::mt19937_64 Rng(Seed);
    auto A = replayAllocator();
    Checker C{*A};
    // 1-3 kinds of episode, each round one of them (a plan each).
    struct Kind {
      int N;
      std::vector<uint64_t> Bytes, Align;
      std::vector<std::pair<int, int>> Life; // [alloc step, free step)
    };
    std::vector<Kind> Kinds(1 + Rng() % 3);
    for (Kind &K : Kinds) {
      K.N = 2 + Rng() % 40;
      for (int I = 0; I < K.N; ++I) {
        K.Bytes.push_back(1 + Rng() % (256 << 10));
        K.Align.push_back(uint64_t(1) << (Rng() % 13));
        K.Life.push_back({I, I + 1 + int(Rng() % 8)});
      }
    }
    std::vector<char *> Kept;
    for (int R = 0; R < 16; ++R) {
      const Kind &K = Kinds[Rng() % Kinds.size()];
      int N = K.N;
      const std::vector<uint64_t> &Bytes = K.Bytes, &Align = K.Align;
      const std::vector<std::pair<int, int>> &Life = K.Life;
      bool Change = R >= 4 && Rng() % 2;
      // Events by time: frees (possibly moved) before allocs at one time.
      std::vector<std::pair<int, Step>> Ev;
      for (int I = 0; I < N; ++I) {
        uint64_t B = Bytes[I], Al = Align[I];
        int End = Life[I].second;
        if (Change) {
          switch (Rng() % 6) {
          case 0:
            End += 1 + Rng() % 4; // late
            break;
          case 1:
            End = Life[I].first + 1; // early
            break;
          case 2:
            B = 1 + Rng() % (512 << 10);
            break;
          case 3:
            Al = uint64_t(1) << (Rng() % 16);
            break;
          case 4:
            if (Rng() % 4 == 0)
              continue; // skipped
            break;
          default:
            break;
          }
        }
        Ev.push_back({2 * Life[I].first + 1, {true, I, B, Al}});
        Ev.push_back({2 * End, {false, I}});
      }
      if (Change && Rng() % 3 == 0)
        Ev.push_back(
            {int(Rng() % (2 * N)) | 1, {true, N, 1 + Rng() % (128 << 10), 64}});
      std::stable_sort(Ev.begin(), Ev.end(), [](const auto &X, const auto &Y) {
        return X.first < Y.first;
      });
      std::vector<char *> Ptr(N + 1, nullptr);
      bool Keep = Change && Rng() % 5 == 0;
      for (auto &[T, S] : Ev) {
        if (S.Alloc) {
          Ptr[S.Id] = C.alloc(S.Bytes, S.Align);
        } else if (Ptr[S.Id]) {
          C.free(Ptr[S.Id]);
          Ptr[S.Id] = nullptr;
        }
      }
      for (char *P : Ptr)
        if (P) {
          if (Keep)
            Kept.push_back(P); // across the next episodes
          else
            C.free(P);
        }
      if (Kept.size() && Rng() % 3 == 0) {
        C.free(Kept.back());
        Kept.pop_back();
      }
    }
    for (char *P : Kept)
      C.free(P);
    EXPECT_EQ(A->stats().bytes_in_use, 0u) << "seed " << Seed;
    Replayed += A->stats().replayed_allocs;
    if (Kinds.size() > 1 && A->stats().replay_plans > 1 &&
        A->stats().replayed_allocs)
      ++SeveralKinds;
  }
  EXPECT_GT(Replayed, 60u * 2) << "the plans were used";
  EXPECT_GE(SeveralKinds, 10) << "plans of several kinds were used";
}

// Two threads, each replaying its episodes; the blocks of each are freed by
// the other half the time (a free goes to the heap the block came from).
TEST(RuntimeReplay, ThreadsFreeEachOthersPlannedBlocks) {
  auto A = replayAllocator(2);
  std::vector<Step> E = chain(40, 64 << 10);
  auto Work = [&](int Me) {
    for (int R = 0; R < 200; ++R) {
      std::vector<char *> Ptr(40);
      for (const Step &S : E) {
        if (S.Alloc) {
          memplan_rt_status St;
          Ptr[S.Id] = static_cast<char *>(A->allocate(S.Bytes, 64, &St));
          ASSERT_NE(Ptr[S.Id], nullptr);
          std::fill(Ptr[S.Id], Ptr[S.Id] + 64, char(Me));
        } else {
          for (int I = 0; I < 64; ++I)
            ASSERT_EQ(Ptr[S.Id][I], char(Me)) << "clobbered";
          ASSERT_EQ(A->deallocate(Ptr[S.Id]), MEMPLAN_RT_OK);
        }
      }
    }
  };
  std::thread T0(Work, 1), T1(Work, 2);
  T0.join();
  T1.join();
  std::string Why;
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  EXPECT_EQ(A->stats().bytes_in_use, 0u);
  // Cross-thread frees of planned blocks.
  Checker C{*A};
  run(C, E);
  run(C, E);
  std::vector<char *> Blocks;
  for (int I = 0; I < 3; ++I)
    Blocks.push_back(C.alloc(64 << 10));
  std::thread Other([&] {
    for (char *P : Blocks)
      EXPECT_EQ(A->deallocate(P), MEMPLAN_RT_OK);
  });
  Other.join();
  C.Live.clear();
  EXPECT_TRUE(A->checkInvariants(&Why)) << Why;
  EXPECT_EQ(A->stats().bytes_in_use, 0u);
}

} // namespace
