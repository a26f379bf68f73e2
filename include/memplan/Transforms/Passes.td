//===- Passes.td - memplan pass definitions ----------------*- tablegen -*-===//

#ifndef MEMPLAN_TRANSFORMS_PASSES
#define MEMPLAN_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TensorMemPlan : Pass<"tensor-mem-plan"> {
  let summary = "Pack a function's static buffers into one arena";
  let description = [{
    Computes a usage record {size, first task, last task} for every
    static-shape `memref.alloc` whose buffer does not escape, plans them with
    a strategy from the memplan registry, and rewrites each planned alloc to
    `memref.view %arena[%offset][]` into one aligned `memref<Nxi8>` arena per
    function (and memory space). Planned deallocs vanish; the arena is freed
    when the input freed its buffers. Runs on any op: every
    FunctionOpInterface op nested in it (or the op itself) gets its own arena.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::cf::ControlFlowDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
  let options = [
    Option<"strategy", "strategy", "std::string", /*default=*/"\"auto\"",
           "Planning strategy (see memplan-solve --list)",
           "::memplan::helpDefault, ::memplan::helpStrategies">,
    Option<"alignment", "alignment", "int64_t", /*default=*/"64",
           "Alignment of the arena and of every offset, in bytes (power of 2)",
           "::memplan::helpDefault">,
    Option<"budgetMs", "budget-ms", "int64_t", /*default=*/"1000",
           "Time budget of search strategies (auto, exact), in milliseconds",
           "::memplan::helpDefault">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for every buffer left unplanned, with the reason",
           "::memplan::helpDefault">,
    Option<"preserveIntermediates", "preserve-intermediates", "bool",
           /*default=*/"false",
           "No reuse at all: every buffer gets its own range (debugging)",
           "::memplan::helpDefault">,
    Option<"arena", "arena", "ArenaSource", /*default=*/"ArenaSource::Alloc",
           "Where the arena comes from", [{::llvm::cl::values(
             clEnumValN(ArenaSource::Alloc, "alloc",
                        "a memref.alloc at the function's entry"),
             clEnumValN(ArenaSource::Argument, "argument",
                        "a trailing memref<Nxi8> argument the caller "
                        "provides")), ::memplan::helpDefault}]>,
    Option<"acrossCalls", "across-calls", "bool", /*default=*/"false",
           "Plan callees before callers, and give a private function whose "
           "every use is a call its arena as an argument: each call site's "
           "arena is then a buffer of the caller's arena, live for the call, "
           "reused by the next call like any buffer (runs on the module)",
           "::memplan::helpDefault">,
    Option<"outParams", "out-params", "bool", /*default=*/"true",
           "On a module, first make the buffers callees return "
           "out-parameters their callers allocate, as "
           "tensor-mem-results-to-out-params does (public functions keep "
           "their signature): the callers plan them",
           "::memplan::helpDefault">,
    Option<"deallocationRunsAfter", "deallocation-runs-after", "bool",
           /*default=*/"false",
           "The ownership-based deallocation runs after this pass (as in "
           "memplan-pipeline): leave alone buffers forwarded through control "
           "flow, which it would free through their views; leave it the "
           "arena and the program's frees of what is not planned",
           "::memplan::helpDefault">,
    Option<"dimBounds", "dim-bounds", "int64_t", /*default=*/"-1",
           "Upper bound of every dynamic size taken straight from a function "
           "argument (an index argument, or a dim of a shaped one) without "
           "a memplan.max of its own: such allocs are planned at the bound "
           "(-1, the default: none; below -1 is an error)",
           "::memplan::helpDefault">,
    Option<"maxStaticBytes", "max-static-bytes", "int64_t",
           /*default=*/"268435456",
           "A dynamic alloc is planned at its bound (proved, memplan.max or "
           "dim-bounds) only up to this many bytes; above, it stays dynamic, "
           "with a remark",
           "::memplan::helpDefault">,
    Option<"checkPromises", "check-promises", "bool", /*default=*/"true",
           "Check at run time every size planned at a bound the user "
           "promised (memplan.max, dim-bounds): a broken promise stops the "
           "program with a message (libmemplan_runtime)",
           "::memplan::helpDefault">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of every plan to this file",
           "::memplan::helpDefault">,
    Option<"inplace", "inplace", "bool", /*default=*/"false",
           "Let the result of an elementwise linalg op take the bytes of an "
           "operand that dies at it (same shape, element size and indexing "
           "map; docs/InplaceReuse.md)",
           "::memplan::helpDefault">,
    Option<"timeline", "timeline", "std::string", /*default=*/"\"\"",
           "Write a timeline picture (.svg or .html) of the plans to this file",
           "::memplan::helpDefault">,
  ];
  let statistics = [
    Statistic<"numPlanned", "buffers-planned", "Buffers placed in an arena">,
    Statistic<"numUnplanned", "buffers-unplanned", "Buffers left as they were">,
    Statistic<"bytesUnplanned", "bytes-without-planning",
              "Bytes of the planned buffers if each had its own allocation">,
    Statistic<"arenaBytes", "arena-bytes", "Bytes of all arenas">,
    Statistic<"lowerBoundBytes", "lower-bound-bytes",
              "Live-bytes lower bound of the planned buffers">,
    Statistic<"numInplace", "inplace-pairs",
              "Results that took the bytes of a dying operand">,
  ];
}

def TensorMemSplitEmpty : Pass<"tensor-mem-split-empty"> {
  let summary = "One tensor.empty per use, before bufferization";
  let description = [{
    Gives every use of a `tensor.empty` a clone of its own, placed right
    before the user. One-shot bufferization allocates one buffer per
    tensor.empty and writes every op that uses it into that buffer, so a
    shared tensor.empty (torch-mlir shares one between all ReLUs of a shape)
    becomes one buffer live from its first writer to its last reader. Split,
    each op gets a fresh buffer that starts at the op: a record of its own,
    and a result that may take a dying operand's bytes (tensor-mem-plan
    inplace=true). A tensor.empty has no contents, so nothing else changes.
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numClones", "empty-tensors-cloned",
              "tensor.empty ops added, one per extra use">,
  ];
}

def TensorMemWriteIntoConsumers : Pass<"tensor-mem-write-into-consumers"> {
  let summary = "Producers write straight into the buffer of the pad or "
                "concat that consumes them, before bufferization";
  let description = [{
    A `tensor.pad` or `tensor.concat` bufferizes as a new buffer plus a copy
    of each input, so at that op the inputs and the result are live at once:
    in a CNN, the ReLU output and its padded copy before a max-pool are the
    peak. This pass makes the result's buffer first (`tensor.empty`, plus a
    `linalg.fill` of the padding value for a pad), starts each input's
    producer chain on an `extract_slice` of it, and turns the pad or concat
    into `insert_slice`s of the inputs at the same place, which one-shot
    bufferization folds away. A producer chain runs back through
    destination-style tensor ops whose results each have one use, to the
    `tensor.empty` it starts from; an elementwise `linalg.generic` whose
    payload ignores its init writes over its dying input instead, so the
    chain reaches back to the op before it (a ReLU writes over the
    convolution it reads, which writes into the padded buffer).

    Only static shapes, static pad amounts and a padding value that is a
    constant or in scope. Only tensor IR changes: one-shot bufferization's
    analysis decides what is written in place, so a case it refuses costs a
    copy, never a wrong result.
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect",
                           "mlir::linalg::LinalgDialect"];
  let statistics = [
    Statistic<"numRedirected", "chains-redirected",
              "Producer chains that now write into their consumer's buffer">,
  ];
}

def TensorMemLiveInsAsArguments : Pass<"tensor-mem-live-ins-as-arguments"> {
  let summary = "Hand memrefs to later blocks of a CFG as block arguments";
  let description = [{
    A memref defined in one block of a CFG and used directly in another (it
    dominates the use, so the IR is valid) becomes an argument of the using
    block, passed by every predecessor. The ownership-based deallocation
    tracks ownership across blocks through block arguments only: a memref it
    sees used in a later block without one is freed when its own block ends,
    while the later block still reads it (a use after free).
    memplan-pipeline runs this pass right before that deallocation.
    Blocks whose predecessors do not all end in a branch
    (BranchOpInterface) are left alone, with a remark.
  }];
  let statistics = [
    Statistic<"numArguments", "arguments-added",
              "Block arguments added for memrefs used across blocks">,
  ];
}

def TensorMemLowerRuntime : Pass<"tensor-mem-lower-runtime", "mlir::ModuleOp"> {
  let summary = "Lower dynamic memref.alloc/dealloc to memplan_runtime calls";
  let description = [{
    Every `memref.alloc` with dynamic sizes (with `all=true`, every alloc
    left) becomes a call to `memplan_rt_alloc(bytes, align) -> memref<?xi8>`
    plus `memref.view`; its `memref.dealloc` becomes `memplan_rt_free`. The
    runtime functions are declared once per module with
    `llvm.emit_c_interface`, served by libmemplan_runtime.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect"];
  let options = [
    Option<"all", "all", "bool", /*default=*/"false",
           "Lower every memref.alloc, not only dynamic ones",
           "::memplan::helpDefault">,
    Option<"alignment", "alignment", "int64_t", /*default=*/"64",
           "Alignment requested from the runtime, in bytes",
           "::memplan::helpDefault">,
    Option<"planAtRunTime", "plan-at-run-time", "bool", /*default=*/"true",
           "Plan the dynamic buffers of a function whose sizes are known at "
           "its entry together, at run time (one arena per call, plans "
           "cached per shape in libmemplan_runtime)",
           "::memplan::helpDefault">,
    Option<"symbolic", "symbolic", "bool", /*default=*/"true",
           "When those sizes are polynomials of values known at the entry, "
           "plan their order at compile time and compute the offsets at the "
           "entry (no memplan_rt_plan call)",
           "::memplan::helpDefault">,
    Option<"inplace", "inplace", "bool", /*default=*/"false",
           "In a symbolic plan, let an elementwise result take the bytes of "
           "an operand that dies at its op when their shapes are provably "
           "equal (the same dynamic size values)",
           "::memplan::helpDefault">,
    Option<"separateSlots", "separate-slots", "bool", /*default=*/"true",
           "Each slot of a run-time arena takes its base pointer through "
           "memplan_rt_slot (which returns its argument), so that LLVM sees "
           "the slots as distinct objects: a loop reading one and writing "
           "another is then vectorized behind an overlap check, where views "
           "at offsets it cannot compare leave it scalar",
           "::memplan::helpDefault">,
    Option<"sharedArena", "shared-arena", "bool", /*default=*/"true",
           "The functions of the module's memplan.shared_arena (which never "
           "run at once, checked at their entries) take their run-time "
           "arenas from one block kept across calls, grown when a call needs "
           "more, with the static shared arena in its first bytes",
           "::memplan::helpDefault">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Per function, a remark with how many dynamic buffers went into "
           "the run-time arena and how many are served one by one; per "
           "buffer, which and why",
           "::memplan::helpDefault">,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Add to this JSON report (tensor-mem-plan's, or a new one) a "
           "\"runtime\" section per function: the buffers planned into the "
           "run-time arena, those served one by one and those left alone, "
           "with the reasons",
           "::memplan::helpDefault">,
  ];
  let statistics = [
    Statistic<"numLowered", "allocs-lowered", "Allocs served by the runtime">,
  ];
}

def TensorMemSchedule : Pass<"tensor-mem-schedule"> {
  let summary = "Reorder tensor ops within their dependencies to lower the "
                "peak of live tensor bytes";
  let description = [{
    Runs on tensors, before bufferization. For every block of every
    FunctionOpInterface op it builds a DAG of the ops (SSA uses, also from
    nested regions; every op with memory effects keeps its order relative to
    the others; a read of mutable memory through `bufferization.to_tensor`
    stays between the ops that may write that memory; the terminator stays
    last) with the bytes one-shot-bufferize
    will allocate: a destination-style op allocates its result when its init
    is a `tensor.empty` or it cannot write in place, reshapes and slices are
    views of their source, `tensor.pad` and `tensor.concat` allocate,
    constants and arguments are no arena bytes. A `tensor.empty` used more
    than once becomes one per use, each placed right before its user (where
    bufferization will put its alloc). The order comes from memplan's Core
    scheduler (exact search per window, greedy beyond) and is never worse
    than the given one in this model. Blocks with dynamic or unranked
    tensors, or ops producing tensors the model does not know, are left
    alone.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Report per function the model's peak before and after, and why a "
           "block was left alone",
           "::memplan::helpDefault">,
    Option<"stateBudget", "state-budget", "int64_t", /*default=*/"20000",
           "Most scheduled sets the exact search holds per window (0: greedy "
           "only)",
           "::memplan::helpDefault">,
  ];
}

def TensorMemHoistConstants
    : Pass<"tensor-mem-hoist-constants", "mlir::ModuleOp"> {
  let summary = "Fold or hoist tensors computed only from constants";
  let description = [{
    Runs on tensors, before bufferization. A static-shape tensor computed in
    a function's entry block only from constants by pure ops (no function
    argument reaches it), and read by an op that is not itself computed from
    constants, is computed once instead of on every call:
    - folded at compile time where the data is present: on raw bytes for
      dense attributes and `dense_resource` blobs of any size (transposes,
      permuting generics, reshapes, element casts, exact elementwise ops;
      `fold-bytes`), a splat through an elementwise/transpose payload,
      MLIR's linalg and tensor folders up to `fold-limit-bytes`;
    - otherwise hoisted: a `memref.global` (marked `memplan.hoisted`) that a
      private init function fills on the first call of the function (a flag
      global and an `scf.if` at entry), read as
      `bufferization.to_tensor ... restrict`.
    Either way it is no longer an arena buffer. Left alone: values used as a
    destination (outs) or yielded/returned/passed to calls, directly or
    through any alias (select, reshape, cast, branch results), dynamic shapes,
    anything inside a nested region. The init function runs exactly once,
    also under concurrent first calls (an atomic once-flag).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::bufferization::BufferizationDialect",
                           "mlir::func::FuncDialect",
                           "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
  let options = [
    Option<"foldLimitBytes", "fold-limit-bytes", "int64_t",
           /*default=*/"1048576",
           "Largest non-splat tensor MLIR's folders fold element by element, "
           "in bytes; a raw-byte fold (fold-bytes) of any size gives a dense "
           "attribute up to this size, a dense_resource blob above it",
           "::memplan::helpDefault">,
    Option<"foldBytes", "fold-bytes", "bool", /*default=*/"true",
           "Fold transposes and permuting generics, reshapes, element casts "
           "and exact elementwise ops of constant data (dense attributes and "
           "dense_resource blobs, any size) on raw bytes (off: only splats "
           "and MLIR's folders up to fold-limit-bytes)",
           "::memplan::helpDefault">,
    Option<"maxGrowth", "max-growth", "int64_t", /*default=*/"1",
           "Leave alone a tensor larger than this many times the constant "
           "data it reads (a broadcast would become permanent data; 0: no "
           "limit)",
           "::memplan::helpDefault">,
    Option<"mode", "mode", "HoistMode", /*default=*/"HoistMode::Memory",
           "What a constant-derived tensor may cost", [{::llvm::cl::values(
             clEnumValN(HoistMode::Memory, "memory",
                        "never a second copy: read through permutations, "
                        "fold only where the constants it reads die with it, "
                        "hoist nothing (the footprint never grows)"),
             clEnumValN(HoistMode::Speed, "speed",
                        "compute once: fold, else hoist into a global filled "
                        "on the first call (the footprint grows by it)")), ::memplan::helpDefault}]>,
    Option<"hoist", "hoist", "bool", /*default=*/"true",
           "With mode=speed, hoist what cannot be folded (off: fold only)",
           "::memplan::helpDefault">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for every tensor folded, hoisted or left alone",
           "::memplan::helpDefault">,
  ];
  let statistics = [
    Statistic<"numFolded", "tensors-folded", "Tensors folded to constants">,
    Statistic<"numHoisted", "tensors-hoisted", "Tensors hoisted to globals">,
    Statistic<"bytesFolded", "bytes-folded", "Bytes of the folded tensors">,
    Statistic<"bytesHoisted", "bytes-hoisted", "Bytes of the hoisted tensors">,
    Statistic<"numReadThrough", "permutations-read-through",
              "Permuted copies of constants their readers now read through a "
              "map">,
  ];
}

def TensorMemResultsToOutParams
    : Pass<"tensor-mem-results-to-out-params", "mlir::ModuleOp"> {
  let summary = "Buffers a callee returns become out-parameters its callers "
                "allocate";
  let description = [{
    Like upstream's `buffer-results-to-out-params` with
    `hoist-static-allocs`, but default-deny: a memref result becomes a
    trailing argument only when every return gives the same fresh
    `memref.alloc` of the callee's entry block, nothing else keeps it (not
    stored, not freed, not handed to a call that keeps it, not returned
    twice), its layout is the identity and its dynamic sizes, if any, come
    from the callee's arguments or constants; the function is reached only
    by `func.call` (a `func.constant` leaves it alone) and is not recursive.
    Each call then allocates the buffer right before it: an ordinary buffer
    of the caller, which tensor-mem-plan plans in the caller's arena. A
    caller that returns such a buffer qualifies in turn. A public function
    keeps its signature for callers outside the module: the module's calls
    go to a private copy with out-parameters (`<name>_out_params`), unless
    `modify-public-functions`. memplan-pipeline runs it after bufferization
    (option `out-params`).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::memref::MemRefDialect"];
  let options = [
    Option<"modifyPublicFunctions", "modify-public-functions", "bool",
           /*default=*/"false",
           "Change public functions in place (callers outside the module "
           "must then pass the out-parameters)",
           "::memplan::helpDefault">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "A remark per result that becomes an out-parameter, and per "
           "returned buffer that stays, with the reason",
           "::memplan::helpDefault">,
  ];
  let statistics = [
    Statistic<"numOutParams", "out-params", "Results made out-parameters">,
    Statistic<"numClones", "public-clones",
              "Private copies of public functions made for the module's "
              "calls">,
  ];
}

#endif // MEMPLAN_TRANSFORMS_PASSES
