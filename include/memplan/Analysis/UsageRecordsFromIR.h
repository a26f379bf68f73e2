//===- UsageRecordsFromIR.h - Buffer liveness as usage records --*- C++ -*-===//
//
// Turns the buffers of one function into usage records {size, first task,
// last task}. Tasks are the function's ops numbered in program order; an op
// with regions spans the numbers of its nested ops. The analysis never
// mutates IR: tensor-mem-plan asks it, then only rewrites.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_USAGERECORDSFROMIR_H
#define MEMPLAN_ANALYSIS_USAGERECORDSFROMIR_H

#include "memplan/Analysis/AttrNames.h"
#include "memplan/Analysis/BufferAliases.h"
#include "memplan/Analysis/ElementLayout.h"
#include "memplan/Analysis/TaskNumbering.h"
#include "memplan/Analysis/UnplannedReason.h"
#include "memplan/Core/Types.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace memplan {

/// A dynamic size planned at a bound the user promised (memplan.max,
/// dim-bounds): the rewrite checks it at run time.
struct SizePromise {
  /// Which of the alloc's dynamic sizes.
  unsigned DynamicIndex = 0;
  int64_t Bound = 0;
  /// Names the promise: "memplan.max = 16 on argument 0 of @f".
  std::string What;
};

/// A buffer the planner may place: a static-shape memref.alloc whose buffer
/// (with every alias) stays inside the function.
struct PlannableBuffer {
  mlir::memref::AllocOp Alloc;
  /// Record.Size is the buffer's byte size; tasks as described above.
  UsageRecord Record;
  /// Memory space of the buffer; each space gets its own arena.
  mlir::Attribute MemorySpace;
  /// A dynamic alloc (only with UsageRecordsOptions::DynamicRecords).
  bool Dynamic = false;
  /// Marked `memplan.persistent`: never shares bytes with another buffer.
  bool Persistent = false;
  /// Alignment its accesses need: its element's, or the alloc's if larger.
  uint64_t Alignment = 1;
  /// The op at the record's last task: the arena must outlive it.
  mlir::Operation *LastUser = nullptr;
  /// memref.dealloc ops that free this buffer (through any alias).
  llvm::SmallVector<mlir::Operation *, 2> Deallocs;
  /// The promised bounds its planned size rests on.
  llvm::SmallVector<SizePromise, 1> Promises;
};

/// A buffer left alone, with the reason and the op that caused it.
struct UnplannedBuffer {
  /// The op that allocates it (memref.alloc, or another allocating op).
  mlir::Operation *Alloc;
  UnplannedReason Reason;
  mlir::Operation *Culprit = nullptr;
};

struct FunctionBuffers {
  std::vector<PlannableBuffer> Planned;
  /// With UsageRecordsOptions::DynamicRecords: dynamic buffers that could be
  /// planned once their sizes are known.
  std::vector<PlannableBuffer> Dynamic;
  std::vector<UnplannedBuffer> Unplanned;
  /// Number of tasks (ops) in the function.
  uint64_t NumTasks = 0;
  /// The input frees its buffers (memref.dealloc or bufferization.dealloc
  /// appear), so the arena must be freed too.
  bool FreesBuffers = false;
};

/// The planned buffers of one function in one memory space: one arena.
struct ArenaGroup {
  mlir::Attribute MemorySpace;
  llvm::SmallVector<const PlannableBuffer *> Buffers;
};

/// One group per memory space, in order of first appearance.
llvm::SmallVector<ArenaGroup>
groupByMemorySpace(const FunctionBuffers &Buffers);

/// What a strategy plans for one arena.
struct ArenaInput {
  /// The buffers' records; persistent ones (with PreserveIntermediates,
  /// all) live over the whole function, so nothing shares their bytes.
  std::vector<UsageRecord> Records;
  /// At least the requested alignment, raised by any buffer that needs more.
  uint64_t Alignment = 1;
};

ArenaInput arenaInput(const ArenaGroup &Group, uint64_t NumTasks,
                      uint64_t Alignment, bool PreserveIntermediates);

/// The default cap on a bounded dynamic buffer: 256 MiB.
constexpr uint64_t kDefaultMaxStaticBytes = uint64_t(1) << 28;

