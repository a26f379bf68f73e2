//===- PhaseTimer.h - Phases of a pass under -mlir-timing -------*- C++ -*-===//
//
// MLIR's pass timing shows analyses nested under the pass that asked for
// them. A PhaseTimer reports a phase of a pass (analysis, strategy, rewrite)
// through the same instrumentation hooks, so `-mlir-timing` lists it as
// "(A) <name>" under tensor-mem-plan. Without instrumentation it does nothing.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TRANSFORMS_PHASETIMER_H
#define MEMPLAN_TRANSFORMS_PHASETIMER_H

#include "mlir/Pass/AnalysisManager.h"
#include "mlir/Pass/PassInstrumentation.h"

namespace memplan {

class PhaseTimer {
public:
  /// Tag must be the address of a static object unique to the phase: the
  /// timer of each phase accumulates over all the functions of a run.
  PhaseTimer(mlir::AnalysisManager AM, mlir::Operation *Op,
             llvm::StringRef Name, const void *Tag)
      : Instrumentor(AM.getPassInstrumentor()), Op(Op), Name(Name),
        Id(mlir::TypeID::getFromOpaquePointer(Tag)) {
    if (Instrumentor)
      Instrumentor->runBeforeAnalysis(Name, Id, Op);
  }
  ~PhaseTimer() {
    if (Instrumentor)
      Instrumentor->runAfterAnalysis(Name, Id, Op);
  }
  PhaseTimer(const PhaseTimer &) = delete;
  PhaseTimer &operator=(const PhaseTimer &) = delete;

private:
  mlir::PassInstrumentor *Instrumentor;
  mlir::Operation *Op;
  llvm::StringRef Name;
  mlir::TypeID Id;
};

} // namespace memplan

#endif // MEMPLAN_TRANSFORMS_PHASETIMER_H
