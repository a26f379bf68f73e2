//===- BufferSizes.cpp - The size of each buffer under the options --------===//
//
// What BufferUsageAnalysis::buffers adds to the analysis under the options:
// each buffer's bytes and alignment, a dynamic size planned at its bound
// (proved, or promised by the user and checked at run time), and the order
// in which the reasons to leave a buffer alone are given.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/AttrNames.h"
#include "memplan/Analysis/ElementLayout.h"
#include "memplan/Analysis/UsageRecordsFromIR.h"
#include "memplan/Core/Strategy.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/Support/Debug.h"

#include <limits>
#include <optional>

#define DEBUG_TYPE "memplan-usage-records"

using namespace mlir;
using namespace memplan;

/// The layout of Type, or Why = NoLayout naming what getBufferLayout found.
static std::optional<ElementLayout>
knownLayout(MemRefType Type, Operation *Scope, UnplannedReason &Why) {
  llvm::Expected<ElementLayout> Layout = getBufferLayout(Type, Scope);
  if (Layout)
    return *Layout;
  Why = {UnplannedKind::NoLayout, llvm::toString(Layout.takeError())};
  return std::nullopt;
}

std::optional<ElementLayout> memplan::staticBufferLayout(MemRefType MemTy,
                                                         Operation *Scope,
                                                         UnplannedReason &Why) {
  if (!MemTy.hasStaticShape()) {
    Why = {UnplannedKind::DynamicShape, ""};
    return std::nullopt;
  }
  return knownLayout(MemTy, Scope, Why);
}

static bool isFunctionArgument(Value V) {
  auto Arg = dyn_cast<BlockArgument>(V);
  return Arg && Arg.getOwner()->isEntryBlock() &&
         isa<FunctionOpInterface>(Arg.getOwner()->getParentOp());
}

namespace {
/// A constant upper bound of a dynamic size, and whether it rests on a
/// promise of the user's (then it is checked at run time).
struct SizeBound {
  int64_t Value = 0;
  /// Set when the bound is the user's: "memplan.max = 16 on argument 0",
  /// "dim-bounds=16 on dim 1 of argument 2".
  std::string Promise;
};
} // namespace

/// The dimension a tensor/memref.dim of a function argument reads, when it
/// is a dynamic one of the argument's type (only those are the user's to
/// bound: a static dimension is what the type says).
static std::optional<std::pair<unsigned, int64_t>>
dynamicArgumentDim(Value Size) {
  Operation *Def = Size.getDefiningOp();
  if (!isa_and_nonnull<memref::DimOp, tensor::DimOp>(Def) ||
      !isFunctionArgument(Def->getOperand(0)))
    return std::nullopt;
  std::optional<int64_t> Index = getConstantIntValue(Def->getOperand(1));
  auto Shaped = dyn_cast<ShapedType>(Def->getOperand(0).getType());
  if (!Index || !Shaped || !Shaped.hasRank() || *Index < 0 ||
      *Index >= Shaped.getRank() || !Shaped.isDynamicDim(*Index))
    return std::nullopt;
  return std::make_pair(cast<BlockArgument>(Def->getOperand(0)).getArgNumber(),
                        *Index);
}

/// dim-bounds=Bound on dimension Dim of the function argument Arg.
static SizeBound dimBound(BlockArgument Arg, int64_t Dim, int64_t Bound) {
  auto Fn = cast<FunctionOpInterface>(Arg.getOwner()->getParentOp());
  return SizeBound{Bound, "dim-bounds=" + std::to_string(Bound) + " on dim " +
                              std::to_string(Dim) + " of argument " +
                              std::to_string(Arg.getArgNumber()) + " of @" +
                              Fn.getName().str()};
}

static std::optional<SizeBound> upperBound(Value Size, int64_t ArgumentBound);

