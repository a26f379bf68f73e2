//===- Schedule.cpp - Memory-aware topological order ----------------------===//
//
// The given order is cut into windows (contiguous runs of it); each window is
// reordered alone, with the values that cross its ends counted as live-in or
// live-out, so the peak of the whole order is the maximum of the windows'
// peaks and each window keeps the best of its given order, two greedy orders
// and, when the state budget allows, the exact dynamic programming.
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/Schedule.h"
#include "ScheduleWindow.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Debug.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <tuple>
#include <unordered_map>

#define DEBUG_TYPE "memplan-schedule"

using namespace memplan;
using namespace memplan::schedule;

namespace {

/// Repeatedly runs the ready node of the smallest key; ties by given order.
/// ByStep: the key is (step bytes, live after), else the reverse.
std::vector<size_t> greedyOrder(const Window &W, bool ByStep) {
  size_t M = W.size();
  Simulator Sim(W);
  std::vector<size_t> Missing(M), Order;
  std::vector<std::vector<size_t>> Succs(M);
  for (size_t I = 0; I < M; ++I) {
    Missing[I] = W.Preds[I].size();
    for (size_t Pr : W.Preds[I])
      Succs[Pr].push_back(I);
  }
  std::vector<bool> Done(M, false);
  for (size_t K = 0; K < M; ++K) {
    size_t Best = kNone;
    std::tuple<uint64_t, uint64_t> BestKey;
    for (size_t I = 0; I < M; ++I) {
      if (Done[I] || Missing[I])
        continue;
      uint64_t A = Sim.stepBytes(I), B = Sim.liveAfter(I);
      auto Key = ByStep ? std::make_tuple(A, B) : std::make_tuple(B, A);
      if (Best == kNone || Key < BestKey) {
        Best = I;
        BestKey = Key;
      }
    }
    assert(Best != kNone && "the window's edges are acyclic");
    Done[Best] = true;
    Sim.run(Best);
    Order.push_back(Best);
    for (size_t S : Succs[Best])
      --Missing[S];
  }
  return Order;
}

/// Serenity's dynamic programming: the scheduled sets of size K, each with
/// the lowest peak over the orders reaching it (the future depends on the set
/// alone). States at or above Bound are dropped: an order that good is known.
/// Returns the best order below Bound; empty when there is none, and nothing
/// when the budget runs out.
std::optional<std::vector<size_t>> exactOrder(const Window &W, uint64_t Bound,
                                              size_t Budget) {
  size_t M = W.size();
  assert(M <= 64 && "a window's set is one word");
  struct State {
    uint64_t Set, Live, Peak;
    uint32_t Parent;
    uint8_t Node;
  };
  std::vector<uint64_t> PredMask(M, 0);
  for (size_t I = 0; I < M; ++I)
    for (size_t Pr : W.Preds[I])
      PredMask[I] |= uint64_t(1) << Pr;
  std::vector<uint64_t> UserMask(W.Values.size(), 0);
  for (auto [V, Val] : llvm::enumerate(W.Values))
    for (size_t U : Val.Users)
      UserMask[V] |= uint64_t(1) << U;

  std::vector<State> States;
  uint64_t Live0 = initialLive(W);
  if (Live0 >= Bound)
    return std::vector<size_t>();
  States.push_back({0, Live0, Live0, 0, 0});
  size_t LevelBegin = 0, LevelEnd = 1;
  std::unordered_map<uint64_t, uint32_t> Next;
  for (size_t K = 0; K < M; ++K) {
    Next.clear();
    for (size_t SI = LevelBegin; SI < LevelEnd; ++SI) {
      State Cur = States[SI];
      for (size_t I = 0; I < M; ++I) {
        uint64_t Bit = uint64_t(1) << I;
        if ((Cur.Set & Bit) || (PredMask[I] & ~Cur.Set))
          continue;
        uint64_t Peak = std::max(Cur.Peak, Cur.Live + W.Step[I]);
        if (Peak >= Bound)
          continue;
        uint64_t Set = Cur.Set | Bit, Live = Cur.Live;
        for (size_t V : W.Defs[I])
          if (W.Values[V].LiveOut || (UserMask[V] & ~Set))
            Live += W.Values[V].Size;
        for (size_t V : W.Uses[I])
          if (!W.Values[V].LiveOut && !(UserMask[V] & ~Set))
            Live -= W.Values[V].Size;
        auto [It, New] = Next.try_emplace(Set, uint32_t(States.size()));
        if (New) {
          if (States.size() >= Budget)
            return std::nullopt;
          States.push_back({Set, Live, Peak, uint32_t(SI), uint8_t(I)});
        } else if (Peak < States[It->second].Peak) {
          States[It->second].Peak = Peak;
          States[It->second].Parent = uint32_t(SI);
          States[It->second].Node = uint8_t(I);
        }
      }
    }
    LevelBegin = LevelEnd;
    LevelEnd = States.size();
    if (LevelBegin == LevelEnd)
      return std::vector<size_t>();
  }
  assert(LevelEnd - LevelBegin == 1 && "one full set");
  std::vector<size_t> Order(M);
  size_t SI = LevelBegin;
  for (size_t K = M; K-- > 0;) {
    Order[K] = States[SI].Node;
    SI = States[SI].Parent;
  }
  return Order;
}

} // namespace

