//===- MinCostFlow.cpp - TFLite GPU min-cost flow -------------------------===//

#include "memplan/Core/Strategies/MinCostFlow.h"
#include "Internal.h"

#include <limits>
#include <queue>

using namespace memplan;

namespace {
/// Vertices: left twins 0..n-1 (a tensor hands its object on), right twins
/// n..2n-1 (a tensor receives an object), source 2n, sink 2n+1. Tensor
/// numbers here are positions in start order.
class FlowGraph {
public:
  explicit FlowGraph(size_t N) : N(N), Out(2 * N + 2) {}
  size_t source() const { return 2 * N; }
  size_t sink() const { return 2 * N + 1; }
  size_t right(size_t I) const { return N + I; }

  /// Adds an edge of capacity 1 and its residual twin (index ^ 1); returns
  /// the edge's index.
  size_t addEdge(size_t From, size_t To, int64_t Cost) {
    size_t Index = Edges.size();
    Out[From].push_back(Edges.size());
    Edges.push_back({To, 1, Cost});
    Out[To].push_back(Edges.size());
    Edges.push_back({From, 0, -Cost});
    return Index;
  }

  /// Successive shortest paths with a queue-based Bellman-Ford (SPFA), as
  /// TFLite does; costs may be negative on residual edges.
  void solve() {
    const int64_t Inf = std::numeric_limits<int64_t>::max();
    std::vector<size_t> PrevEdge(Out.size());
    std::vector<int64_t> Dist(Out.size());
    std::vector<char> InQueue(Out.size());
    while (true) {
      std::fill(Dist.begin(), Dist.end(), Inf);
      std::fill(InQueue.begin(), InQueue.end(), 0);
      std::queue<size_t> Queue;
      Dist[source()] = 0;
      Queue.push(source());
      while (!Queue.empty()) {
        size_t V = Queue.front();
        Queue.pop();
        InQueue[V] = 0;
        for (size_t E : Out[V]) {
          const Edge &Ed = Edges[E];
          if (Ed.Cap <= 0 || Dist[V] + Ed.Cost >= Dist[Ed.To])
            continue;
          Dist[Ed.To] = Dist[V] + Ed.Cost;
          PrevEdge[Ed.To] = E;
          if (!InQueue[Ed.To]) {
            InQueue[Ed.To] = 1;
            Queue.push(Ed.To);
          }
        }
      }
      if (Dist[sink()] == Inf)
        return;
      for (size_t V = sink(); V != source();) {
        --Edges[PrevEdge[V]].Cap;
        Edge &Rev = Edges[PrevEdge[V] ^ 1];
        ++Rev.Cap;
        V = Rev.To;
      }
    }
  }

  /// Right twin that left twin I hands its object to, if any.
  size_t successor(size_t I) const {
    for (size_t E : Out[I])
      if (E % 2 == 0 && Edges[E].Cap == 0 && Edges[E].To >= N &&
          Edges[E].To < 2 * N)
        return Edges[E].To - N;
    return kNotAssigned;
  }
  bool saturated(size_t E) const { return Edges[E].Cap == 0; }

private:
  struct Edge {
    size_t To;
    int64_t Cap;
    int64_t Cost;
  };
  size_t N;
  std::vector<Edge> Edges;
  std::vector<std::vector<size_t>> Out;
};
} // namespace

ObjectsAssignment memplan::minCostFlow(llvm::ArrayRef<UsageRecord> Records) {
  std::vector<size_t> Order = internal::orderByStart(Records);
  size_t N = Records.size();
  auto Rec = [&](size_t P) -> const UsageRecord & { return Records[Order[P]]; };
  auto Cost = [](uint64_t Size) {
    return (int64_t)std::min<uint64_t>(Size, INT64_MAX / 4);
  };

  FlowGraph G(N);
  // NewObject[P]: the edge taken when tensor P opens an object.
  std::vector<size_t> NewObject(N);
  // Tensors already ended when tensor P starts, and those still running
  // ordered by end (TFLite's objects_in_use queue).
  std::vector<size_t> Ended;
  using Running = std::pair<uint64_t, size_t>;
  std::priority_queue<Running, std::vector<Running>, std::greater<Running>>
      Live;
  for (size_t P = 0; P < N; ++P) {
    while (!Live.empty() && Live.top().first < Rec(P).FirstTask) {
      Ended.push_back(Live.top().second);
      Live.pop();
    }
    Live.push({Rec(P).LastTask, P});
    G.addEdge(G.source(), P, 0);
    G.addEdge(G.right(P), G.sink(), 0);
    // Opening an object costs the tensor's size; reusing the object of J
    // costs how much that object must grow.
    NewObject[P] = G.addEdge(G.source(), G.right(P), Cost(Rec(P).Size));
    for (size_t J : Ended) {
      uint64_t Grow = Rec(P).Size > Rec(J).Size ? Rec(P).Size - Rec(J).Size : 0;
      G.addEdge(J, G.right(P), Cost(Grow));
    }
  }
  G.solve();

  // Every tensor that opened an object starts a chain of tensors handing it
  // on (each hands it to at most one, so the chain is a path).
  ObjectsAssignment A;
  A.ObjectIds.assign(N, kNotAssigned);
  for (size_t P = 0; P < N; ++P) {
    if (!G.saturated(NewObject[P]))
      continue;
    size_t Obj = A.ObjectSizes.size();
    A.ObjectSizes.push_back(0);
    for (size_t Q = P;
         Q != kNotAssigned && A.ObjectIds[Order[Q]] == kNotAssigned;
         Q = G.successor(Q)) {
      A.ObjectIds[Order[Q]] = Obj;
      A.ObjectSizes[Obj] = std::max(A.ObjectSizes[Obj], Rec(Q).Size);
    }
  }
  return A;
}
