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
  return llvm::Error::success();
}

SmallVector<InplaceCandidate>
memplan::inplaceCandidates(FunctionOpInterface Fn,
                           const FunctionBuffers &Buffers,
                           const PlanOptions &Options) {
  // Without reuse nothing shares bytes, pairs neither.
  if (!Options.Inplace || Options.PreserveIntermediates)
    return {};
  return findInplacePairs(Fn, Buffers);
}

llvm::Expected<ArenaPlan>
memplan::planArena(const ArenaGroup &Group, uint64_t NumTasks,
                   const PlanOptions &Options,
                   ArrayRef<InplaceCandidate> Candidates) {
  ArenaPlan Out;
  Out.Input = arenaInput(Group, NumTasks, Options.Alignment,
                         Options.PreserveIntermediates);
  Out.Pairs = addInplacePairs(Group, Candidates, Out.Input);
  StrategyOptions SO;
  SO.Alignment = Out.Input.Alignment;
  SO.BudgetMs = Options.BudgetMs;
  SO.InplacePairs = Out.Pairs;
  llvm::Expected<Plan> P = planMemory(Options.Strategy, Out.Input.Records, SO);
  if (!P)
    return P.takeError();
  Out.P = std::move(*P);
  return Out;
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
  FunctionBuffers Buffers = computeUsageRecords(Fn, recordsOptions(Options));
  SmallVector<InplaceCandidate> Inplace =
      inplaceCandidates(Fn, Buffers, Options);
  for (const ArenaGroup &G : groupByMemorySpace(Buffers)) {
    llvm::Expected<ArenaPlan> AP =
        planArena(G, Buffers.NumTasks, Options, Inplace);
    if (!AP)
      return llvm::createStringError("function '" + Fn.getName().str() +
                                     "': " + llvm::toString(AP.takeError()));
    PlannedArena Arena;
    Arena.Function = Fn.getName().str();
    if (G.MemorySpace)
      llvm::raw_string_ostream(Arena.MemorySpace) << G.MemorySpace;
    for (const PlannableBuffer *B : G.Buffers)
      Arena.Allocs.push_back(memref::AllocOp(B->Alloc).getOperation());
    Arena.Chosen = AP->P.Chosen;
    Arena.Alignment = AP->Input.Alignment;
    Arena.ArenaSize = AP->P.Offsets.TotalSize;
    Arena.LiveBound = AP->P.Peak.Bytes;
    Arena.Optimal = AP->P.Optimal;
    Arena.BytesWithoutPlanning = AP->Input.BytesWithoutPlanning;
    Arena.Records = std::move(AP->Input.Records);
    Arena.Offsets = std::move(AP->P.Offsets.Offsets);
    Arena.InplacePairs = std::move(AP->Pairs);
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
