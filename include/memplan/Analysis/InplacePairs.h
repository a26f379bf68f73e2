//===- InplacePairs.h - Results taking a dying operand's bytes --*- C++ -*-===//
//
// Finds, on bufferized IR, the buffers B that may be written over an operand
// buffer A at an op T (an elementwise linalg op, or memref.copy): element i
// of B depends only on element i of A, and A dies at T while B starts there.
// Default-deny: only the ops and shapes listed in docs/InplaceReuse.md
// qualify.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_INPLACEPAIRS_H
#define MEMPLAN_ANALYSIS_INPLACEPAIRS_H

#include "memplan/Analysis/UsageRecordsFromIR.h"
#include "memplan/Core/Types.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace memplan {

/// Result may take the bytes of Operand at Op.
struct InplaceCandidate {
  const PlannableBuffer *Operand = nullptr;
  const PlannableBuffer *Result = nullptr;
  mlir::Operation *Op = nullptr;
  /// Op's own task: the one task both records keep once paired.
  uint64_t Task = 0;
};

/// The pairs among Buffers.Planned of Fn; a buffer is the operand of at most
/// one pair and the result of at most one.
llvm::SmallVector<InplaceCandidate>
findInplacePairs(mlir::FunctionOpInterface Fn, const FunctionBuffers &Buffers);

/// The pairs of Candidates whose buffers are both in Group, as indices into
/// In.Records. Each pair's records are cut to meet at the op's task (the
/// operand is not read after it, the result not touched before it).
std::vector<InplacePair>
addInplacePairs(const ArenaGroup &Group,
                llvm::ArrayRef<InplaceCandidate> Candidates, ArenaInput &In);

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_INPLACEPAIRS_H
