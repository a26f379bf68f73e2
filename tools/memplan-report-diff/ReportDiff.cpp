//===- ReportDiff.cpp - two plans of one program side by side -------------===//

#include "ReportDiff.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace memplan::diff {

static const Function *findFunction(const Report &R, StringRef Name) {
  for (const Function &F : R.Functions)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

static StringSet<> sourceFiles(const Report &R) {
  StringSet<> Files;
  for (const Function &F : R.Functions)
    if (std::string File = sourceFile(F.Location); !File.empty())
      Files.insert(File);
  return Files;
}

Error checkSameProgram(const Report &A, const Report &B) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "error: " + A.Path + " and " + B.Path +
                                 " are reports of different programs: " + Why);
  };
  StringSet<> FilesA = sourceFiles(A), FilesB = sourceFiles(B);
  if (!FilesA.empty() && !FilesB.empty() &&
      none_of(FilesA.keys(), [&](StringRef F) { return FilesB.contains(F); }))
    return Fail("one plans " + FilesA.begin()->getKey() + ", the other " +
                FilesB.begin()->getKey());
  // Two reports of a program with no function (an empty module) are one.
  if ((!A.Functions.empty() || !B.Functions.empty()) &&
      none_of(A.Functions,
              [&](const Function &F) { return findFunction(B, F.Name); }))
    return Fail("no function in common");
  return Error::success();
}

static void printBytes(raw_ostream &OS, StringRef What, uint64_t A, uint64_t B,
                       unsigned Indent) {
  OS.indent(Indent) << format("%-20s %llu -> %llu", What.str().c_str(),
                              (unsigned long long)A, (unsigned long long)B);
  if (A == B) {
    OS << "  (same)\n";
    return;
  }
  // The sign apart from the magnitude: B - A as int64_t had the wrong sign
  // for differences of 2^63 or more.
  bool Up = B > A;
  uint64_t Delta = Up ? B - A : A - B;
  OS << format("  (%c%llu", Up ? '+' : '-', (unsigned long long)Delta);
  if (A)
    OS << format(", %c%.1f%%", Up ? '+' : '-',
                 100.0 * double(Delta) / double(A));
  OS << ")\n";
}

// Buffers of two plans are matched by what survives a change of plan: the
// op that made them, its location and the type; repeats in order.
static std::string bufferKey(const Buffer &B) {
  if (B.Location.empty())
    return "#" + B.Id;
  return B.Location + " " + B.Op + " " + B.Type;
}

static std::string describe(const Buffer &B) {
  std::string S =
      B.Location.empty() ? "buffer " + B.Id : shortLocation(B.Location);
  if (!B.Type.empty())
    S += " " + B.Type;
  return S;
}

static std::string partner(const Arena &A, const Buffer &B) {
  if (!B.InplaceOf)
    return "none";
  for (const Buffer &P : A.Buffers)
    if (P.Id == *B.InplaceOf)
      return "of " + describe(P);
  return "of buffer " + *B.InplaceOf;
}

static void printBuffers(const Arena &A, const Arena &B, raw_ostream &OS) {
  StringMap<std::vector<const Buffer *>> InB;
  for (const Buffer &Buf : B.Buffers)
    InB[bufferKey(Buf)].push_back(&Buf);
  StringMap<size_t> Used;
  std::vector<const Buffer *> OnlyA;
  std::vector<std::string> Changed;
  size_t Same = 0;
  for (const Buffer &X : A.Buffers) {
    std::string Key = bufferKey(X);
    size_t &N = Used[Key];
    auto It = InB.find(Key);
    if (It == InB.end() || N >= It->second.size()) {
      OnlyA.push_back(&X);
      continue;
    }
    const Buffer &Y = *It->second[N++];
    std::string Line;
    raw_string_ostream L(Line);
    auto Field = [&](StringRef Name, const std::string &VA,
                     const std::string &VB) {
      if (VA != VB)
        L << "; " << Name << " " << VA << " -> " << VB;
    };
    Field("size", std::to_string(X.Size), std::to_string(Y.Size));
    Field("offset", std::to_string(X.Offset), std::to_string(Y.Offset));
    Field("live",
          std::to_string(X.FirstTask) + "-" + std::to_string(X.LastTask),
          std::to_string(Y.FirstTask) + "-" + std::to_string(Y.LastTask));
    Field("in place", partner(A, X), partner(B, Y));
    if (Line.empty())
      ++Same;
    else
      Changed.push_back(describe(X) + ":" + Line.substr(1));
  }
  std::vector<const Buffer *> OnlyB;
  for (const Buffer &Y : B.Buffers) {
    std::string Key = bufferKey(Y);
    if (Used.lookup(Key)) {
      --Used[Key];
      continue;
    }
    OnlyB.push_back(&Y);
  }
  OS.indent(4) << format("%-20s %zu -> %zu: %zu the same, %zu changed, %zu "
                         "only in A, %zu only in B\n",
                         "buffers", A.Buffers.size(), B.Buffers.size(), Same,
                         Changed.size(), OnlyA.size(), OnlyB.size());
  for (const std::string &C : Changed)
    OS.indent(6) << "changed " << C << "\n";
  for (const Buffer *X : OnlyA)
    OS.indent(6) << "only in A " << describe(*X) << ": " << X->Size << " B at "
                 << X->Offset << ", live " << X->FirstTask << "-" << X->LastTask
                 << "\n";
  for (const Buffer *Y : OnlyB)
    OS.indent(6) << "only in B " << describe(*Y) << ": " << Y->Size << " B at "
                 << Y->Offset << ", live " << Y->FirstTask << "-" << Y->LastTask
                 << "\n";
}

