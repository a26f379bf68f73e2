#include "memplan/Core/Strategies/MinCostFlow.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Core/Validator.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

using namespace memplan;

namespace {

bool handsOver(const UsageRecord &From, const UsageRecord &To) {
  return From.LastTask < To.FirstTask;
}

/// TFLite's flow cost of an assignment: each object's first tensor's size,
/// plus each hand-over's growth, tensors of an object in start order.
uint64_t flowCost(const std::vector<UsageRecord> &R,
                  const ObjectsAssignment &A) {
  std::map<size_t, std::vector<size_t>> Members;
  for (size_t I = 0; I < R.size(); ++I)
    Members[A.ObjectIds[I]].push_back(I);
  uint64_t Cost = 0;
  for (auto &[Obj, M] : Members) {
    std::sort(M.begin(), M.end(), [&](size_t X, size_t Y) {
      return R[X].FirstTask < R[Y].FirstTask;
    });
    Cost += R[M[0]].Size;
    for (size_t K = 1; K < M.size(); ++K) {
      EXPECT_TRUE(handsOver(R[M[K - 1]], R[M[K]]));
      Cost +=
          R[M[K]].Size > R[M[K - 1]].Size ? R[M[K]].Size - R[M[K - 1]].Size : 0;
    }
  }
  return Cost;
}

/// The least flow cost by brute force: each tensor, in start order, opens
/// an object or takes one from a tensor ended before it that has handed
/// none on yet.
uint64_t bruteForceCost(const std::vector<UsageRecord> &R) {
  std::vector<size_t> Order(R.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(), [&](size_t X, size_t Y) {
    return R[X].FirstTask < R[Y].FirstTask;
  });
  std::vector<char> HandedOn(R.size());
  uint64_t Best = UINT64_MAX;
  auto Go = [&](auto &Self, size_t K, uint64_t Cost) -> void {
    if (Cost >= Best)
      return;
    if (K == Order.size()) {
      Best = Cost;
      return;
    }
    const UsageRecord &P = R[Order[K]];
    Self(Self, K + 1, Cost + P.Size);
    for (size_t J = 0; J < R.size(); ++J) {
      if (HandedOn[J] || !handsOver(R[J], P))
        continue;
      HandedOn[J] = 1;
      Self(Self, K + 1, Cost + (P.Size > R[J].Size ? P.Size - R[J].Size : 0));
      HandedOn[J] = 0;
    }
  };
  Go(Go, 0, 0);
  return Best;
}

/// The same least cost as an assignment (Kuhn-Munkres, O(n^3)): tensor P
/// takes column J < n (J's object, if J ended before P starts) or a column of
/// its own among n more (a new object).
uint64_t assignmentCost(const std::vector<UsageRecord> &R) {
  const int64_t Inf = int64_t(1) << 50;
  size_t N = R.size(), M = 2 * N;
  auto Cost = [&](size_t P, size_t C) -> int64_t {
    if (C >= N)
      return R[P].Size;
    if (!handsOver(R[C], R[P]))
      return Inf;
    return R[P].Size > R[C].Size ? R[P].Size - R[C].Size : 0;
  };
  // Rows and columns from 1; column 0 is the start of each search.
  std::vector<int64_t> U(N + 1), V(M + 1);
  std::vector<size_t> Match(M + 1), Way(M + 1);
  for (size_t Row = 1; Row <= N; ++Row) {
    Match[0] = Row;
    size_t Col0 = 0;
    std::vector<int64_t> MinV(M + 1, INT64_MAX);
    std::vector<char> Used(M + 1);
    do {
      Used[Col0] = 1;
      size_t Row0 = Match[Col0], Col1 = 0;
      int64_t Delta = INT64_MAX;
      for (size_t C = 1; C <= M; ++C) {
        if (Used[C])
          continue;
        int64_t Cur = Cost(Row0 - 1, C - 1) - U[Row0] - V[C];
        if (Cur < MinV[C]) {
          MinV[C] = Cur;
          Way[C] = Col0;
        }
        if (MinV[C] < Delta) {
          Delta = MinV[C];
          Col1 = C;
        }
      }
      for (size_t C = 0; C <= M; ++C) {
        if (Used[C]) {
          U[Match[C]] += Delta;
          V[C] -= Delta;
        } else {
          MinV[C] -= Delta;
        }
      }
      Col0 = Col1;
    } while (Match[Col0] != 0);
    do {
      size_t Col1 = Way[Col0];
      Match[Col0] = Match[Col1];
      Col0 = Col1;
    } while (Col0);
  }
  uint64_t Total = 0;
  for (size_t C = 1; C <= M; ++C)
    if (Match[C])
      Total += Cost(Match[C] - 1, C - 1);
  return Total;
}

/// N tensors starting before task Tasks, of 1 to MaxSize bytes, each live
/// for 1 to Span tasks.
std::vector<UsageRecord> randomSet(std::mt19937_64 &Rng, size_t N,
                                   uint64_t Tasks, uint64_t MaxSize,
                                   uint64_t Span) {
  std::vector<UsageRecord> R;
  for (size_t I = 0; I < N; ++I) {
    uint64_t First = Rng() % Tasks;
    R.emplace_back(1 + Rng() % MaxSize, First, First + Rng() % Span);
  }
  return R;
}

// Small sets against brute force (which checks Kuhn-Munkres too), then sets
// of tens of tensors against Kuhn-Munkres, where the search must undo
// earlier hand-overs (paths through residual edges): a search without
// potentials, or one that lets a reduced cost go negative, passes the small
// sets and misses the least cost of larger ones.
TEST(MinCostFlowTest, FindsTheLeastCost) {
  std::mt19937_64 Rng(41);
  for (int Round = 0; Round < 460; ++Round) {
    bool Small = Round < 400;
    std::vector<UsageRecord> R =
        Small ? randomSet(Rng, 1 + Rng() % 7, 10, 40, 4)
              : randomSet(Rng, 10 + Rng() % 50, 40, 1000, 8);
    ObjectsAssignment A = minCostFlow(R);
    ASSERT_FALSE(llvm::errorToBool(validateObjects(R, A)));
    uint64_t Least = assignmentCost(R);
    if (Small) {
      ASSERT_EQ(Least, bruteForceCost(R)) << "round " << Round;
    }
    ASSERT_EQ(flowCost(R, A), Least) << "round " << Round;
  }
}

TEST(MinCostFlowTest, CountsHandOversWithoutTheGraph) {
  std::mt19937_64 Rng(43);
  for (int Round = 0; Round < 50; ++Round) {
    std::vector<UsageRecord> R;
    size_t N = Rng() % 60;
    for (size_t I = 0; I < N; ++I) {
      uint64_t First = Rng() % 50;
      R.emplace_back(8, First, First + Rng() % 10);
    }
    uint64_t Pairs = 0;
    for (const UsageRecord &J : R)
      for (const UsageRecord &P : R)
        Pairs += handsOver(J, P);
    EXPECT_EQ(minCostFlowHandOvers(R), Pairs);
  }
}

TEST(MinCostFlowTest, RefusesSetsAboveItsLimitWithoutBuildingThem) {
  // A chain of N disjoint tensors: each hands over to every later one.
  auto Chain = [](size_t N) {
    std::vector<UsageRecord> R;
    for (size_t I = 0; I < N; ++I)
      R.emplace_back(16, I, I);
    return R;
  };
  size_t N = 2;
  while (N * (N - 1) / 2 <= kMinCostFlowMaxHandOvers)
    ++N;
  std::vector<UsageRecord> Over = Chain(N);
  ASSERT_GT(minCostFlowHandOvers(Over), kMinCostFlowMaxHandOvers);
  auto P = planMemory("min-cost-flow", Over, {});
  ASSERT_FALSE(bool(P));
  std::string Msg = llvm::toString(P.takeError());
  EXPECT_NE(Msg.find("min-cost-flow: " + std::to_string(N) + " tensors make " +
                     std::to_string(N * (N - 1) / 2) + " possible hand-overs"),
            std::string::npos)
      << Msg;
  EXPECT_NE(Msg.find("use greedy-by-size"), std::string::npos);
  // Below the limit it plans: one object for the whole chain.
  auto Small = planMemory("min-cost-flow", Chain(100), {});
  ASSERT_TRUE(bool(Small)) << llvm::toString(Small.takeError());
  EXPECT_EQ(Small->Offsets.TotalSize, 16u);
}

} // namespace
