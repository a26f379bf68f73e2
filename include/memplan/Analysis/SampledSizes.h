//===- SampledSizes.h - Index values at sample entry values -----*- C++ -*-===//
//
// A dynamic size is often a polynomial of a few values a function knows at
// its entry (a sequence length S: 4*S*768, 4*S*S*12). What depends on such
// sizes (a symbolic plan's stacking orders, tensor-mem-schedule's order) is
// chosen by evaluating them at sample values of those entry values, the
// leaves, and judged at every sample.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_SAMPLEDSIZES_H
#define MEMPLAN_ANALYSIS_SAMPLEDSIZES_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <utility>

namespace memplan {

/// A value the caller picks: an argument of the entry block (Dim -1), or
/// dimension Dim of one (tensor.dim / memref.dim with a constant index: the
/// same leaf however many dim ops read it). A dim with an index computed in
/// the function is a leaf of its own: (its result, -2).
using SizeLeaf = std::pair<mlir::Value, int64_t>;

/// The value of index values when every leaf takes Sample, or its own value
/// in Skew. eval() fails with Unknown set when a value is not a polynomial of
/// leaves (through +, -, *, /, %, min, max, casts and affine.apply); without
/// it, when this sample overflows or goes negative. Leaves lists the leaves
/// met, in order.
class IndexSampler {
public:
  IndexSampler(mlir::Block &Entry, int64_t Sample,
               const llvm::DenseMap<SizeLeaf, int64_t> *Skew = nullptr)
      : Entry(Entry), Sample(Sample), Skew(Skew) {}

  std::optional<int64_t> eval(mlir::Value V);
  /// Dimension Dim of the entry argument Arg (a tensor or memref the caller
  /// passes), as the leaf a dim op of it reads.
  int64_t argumentDim(mlir::BlockArgument Arg, int64_t Dim) {
    return leafValue({Arg, Dim});
  }
  bool isEntryArgument(mlir::Value V) const;

  bool Unknown = false;
  llvm::SmallVector<SizeLeaf> Leaves;

private:
  int64_t leafValue(SizeLeaf Leaf);
  std::optional<int64_t> compute(mlir::Value V);
  std::optional<int64_t> binary(mlir::Operation *Op);
  std::optional<int64_t> affine(mlir::AffineMap Map, mlir::ValueRange Operands,
                                bool Max, bool Min);

  mlir::Block &Entry;
  int64_t Sample;
  const llvm::DenseMap<SizeLeaf, int64_t> *Skew;
  llvm::DenseMap<mlir::Value, std::optional<int64_t>> Memo;
};

/// One assignment of the leaves: every leaf Sample but those in Skew.
struct SamplePoint {
  int64_t Sample;
  llvm::DenseMap<SizeLeaf, int64_t> Skew;
};

/// Every leaf at each of 24 values from 1 to 4096, about 1.4x apart (the
/// orders that win anywhere between are found); with several leaves (a batch
/// B and a length S), each of up to four also apart from the others at 1,
/// 16, 256 and 4096, 12 points each: orders chosen on the diagonal alone
/// (B = S) were up to 1.5x larger at B = 1, S = 2048. With two leaves the
/// first apart from the second already gives every pair of distinct values.
llvm::SmallVector<SamplePoint> samplePoints(llvm::ArrayRef<SizeLeaf> Leaves);

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_SAMPLEDSIZES_H
