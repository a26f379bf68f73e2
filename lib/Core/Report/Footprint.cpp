//===- Footprint.cpp - What a program holds, whole ------------------------===//
//
// An arena is not what a user pays: a function also holds, while it runs,
// the arenas of what it calls, and for good the globals memplan made
// (hoisted tensors); its first call also runs the init functions. The
// footprint adds these up per function over the call graph, so that every
// transformation is judged by it rather than by one arena.
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/Report.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace memplan;

namespace {

struct Walker {
  llvm::StringMap<FunctionReport *> ByName;
  /// Arena peaks, steady and on the first call, of functions done.
  llvm::StringMap<std::pair<uint64_t, uint64_t>> Done;
  llvm::StringSet<> Active;

  /// Arena bytes F holds at most while it runs: (steady, first call).
  std::pair<uint64_t, uint64_t> peaks(FunctionReport &F) {
    if (auto It = Done.find(F.Function); It != Done.end())
      return It->second;
    if (!Active.insert(F.Function).second) {
      // Recursion: each level's arenas would add up; unknown depth.
      return {0, 0};
    }
    // An arena a caller of the module passes in is counted by that caller
    // (an entry's is the user's, counted here).
    uint64_t Own = 0;
    if (!F.ArenasFromCallers || F.Entry)
      for (const ArenaResult &A : F.Arenas)
        // A shared arena is held whole: the largest of its functions'.
        Own = llvm::SaturatingAdd(
            Own, std::max(A.arenaSize(), A.Shared ? A.Shared->Bytes : 0));
    uint64_t Callees = 0, CalleesFirst = 0, Init = 0;
    for (const CallSiteReport &C : F.Calls) {
      auto It = ByName.find(C.Callee);
      if (It == ByName.end())
        continue;
      if (Active.contains(C.Callee)) {
        std::string Note = "recursive call to @" + C.Callee;
        if (!llvm::is_contained(F.Footprint.NotCounted, Note))
          F.Footprint.NotCounted.push_back(Note);
        continue;
      }
      auto [Steady, First] = peaks(*It->second);
      if (C.Init) {
        // Before the arenas, the init's arenas are never live with them.
        uint64_t With = C.BeforeArenas ? 0 : Own;
        Init = std::max(Init, llvm::SaturatingAdd(With, Steady));
        continue;
      }
      Callees = std::max(Callees, Steady);
      CalleesFirst = std::max(CalleesFirst, First);
    }
    Active.erase(F.Function);
    F.Footprint.Arenas = Own;
    F.Footprint.Callees = Callees;
    std::pair<uint64_t, uint64_t> P{
        llvm::SaturatingAdd(Own, Callees),
        std::max(llvm::SaturatingAdd(Own, CalleesFirst), Init)};
    Done[F.Function] = P;
    return P;
  }

  /// The hoisted globals F and its callees read, by name.
  void hoisted(const FunctionReport &F, llvm::StringMap<uint64_t> &Globals,
               llvm::StringSet<> &Seen) {
    if (!Seen.insert(F.Function).second)
      return;
    for (const GlobalBufferReport &G : F.Weights.Buffers)
      if (G.Kind == "hoisted")
        Globals[G.Name] = G.Bytes;
    for (const CallSiteReport &C : F.Calls)
      if (auto It = ByName.find(C.Callee); It != ByName.end())
        hoisted(*It->second, Globals, Seen);
  }
};

} // namespace

void memplan::computeFootprints(std::vector<FunctionReport> &Functions) {
  Walker W;
  for (FunctionReport &F : Functions)
    if (!F.RecordFile)
      W.ByName[F.Function] = &F;
  for (FunctionReport &F : Functions) {
    if (F.RecordFile)
      continue;
    F.Footprint = FootprintReport();
    for (const CallSiteReport &C : F.Calls) {
      std::string Note = "@" + C.Callee + " (no body here)";
      if (!W.ByName.count(C.Callee) &&
          !llvm::is_contained(F.Footprint.NotCounted, Note))
        F.Footprint.NotCounted.push_back(Note);
    }
  }
  for (FunctionReport &F : Functions) {
    if (F.RecordFile)
      continue;
    auto [Steady, First] = W.peaks(F);
    llvm::StringMap<uint64_t> Globals;
    llvm::StringSet<> Seen;
    W.hoisted(F, Globals, Seen);
    uint64_t Hoisted = 0;
    for (const auto &G : Globals)
      Hoisted = llvm::SaturatingAdd(Hoisted, G.second);
    uint64_t Dynamic = 0;
    for (llvm::StringRef Name : Seen.keys())
      if (auto It = W.ByName.find(Name); It != W.ByName.end())
        Dynamic += It->second->NumDynamic;
    F.Footprint.Hoisted = Hoisted;
    F.Footprint.Steady = llvm::SaturatingAdd(Steady, Hoisted);
    F.Footprint.FirstCall = llvm::SaturatingAdd(First, Hoisted);
    if (Dynamic)
      F.Footprint.NotCounted.push_back(
          std::to_string(Dynamic) + " dynamic buffer" +
          (Dynamic == 1 ? "" : "s") + " (sized at run time)");
  }
}
