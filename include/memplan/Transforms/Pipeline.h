//===- Pipeline.h - memplan as one pipeline for DL compilers ----*- C++ -*-===//
//
// hoist constant-derived tensors (tensor-mem-hoist-constants) -> memory-aware
// order (tensor-mem-schedule) -> [inplace: tensor-mem-split-empty ->]
// bufferize (one-shot, function boundaries, identity layouts) ->
// tensor-mem-plan -> optional deallocation -> tensor-mem-lower-runtime, as
// one call for a compiler's own pass manager and as the registered pipeline
// `memplan-pipeline{...}` for mlir-opt, memplan-opt and the plugin.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TRANSFORMS_PIPELINE_H
#define MEMPLAN_TRANSFORMS_PIPELINE_H

#include "memplan/Transforms/OptionHelp.h"
#include "memplan/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace memplan {

struct MemPlanPipelineOptions
    : public mlir::PassPipelineOptions<MemPlanPipelineOptions> {
  // --help shows each option's default and the registered strategies.
  MemPlanPipelineOptions() {
    std::string Printed;
    llvm::raw_string_ostream OS(Printed);
    print(OS);
    addDefaultsToHelp(OptionsMap, Printed);
  }

  Option<bool> schedule{
      *this, "schedule",
      llvm::cl::desc("Reorder the tensor ops of each block to lower the peak "
                     "of live bytes (tensor-mem-schedule) before "
                     "bufferization"),
      llvm::cl::init(true)};
  Option<bool> bufferize{
      *this, "bufferize",
      llvm::cl::desc("Run one-shot-bufferize first (off: the input is "
                     "already bufferized)"),
      llvm::cl::init(true)};
  Option<HoistMode> hoistConstants{
      *this, "hoist-constants",
      llvm::cl::desc("Tensors computed only from constants, before "
                     "bufferizing (tensor-mem-hoist-constants mode)"),
      llvm::cl::init(HoistMode::Memory),
      llvm::cl::values(
          clEnumValN(HoistMode::Memory, "memory",
                     "read through permutations, fold where no constant "
                     "grows, never a second copy"),
          clEnumValN(HoistMode::Speed, "speed",
                     "fold, else hoist into a global computed once"),
          clEnumValN(HoistMode::Off, "off", "leave them alone"),
          clEnumValN(HoistMode::Off, "false", "the same as off"))};
  Option<int64_t> foldLimitBytes{
      *this, "fold-limit-bytes",
      llvm::cl::desc("Largest non-splat tensor hoist-constants folds, in "
                     "bytes (larger ones are hoisted)"),
      llvm::cl::init(1048576)};
  Option<bool> foldBytes{
      *this, "fold-bytes",
      llvm::cl::desc("hoist-constants folds layout, cast and exact "
                     "elementwise ops of constant data on raw bytes "
                     "(tensor-mem-hoist-constants fold-bytes)"),
      llvm::cl::init(true)};
  Option<int64_t> hoistMaxGrowth{
      *this, "hoist-max-growth",
      llvm::cl::desc("hoist-constants leaves alone a tensor larger than this "
                     "many times the constants it reads (0: no limit)"),
      llvm::cl::init(1)};
  Option<bool> deallocate{
      *this, "deallocate",
      llvm::cl::desc("Insert deallocations (buffer-deallocation-pipeline) "
                     "after planning, for the arena and what is left"),
      llvm::cl::init(true)};
  Option<std::string> strategy{
      *this, "strategy",
      llvm::cl::desc("Planning strategy (see memplan-solve --list)"),
      llvm::cl::init("auto")};
  Option<int64_t> alignment{
      *this, "alignment",
      llvm::cl::desc("Alignment of the arena and of every offset, in bytes"),
      llvm::cl::init(64)};
  Option<int64_t> budgetMs{
      *this, "budget-ms",
      llvm::cl::desc("Time budget of search strategies, in milliseconds"),
      llvm::cl::init(1000)};
  Option<bool> remarks{
      *this, "remarks",
      llvm::cl::desc("Remarks for unplanned buffers and a summary per arena"),
      llvm::cl::init(false)};
  Option<bool> preserveIntermediates{
      *this, "preserve-intermediates",
      llvm::cl::desc("No reuse at all: every buffer its own range"),
      llvm::cl::init(false)};
  Option<ArenaSource> arena{
      *this, "arena", llvm::cl::desc("Where the arena comes from"),
      llvm::cl::init(ArenaSource::Alloc),
      llvm::cl::values(
          clEnumValN(ArenaSource::Alloc, "alloc",
                     "a memref.alloc at the function's entry"),
          clEnumValN(ArenaSource::Argument, "argument",
                     "a trailing memref<Nxi8> argument the caller provides"))};
  Option<int64_t> dimBounds{
      *this, "dim-bounds",
      llvm::cl::desc("Upper bound of dynamic sizes taken from function "
                     "arguments: such allocs are planned at the bound "
                     "(-1, the default: none; below -1 is an error)"),
      llvm::cl::init(-1)};
  Option<bool> acrossCalls{
      *this, "across-calls",
      llvm::cl::desc("A private callee's arena lives in its caller's arena "
                     "for the call (tensor-mem-plan across-calls)"),
      llvm::cl::init(true)};
  Option<bool> outParams{
      *this, "out-params",
      llvm::cl::desc("Buffers a callee returns become out-parameters its "
                     "callers allocate and plan "
                     "(tensor-mem-results-to-out-params)"),
      llvm::cl::init(true)};
  Option<int64_t> maxStaticBytes{
      *this, "max-static-bytes",
      llvm::cl::desc("A dynamic alloc is planned at its bound only up to "
                     "this many bytes; above, it stays dynamic"),
      llvm::cl::init(268435456)};
  Option<bool> checkPromises{
      *this, "check-promises",
      llvm::cl::desc("Check at run time every size planned at a promised "
                     "bound (memplan.max, dim-bounds)"),
      llvm::cl::init(true)};
  Option<bool> writeIntoConsumers{
      *this, "write-into-consumers",
      llvm::cl::desc("Let the producers of a tensor.pad or tensor.concat "
                     "write straight into its buffer "
                     "(tensor-mem-write-into-consumers)"),
      llvm::cl::init(true)};
  Option<bool> inplace{
      *this, "inplace",
      llvm::cl::desc("Let an elementwise result take the bytes of an operand "
                     "that dies at its op (and, when bufferizing, first give "
                     "every op a tensor.empty of its own)"),
      llvm::cl::init(true)};
  Option<std::string> report{*this, "report",
                             llvm::cl::desc("Write the JSON plan report here"),
                             llvm::cl::init("")};
  Option<std::string> timeline{
      *this, "timeline",
      llvm::cl::desc("Write the timeline picture (.svg or .html) here"),
      llvm::cl::init("")};
  Option<bool> runtime{
      *this, "runtime",
      llvm::cl::desc("Lower the allocs left (dynamic shapes) to "
                     "libmemplan_runtime calls"),
      llvm::cl::init(true)};
  Option<bool> symbolic{
      *this, "symbolic",
      llvm::cl::desc("Compute the offsets of dynamic buffers at a function's "
                     "entry from an order planned at compile time, when their "
                     "sizes are polynomials of its arguments (else "
                     "memplan_rt_plan plans them when it runs)"),
      llvm::cl::init(true)};
  Option<bool> separateSlots{
      *this, "separate-slots",
      llvm::cl::desc("Each slot of a run-time arena takes its base pointer "
                     "through memplan_rt_slot, so that LLVM vectorizes loops "
                     "over two slots behind an overlap check"),
      llvm::cl::init(true)};
  Option<bool> sharedArena{
      *this, "shared-arena",
      llvm::cl::desc("The functions of the module's memplan.shared_arena take "
                     "their run-time arenas from one block kept across calls "
                     "(with the static shared arena in its first bytes)"),
      llvm::cl::init(true)};

  // The options of each pass the pipeline runs, made from the pipeline's
  // own (as upstream's SparsifierOptions does): the one place an option is
  // handed on. test/Tools/pipeline-pass-options.test checks that each one
  // arrives.
  TensorMemHoistConstantsOptions hoistConstantsOptions() const;
  TensorMemScheduleOptions scheduleOptions() const;
  TensorMemResultsToOutParamsOptions resultsToOutParamsOptions() const;
  TensorMemPlanOptions planOptions() const;
  TensorMemLowerRuntimeOptions lowerRuntimeOptions() const;
};

/// Adds the memplan pipeline to PM, which must run on builtin.module.
void buildMemPlanPipeline(mlir::OpPassManager &PM,
                          const MemPlanPipelineOptions &Options);

/// Adds the bufferization memplan-pipeline starts with (one-shot-bufferize
/// across function boundaries, identity layouts, allocs returned from
/// loops), for a compiler that plans with memplan::planModule
/// (PlanResult.h) or runs tensor-mem-plan itself.
void buildMemPlanBufferization(mlir::OpPassManager &PM);

/// Registers `memplan-pipeline` with its options.
void registerMemPlanPipeline();

} // namespace memplan

#endif // MEMPLAN_TRANSFORMS_PIPELINE_H
