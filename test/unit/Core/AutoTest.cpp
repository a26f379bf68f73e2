#include "TestUtil.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace memplan;

namespace {

const char *const PeerFiles[] = {"armnn_fsrcnn_720p",
                                 "tflite_arena_ComplexGraph",
                                 "tflite_gpu_ChainRecords",
                                 "tflite_gpu_ComplexRecords",
                                 "tflm_TestGreedyMedium",
                                 "tflm_TestOverlapCase",
                                 "tflm_person_detection",
                                 "tvm_alloc_max",
                                 "tvm_deep_speech",
                                 "tvm_five",
                                 "tvm_simple",
                                 "xla_BestFit",
                                 "xla_DecreasingSize"};

TEST(AutoTest, ReachesTheBoundOnEveryPeerSet) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  // Every peer set has a plan at its live-bytes bound (the exact search
  // proves it: Optimal); auto must find one, whatever the record order.
  std::mt19937 Rng(23);
  for (const char *Name : PeerFiles) {
    auto Set = test::readShared(std::string("peers/") + Name + ".csv");
    std::vector<UsageRecord> R = Set.Records;
    for (int Round = 0; Round < 3; ++Round) {
      auto P = planMemory("auto", R);
      ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
      EXPECT_EQ(P->Offsets.TotalSize, liveBytesLowerBound(R)) << Name;
      EXPECT_TRUE(P->Optimal) << Name;
      std::shuffle(R.begin(), R.end(), Rng);
    }
  }
}

TEST(AutoTest, NotWorseThanAnyFastStrategy) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  auto Set = test::readShared("peers/tvm_deep_speech.csv");
  auto Auto = planMemory("auto", Set.Records);
  ASSERT_TRUE(bool(Auto));
  for (const char *Name :
       {"greedy-by-size-offsets", "best-fit-size", "best-fit-area", "first-fit",
        "greedy-by-breadth-offsets"}) {
    auto P = planMemory(Name, Set.Records);
    ASSERT_TRUE(bool(P));
    EXPECT_LE(Auto->Offsets.TotalSize, P->Offsets.TotalSize) << Name;
  }
}

TEST(AutoTest, StopsAtTheBoundAndPassesItOn) {
  // A DNN-like chain far above kAutoExactMaxRecords: greedy by size reaches
  // the live-bytes bound, which auto reports as its plan's lower bound.
  std::vector<UsageRecord> R;
  std::mt19937_64 Rng(3);
  for (uint64_t I = 0; I < 20000; ++I)
    R.emplace_back(64 << (Rng() % 8), I, I + 1 + (Rng() % 10 == 0 ? 20 : 0));
  auto P = planMemory("auto", R);
  ASSERT_TRUE(bool(P));
  EXPECT_EQ(P->CertifiedBound, liveBytesLowerBound(R));
  EXPECT_EQ(P->Offsets.TotalSize,
            planMemory("greedy-by-size-offsets", R)->Offsets.TotalSize);
}

TEST(AutoTest, AlignmentIsKept) {
  MEMPLAN_REQUIRE_SHARED_DATA();
  auto Set = test::readShared("peers/tflite_arena_ComplexGraph.csv");
  StrategyOptions O;
  O.Alignment = 64;
  auto P = planMemory("auto", Set.Records, O);
  ASSERT_TRUE(bool(P));
  for (uint64_t Off : P->Offsets.Offsets)
    EXPECT_EQ(Off % 64, 0u);
}

} // namespace
