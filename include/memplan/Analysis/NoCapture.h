//===- NoCapture.h - Calls that only use a buffer while they run -*- C++
//-*-===//
//
// A buffer passed to a call stays the caller's when the callee does not keep
// it: does not return it, store it, free it, hand it to anything that may,
// or use it asynchronously. Then the call is an ordinary use at its task.
// The callee says so with the argument attribute `memplan.nocapture` (or
// LLVM's `llvm.nocapture`); a callee with a body in the module gets it from
// markNoCaptureArguments, decided on the body; MLIR's runner utilities that
// print or verify memrefs are known not to keep them.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_NOCAPTURE_H
#define MEMPLAN_ANALYSIS_NOCAPTURE_H

#include "memplan/Analysis/AttrNames.h"

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>

namespace memplan {

/// A call of one of MLIR's runner utilities that only read the memrefs they
/// are given (printMemref*, verifyMemRef*).
bool callOnlyReads(mlir::CallOpInterface Call);

/// The index of the argument of \p Fn (the callee of \p Call) that the
/// operand \p Use feeds; none for an operand that is no call argument.
std::optional<unsigned> calleeArgumentIndex(mlir::CallOpInterface Call,
                                            mlir::FunctionOpInterface Fn,
                                            mlir::OpOperand &Use);

/// Whether the call only uses the buffer in \p Use (an argument operand)
/// while it runs: the callee is a function of the symbol table whose
/// argument carries memplan.nocapture or llvm.nocapture, or a known runner
/// utility. Anything else (an indirect call, an unknown callee) keeps it.
bool callKeepsNoReference(mlir::CallOpInterface Call, mlir::OpOperand &Use);

/// Puts memplan.nocapture on every memref argument of the functions with a
/// body directly in the symbol tables under \p Root whose body does not keep
/// it (decided with BufferAliasAnalysis, calls included, to a fixed point),
/// and removes it where the body does keep it. Returns the arguments it
/// marked that were not marked before (unmarkArguments takes them back).
llvm::SmallVector<std::pair<mlir::FunctionOpInterface, unsigned>>
markNoCaptureArguments(mlir::Operation *Root);

/// Removes memplan.nocapture from \p Marked: tensor-mem-plan marks only for
/// its own analysis and leaves signatures as they were.
void unmarkArguments(
    llvm::ArrayRef<std::pair<mlir::FunctionOpInterface, unsigned>> Marked);

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_NOCAPTURE_H
