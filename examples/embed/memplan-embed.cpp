//===- memplan-embed.cpp - memplan inside a compiler's own pipeline -------===//
//
// What a DL compiler does with memplan: parse a linalg-on-tensors module,
// run memplan::buildMemPlanPipeline (bufferize -> plan -> runtime lowering),
// lower to LLVM, JIT it with mlir::ExecutionEngine and call the entry
// function, which returns an f32.
//
//   memplan-embed net.mlir [--entry=forward] [--strategy=auto]
//       [--report=FILE.json] [--timeline=FILE.html] [--shared-libs=a.so,...]
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Pipeline.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;

static llvm::cl::opt<std::string> Input(llvm::cl::Positional,
                                        llvm::cl::desc("<linalg.mlir>"),
                                        llvm::cl::Required);
static llvm::cl::opt<std::string> Entry("entry",
                                        llvm::cl::desc("Function to call"),
                                        llvm::cl::init("forward"));
static llvm::cl::opt<std::string> Strategy("strategy",
                                           llvm::cl::desc("memplan strategy"),
                                           llvm::cl::init("auto"));
static llvm::cl::opt<std::string> Report("report",
                                         llvm::cl::desc("JSON report file"));
static llvm::cl::opt<std::string>
    Timeline("timeline", llvm::cl::desc("Timeline picture (.svg/.html)"));
static llvm::cl::list<std::string>
    SharedLibs("shared-libs", llvm::cl::CommaSeparated,
               llvm::cl::desc("Libraries the JIT code may call (e.g. "
                              "libmemplan_runtime.so for dynamic shapes)"));

// The lowering measured to work with MLIR 22 (DESIGN.md). Passes of the
// module pass manager: no builtin.module(...) around them, which would nest
// them into modules inside the module.
static const char *kLowerToLLVM =
    "convert-linalg-to-loops, expand-strided-metadata, lower-affine, "
    "convert-scf-to-cf, finalize-memref-to-llvm, convert-arith-to-llvm, "
    "convert-func-to-llvm, convert-cf-to-llvm, reconcile-unrealized-casts";

static int fail(const llvm::Twine &Msg) {
  llvm::errs() << "memplan-embed: " << Msg << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM X(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv, "memplan embedding example\n");
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  registerAllPasses();

  DialectRegistry Registry;
  registerAllDialects(Registry);
  registerAllExtensions(Registry);
  registerAllToLLVMIRTranslations(Registry);
  MLIRContext Context(Registry);

  OwningOpRef<ModuleOp> Module = parseSourceFile<ModuleOp>(Input, &Context);
  if (!Module)
    return fail("cannot parse '" + Input + "'");

  // ExecutionEngine::invoke calls the C interface of the entry function.
  Operation *EntryFn = SymbolTable::lookupSymbolIn(*Module, Entry);
  if (!EntryFn)
    return fail("no function @" + Entry + " in '" + Input + "'");
  EntryFn->setAttr("llvm.emit_c_interface", UnitAttr::get(&Context));

  // 1. memplan: one call adds bufferization, planning and runtime lowering.
  PassManager PM(&Context);
  memplan::MemPlanPipelineOptions Options;
  Options.strategy = Strategy;
  Options.report = Report;
  Options.timeline = Timeline;
  memplan::buildMemPlanPipeline(PM, Options);
  if (failed(PM.run(*Module)))
    return fail("the memplan pipeline failed");

  // What the plan did: arenas are i8 allocs that memref.view ops slice.
  int64_t Views = 0, ArenaBytes = 0;
  Module->walk([&](memref::ViewOp View) {
    ++Views;
    (void)View;
  });
  Module->walk([&](memref::AllocOp Alloc) {
    MemRefType T = Alloc.getType();
    if (T.getElementType().isInteger(8) && T.hasStaticShape() &&
        T.getRank() == 1 && !Alloc->use_empty() &&
        llvm::all_of(Alloc->getUsers(), [](Operation *U) {
          return isa<memref::ViewOp, memref::DeallocOp>(U);
        }))
      ArenaBytes += T.getNumElements();
  });
  llvm::outs() << "planned buffers: " << Views << "\n"
               << "arena bytes: " << ArenaBytes << "\n";

  // 2. The compiler's own lowering to LLVM.
  PassManager Lower(&Context);
  if (failed(parsePassPipeline(kLowerToLLVM, Lower)) ||
      failed(Lower.run(*Module)))
    return fail("lowering to LLVM failed");

  // 3. JIT and call.
  ExecutionEngineOptions EngineOptions;
  SmallVector<StringRef> Libs(SharedLibs.begin(), SharedLibs.end());
  EngineOptions.sharedLibPaths = Libs;
  auto Engine = ExecutionEngine::create(*Module, EngineOptions);
  if (!Engine)
    return fail("cannot create the execution engine: " +
                llvm::toString(Engine.takeError()));
  float Result = 0;
  if (llvm::Error E = (*Engine)->invoke(Entry, ExecutionEngine::result(Result)))
    return fail("calling @" + Entry + ": " + llvm::toString(std::move(E)));
  llvm::outs() << "result: " << llvm::format("%g", Result) << "\n";
  return 0;
}