llvm::Error memplan::verifyScheduleProblem(const ScheduleProblem &P) {
  size_t NV = P.ValueSizes.size(), N = P.Nodes.size();
  std::vector<bool> Defined(NV, false);
  for (auto [I, Node] : llvm::enumerate(P.Nodes)) {
    for (size_t V : Node.Defines) {
      if (V >= NV)
        return llvm::createStringError("node %zu defines value %zu of %zu", I,
                                       V, NV);
      if (Defined[V])
        return llvm::createStringError("value %zu is defined twice", V);
      Defined[V] = true;
    }
    for (size_t V : Node.Uses)
      if (V >= NV)
        return llvm::createStringError("node %zu uses value %zu of %zu", I, V,
                                       NV);
    for (size_t A : Node.After)
      if (A >= N || A == I)
        return llvm::createStringError("node %zu comes after node %zu of %zu",
                                       I, A, N);
  }
  // The given order must itself respect the edges (so they are acyclic).
  Graph G = buildGraph(P);
  for (size_t I = 0; I < N; ++I)
    for (size_t Pr : G.Preds[I])
      if (Pr > I)
        return llvm::createStringError(
            "node %zu must come after node %zu, which the given order puts "
            "later",
            I, Pr);
  return llvm::Error::success();
}

bool memplan::isTopologicalOrder(const ScheduleProblem &P,
                                 const std::vector<size_t> &Order) {
  size_t N = P.Nodes.size();
  if (Order.size() != N)
    return false;
  std::vector<size_t> Pos(N, kNone);
  for (auto [K, I] : llvm::enumerate(Order)) {
    if (I >= N || Pos[I] != kNone)
      return false;
    Pos[I] = K;
  }
  Graph G = buildGraph(P);
  for (size_t I = 0; I < N; ++I)
    for (size_t Pr : G.Preds[I])
      if (Pos[Pr] > Pos[I])
        return false;
  return true;
}

uint64_t memplan::schedulePeak(const ScheduleProblem &P,
                               const std::vector<size_t> &Order) {
  assert(isTopologicalOrder(P, Order) && "a topological order");
  // The whole order is one window over a renumbered problem.
  ScheduleProblem Q;
  Q.ValueSizes = P.ValueSizes;
  std::vector<size_t> Pos(P.Nodes.size());
  for (auto [K, I] : llvm::enumerate(Order))
    Pos[I] = K;
  for (size_t I : Order) {
    ScheduleNode Node = P.Nodes[I];
    for (size_t &A : Node.After)
      A = Pos[A];
    Q.Nodes.push_back(std::move(Node));
  }
  Graph G = buildGraph(Q);
  Window W = buildWindow(Q, G, 0, Q.Nodes.size());
  std::vector<size_t> Local(Q.Nodes.size());
  for (size_t K = 0; K < Local.size(); ++K)
    Local[K] = K;
  return windowPeak(W, Local);
}

llvm::Expected<ScheduleResult>
memplan::scheduleForMemory(const ScheduleProblem &P,
                           const ScheduleOptions &Options) {
  if (llvm::Error E = verifyScheduleProblem(P))
    return std::move(E);
  Graph G = buildGraph(P);
  ScheduleResult R;
  if (P.Nodes.empty())
    return R;
  std::vector<size_t> Ends = windowEnds(P, G, Options);
  if (Ends.empty())
    return llvm::createStringError(
        "one window of %zu nodes: at most 64 without splitting",
        P.Nodes.size());
  size_t Begin = 0;
  for (size_t End : Ends) {
    Window W = buildWindow(P, G, Begin, End);
    std::vector<size_t> Best(W.size());
    for (size_t K = 0; K < Best.size(); ++K)
      Best[K] = K;
    uint64_t Given = windowPeak(W, Best), BestPeak = Given;
    for (bool ByStep : {false, true}) {
      std::vector<size_t> O = greedyOrder(W, ByStep);
      uint64_t Peak = windowPeak(W, O);
      if (Peak < BestPeak) {
        BestPeak = Peak;
        Best = std::move(O);
      }
    }
    std::optional<std::vector<size_t>> Exact =
        W.size() > 1 ? exactOrder(W, BestPeak, Options.StateBudget)
                     : std::vector<size_t>();
    if (Exact) {
      ++R.ExactWindows;
      if (!Exact->empty()) {
        assert(windowPeak(W, *Exact) < BestPeak && "the search's own peak");
        BestPeak = windowPeak(W, *Exact);
        Best = std::move(*Exact);
      }
    } else {
      ++R.GreedyWindows;
    }
    LLVM_DEBUG(llvm::dbgs()
               << "window [" << Begin << ", " << End << "): " << Given << " -> "
               << BestPeak << (Exact ? " exact\n" : " greedy\n"));
    R.PeakBefore = std::max(R.PeakBefore, Given);
    R.PeakAfter = std::max(R.PeakAfter, BestPeak);
    for (size_t I : Best)
      R.Order.push_back(Begin + I);
    Begin = End;
  }
  assert(R.PeakAfter <= R.PeakBefore && "never above the given order");
  assert(isTopologicalOrder(P, R.Order) && "within the dependencies");
  return R;
}
