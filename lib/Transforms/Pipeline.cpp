//===- Pipeline.cpp - memplan as one pipeline -----------------------------===//

#include "memplan/Transforms/Pipeline.h"
#include "memplan/Transforms/Passes.h"

#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace memplan;

void memplan::buildMemPlanBufferization(OpPassManager &PM) {
  bufferization::OneShotBufferizePassOptions Bufferize;
  Bufferize.bufferizeFunctionBoundaries = true;
  // Identity layouts at function boundaries: what a C caller passes, and
  // what the deallocation pipeline needs.
  Bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // Networks carry activations through loops.
  Bufferize.allowReturnAllocsFromLoops = true;
  PM.addPass(bufferization::createOneShotBufferizePass(Bufferize));
}

// Upstream's buffer-deallocation-pipeline, with the memrefs that cross
// blocks of a CFG handed over as block arguments first: the ownership-based
// deallocation frees a memref a later block uses directly. After the first
// canonicalize, which would fold such arguments back.
static void buildDeallocation(OpPassManager &PM, bool LowerClones) {
  memref::ExpandReallocPassOptions Expand;
  Expand.emitDeallocs = false;
  PM.addPass(memref::createExpandReallocPass(Expand));
  PM.addPass(createCanonicalizerPass());
  PM.addPass(memplan::createTensorMemLiveInsAsArguments());
  bufferization::OwnershipBasedBufferDeallocationPassOptions Dealloc;
  Dealloc.privateFuncDynamicOwnership = false;
  PM.addPass(
      bufferization::createOwnershipBasedBufferDeallocationPass(Dealloc));
  PM.addPass(createCanonicalizerPass());
  PM.addPass(bufferization::createBufferDeallocationSimplificationPass());
  PM.addPass(bufferization::createLowerDeallocationsPass());
  PM.addPass(createCSEPass());
  PM.addPass(createCanonicalizerPass());
  // The clone a private function returning its argument keeps (no dynamic
  // ownership) becomes an alloc and a copy: nothing after lowers it. Only
  // when all is bufferized: the conversion rejects a to_tensor left for a
  // later bufferization.
  if (LowerClones)
    PM.addPass(createConvertBufferizationToMemRefPass());
}

void memplan::buildMemPlanPipeline(OpPassManager &PM,
                                   const MemPlanPipelineOptions &Options) {
  // Constant-derived tensors leave the arena before bufferization turns
  // them into buffers; only tensor IR has them to fold or hoist.
  if (Options.bufferize && Options.hoistConstants != HoistMode::Off)
    PM.addPass(createTensorMemHoistConstants(Options.hoistConstantsOptions()));
  // The order is chosen on tensors: bufferization then places each alloc
  // where its tensor.empty now stands.
  if (Options.schedule && Options.bufferize)
    PM.addPass(createTensorMemSchedule(Options.scheduleOptions()));
  // After the order is fixed: a pad or concat buffer now starts where its
  // inputs' producers do.
  if (Options.writeIntoConsumers && Options.bufferize)
    PM.addPass(createTensorMemWriteIntoConsumers());
  if (Options.bufferize) {
    // Each op a fresh buffer, which may then take a dying operand's bytes
    // (tensor-mem-schedule splits the static ones of the blocks it orders
    // already; this covers the rest).
    if (Options.inplace)
      PM.addPass(createTensorMemSplitEmpty());
    buildMemPlanBufferization(PM);
  }
  // A buffer a callee returns becomes its caller's, planned there.
  if (Options.outParams)
    PM.addPass(
        createTensorMemResultsToOutParams(Options.resultsToOutParamsOptions()));
  // Planning comes before deallocation: the ownership-based deallocation
  // compares pointers (extract_aligned_pointer_as_index), which would make
  // every temporary of a function that returns a buffer unplannable. It
  // then frees the arena and what memplan left alone.
  PM.addPass(createTensorMemPlan(Options.planOptions()));
  if (Options.deallocate)
    buildDeallocation(PM, /*LowerClones=*/Options.bufferize);
  if (Options.runtime)
    PM.addPass(createTensorMemLowerRuntime(Options.lowerRuntimeOptions()));
}

TensorMemHoistConstantsOptions
MemPlanPipelineOptions::hoistConstantsOptions() const {
  TensorMemHoistConstantsOptions O;
  O.mode = hoistConstants;
  O.foldLimitBytes = foldLimitBytes;
  O.foldBytes = foldBytes;
  O.maxGrowth = hoistMaxGrowth;
  O.remarks = remarks;
  return O;
}

TensorMemScheduleOptions MemPlanPipelineOptions::scheduleOptions() const {
  TensorMemScheduleOptions O;
  O.remarks = remarks;
  return O;
}

TensorMemResultsToOutParamsOptions
MemPlanPipelineOptions::resultsToOutParamsOptions() const {
  TensorMemResultsToOutParamsOptions O;
  O.remarks = remarks;
  return O;
}

TensorMemPlanOptions MemPlanPipelineOptions::planOptions() const {
  TensorMemPlanOptions O;
  O.strategy = strategy;
  O.alignment = alignment;
  O.budgetMs = budgetMs;
  O.remarks = remarks;
  O.report = report;
  O.timeline = timeline;
  O.preserveIntermediates = preserveIntermediates;
  O.arena = arena;
  O.dimBounds = dimBounds;
  O.maxStaticBytes = maxStaticBytes;
  O.acrossCalls = acrossCalls;
  // tensor-mem-results-to-out-params runs before it, or was switched off.
  O.outParams = false;
  O.checkPromises = checkPromises;
  O.inplace = inplace;
  O.deallocationRunsAfter = deallocate;
  return O;
}

TensorMemLowerRuntimeOptions
MemPlanPipelineOptions::lowerRuntimeOptions() const {
  TensorMemLowerRuntimeOptions O;
  O.alignment = alignment;
  O.symbolic = symbolic;
  O.inplace = inplace;
  O.sharedArena = sharedArena;
  O.separateSlots = separateSlots;
  // The report then says what became of the dynamic buffers too.
  O.report = report;
  O.remarks = remarks;
  return O;
}

void memplan::registerMemPlanPipeline() {
  PassPipelineRegistration<MemPlanPipelineOptions>(
      "memplan-pipeline",
      "Bufferize, plan static buffers into arenas (tensor-mem-plan) and "
      "serve dynamic ones from libmemplan_runtime",
      buildMemPlanPipeline);
}
