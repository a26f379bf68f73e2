//===- PlanResult.cpp - The plan as data, for C++ embedders ---------------===//
//
// The planning half of tensor-mem-plan (TensorMemPlan.cpp) without the
// rewrite, and the one step both share, planArena: the analysis gives each
// function's buffers, grouped into one arena per memory space in order of first
// appearance, and the strategy places them with the same records, alignment and
// budget as the pass.
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/PlanResult.h"
#include "TensorMemPlanInternal.h"

#include "memplan/Analysis/UsageRecordsFromIR.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Strategy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace memplan;

llvm::Error memplan::checkPlanOptions(const PlanOptions &Options) {
  if (!lookupStrategy(Options.Strategy))
    return unknownStrategyError(Options.Strategy);
  // Core decides what alignment plans (planMemory checks it again).
  if (llvm::Error E = checkAlignment(Options.Alignment))
    return E;
  if (!(Options.BudgetMs >= 0))
    return llvm::createStringError(
        "budget-ms " +
        (Options.BudgetMs == std::trunc(Options.BudgetMs)
             ? std::to_string(static_cast<long long>(Options.BudgetMs))
             : llvm::formatv("{0}", Options.BudgetMs).str()) +
        " is negative");
  // -1 means none; another negative bound is a typo, not "no bound".
  if (Options.DimBounds < -1)
    return llvm::createStringError("dim-bounds " +
                                   std::to_string(Options.DimBounds) +
                                   " is negative (-1 means no bound)");
  return llvm::Error::success();
}

SmallVector<InplaceCandidate> memplan::inplaceCandidates(
    FunctionOpInterface Fn, const BufferUsageAnalysis &Analysis,
    const FunctionBuffers &Buffers, const PlanOptions &Options) {
  // Without reuse nothing shares bytes, pairs neither.
  if (!Options.Inplace || Options.PreserveIntermediates)
    return {};
  return findInplacePairs(Fn, Analysis, Buffers);
}

llvm::Expected<ArenaResult>
memplan::planArena(const ArenaGroup &Group, uint64_t NumTasks,
                   const PlanOptions &Options,
                   ArrayRef<InplaceCandidate> Candidates) {
  ArenaInput In = arenaInput(Group, NumTasks, Options.Alignment,
                             Options.PreserveIntermediates);
  StrategyOptions SO;
  SO.Alignment = In.Alignment;
  SO.BudgetMs = Options.BudgetMs;
  SO.InplacePairs = addInplacePairs(Group, Candidates, In);
  llvm::Expected<Plan> P = planMemory(Options.Strategy, In.Records, SO);
  if (!P)
    return P.takeError();
  ArenaResult Result = arenaResult(std::move(*P), std::move(In.Records));
  if (Group.MemorySpace)
    llvm::raw_string_ostream(Result.MemorySpace) << Group.MemorySpace;
  return Result;
}

UsageRecordsOptions memplan::recordsOptions(const PlanOptions &Options) {
  UsageRecordsOptions R;
  R.DeallocationRunsAfter = Options.DeallocationRunsAfter;
  R.ArgumentDimBound = Options.DimBounds;
  R.MaxStaticBytes = Options.MaxStaticBytes;
  return R;
}

static llvm::Error planOne(FunctionOpInterface Fn, const PlanOptions &Options,
                           std::vector<PlannedArena> &Arenas) {
  BufferUsageAnalysis Analysis(Fn);
  FunctionBuffers Buffers = Analysis.buffers(recordsOptions(Options));
  SmallVector<InplaceCandidate> Inplace =
      inplaceCandidates(Fn, Analysis, Buffers, Options);
  for (const ArenaGroup &G : groupByMemorySpace(Buffers)) {
    llvm::Expected<ArenaResult> Result =
        planArena(G, Buffers.NumTasks, Options, Inplace);
    if (!Result)
      return llvm::createStringError("function '" + Fn.getName().str() + "': " +
                                     llvm::toString(Result.takeError()));
    PlannedArena Arena;
    static_cast<ArenaResult &>(Arena) = std::move(*Result);
    Arena.Function = Fn.getName().str();
    for (const PlannableBuffer *B : G.Buffers)
      Arena.Allocs.push_back(memref::AllocOp(B->Alloc).getOperation());
    Arenas.push_back(std::move(Arena));
  }
  return llvm::Error::success();
}

llvm::Expected<std::vector<PlannedArena>>
memplan::planFunction(FunctionOpInterface Function,
                      const PlanOptions &Options) {
  if (llvm::Error E = checkPlanOptions(Options))
    return std::move(E);
  std::vector<PlannedArena> Arenas;
  if (!Function.isExternal())
    if (llvm::Error E = planOne(Function, Options, Arenas))
      return std::move(E);
  return Arenas;
}

llvm::Expected<std::vector<PlannedArena>>
memplan::planModule(ModuleOp Module, const PlanOptions &Options) {
  if (llvm::Error E = checkPlanOptions(Options))
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
