//===- BufferAliases.h - Every value that may hold a buffer -----*- C++ -*-===//
//
// Default-deny alias analysis for one buffer of a function: the closure of
// every value that may hold (a view of) it, and the first use that takes it
// out of the planner's sight. Region and branch forwarding come from
// BufferViewFlowAnalysis; ops without alias information are treated as
// aliasing (docs/Liveness.md lists the table). Both tensor-mem-plan and
// tensor-mem-lower-runtime ask it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_BUFFERALIASES_H
#define MEMPLAN_ANALYSIS_BUFFERALIASES_H

#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <optional>
#include <string>

namespace memplan {

/// Why a buffer cannot be managed by memplan, and the op that caused it.
struct BufferEscape {
  std::string Reason;
  mlir::Operation *Culprit = nullptr;
};

struct BufferAliasInfo {
  /// Every value that may hold the buffer: views, casts, forwarded block
  /// arguments and results, tensors made from it, async tokens and values
  /// of asynchronous work that reads it (their last use joins that work).
  llvm::SetVector<mlir::Value> Aliases;
  /// memref.dealloc ops that free the buffer through some alias.
  llvm::SmallVector<mlir::Operation *, 2> Deallocs;
  /// Set when the buffer escapes the analysis (returned, stored, captured,
  /// freed by another op, run asynchronously without a join, ...).
  std::optional<BufferEscape> Escape;
};

class BufferAliasAnalysis {
public:
  explicit BufferAliasAnalysis(mlir::FunctionOpInterface Fn);

  /// Aliases, deallocs and escape of the buffer \p Root (an allocation).
  BufferAliasInfo analyze(mlir::Value Root);

  /// An op whose regions run concurrently with the ops after it, joined
  /// only by a later wait (async.execute).
  static bool isAsynchronous(mlir::Operation *Op);

  /// Why this one use takes a buffer out of sight (returned, stored, kept by
  /// a call, ...), or nothing.
  std::optional<std::string> escapes(mlir::OpOperand &Use);

private:
  void addAliasResults(mlir::OpOperand &Use,
                       llvm::SmallVectorImpl<mlir::Value> &Out);
  std::optional<BufferEscape> checkJoins(const BufferAliasInfo &Info);

  mlir::FunctionOpInterface Fn;
  mlir::BufferViewFlowAnalysis Flow;
};

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_BUFFERALIASES_H
