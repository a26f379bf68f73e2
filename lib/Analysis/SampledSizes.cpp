//===- SampledSizes.cpp - Index values at sample entry values -------------===//

#include "memplan/Analysis/SampledSizes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace memplan;

namespace {
constexpr int64_t kSamples[] = {1,   2,   3,   4,    6,    8,    12,   16,
                                24,  32,  48,  64,   96,   128,  192,  256,
                                384, 512, 768, 1024, 1536, 2048, 3072, 4096};
constexpr int64_t kSkewSamples[] = {1, 16, 256, 4096};
constexpr size_t kMaxSkewedLeaves = 4;
} // namespace

bool IndexSampler::isEntryArgument(Value V) const {
  auto Arg = dyn_cast<BlockArgument>(V);
  return Arg && Arg.getOwner() == &Entry;
}

int64_t IndexSampler::leafValue(SizeLeaf Leaf) {
  if (!llvm::is_contained(Leaves, Leaf))
    Leaves.push_back(Leaf);
  if (Skew)
    if (auto It = Skew->find(Leaf); It != Skew->end())
      return It->second;
  return Sample;
}

std::optional<int64_t> IndexSampler::eval(Value V) {
  auto It = Memo.find(V);
  if (It != Memo.end())
    return It->second;
  std::optional<int64_t> R = compute(V);
  Memo[V] = R;
  return R;
}

std::optional<int64_t> IndexSampler::binary(Operation *Op) {
  std::optional<int64_t> L = eval(Op->getOperand(0));
  std::optional<int64_t> R = eval(Op->getOperand(1));
  if (!L || !R)
    return std::nullopt;
  int64_t A = *L, C = *R;
  auto Div = [&](bool Ceil) -> std::optional<int64_t> {
    if (C <= 0 || A < 0)
      return std::nullopt;
    return Ceil ? (A + C - 1) / C : A / C;
  };
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(Op)
      .Case<arith::AddIOp>([&](auto) { return llvm::checkedAdd(A, C); })
      .Case<arith::SubIOp>([&](auto) { return llvm::checkedSub(A, C); })
      .Case<arith::MulIOp>([&](auto) { return llvm::checkedMul(A, C); })
      .Case<arith::DivSIOp, arith::DivUIOp, arith::FloorDivSIOp>(
          [&](auto) { return Div(false); })
      .Case<arith::CeilDivSIOp, arith::CeilDivUIOp>(
          [&](auto) { return Div(true); })
      .Case<arith::RemSIOp, arith::RemUIOp>(
          [&](auto) -> std::optional<int64_t> {
            if (C <= 0 || A < 0)
              return std::nullopt;
            return A % C;
          })
      .Case<arith::MaxSIOp, arith::MaxUIOp>(
          [&](auto) { return std::max(A, C); })
      .Case<arith::MinSIOp, arith::MinUIOp>(
          [&](auto) { return std::min(A, C); })
      .Default([&](Operation *) {
        Unknown = true;
        return std::nullopt;
      });
}

std::optional<int64_t> IndexSampler::affine(AffineMap Map, ValueRange Operands,
                                            bool Max, bool Min) {
  SmallVector<Attribute> Consts;
  for (Value O : Operands) {
    std::optional<int64_t> C = eval(O);
    if (!C)
      return std::nullopt;
    Consts.push_back(IntegerAttr::get(IndexType::get(Map.getContext()), *C));
  }
  SmallVector<Attribute> Results;
  if (failed(Map.constantFold(Consts, Results)) || Results.empty())
    return std::nullopt;
  std::optional<int64_t> R;
  for (Attribute A : Results) {
    int64_t V = cast<IntegerAttr>(A).getInt();
    R = !R ? V : Max ? std::max(*R, V) : Min ? std::min(*R, V) : V;
  }
  return R;
}

std::optional<int64_t> IndexSampler::compute(Value V) {
  if (isEntryArgument(V))
    return leafValue({V, -1});
  Operation *Op = V.getDefiningOp();
  if (!Op) {
    Unknown = true;
    return std::nullopt;
  }
  if (auto C = dyn_cast<arith::ConstantOp>(Op)) {
    if (auto I = dyn_cast<IntegerAttr>(C.getValue()))
      return I.getValue().getSExtValue();
  }
  // A dim of an argument is a leaf: a size the caller picks.
  if (isa<memref::DimOp, tensor::DimOp>(Op) &&
      isEntryArgument(Op->getOperand(0))) {
    if (auto C = Op->getOperand(1).getDefiningOp<arith::ConstantIndexOp>())
      return leafValue({Op->getOperand(0), C.value()});
    return leafValue({V, -2});
  }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(Op))
    return eval(Op->getOperand(0));
  if (auto A = dyn_cast<affine::AffineApplyOp>(Op))
    return affine(A.getAffineMap(), A.getMapOperands(), false, false);
  if (auto A = dyn_cast<affine::AffineMaxOp>(Op))
    return affine(A.getAffineMap(), A.getMapOperands(), true, false);
  if (auto A = dyn_cast<affine::AffineMinOp>(Op))
    return affine(A.getAffineMap(), A.getMapOperands(), false, true);
  if (Op->getNumOperands() == 2 && Op->getNumResults() == 1)
    return binary(Op);
  Unknown = true;
  return std::nullopt;
}

SmallVector<SamplePoint> memplan::samplePoints(ArrayRef<SizeLeaf> Leaves) {
  SmallVector<SamplePoint> Points;
  for (int64_t Sample : kSamples)
    Points.push_back({Sample, llvm::DenseMap<SizeLeaf, int64_t>()});
  size_t Skewed = Leaves.size() == 2 ? 1 : kMaxSkewedLeaves;
  if (Leaves.size() > 1)
    for (SizeLeaf Leaf : Leaves.take_front(Skewed))
      for (int64_t Own : kSkewSamples)
        for (int64_t Others : kSkewSamples)
          if (Own != Others) {
            Points.push_back({Others, llvm::DenseMap<SizeLeaf, int64_t>()});
            Points.back().Skew[Leaf] = Own;
          }
  return Points;
}