static std::string strategyText(const Arena &A) {
  if (A.Chosen.empty() || A.Chosen == A.Strategy)
    return A.Strategy;
  return A.Strategy + " (chose " + A.Chosen + ")";
}

static void printArena(const Arena &A, const Arena &B, raw_ostream &OS) {
  printBytes(OS, "arena bytes", A.ArenaSize, B.ArenaSize, 4);
  OS.indent(4) << format(
      "%-20s task %lld, %llu B -> task %lld, %llu B\n", "peak",
      (long long)A.PeakTask, (unsigned long long)A.LowerBound,
      (long long)B.PeakTask, (unsigned long long)B.LowerBound);
  // What each peak task is, when the reports say (task_ops).
  if (!A.PeakOp.empty() || !B.PeakOp.empty())
    OS.indent(4) << format("%-20s ", "peak op")
                 << (A.PeakOp.empty() ? "-" : A.PeakOp) << " -> "
                 << (B.PeakOp.empty() ? "-" : B.PeakOp) << "\n";
  std::string SA = strategyText(A), SB = strategyText(B);
  OS.indent(4) << format("%-20s ", "strategy") << SA;
  if (SA != SB)
    OS << " -> " << SB;
  OS << "\n";
  printBuffers(A, B, OS);
}

static size_t arenasOfSpace(const Function &F, const std::string &Space) {
  return count_if(F.Arenas,
                  [&](const Arena &X) { return X.MemorySpace == Space; });
}

/// The arena's name in the diff: its memory space, and its strategy where a
/// function has several arenas of one space (memplan-solve
/// --strategy=all: one per strategy).
static std::string spaceName(const Function &F, const Arena &A) {
  std::string S = A.MemorySpace.empty()
                      ? "arena (default memory space"
                      : "arena (memory space " + A.MemorySpace;
  if (arenasOfSpace(F, A.MemorySpace) > 1)
    S += ", strategy " + A.Strategy;
  return S + ")";
}

/// For each arena of A, its partner in B, or null: the arena of the same
/// memory space, and where either function has several of that space, the
/// one of the same strategy (each of B's at most once). Matching by space
/// alone compared every arena of a --strategy=all report with B's first,
/// and a report diffed with itself showed changes.
static std::vector<const Arena *> matchArenas(const Function &A,
                                              const Function &B) {
  std::vector<const Arena *> Partner(A.Arenas.size(), nullptr);
  std::vector<bool> Taken(B.Arenas.size(), false);
  for (size_t I = 0; I < A.Arenas.size(); ++I) {
    const Arena &X = A.Arenas[I];
    bool ByStrategy = arenasOfSpace(A, X.MemorySpace) > 1 ||
                      arenasOfSpace(B, X.MemorySpace) > 1;
    for (size_t J = 0; J < B.Arenas.size(); ++J) {
      const Arena &Y = B.Arenas[J];
      if (!Taken[J] && Y.MemorySpace == X.MemorySpace &&
          (!ByStrategy || Y.Strategy == X.Strategy)) {
        Partner[I] = &Y;
        Taken[J] = true;
        break;
      }
    }
  }
  return Partner;
}

static void printFunction(const Function &A, const Function &B,
                          raw_ostream &OS) {
  OS << "@" << A.Name;
  if (!A.Location.empty())
    OS << " (" << shortLocation(A.Location) << ")";
  OS << "\n";
  if (A.Steady && B.Steady)
    printBytes(OS, "footprint (steady)", *A.Steady, *B.Steady, 2);
  if (A.FirstCall && B.FirstCall)
    printBytes(OS, "footprint (first)", *A.FirstCall, *B.FirstCall, 2);
  OS.indent(2) << format("%-20s %zu -> %zu\n", "buffers not planned",
                         A.NumUnplanned, B.NumUnplanned);
  std::vector<const Arena *> Partner = matchArenas(A, B);
  for (size_t I = 0; I < A.Arenas.size(); ++I) {
    const Arena &X = A.Arenas[I];
    OS.indent(2) << spaceName(A, X) << "\n";
    if (!Partner[I]) {
      OS.indent(4) << "only in A: " << X.ArenaSize << " B, " << X.Buffers.size()
                   << " buffers\n";
      continue;
    }
    printArena(X, *Partner[I], OS);
  }
  for (const Arena &Y : B.Arenas)
    if (!is_contained(Partner, &Y))
      OS.indent(2) << spaceName(B, Y) << "\n"
                   << "    only in B: " << Y.ArenaSize << " B, "
                   << Y.Buffers.size() << " buffers\n";
}

static uint64_t arenaBytes(const Function &F) {
  uint64_t Sum = 0;
  for (const Arena &A : F.Arenas)
    Sum += A.ArenaSize;
  return Sum;
}

void printDiff(const Report &A, const Report &B, raw_ostream &OS) {
  OS << "A: " << A.Path << "\nB: " << B.Path << "\n";
  uint64_t TotalA = 0, TotalB = 0;
  size_t Both = 0;
  for (const Function &F : A.Functions) {
    const Function *G = findFunction(B, F.Name);
    if (!G)
      continue;
    ++Both;
    TotalA += arenaBytes(F);
    TotalB += arenaBytes(*G);
    printFunction(F, *G, OS);
  }
  for (const Function &F : A.Functions)
    if (!findFunction(B, F.Name))
      OS << "@" << F.Name << ": only in A (" << arenaBytes(F)
         << " arena bytes)\n";
  for (const Function &G : B.Functions)
    if (!findFunction(A, G.Name))
      OS << "@" << G.Name << ": only in B (" << arenaBytes(G)
         << " arena bytes)\n";
  OS << "functions in both: " << Both << "\n";
  printBytes(OS, "arena bytes in all", TotalA, TotalB, 0);
}

} // namespace memplan::diff
