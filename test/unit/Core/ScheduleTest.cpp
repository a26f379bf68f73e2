#include "memplan/Core/Schedule.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <functional>
#include <random>

using namespace memplan;

namespace {

/// Node I defines Defines[I] and uses Uses[I]; values are sized by Sizes.
ScheduleProblem make(std::vector<uint64_t> Sizes,
                     std::vector<std::vector<size_t>> Defines,
                     std::vector<std::vector<size_t>> Uses) {
  ScheduleProblem P;
  P.ValueSizes = std::move(Sizes);
  for (size_t I = 0; I < Defines.size(); ++I) {
    ScheduleNode N;
    N.Defines = Defines[I];
    N.Uses = Uses[I];
    P.Nodes.push_back(N);
  }
  return P;
}

/// The diamond x -> {a -> a2, b -> b2} -> out. Sizes X 10, A 50, B 50, A2 5,
/// B2 5, O 1. Given order x a b a2 b2 out: running b holds X, A and B: 110.
/// Whichever of a, b runs second holds X, its 50 and the other branch's 5 at
/// least, so 65 is the least, reached by x a a2 b b2 out.
ScheduleProblem diamond() {
  return make({10, 50, 50, 5, 5, 1}, {{0}, {1}, {2}, {3}, {4}, {5}},
              {{}, {0}, {0}, {1}, {2}, {3, 4}});
}

std::vector<size_t> identity(size_t N) {
  std::vector<size_t> O(N);
  for (size_t I = 0; I < N; ++I)
    O[I] = I;
  return O;
}

TEST(ScheduleTest, DiamondPeaksDerivedByHand) {
  ScheduleProblem P = diamond();
  EXPECT_EQ(schedulePeak(P, identity(6)), 110u);
  EXPECT_EQ(schedulePeak(P, {0, 1, 3, 2, 4, 5}), 65u);
  for (bool Split : {false, true}) {
    ScheduleOptions O;
    O.Split = Split;
    auto R = scheduleForMemory(P, O);
    ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
    EXPECT_EQ(R->PeakBefore, 110u);
    EXPECT_EQ(R->PeakAfter, 65u);
    EXPECT_EQ(schedulePeak(P, R->Order), 65u);
  }
}

TEST(ScheduleTest, TempBytesAndUnusedValuesCountAtTheirNodeOnly) {
  // Node 1 defines an unused 7 and needs 3 scratch bytes while X (4) lives.
  ScheduleProblem P = make({4, 7, 2}, {{0}, {1}, {2}}, {{}, {0}, {0}});
  P.Nodes[1].TempBytes = 3;
  EXPECT_EQ(schedulePeak(P, {0, 1, 2}), 14u);
  EXPECT_EQ(schedulePeak(P, {0, 2, 1}), 14u);
}

TEST(ScheduleTest, ExtraEdgesAndUndefinedValuesAreRespected) {
  // The diamond, but b2 must come before a: the best order is then the given
  // one's rival x b b2 a a2 out (65), never one that breaks the edge.
  ScheduleProblem P = diamond();
  P.Nodes[1].After = {4};
  P.Nodes[1].Uses.push_back(6); // no node defines value 6: ignored
  P.ValueSizes.push_back(1000);
  EXPECT_TRUE(llvm::errorToBool(
      verifyScheduleProblem(P))); // given order breaks the edge
  P.Nodes[1].After = {};
  P.Nodes[4].After = {1};
  auto R = scheduleForMemory(P);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(isTopologicalOrder(P, R->Order));
  EXPECT_EQ(R->PeakAfter, 65u);
}

TEST(ScheduleTest, BadProblemsAreErrors) {
  ScheduleProblem P = make({1}, {{0}, {0}}, {{}, {}});
  auto R = scheduleForMemory(P);
  ASSERT_FALSE(bool(R));
  EXPECT_NE(llvm::toString(R.takeError()).find("defined twice"),
            std::string::npos);
  ScheduleProblem Q = make({1}, {{0}}, {{3}});
  EXPECT_TRUE(llvm::errorToBool(verifyScheduleProblem(Q)))
      << "use out of range";
  ScheduleProblem C = make({1, 1}, {{0}, {1}}, {{1}, {0}});
  EXPECT_TRUE(llvm::errorToBool(verifyScheduleProblem(C))) << "a cycle";
  auto E = scheduleForMemory(ScheduleProblem());
  ASSERT_TRUE(bool(E));
  EXPECT_TRUE(E->Order.empty());
}

/// A random DAG in its given order: each node defines 0-2 values, uses some
/// earlier ones (and now and then a value nobody defines), may carry scratch
/// bytes and an extra edge.
ScheduleProblem randomProblem(std::mt19937 &Rng, size_t N) {
  ScheduleProblem P;
  std::vector<size_t> Defined;
  P.ValueSizes.push_back(500); // never defined
  for (size_t I = 0; I < N; ++I) {
    ScheduleNode Node;
    size_t NumUses = Defined.empty() ? 0 : Rng() % 3;
    for (size_t K = 0; K < NumUses; ++K)
      Node.Uses.push_back(Defined[Rng() % Defined.size()]);
    if (Rng() % 5 == 0)
      Node.Uses.push_back(0);
    if (I > 0 && Rng() % 6 == 0)
      Node.After.push_back(Rng() % I);
    if (Rng() % 7 == 0)
      Node.TempBytes = Rng() % 50;
    size_t NumDefs = Rng() % 3;
    for (size_t K = 0; K < NumDefs; ++K) {
      Node.Defines.push_back(P.ValueSizes.size());
      Defined.push_back(P.ValueSizes.size());
      P.ValueSizes.push_back(Rng() % 4 == 0 ? 0 : 1 + Rng() % 100);
    }
    P.Nodes.push_back(Node);
  }
  return P;
}

/// The least peak over every topological order.
uint64_t bruteForce(const ScheduleProblem &P) {
  size_t N = P.Nodes.size();
  std::vector<std::vector<size_t>> Preds(N);
  std::vector<size_t> Def(P.ValueSizes.size(), SIZE_MAX);
  for (size_t I = 0; I < N; ++I)
    for (size_t V : P.Nodes[I].Defines)
      Def[V] = I;
  for (size_t I = 0; I < N; ++I) {
    for (size_t V : P.Nodes[I].Uses)
      if (Def[V] != SIZE_MAX)
        Preds[I].push_back(Def[V]);
    for (size_t A : P.Nodes[I].After)
      Preds[I].push_back(A);
  }
  uint64_t Best = UINT64_MAX;
  std::vector<size_t> Order;
  std::vector<bool> Done(N, false);
  std::function<void()> Rec = [&] {
    if (Order.size() == N) {
      Best = std::min(Best, schedulePeak(P, Order));
      return;
    }
    for (size_t I = 0; I < N; ++I) {
      if (Done[I] || !std::all_of(Preds[I].begin(), Preds[I].end(),
                                  [&](size_t Pr) { return Done[Pr]; }))
        continue;
      Done[I] = true;
      Order.push_back(I);
      Rec();
      Order.pop_back();
      Done[I] = false;
    }
  };
  Rec();
  return Best;
}

TEST(ScheduleTest, ExactSearchEqualsBruteForce) {
  std::mt19937 Rng(13);
  for (int Trial = 0; Trial < 300; ++Trial) {
    ScheduleProblem P = randomProblem(Rng, 2 + Trial % 7);
    uint64_t Least = bruteForce(P);
    ScheduleOptions Exact;
    Exact.Split = false;
    auto R = scheduleForMemory(P, Exact);
    ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
    ASSERT_TRUE(isTopologicalOrder(P, R->Order));
    EXPECT_EQ(R->ExactWindows, 1u);
    EXPECT_EQ(R->PeakAfter, Least) << "trial " << Trial;
    EXPECT_EQ(schedulePeak(P, R->Order), Least) << "trial " << Trial;
    // Windows only restrict the search: between the least and the given.
    auto W = scheduleForMemory(P);
    ASSERT_TRUE(bool(W));
    EXPECT_GE(W->PeakAfter, Least);
    EXPECT_LE(W->PeakAfter, schedulePeak(P, identity(P.Nodes.size())));
  }
}

TEST(ScheduleTest, NeverAboveTheGivenOrderAndDeterministic) {
  std::mt19937 Rng(7);
  for (int Trial = 0; Trial < 40; ++Trial) {
    ScheduleProblem P = randomProblem(Rng, 50 + Trial * 10);
    uint64_t Given = schedulePeak(P, identity(P.Nodes.size()));
    for (size_t Budget : {size_t(0), size_t(100), size_t(20000)}) {
      ScheduleOptions O;
      O.StateBudget = Budget; // 0: every window greedy
      auto A = scheduleForMemory(P, O);
      auto B = scheduleForMemory(P, O);
      ASSERT_TRUE(bool(A) && bool(B));
      ASSERT_TRUE(isTopologicalOrder(P, A->Order));
      EXPECT_EQ(A->PeakBefore, Given);
      EXPECT_LE(A->PeakAfter, Given);
      EXPECT_EQ(schedulePeak(P, A->Order), A->PeakAfter);
      EXPECT_EQ(A->Order, B->Order);
    }
  }
}

TEST(ScheduleTest, WindowsOfOneValueCutAChainOfDiamonds) {
  // Ten diamonds in a row, given in the bad order, each x using the previous
  // output (which dies there): each diamond is its own window (only its
  // output crosses), and each reaches its least, 65.
  ScheduleProblem P;
  size_t Prev = SIZE_MAX;
  for (int D = 0; D < 10; ++D) {
    ScheduleProblem One = diamond();
    size_t VBase = P.ValueSizes.size(), NBase = P.Nodes.size();
    for (uint64_t S : One.ValueSizes)
      P.ValueSizes.push_back(S);
    for (ScheduleNode N : One.Nodes) {
      for (size_t &V : N.Defines)
        V += VBase;
      for (size_t &V : N.Uses)
        V += VBase;
      P.Nodes.push_back(N);
    }
    if (Prev != SIZE_MAX)
      P.Nodes[NBase].Uses.push_back(Prev);
    Prev = VBase + 5;
  }
  auto R = scheduleForMemory(P);
  ASSERT_TRUE(bool(R));
  EXPECT_EQ(R->PeakBefore, 110u);
  EXPECT_EQ(R->PeakAfter, 65u);
  EXPECT_EQ(R->GreedyWindows, 0u);
}

} // namespace
