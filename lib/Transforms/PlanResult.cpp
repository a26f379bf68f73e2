//===- PlanResult.cpp - The plan as data, for C++ embedders ---------------===//
//
// The planning half of tensor-mem-plan (RewriteToArenaViews.cpp) without
// the rewrite: the analysis gives each function's buffers, grouped into one
// arena per memory space in order of first appearance, and the strategy
// places them with the same records, alignment and budget as the pass.
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/PlanResult.h"

#include "memplan/Analysis/UsageRecordsFromIR.h"
#include "memplan/Core/Arithmetic.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Strategy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace memplan;

static llvm::Error checkOptions(const PlanOptions &Options) {
  if (!lookupStrategy(Options.Strategy))
    return unknownStrategyError(Options.Strategy);
  if (!isPowerOf2(Options.Alignment))
    return llvm::createStringError("alignment " +
                                   std::to_string(Options.Alignment) +
                                   " is not a positive power of two");
  if (!(Options.BudgetMs >= 0))
    return llvm::createStringError(
        "budget-ms " + std::to_string(Options.BudgetMs) + " is negative");
  return llvm::Error::success();
}

static llvm::Error planOne(FunctionOpInterface Fn, const PlanOptions &Options,
                           std::vector<PlannedArena> &Arenas) {
  FunctionBuffers Buffers = computeUsageRecords(
      Fn, UsageRecordsOptions{Options.DeallocationRunsAfter});
  for (const ArenaGroup &G : groupByMemorySpace(Buffers)) {
    PlannedArena Arena;
    Arena.Function = Fn.getName().str();
    if (G.MemorySpace)
      llvm::raw_string_ostream(Arena.MemorySpace) << G.MemorySpace;
    ArenaInput In = arenaInput(G, Buffers.NumTasks, Options.Alignment,
                               Options.PreserveIntermediates);
    uint64_t Align = In.Alignment;
    Arena.Records = std::move(In.Records);
    Arena.BytesWithoutPlanning = In.BytesWithoutPlanning;
    for (const PlannableBuffer *B : G.Buffers) {
      memref::AllocOp Alloc = B->Alloc;
      Arena.Allocs.push_back(Alloc.getOperation());
    }
    StrategyOptions SO;
    SO.Alignment = Align;
    SO.BudgetMs = Options.BudgetMs;
    llvm::Expected<Plan> P = planMemory(Options.Strategy, Arena.Records, SO);
    if (!P)
      return llvm::createStringError("function '" + Arena.Function +
                                     "': " + llvm::toString(P.takeError()));
    auto Aligned = alignRecords(Arena.Records, Align);
    if (!Aligned)
      return Aligned.takeError();
    Arena.Strategy = P->Chosen.empty() ? P->Strategy : P->Chosen;
    Arena.Alignment = Align;
    Arena.ArenaSize = P->Offsets.TotalSize;
    Arena.LowerBound = liveBytesLowerBound(*Aligned);
    Arena.Optimal = P->Optimal;
    Arena.Offsets = std::move(P->Offsets.Offsets);
    Arenas.push_back(std::move(Arena));
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<PlannedArena>>
memplan::planFunction(FunctionOpInterface Function,
                      const PlanOptions &Options) {
  if (llvm::Error E = checkOptions(Options))
    return std::move(E);
  std::vector<PlannedArena> Arenas;
  if (!Function.isExternal())
    if (llvm::Error E = planOne(Function, Options, Arenas))
      return std::move(E);
  return Arenas;
}

llvm::Expected<std::vector<PlannedArena>>
memplan::planModule(ModuleOp Module, const PlanOptions &Options) {
  if (llvm::Error E = checkOptions(Options))
    return std::move(E);
  SmallVector<FunctionOpInterface> Functions;
  Module->walk([&](FunctionOpInterface Fn) {
    if (!Fn.isExternal())
      Functions.push_back(Fn);
  });
  std::vector<PlannedArena> Arenas;
  for (FunctionOpInterface Fn : Functions)
    if (llvm::Error E = planOne(Fn, Options, Arenas))
      return std::move(E);
  return Arenas;
}
