//===- TestReadOnlyData.cpp - Prints the globals each function reads ------===//
//
// A test pass: a remark per function with collectReadOnlyData's answer, so
// lit tests check the analysis apart from the report.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/ReadOnlyData.h"

#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct TestReadOnlyDataPass
    : PassWrapper<TestReadOnlyDataPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestReadOnlyDataPass)
  StringRef getArgument() const final { return "test-memplan-read-only-data"; }
  StringRef getDescription() const final {
    return "Emit a remark with the globals every function reads";
  }
  void runOnOperation() override {
    getOperation()->walk([](FunctionOpInterface Fn) {
      if (Fn.isExternal())
        return;
      memplan::WeightsReport Data = memplan::collectReadOnlyData(Fn);
      InFlightDiagnostic D = Fn->emitRemark()
                             << "read-only data: " << Data.Bytes << " bytes";
      for (const memplan::GlobalBufferReport &B : Data.Buffers)
        D << "; @" << B.Name << " " << B.Bytes << " " << B.Kind;
    });
  }
};
} // namespace

namespace memplan::test {
void registerTestReadOnlyDataPass() {
  PassRegistration<TestReadOnlyDataPass>();
}
} // namespace memplan::test
