//===- TestUsageRecords.cpp - Prints the analysis' usage records ----------===//
//
// A test pass: a remark on every alloc with its usage record, or why it is
// not planned, so lit tests can check the analysis apart from any strategy.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/UsageRecordsFromIR.h"

#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct TestUsageRecordsPass
    : PassWrapper<TestUsageRecordsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestUsageRecordsPass)
  StringRef getArgument() const final { return "test-memplan-usage-records"; }
  StringRef getDescription() const final {
    return "Emit a remark with the usage record of every alloc";
  }
  void runOnOperation() override {
    getOperation()->walk([](FunctionOpInterface Fn) {
      if (Fn.isExternal())
        return;
      memplan::FunctionBuffers B = memplan::computeUsageRecords(Fn);
      for (const memplan::PlannableBuffer &P : B.Planned)
        P.Alloc->emitRemark()
            << "record: " << P.Record.Size << " bytes, tasks ["
            << P.Record.FirstTask << ", " << P.Record.LastTask << "]"
            << (P.Persistent ? ", persistent" : "");
      for (const memplan::UnplannedBuffer &U : B.Unplanned)
        U.Alloc->emitRemark() << "unplanned: " << U.Reason.message();
    });
  }
};
} // namespace

namespace memplan::test {
void registerTestUsageRecordsPass() {
  PassRegistration<TestUsageRecordsPass>();
}
} // namespace memplan::test
