//===- memplan-opt.cpp - mlir-opt with memplan's passes -------------------===//

#include "memplan/Transforms/LowerToLLVM.h"
#include "memplan/Transforms/Passes.h"
#include "memplan/Transforms/Pipeline.h"
#include "memplan/Version.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"

namespace memplan::test {
void registerTestUsageRecordsPass();
void registerTestLivenessInvariantPass();
void registerTestReadOnlyDataPass();
void registerTestInplaceCandidatesPass();
} // namespace memplan::test

int main(int argc, char **argv) {
  llvm::cl::SetVersionPrinter(memplan::printVersion);
  mlir::registerAllPasses();
  memplan::registerMemPlanPasses();
  memplan::registerMemPlanPipeline();
  memplan::registerMemPlanLowerToLLVM();
  memplan::test::registerTestUsageRecordsPass();
  memplan::test::registerTestLivenessInvariantPass();
  memplan::test::registerTestReadOnlyDataPass();
  memplan::test::registerTestInplaceCandidatesPass();

  mlir::DialectRegistry Registry;
  mlir::registerAllDialects(Registry);
  mlir::registerAllExtensions(Registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "memplan optimizer driver\n", Registry));
}
