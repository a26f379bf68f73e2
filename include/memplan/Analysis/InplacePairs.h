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

#include <optional>
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

/// Why an operand and a result of an op do not share bytes, one value per
/// rule of docs/InplaceReuse.md; inplaceRefusalText gives each its words.
enum class InplaceRefusal {
  /// Not every loop is parallel, the op is not on buffers, or its payload
  /// has effects.
  NotElementwise,
  /// The payload reads the result's old contents.
  ReadsResult,
  /// The result is not a planned buffer of static shape (dynamic,
  /// persistent or left alone), or the operand is not.
  ResultNotPlanned,
  OperandNotPlanned,
  /// The two are one buffer.
  SameBuffer,
  /// The result already takes an operand's bytes, or the operand's bytes
  /// already go on in another result.
  ResultTaken,
  OperandTaken,
  /// Shape, element size, byte size, memory space or layout differ.
  DifferentBytes,
  /// The op does not read and write element i at the same point, once.
  DifferentElements,
  /// The operand is still used after the op.
  OperandLivesOn,
  /// One of them escapes the alias analysis.
  Escapes,
  /// Another operand of the op, or an op inside it, sees one of them.
  SeenElsewhereAtOp,
  /// The result (or a view of it) is touched before the op.
  ResultUsedBefore,
};

/// The one message of each refusal.
llvm::StringRef inplaceRefusalText(InplaceRefusal Why);

/// One operand (or none, for a refusal of the whole op or result) and one
/// result operand of an op the finder looked at, as operand numbers of Op,
/// and why they do not pair (none: they do).
struct InplaceAttempt {
  mlir::Operation *Op = nullptr;
  std::optional<unsigned> Operand;
  std::optional<unsigned> Result;
  std::optional<InplaceRefusal> Refused;
};

/// The pairs among Buffers.Planned of Fn (whose BufferUsageAnalysis is
/// Analysis: its tasks and aliases); a buffer is the operand of at most one
/// pair and the result of at most one. With Attempts, every pairing looked
/// at, in order, with its refusal.
llvm::SmallVector<InplaceCandidate>
findInplacePairs(mlir::FunctionOpInterface Fn,
                 const BufferUsageAnalysis &Analysis,
                 const FunctionBuffers &Buffers,
                 llvm::SmallVectorImpl<InplaceAttempt> *Attempts = nullptr);

/// The same rules among Buffers.Dynamic (sizes known when Fn runs): a pair's
/// shapes must be provably equal, the same static dims and the very same
/// values for the dynamic ones (tensor-mem-lower-runtime's symbolic plans).
llvm::SmallVector<InplaceCandidate>
findDynamicInplacePairs(mlir::FunctionOpInterface Fn,
                        const BufferUsageAnalysis &Analysis,
                        const FunctionBuffers &Buffers);

/// The pairs of Candidates whose buffers are both in Group, as indices into
/// In.Records. Each pair's records are cut to meet at the op's task (the
/// operand is not read after it, the result not touched before it).
std::vector<InplacePair>
addInplacePairs(const ArenaGroup &Group,
                llvm::ArrayRef<InplaceCandidate> Candidates, ArenaInput &In);

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_INPLACEPAIRS_H
