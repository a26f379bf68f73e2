//===- LowerToRuntime.cpp - Dynamic allocs to memplan_runtime calls -------===//

#include "memplan/Transforms/Passes.h"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMLOWERRUNTIME
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

namespace {
struct TensorMemLowerRuntimePass
    : memplan::impl::TensorMemLowerRuntimeBase<TensorMemLowerRuntimePass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation().emitError("tensor-mem-lower-runtime is not implemented yet");
    signalPassFailure();
  }
};
} // namespace
