//===- Footprint.cpp - What a program holds, whole ------------------------===//
//
// An arena is not what a user pays: a function also holds, while it runs,
// the arenas of what it calls, and for good the globals memplan made
// (hoisted tensors); its first call also runs the init functions. The
// footprint adds these up per function over the call graph, so that every
// transformation is judged by it rather than by one arena.
//
// Recursion has no depth here: the functions of a recursive cycle (a
// strongly connected component of the call graph) are counted once each,
// all live together, and every function that reaches the cycle says so.
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace memplan;
using llvm::SaturatingAdd;

namespace {

constexpr size_t kNone = SIZE_MAX;

/// Arena bytes a function's arenas take; a shared arena is held whole (the
/// largest of its functions').
uint64_t arenaBytes(const FunctionReport &F) {
  uint64_t Own = 0;
  for (const ArenaResult &A : F.Arenas)
    Own = SaturatingAdd(
        Own, std::max(A.arenaSize(), A.Shared ? A.Shared->Bytes : 0));
  return Own;
}

struct CallGraph {
  std::vector<FunctionReport *> Fns;
  llvm::StringMap<size_t> Index;
  /// Per function, its calls to functions with a body here: (callee, call).
  std::vector<std::vector<std::pair<size_t, const CallSiteReport *>>> Out;
  /// Tarjan's components, callees' before their callers'.
  std::vector<size_t> SccOf;
  std::vector<std::vector<size_t>> Sccs;
  std::vector<bool> Recursive;

  explicit CallGraph(std::vector<FunctionReport> &Functions) {
    for (FunctionReport &F : Functions)
      if (!F.RecordFile) {
        Index[F.Function] = Fns.size();
        Fns.push_back(&F);
      }
    Out.resize(Fns.size());
    for (size_t I = 0; I < Fns.size(); ++I)
      for (const CallSiteReport &C : Fns[I]->Calls)
        if (auto It = Index.find(C.Callee); It != Index.end())
          Out[I].push_back({It->second, &C});
    components();
  }

private:
  std::vector<size_t> Order, Low, Stack;
  std::vector<bool> OnStack;
  size_t Next = 0;

  void components() {
    size_t N = Fns.size();
    Order.assign(N, kNone);
    Low.assign(N, 0);
    OnStack.assign(N, false);
    SccOf.assign(N, kNone);
    for (size_t I = 0; I < N; ++I)
      if (Order[I] == kNone)
        visit(I);
    Recursive.assign(Sccs.size(), false);
    for (size_t I = 0; I < N; ++I)
      for (auto [T, C] : Out[I])
        if (SccOf[T] == SccOf[I])
          Recursive[SccOf[I]] = true;
  }

  void visit(size_t V) {
    Order[V] = Low[V] = Next++;
    Stack.push_back(V);
    OnStack[V] = true;
    for (auto [W, C] : Out[V]) {
      if (Order[W] == kNone) {
        visit(W);
        Low[V] = std::min(Low[V], Low[W]);
      } else if (OnStack[W]) {
        Low[V] = std::min(Low[V], Order[W]);
      }
    }
    if (Low[V] != Order[V])
      return;
    Sccs.emplace_back();
    size_t W;
    do {
      W = Stack.back();
      Stack.pop_back();
      OnStack[W] = false;
      SccOf[W] = Sccs.size() - 1;
      Sccs.back().push_back(W);
    } while (W != V);
  }
};

/// A component's peaks as a callee: (steady, first call).
struct ComponentPeaks {
  /// Arenas its functions hold themselves (not given by a caller).
  uint64_t Own = 0;
  /// The most one call leaving the component holds, steady / first call.
  uint64_t Out = 0, OutFirst = 0;
  uint64_t Steady = 0, First = 0;
};

} // namespace