/// Whether `E` never decreases when one of its dims or symbols grows: sums,
/// products with a non-negative constant, division by a positive one.
static bool nonDecreasing(AffineExpr E) {
  if (isa<AffineDimExpr, AffineSymbolExpr, AffineConstantExpr>(E))
    return true;
  auto Bin = cast<AffineBinaryOpExpr>(E);
  auto Const = [](AffineExpr X) { return dyn_cast<AffineConstantExpr>(X); };
  switch (E.getKind()) {
  case AffineExprKind::Add:
    return nonDecreasing(Bin.getLHS()) && nonDecreasing(Bin.getRHS());
  case AffineExprKind::Mul:
    if (auto C = Const(Bin.getRHS()))
      return C.getValue() >= 0 && nonDecreasing(Bin.getLHS());
    if (auto C = Const(Bin.getLHS()))
      return C.getValue() >= 0 && nonDecreasing(Bin.getRHS());
    return false;
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
    if (auto C = Const(Bin.getRHS()))
      return C.getValue() > 0 && nonDecreasing(Bin.getLHS());
    return false;
  default:
    return false;
  }
}

/// A size computed from the user's bounded values (`pos + 1` from
/// `memplan.max` on `pos`, `affine.apply` of a bounded dim): ValueBounds
/// writes its upper bound as a map of those values, which is evaluated at
/// their bounds when it never decreases in them. The promise names each
/// bound it rests on and what it makes of this size.
static std::optional<SizeBound> boundThroughArguments(Value Size,
                                                      int64_t ArgumentBound) {
  if (isFunctionArgument(Size))
    return std::nullopt;
  auto Stop = [&](Value V, std::optional<int64_t> Dim,
                  ValueBoundsConstraintSet &) {
    if (!isFunctionArgument(V))
      return false;
    if (!Dim)
      return V.getType().isIndex();
    auto Shaped = dyn_cast<ShapedType>(V.getType());
    return ArgumentBound >= 0 && Shaped && Shaped.hasRank() &&
           Shaped.isDynamicDim(*Dim);
  };
  AffineMap Map;
  ValueDimList Operands;
  if (failed(ValueBoundsConstraintSet::computeBound(
          Map, Operands, presburger::BoundType::UB,
          ValueBoundsConstraintSet::Variable(Size), Stop,
          /*closedUB=*/true)) ||
      Operands.empty() || !llvm::all_of(Map.getResults(), nonDecreasing))
    return std::nullopt;
  SmallVector<Attribute> Bounds;
  std::string Promise;
  Builder B(Size.getContext());
  for (auto [V, Dim] : Operands) {
    std::optional<SizeBound> Bound =
        Dim ? dimBound(cast<BlockArgument>(V), *Dim, ArgumentBound)
            : upperBound(V, ArgumentBound);
    if (!Bound || Bound->Promise.empty())
      return std::nullopt;
    Bounds.push_back(B.getIndexAttr(Bound->Value));
    Promise += (Promise.empty() ? "" : " and ") + Bound->Promise;
  }
  SmallVector<Attribute> Results;
  if (failed(Map.constantFold(Bounds, Results)) || Results.empty())
    return std::nullopt;
  int64_t Value = std::numeric_limits<int64_t>::max();
  for (Attribute R : Results)
    Value = std::min(Value, cast<IntegerAttr>(R).getInt());
  if (Value < 0)
    return std::nullopt;
  return SizeBound{Value, Promise + ", which bounds this size by " +
                              std::to_string(Value)};
}

