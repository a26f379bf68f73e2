// Plan a linalg-on-tensors module from C++ and read the plan as data.
//   memplan-embed-snippet net.mlir [strategy]
#include "memplan/Transforms/Pipeline.h"
#include "memplan/Transforms/PlanResult.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc < 2)
    return llvm::errs() << "usage: " << argv[0] << " net.mlir [strategy]\n", 2;

  // The dialects of the input, and the extensions: among them the
  // BufferizableOpInterface models of arith, tensor, linalg and func, without
  // which one-shot-bufferize fails with "op was not bufferized".
  mlir::DialectRegistry Registry;
  mlir::registerAllDialects(Registry);
  mlir::registerAllExtensions(Registry);
  mlir::MLIRContext Context(Registry);
  mlir::OwningOpRef<mlir::ModuleOp> Module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &Context);
  if (!Module)
    return 1;

  // Bufferize as memplan-pipeline does, then plan: the IR is not rewritten.
  mlir::PassManager PM(&Context);
  memplan::buildMemPlanBufferization(PM);
  if (mlir::failed(PM.run(*Module)))
    return 1;
  memplan::PlanOptions Options;
  Options.Strategy = argc > 2 ? argv[2] : "auto";
  llvm::Expected<std::vector<memplan::PlannedArena>> Arenas =
      memplan::planModule(*Module, Options);
  if (!Arenas)
    return llvm::errs() << llvm::toString(Arenas.takeError()) << "\n", 1;

  for (const memplan::PlannedArena &A : *Arenas) {
    llvm::outs() << "@" << A.Function << ": arena " << A.arenaSize()
                 << " bytes, lower bound " << A.liveBound() << ", strategy "
                 << A.Chosen << "\n";
    for (size_t I = 0; I < A.Records.size(); ++I)
      llvm::outs() << "  " << A.Records[I].Size << " bytes at offset "
                   << A.offset(I) << ", tasks " << A.Records[I].FirstTask << "-"
                   << A.Records[I].LastTask << ": " << A.Allocs[I]->getLoc()
                   << "\n";
  }
  return 0;
}
