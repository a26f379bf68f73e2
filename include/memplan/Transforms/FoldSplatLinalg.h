//===- FoldSplatLinalg.h - Linalg ops on splats fold to splats --*- C++ -*-===//
//
// upstream's linalg constant folding (populateConstantFoldLinalgOperations)
// folds a transpose of dense data but not an elementwise payload over splat
// inputs; this pattern evaluates such a payload once with the ops' own
// folders, so a transpose (or a fill, a scale...) of a splat becomes a splat.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TRANSFORMS_FOLDSPLATLINALG_H
#define MEMPLAN_TRANSFORMS_FOLDSPLATLINALG_H

#include "mlir/IR/PatternMatch.h"

namespace memplan {

/// A linalg op on tensors with one static-shape result, no linalg.index, a
/// payload that does not read its init, and only splat or scalar constant
/// inputs, whose payload folds to a constant: replaced by a splat
/// arith.constant.
void populateFoldSplatLinalgPatterns(mlir::RewritePatternSet &Patterns);

} // namespace memplan

#endif // MEMPLAN_TRANSFORMS_FOLDSPLATLINALG_H