struct UsageRecordsOptions {
  /// The ownership-based deallocation will run after planning. It frees a
  /// memref forwarded through a block argument or a region result by the
  /// base pointer of its view, which for a view of the arena is the arena
  /// (a double free): such buffers are left alone.
  bool DeallocationRunsAfter = false;
  /// The largest value of a dynamic size that comes straight from the
  /// function's arguments (an index argument, or a dim of a shaped one)
  /// without a `memplan.max` of its own; negative: none (ExecuTorch and
  /// TVM Relax plan dynamic tensors at such a user-given bound).
  int64_t ArgumentDimBound = -1;
  /// A dynamic alloc is planned at its bound only up to this many bytes;
  /// above, it stays dynamic (a provable minui %n, 2^40 is no use).
  uint64_t MaxStaticBytes = kDefaultMaxStaticBytes;
  /// Dynamic allocs without a bound get records too (Record.Size is the
  /// bytes of their static part), in FunctionBuffers::Dynamic, for
  /// planning at run time.
  bool DynamicRecords = false;
};

/// What the analysis found for one allocation, whatever the options.
struct AllocFacts {
  /// Null for an allocation by another op (then Left says so).
  mlir::memref::AllocOp Alloc;
  /// Why it is left alone under any options.
  std::optional<UnplannedBuffer> Left;
  /// Why it is left alone when the deallocation runs after planning; of the
  /// two, the reason whose kind comes first in UnplannedKind is reported.
  std::optional<UnplannedBuffer> LeftIfDeallocationRunsAfter;
  /// Tasks, last user, deallocs, memory space; the options give the size
  /// and the alignment.
  PlannableBuffer Buffer;
};

/// The analysis of one function (or any FunctionOpInterface op with a body)
/// as an MLIR analysis: tensor-mem-plan gets it through getAnalysis /
/// getChildAnalysis, so -mlir-timing shows it under the pass. Allocs of
/// functions nested inside it are not its own. It is the one place that
/// numbers the tasks and follows aliases (BufferViewFlowAnalysis): the
/// in-place pairs and the report read them from here.
class BufferUsageAnalysis {
public:
  explicit BufferUsageAnalysis(mlir::Operation *Function);

  /// The buffers as planned under Options.
  FunctionBuffers buffers(const UsageRecordsOptions &Options) const;

  /// The function's ops as tasks.
  const TaskNumbering &tasks() const { return Tasks; }

  /// Every value that may hold the buffer of Alloc, its deallocs and its
  /// escape; null for an alloc left alone before its aliases were followed
  /// (inside a parallel loop, ...). Every planned buffer has them.
  const BufferAliasInfo *aliasesOf(mlir::memref::AllocOp Alloc) const;

  /// The op that computes the buffer of Alloc: the last one (in task order)
  /// writing it before an op only reads it; the alloc itself when nothing
  /// writes it (BufferWriters.cpp).
  mlir::Operation *writerOf(mlir::memref::AllocOp Alloc) const;

  std::vector<AllocFacts> Allocs;
  uint64_t NumTasks = 0;
  bool FreesBuffers = false;

private:
  friend class UsageAnalyzer;
  TaskNumbering Tasks;
  llvm::DenseMap<mlir::Operation *, BufferAliasInfo> AliasInfo;
};

/// BufferUsageAnalysis(Function).buffers(Options).
FunctionBuffers computeUsageRecords(mlir::FunctionOpInterface Function,
                                    UsageRecordsOptions Options = {});

/// Byte size of a dynamic alloc at the constant upper bound of each of its
/// dynamic sizes (ValueBoundsOpInterface, or `memplan.max` on a function
/// argument, or dim-bounds on a dynamic dimension of one); none, with \p Why
/// set, when a size has no bound (DynamicShape) or the layout is unknown
/// (NoLayout). The sizes whose bound is a promise of the user's are added
/// to \p Promises.
std::optional<ElementLayout>
boundedBufferLayout(mlir::memref::AllocOp Alloc, UnplannedReason &Why,
                    int64_t ArgumentDimBound = -1,
                    llvm::SmallVectorImpl<SizePromise> *Promises = nullptr);

/// Byte size (Size) of a memref type's buffer and the alignment its
/// elements need; none, with \p Why set, when the planner cannot use it
/// (dynamic shape, layout, element type, overflow).
std::optional<ElementLayout> staticBufferLayout(mlir::MemRefType Type,
                                                mlir::Operation *Scope,
                                                UnplannedReason &Why);

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_USAGERECORDSFROMIR_H
