//===- TestInplaceCandidates.cpp - Prints in-place pairings and refusals --===//
//
// A test pass: a remark on every op the in-place finder looks at, one per
// operand/result pairing it tries, saying whether the two share bytes or
// which rule refuses them, so lit tests check the rule, not the wording of
// tensor-mem-plan's remarks.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/InplacePairs.h"

#include "mlir/Pass/Pass.h"

using namespace mlir;

namespace {
struct TestInplaceCandidatesPass
    : PassWrapper<TestInplaceCandidatesPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestInplaceCandidatesPass)
  StringRef getArgument() const final {
    return "test-memplan-inplace-candidates";
  }
  StringRef getDescription() const final {
    return "Emit a remark for every in-place pairing looked at, and why it "
           "was refused";
  }
  void runOnOperation() override {
    getOperation()->walk([](FunctionOpInterface Fn) {
      if (Fn.isExternal())
        return;
      memplan::BufferUsageAnalysis Analysis(Fn);
      memplan::FunctionBuffers Buffers = Analysis.buffers({});
      SmallVector<memplan::InplaceAttempt> Attempts;
      memplan::findInplacePairs(Fn, Analysis, Buffers, &Attempts);
      for (const memplan::InplaceAttempt &A : Attempts) {
        InFlightDiagnostic D = A.Op->emitRemark() << "in-place";
        if (A.Operand)
          D << " operand #" << *A.Operand;
        if (A.Result)
          D << " into #" << *A.Result;
        if (A.Refused)
          D << ": refused, " << memplan::inplaceRefusalText(*A.Refused);
        else
          D << ": paired";
      }
    });
  }
};
} // namespace

namespace memplan::test {
void registerTestInplaceCandidatesPass() {
  PassRegistration<TestInplaceCandidatesPass>();
}
} // namespace memplan::test
