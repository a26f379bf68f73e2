// Plans records with a strategy of its own, and builds the memplan pipeline
// into its own pass manager: both halves of the installed package.
#include "memplan/Core/Strategy.h"
#include "memplan/Transforms/Pipeline.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

int main() {
  // A user strategy is a peer of the built-in ones: every buffer on its own.
  memplan::registerStrategy(
      "consumer-stack",
      [](llvm::ArrayRef<memplan::UsageRecord> Records,
         const memplan::StrategyOptions &) -> llvm::Expected<memplan::Plan> {
        memplan::OffsetsAssignment A;
        for (const memplan::UsageRecord &R : Records) {
          A.Offsets.push_back(A.TotalSize);
          A.TotalSize += R.Size;
        }
        return memplan::planFromOffsets(A);
      });
  std::vector<memplan::UsageRecord> Records = {
      {64, 0, 1}, {64, 1, 2}, {64, 2, 3}};
  for (const char *Name : {"consumer-stack", "greedy-by-size-offsets"}) {
    llvm::Expected<memplan::Plan> P = memplan::planMemory(Name, Records);
    if (!P) {
      llvm::errs() << llvm::toString(P.takeError()) << "\n";
      return 1;
    }
    llvm::outs() << Name << " " << P->Offsets.TotalSize << "\n";
  }
  mlir::OpPassManager PM("builtin.module");
  memplan::MemPlanPipelineOptions Options;
  Options.strategy = "consumer-stack";
  memplan::buildMemPlanPipeline(PM, Options);
  PM.printAsTextualPipeline(llvm::outs());
  llvm::outs() << "\nplugin "
               << (llvm::sys::fs::exists(MEMPLAN_PLUGIN_PATH) ? "found"
                                                              : "missing")
               << "\n";
  return 0;
}