/// A constant upper bound of a dynamic size: from ValueBoundsOpInterface
/// (affine.min, arith.minui, tensor/memref.dim of a bounded value, ...), or
/// promised by the user as `memplan.max` on an index argument of the
/// function or with dim-bounds for a dynamic dimension of an argument.
static std::optional<SizeBound> upperBound(Value Size, int64_t ArgumentBound) {
  if (isFunctionArgument(Size) && Size.getType().isIndex()) {
    auto Arg = cast<BlockArgument>(Size);
    auto Fn = cast<FunctionOpInterface>(Arg.getOwner()->getParentOp());
    std::string Where = " on argument " + std::to_string(Arg.getArgNumber()) +
                        " of @" + Fn.getName().str();
    if (auto Max =
            Fn.getArgAttrOfType<IntegerAttr>(Arg.getArgNumber(), kMaxAttr))
      return Max.getInt() >= 0
                 ? std::optional<SizeBound>(
                       {Max.getInt(), kMaxAttr.str() + " = " +
                                          std::to_string(Max.getInt()) + Where})
                 : std::nullopt;
    if (ArgumentBound >= 0)
      return SizeBound{ArgumentBound,
                       "dim-bounds=" + std::to_string(ArgumentBound) + Where};
  }
  // A dynamic dim of a shaped argument, under the user's bound.
  if (ArgumentBound >= 0)
    if (auto Dim = dynamicArgumentDim(Size))
      return dimBound(cast<BlockArgument>(Size.getDefiningOp()->getOperand(0)),
                      Dim->second, ArgumentBound);
  // arith.minui/minsi have no ValueBounds model in MLIR 22: the minimum is
  // at most the bound of either operand.
  if (isa_and_nonnull<arith::MinUIOp, arith::MinSIOp>(Size.getDefiningOp())) {
    std::optional<SizeBound> Lhs =
        upperBound(Size.getDefiningOp()->getOperand(0), ArgumentBound);
    std::optional<SizeBound> Rhs =
        upperBound(Size.getDefiningOp()->getOperand(1), ArgumentBound);
    if (Lhs && Rhs)
      return Lhs->Value <= Rhs->Value ? Lhs : Rhs;
    if (Lhs || Rhs)
      return Lhs ? Lhs : Rhs;
  }
  FailureOr<int64_t> Bound = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(Size),
      /*stopCondition=*/nullptr, /*closedUB=*/true);
  // A proof needs no promise; else the user's bounds may reach it.
  if (failed(Bound) || *Bound < 0)
    return boundThroughArguments(Size, ArgumentBound);
  return SizeBound{*Bound, ""};
}

std::optional<ElementLayout>
memplan::boundedBufferLayout(memref::AllocOp Alloc, UnplannedReason &Why,
                             int64_t ArgumentDimBound,
                             SmallVectorImpl<SizePromise> *Promises) {
  MemRefType Type = Alloc.getType();
  SmallVector<int64_t> Shape(Type.getShape());
  unsigned Next = 0;
  for (int64_t &Dim : Shape)
    if (ShapedType::isDynamic(Dim)) {
      unsigned Index = Next++;
      std::optional<SizeBound> Bound =
          upperBound(Alloc.getDynamicSizes()[Index], ArgumentDimBound);
      if (!Bound) {
        Why = {UnplannedKind::DynamicShape, ""};
        return std::nullopt;
      }
      Dim = Bound->Value;
      if (Promises && !Bound->Promise.empty())
        Promises->push_back({Index, Bound->Value, Bound->Promise});
    }
  return knownLayout(MemRefType::get(Shape, Type.getElementType(),
                                     Type.getLayout(), Type.getMemorySpace()),
                     Alloc.getOperation(), Why);
}