void memplan::computeFootprints(std::vector<FunctionReport> &Functions) {
  CallGraph G(Functions);
  size_t N = G.Fns.size();
  // Held by the function for its caller: an arena a caller in the module
  // passes in is counted by that caller, in its own arena.
  std::vector<uint64_t> CalleeOwn(N), RootOwn(N);
  for (size_t I = 0; I < N; ++I) {
    const FunctionReport &F = *G.Fns[I];
    uint64_t Bytes = arenaBytes(F);
    CalleeOwn[I] = F.ArenasFromCallers ? 0 : Bytes;
    // Called by the user, an entry's arena is the user's, counted here.
    RootOwn[I] = !F.ArenasFromCallers || F.Entry ? Bytes : 0;
  }

  std::vector<ComponentPeaks> Done(G.Sccs.size());
  // What M's init calls hold beside the arenas live then: WithAll, or
  // WithoutM for a call before M's arenas exist (never live together).
  auto InitFrom = [&](size_t M, uint64_t WithAll, uint64_t WithoutM) {
    uint64_t Init = 0;
    for (auto [T, C] : G.Out[M])
      if (C->Init && G.SccOf[T] != G.SccOf[M])
        Init =
            std::max(Init, SaturatingAdd(C->BeforeArenas ? WithoutM : WithAll,
                                         Done[G.SccOf[T]].Steady));
    return Init;
  };
  for (size_t S = 0; S < G.Sccs.size(); ++S) {
    ComponentPeaks &P = Done[S];
    for (size_t M : G.Sccs[S]) {
      P.Own = SaturatingAdd(P.Own, CalleeOwn[M]);
      for (auto [T, C] : G.Out[M]) {
        if (C->Init || G.SccOf[T] == S)
          continue;
        P.Out = std::max(P.Out, Done[G.SccOf[T]].Steady);
        P.OutFirst = std::max(P.OutFirst, Done[G.SccOf[T]].First);
      }
    }
    P.Steady = SaturatingAdd(P.Own, P.Out);
    uint64_t Init = 0;
    for (size_t M : G.Sccs[S])
      Init = std::max(Init, InitFrom(M, P.Own, P.Own - CalleeOwn[M]));
    P.First = std::max(SaturatingAdd(P.Own, P.OutFirst), Init);
  }

  for (size_t I = 0; I < N; ++I) {
    FunctionReport &F = *G.Fns[I];
    const ComponentPeaks &P = Done[G.SccOf[I]];
    F.Footprint = FootprintReport();
    // The other functions of its cycle, each once, and the most one call
    // out of it holds.
    uint64_t Others = P.Own - CalleeOwn[I];
    F.Footprint.Arenas = RootOwn[I];
    F.Footprint.Callees = SaturatingAdd(Others, P.Out);
    uint64_t Steady = SaturatingAdd(RootOwn[I], F.Footprint.Callees);
    uint64_t All = SaturatingAdd(RootOwn[I], Others);
    uint64_t First = SaturatingAdd(All, P.OutFirst);
    for (size_t M : G.Sccs[G.SccOf[I]])
      First = std::max(First,
                       InitFrom(M, All, M == I ? Others : All - CalleeOwn[M]));

    // What it reaches: the hoisted globals read, what is left out.
    std::vector<size_t> Reached{I};
    std::vector<bool> Seen(N, false);
    Seen[I] = true;
    for (size_t K = 0; K < Reached.size(); ++K)
      for (auto [T, C] : G.Out[Reached[K]])
        if (!Seen[T]) {
          Seen[T] = true;
          Reached.push_back(T);
        }
    std::vector<std::string> NoBody, Recursion;
    llvm::StringMap<uint64_t> Globals;
    uint64_t Dynamic = 0, Other = 0, OtherBytes = 0, OtherUnsized = 0;
    for (size_t R : Reached) {
      const FunctionReport &H = *G.Fns[R];
      for (const CallSiteReport &C : H.Calls) {
        auto It = G.Index.find(C.Callee);
        if (It == G.Index.end()) {
          std::string Note = "@" + C.Callee + " (no body here)";
          if (!llvm::is_contained(NoBody, Note))
            NoBody.push_back(Note);
        } else if (G.SccOf[It->second] == G.SccOf[R] &&
                   G.Recursive[G.SccOf[R]]) {
          std::string Note = "recursive call to @" + C.Callee;
          if (!llvm::is_contained(Recursion, Note))
            Recursion.push_back(Note);
        }
      }
      for (const GlobalBufferReport &B : H.Weights.Buffers)
        if (B.Kind == "hoisted")
          Globals[B.Name] = B.Bytes;
      Dynamic += H.NumDynamic;
      Other += H.NumUnplannedStatic;
      OtherBytes = SaturatingAdd(OtherBytes, H.UnplannedStaticBytes);
      OtherUnsized += H.NumUnplannedUnsized;
    }
    uint64_t Hoisted = 0;
    for (const auto &B : Globals)
      Hoisted = SaturatingAdd(Hoisted, B.second);
    F.Footprint.Hoisted = Hoisted;
    F.Footprint.Steady = SaturatingAdd(Steady, Hoisted);
    F.Footprint.FirstCall = SaturatingAdd(First, Hoisted);
    auto &NC = F.Footprint.NotCounted;
    NC.insert(NC.end(), NoBody.begin(), NoBody.end());
    NC.insert(NC.end(), Recursion.begin(), Recursion.end());
    if (Dynamic)
      NC.push_back(std::to_string(Dynamic) + " dynamic buffer" +
                   (Dynamic == 1 ? "" : "s") + " (sized at run time)");
    if (Other) {
      std::string Note = std::to_string(Other) + " buffer" +
                         (Other == 1 ? "" : "s") +
                         " of static size left out of the arenas (";
      if (Other > OtherUnsized)
        Note += std::to_string(OtherBytes) + " bytes";
      if (OtherUnsized)
        Note += std::string(Other > OtherUnsized ? "; " : "") +
                std::to_string(OtherUnsized) + " of a size past 2^64 bytes";
      NC.push_back(Note + "; see unplanned)");
    }
  }
}
