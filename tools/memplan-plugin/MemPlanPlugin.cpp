//===- MemPlanPlugin.cpp - memplan passes for stock mlir-opt --------------===//

#include "memplan/Transforms/Passes.h"
#include "memplan/Transforms/Pipeline.h"

#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MemPlan", LLVM_VERSION_STRING,
          []() {
            memplan::registerMemPlanPasses();
            memplan::registerMemPlanPipeline();
          }};
}
