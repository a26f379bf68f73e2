//===- MemPlanPlugin.cpp - memplan passes for stock mlir-opt --------------===//

#include "memplan/Transforms/LowerToLLVM.h"
#include "memplan/Transforms/Passes.h"
#include "memplan/Transforms/Pipeline.h"

#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

namespace memplan {
/// Makes memplan's passes flags of stock mlir-opt (FlagForm.cpp).
void installPassFlags();
} // namespace memplan

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MemPlan", LLVM_VERSION_STRING, []() {
            memplan::registerMemPlanPasses();
            memplan::registerMemPlanPipeline();
            memplan::registerMemPlanLowerToLLVM();
            memplan::installPassFlags();
          }};
}