/// The size and alignment of Facts' buffer under Options, or why it has
/// none: a reason of the size first, then the one whose kind comes first.
static std::optional<UnplannedBuffer>
sizeBuffer(const AllocFacts &Facts, const UsageRecordsOptions &Options,
           PlannableBuffer &Buffer) {
  memref::AllocOp Alloc = Facts.Alloc;
  if (!Alloc)
    return Facts.Left;
  auto Leave = [&](UnplannedReason Why) {
    return UnplannedBuffer{Alloc, std::move(Why), nullptr};
  };
  // An alignment no plan takes leaves this buffer alone, not the function:
  // it failed the whole pass, with an error at the function.
  if (uint64_t Align = Alloc.getAlignment().value_or(1); Align > kMaxAlignment)
    return Leave({UnplannedKind::NoLayout,
                  "alignment " + std::to_string(Align) +
                      " is above the largest memplan plans with, " +
                      std::to_string(kMaxAlignment) + " (1 GiB)"});
  MemRefType Type = Alloc.getType();
  SmallVector<SizePromise, 1> Promises;
  UnplannedReason Why;
  std::optional<ElementLayout> Layout =
      Type.hasStaticShape()
          ? staticBufferLayout(Type, Alloc.getOperation(), Why)
          : boundedBufferLayout(Alloc, Why, Options.ArgumentDimBound,
                                &Promises);
  // A bound far above what the program will use (minui %n, 2^40) would
  // make an arena nobody can allocate: above the cap it stays dynamic.
  if (Layout && !Type.hasStaticShape() &&
      Layout->Size > Options.MaxStaticBytes) {
    Why = {UnplannedKind::BoundAboveCap,
           std::to_string(Layout->Size) + " bytes, is above max-static-bytes=" +
               std::to_string(Options.MaxStaticBytes)};
    Layout.reset();
  }
  bool Dynamic = false;
  if (!Layout) {
    if (!Options.DynamicRecords || !Why.isDynamicShape())
      return Leave(std::move(Why));
    Promises.clear();
    Layout = knownLayout(Type, Alloc.getOperation(), Why);
    if (!Layout)
      return Leave(std::move(Why));
    Dynamic = true;
  }
  std::optional<UnplannedBuffer> First = Facts.Left;
  if (Options.DeallocationRunsAfter && Facts.LeftIfDeallocationRunsAfter &&
      (!First ||
       Facts.LeftIfDeallocationRunsAfter->Reason.Kind < First->Reason.Kind))
    First = Facts.LeftIfDeallocationRunsAfter;
  if (First)
    return First;
  Buffer = Facts.Buffer;
  Buffer.Dynamic = Dynamic;
  Buffer.Promises.assign(Promises.begin(), Promises.end());
  Buffer.Record.Size = Layout->Size;
  // Lowered loads and stores assume the element's alignment (16 for
  // vector<3xf32>), and the alloc may ask for more.
  Buffer.Alignment =
      std::max<uint64_t>(Layout->Alignment, Alloc.getAlignment().value_or(1));
  return std::nullopt;
}

FunctionBuffers
BufferUsageAnalysis::buffers(const UsageRecordsOptions &Options) const {
  FunctionBuffers Result;
  Result.NumTasks = NumTasks;
  Result.FreesBuffers = FreesBuffers;
  for (const AllocFacts &Facts : Allocs) {
    PlannableBuffer Buffer;
    if (std::optional<UnplannedBuffer> Why =
            sizeBuffer(Facts, Options, Buffer)) {
      LLVM_DEBUG(llvm::dbgs() << "left alone: " << Facts.Alloc.getLoc() << ": "
                              << Why->Reason.message() << "\n");
      Result.Unplanned.push_back(std::move(*Why));
      continue;
    }
    assert(Buffer.Record.FirstTask <= Buffer.Record.LastTask &&
           Buffer.Record.LastTask < Result.NumTasks &&
           "a record lies within the function's tasks");
    LLVM_DEBUG(llvm::dbgs()
               << (Buffer.Dynamic ? "dynamic" : "record") << " #"
               << Result.Planned.size() + Result.Dynamic.size() << ": "
               << Facts.Alloc.getLoc() << ": size " << Buffer.Record.Size
               << ", tasks [" << Buffer.Record.FirstTask << ", "
               << Buffer.Record.LastTask << "], align " << Buffer.Alignment
               << "\n");
    if (Buffer.Dynamic)
      Result.Dynamic.push_back(std::move(Buffer));
    else
      Result.Planned.push_back(std::move(Buffer));
  }
  LLVM_DEBUG(llvm::dbgs() << Result.NumTasks << " tasks, "
                          << Result.Planned.size() << " planned, "
                          << Result.Dynamic.size() << " dynamic, "
                          << Result.Unplanned.size() << " left alone\n");
  return Result;
}

FunctionBuffers memplan::computeUsageRecords(FunctionOpInterface Function,
                                             UsageRecordsOptions Options) {
  return BufferUsageAnalysis(Function).buffers(Options);
}
