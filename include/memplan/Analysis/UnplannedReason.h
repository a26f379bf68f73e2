//===- UnplannedReason.h - Why a buffer is left alone -----------*- C++ -*-===//
//
// The reasons tensor-mem-plan leaves a buffer alone, as a kind the code tests
// and one message table (UnplannedReason.cpp) the report, the remarks and the
// pictures read. Some kinds carry a detail the message names (the op, the
// escape, the bound).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_UNPLANNEDREASON_H
#define MEMPLAN_ANALYSIS_UNPLANNEDREASON_H

#include <cstdint>
#include <string>

namespace memplan {

/// Declared in the order reasons are given: when an alloc has more than one,
/// the first kind in this order is the one reported.
enum class UnplannedKind : uint8_t {
  // Found by the sizes under the options (BufferSizes.cpp).
  /// Allocated by an op other than memref.alloc (detail: its name).
  NotPlainAlloc,
  /// A dynamic size with no bound.
  DynamicShape,
  /// A bound above max-static-bytes (detail: the bound and the cap).
  BoundAboveCap,
  /// No byte size or layout the planner can use (detail: why).
  NoLayout,
  // Found by the analysis whatever the options (UsageRecordsFromIR.cpp).
  /// Detail: the loop's op name.
  InParallelLoop,
  /// Detail: the region's op name.
  InAsyncRegion,
  /// Detail: the region's op name.
  InUnknownRegion,
  CarriedByLoop,
  CarriedByCFGLoop,
  /// The buffer escapes (detail: BufferEscape::Reason).
  Escapes,
  // Only when the ownership-based deallocation runs after planning.
  ForwardedThroughControlFlow,
  UsedInAnotherBlock,
  // Found last.
  OutlivesIteration,
};

struct UnplannedReason {
  UnplannedKind Kind = UnplannedKind::DynamicShape;
  std::string Detail;

  /// The message the report and the remarks give.
  std::string message() const;
  /// A dynamic shape the run-time lowering may serve (bounded or not).
  bool isDynamicShape() const {
    return Kind == UnplannedKind::DynamicShape ||
           Kind == UnplannedKind::BoundAboveCap;
  }
  /// Said with a remark even when remarks are off: a bound the user may not
  /// expect to be refused.
  bool alwaysRemarked() const { return Kind == UnplannedKind::BoundAboveCap; }
};

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_UNPLANNEDREASON_H
