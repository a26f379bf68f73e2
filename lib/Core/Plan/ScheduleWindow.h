//===- ScheduleWindow.h - The scheduler's model of an order -----*- C++ -*-===//
//
// Private to the memory-aware scheduler (Schedule.cpp): the problem as a
// graph, the window of the given order that is reordered alone, the live
// bytes of an order of a window, and where the windows are cut
// (ScheduleWindow.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_PLAN_SCHEDULEWINDOW_H
#define MEMPLAN_CORE_PLAN_SCHEDULEWINDOW_H

#include "memplan/Core/Schedule.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace memplan::schedule {

constexpr size_t kNone = std::numeric_limits<size_t>::max();

/// Definer, users and predecessors of the whole problem.
struct Graph {
  std::vector<size_t> Def;                // per value, kNone if none
  std::vector<std::vector<size_t>> Users; // per value, sorted, unique
  std::vector<std::vector<size_t>> Preds; // per node, sorted, unique
};

/// The graph of P (checked by verifyScheduleProblem first).
Graph buildGraph(const ScheduleProblem &P);

/// One window [Begin, End) of the given order, in local indices 0..M-1, with
/// the values that matter inside it. Step memory of a local node I run after
/// the set S: Base + live values of S + Step[I]; a value is live after S when
/// it is live-in or defined in S, and live-out or has a user outside S.
struct Window {
  struct Value {
    uint64_t Size;
    size_t Def;                // local definer, kNone when live-in
    std::vector<size_t> Users; // local users
    bool LiveOut;
  };
  size_t Begin, End;
  uint64_t Base = 0;          // values live throughout, unused inside
  std::vector<Value> Values;  // live-in ones and those defined inside
  std::vector<uint64_t> Step; // defined bytes + temp bytes, per node
  std::vector<std::vector<size_t>> Defs, Uses, Preds; // local, per node

  size_t size() const { return End - Begin; }
};

/// The window [Begin, End) of P's given order.
Window buildWindow(const ScheduleProblem &P, const Graph &G, size_t Begin,
                   size_t End);

/// Live bytes before the first node of W.
uint64_t initialLive(const Window &W);

/// Simulates W in a local order with user counters; returns its peak.
struct Simulator {
  const Window &W;
  std::vector<size_t> Remaining; // local users not yet run, per value
  uint64_t Live;

  explicit Simulator(const Window &W) : W(W), Live(initialLive(W)) {
    for (const auto &V : W.Values)
      Remaining.push_back(V.Users.size());
  }
  uint64_t stepBytes(size_t I) const { return Live + W.Step[I]; }
  /// Live bytes after I runs, without running it.
  uint64_t liveAfter(size_t I) const {
    uint64_t L = Live;
    for (size_t V : W.Defs[I])
      if (W.Values[V].LiveOut || Remaining[V] > 0)
        L += W.Values[V].Size;
    for (size_t V : W.Uses[I])
      if (Remaining[V] == 1 && !W.Values[V].LiveOut)
        L -= W.Values[V].Size;
    return L;
  }
  void run(size_t I) {
    Live = liveAfter(I);
    for (size_t V : W.Uses[I])
      --Remaining[V];
  }
};

/// The peak of W run in the local order Local.
uint64_t windowPeak(const Window &W, const std::vector<size_t> &Local);

/// Window ends in the given order: cut after position G-1 where at most one
/// value of nonzero size crosses, and wherever a run grows past MaxWindow
/// (at the gap of fewest crossing values in its second half).
std::vector<size_t> windowEnds(const ScheduleProblem &P, const Graph &G,
                               const ScheduleOptions &Options);

} // namespace memplan::schedule

#endif // MEMPLAN_CORE_PLAN_SCHEDULEWINDOW_H
