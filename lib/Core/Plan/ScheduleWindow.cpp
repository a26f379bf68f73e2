//===- ScheduleWindow.cpp - The scheduler's model of an order -------------===//
//
// A window of the given order as a problem of its own: its values (live-in,
// defined inside, live-out), the bytes each step needs, the live bytes of an
// order of it, and the cuts that make windows small enough to search.
//
//===----------------------------------------------------------------------===//

#include "ScheduleWindow.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace memplan;
using namespace memplan::schedule;

Graph schedule::buildGraph(const ScheduleProblem &P) {
  Graph G;
  G.Def.assign(P.ValueSizes.size(), kNone);
  G.Users.resize(P.ValueSizes.size());
  G.Preds.resize(P.Nodes.size());
  for (auto [N, Node] : llvm::enumerate(P.Nodes))
    for (size_t V : Node.Defines)
      G.Def[V] = N;
  for (auto [N, Node] : llvm::enumerate(P.Nodes)) {
    for (size_t V : Node.Uses) {
      if (G.Def[V] == kNone || G.Def[V] == N)
        continue;
      G.Users[V].push_back(N);
      G.Preds[N].push_back(G.Def[V]);
    }
    llvm::append_range(G.Preds[N], Node.After);
  }
  for (auto &U : G.Users) {
    llvm::sort(U);
    U.erase(std::unique(U.begin(), U.end()), U.end());
  }
  for (auto &Pr : G.Preds) {
    llvm::sort(Pr);
    Pr.erase(std::unique(Pr.begin(), Pr.end()), Pr.end());
  }
  return G;
}

Window schedule::buildWindow(const ScheduleProblem &P, const Graph &G,
                             size_t Begin, size_t End) {
  Window W;
  W.Begin = Begin;
  W.End = End;
  size_t M = End - Begin;
  W.Step.assign(M, 0);
  W.Defs.resize(M);
  W.Uses.resize(M);
  W.Preds.resize(M);
  for (size_t V = 0; V < P.ValueSizes.size(); ++V) {
    size_t D = G.Def[V];
    if (D == kNone || D >= End || P.ValueSizes[V] == 0)
      continue;
    const auto &Us = G.Users[V];
    bool LiveOut = !Us.empty() && Us.back() >= End;
    Window::Value LV{P.ValueSizes[V], kNone, {}, LiveOut};
    for (size_t U : Us)
      if (U >= Begin && U < End)
        LV.Users.push_back(U - Begin);
    if (D < Begin) {
      // Defined before: live throughout, live until a local last use, or dead.
      if (LV.Users.empty()) {
        if (LiveOut)
          W.Base += LV.Size;
        continue;
      }
    } else {
      LV.Def = D - Begin;
      W.Step[LV.Def] += LV.Size;
      W.Defs[LV.Def].push_back(W.Values.size());
    }
    for (size_t U : LV.Users)
      W.Uses[U].push_back(W.Values.size());
    W.Values.push_back(std::move(LV));
  }
  for (size_t I = 0; I < M; ++I) {
    W.Step[I] += P.Nodes[Begin + I].TempBytes;
    for (size_t Pr : G.Preds[Begin + I])
      if (Pr >= Begin)
        W.Preds[I].push_back(Pr - Begin);
  }
  return W;
}

uint64_t schedule::initialLive(const Window &W) {
  uint64_t L = W.Base;
  for (const auto &V : W.Values)
    if (V.Def == kNone)
      L += V.Size;
  return L;
}

uint64_t schedule::windowPeak(const Window &W,
                              const std::vector<size_t> &Local) {
  Simulator Sim(W);
  uint64_t Peak = Sim.Live;
  for (size_t I : Local) {
    Peak = std::max(Peak, Sim.stepBytes(I));
    Sim.run(I);
  }
  return Peak;
}

std::vector<size_t> schedule::windowEnds(const ScheduleProblem &P,
                                         const Graph &G,
                                         const ScheduleOptions &Options) {
  size_t N = P.Nodes.size();
  size_t Max = std::clamp<size_t>(Options.MaxWindow, 1, 64);
  if (!Options.Split) {
    if (N > 64)
      return {};
    return {N};
  }
  // Crossing[G]: values defined before G and used at or after G.
  std::vector<int64_t> Delta(N + 1, 0);
  for (size_t V = 0; V < P.ValueSizes.size(); ++V) {
    if (G.Def[V] == kNone || G.Users[V].empty() || P.ValueSizes[V] == 0)
      continue;
    ++Delta[G.Def[V] + 1];
    --Delta[G.Users[V].back() + 1];
  }
  std::vector<size_t> Crossing(N + 1, 0);
  int64_t Run = 0;
  for (size_t Gap = 0; Gap <= N; ++Gap) {
    Run += Delta[Gap];
    Crossing[Gap] = size_t(Run);
  }
  std::vector<size_t> Ends;
  size_t Start = 0;
  while (Start < N) {
    size_t End = Start + 1;
    while (End < N && End - Start < Max && Crossing[End] > 1)
      ++End;
    if (End < N && Crossing[End] > 1) {
      // Too long a run: cut at its best gap in the second half.
      size_t Best = End;
      for (size_t Gap = End; Gap > Start + Max / 2; --Gap)
        if (Crossing[Gap] < Crossing[Best])
          Best = Gap;
      End = Best;
    }
    Ends.push_back(End);
    Start = End;
  }
  return Ends;
}
