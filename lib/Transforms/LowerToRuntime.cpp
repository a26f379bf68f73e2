//===- LowerToRuntime.cpp - Dynamic allocs to memplan_runtime calls -------===//
//
// What tensor-mem-plan cannot place at compile time (dynamic shapes, or with
// all=true every alloc left) is served at run time by libmemplan_runtime:
//
//   %m = memref.alloc(%d) : memref<?x8xf32>
//   memref.dealloc %m
// becomes
//   %buf = call @memplan_rt_alloc(%bytes, %align) : (i64, i64) -> memref<?xi8>
//   %m = memref.view %buf[%c0][%d] : memref<?xi8> to memref<?x8xf32>
//   call @memplan_rt_free(%buf) : (memref<?xi8>) -> ()
//
// A buffer is lowered only when every dealloc that can free it is found: its
// aliases (views, casts) must not flow into control flow, calls or
// bufferization.dealloc, where a stock dealloc could free our pointer.
//
//===----------------------------------------------------------------------===//

#include "memplan/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/MathExtras.h"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMLOWERRUNTIME
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kAllocFn = "memplan_rt_alloc";
constexpr llvm::StringLiteral kFreeFn = "memplan_rt_free";

/// True when the default data layout knows the type's size without
/// aborting: scalars, index, complex and vectors of those, and types that
/// describe their own layout.
bool hasKnownSize(Type T) {
  if (isa<IntegerType, FloatType, IndexType, DataLayoutTypeInterface>(T))
    return true;
  if (auto C = dyn_cast<ComplexType>(T))
    return hasKnownSize(C.getElementType());
  if (auto V = dyn_cast<VectorType>(T))
    return !V.isScalable() && hasKnownSize(V.getElementType());
  return false;
}

/// Bytes between consecutive elements once lowered to LLVM: the size rounded
/// up to the ABI alignment (i1 -> 1, i17 -> 4, vector<3xf32> -> 16).
uint64_t elementStride(const DataLayout &DL, Type T) {
  uint64_t Size = DL.getTypeSize(T).getFixedValue();
  uint64_t Align = std::max<uint64_t>(DL.getTypeABIAlignment(T), 1);
  return llvm::alignTo(std::max<uint64_t>(Size, 1), Align);
}

/// Collects the deallocs of \p Root's buffer, following views and casts.
/// Fails (with the reason) when an alias reaches a use that could free or
/// keep the buffer where we cannot see it.
LogicalResult collectDeallocs(Value Root,
                              SmallVectorImpl<memref::DeallocOp> &Deallocs,
                              std::string &Why) {
  SmallVector<Value> Work{Root};
  while (!Work.empty()) {
    Value V = Work.pop_back_val();
    for (OpOperand &Use : V.getUses()) {
      Operation *User = Use.getOwner();
      if (auto D = dyn_cast<memref::DeallocOp>(User)) {
        Deallocs.push_back(D);
        continue;
      }
      if (auto View = dyn_cast<ViewLikeOpInterface>(User)) {
        if (View.getViewSource() == V) {
          Work.push_back(View->getResult(0));
          continue;
        }
      }
      if (isa<memref::CastOp, memref::ExtractStridedMetadataOp>(User)) {
        for (Value R : User->getResults())
          if (isa<BaseMemRefType>(R.getType()))
            Work.push_back(R);
        continue;
      }
      if (User->hasTrait<OpTrait::IsTerminator>() ||
          isa<CallOpInterface, RegionBranchOpInterface>(User) ||
          User->getName().getStringRef() == "bufferization.dealloc") {
        Why = "the buffer flows into '" + User->getName().getStringRef().str() +
              "', so its deallocation cannot be rewritten";
        return failure();
      }
    }
  }
  return success();
}

struct TensorMemLowerRuntimePass
    : memplan::impl::TensorMemLowerRuntimeBase<TensorMemLowerRuntimePass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult declareRuntime(ModuleOp M);
  void lower(memref::AllocOp Op, const DataLayout &DL);

  func::FuncOp AllocFn, FreeFn;
};

LogicalResult TensorMemLowerRuntimePass::declareRuntime(ModuleOp M) {
  OpBuilder B(M.getContext());
  B.setInsertionPointToStart(M.getBody());
  Type I64 = B.getI64Type();
  auto Buf = MemRefType::get({ShapedType::kDynamic}, B.getI8Type());
  auto Declare = [&](StringRef Name, FunctionType Ty) -> func::FuncOp {
    if (auto F = M.lookupSymbol<func::FuncOp>(Name)) {
      if (F.getFunctionType() != Ty) {
        F.emitError() << "'" << Name << "' is declared with type "
                      << F.getFunctionType() << ", the runtime needs " << Ty;
        return nullptr;
      }
      return F;
    }
    if (M.lookupSymbol(Name)) {
      M.emitError() << "symbol '" << Name << "' exists and is not a func.func";
      return nullptr;
    }
    auto F = func::FuncOp::create(B, M.getLoc(), Name, Ty);
    F.setPrivate();
    F->setAttr("llvm.emit_c_interface", B.getUnitAttr());
    return F;
  };
  AllocFn = Declare(kAllocFn, B.getFunctionType({I64, I64}, {Buf}));
  FreeFn = Declare(kFreeFn, B.getFunctionType({Buf}, {}));
  return success(AllocFn && FreeFn);
}

void TensorMemLowerRuntimePass::lower(memref::AllocOp Op,
                                      const DataLayout &DL) {
  MemRefType Ty = Op.getType();
  Location Loc = Op.getLoc();
  OpBuilder B(Op);
  Type I64 = B.getI64Type();

  // Bytes = element stride * static dims (folded) * dynamic dims.
  uint64_t Static = elementStride(DL, Ty.getElementType());
  for (int64_t D : Ty.getShape())
    if (!ShapedType::isDynamic(D))
      Static *= static_cast<uint64_t>(D);
  Value Bytes = arith::ConstantIntOp::create(B, Loc, I64, Static);
  for (Value D : Op.getDynamicSizes()) {
    Value Dim = arith::IndexCastOp::create(B, Loc, I64, D);
    Bytes = arith::MulIOp::create(B, Loc, Bytes, Dim);
  }
  uint64_t AlignBytes = static_cast<uint64_t>(alignment);
  if (auto A = Op.getAlignment())
    AlignBytes = std::max<uint64_t>(AlignBytes, *A);
  Value Align = arith::ConstantIntOp::create(B, Loc, I64, AlignBytes);
  auto Call = func::CallOp::create(B, Loc, AllocFn, ValueRange{Bytes, Align});
  Value Buffer = Call.getResult(0);
  Value Zero = arith::ConstantIndexOp::create(B, Loc, 0);
  auto View =
      memref::ViewOp::create(B, Loc, Ty, Buffer, Zero, Op.getDynamicSizes());

  SmallVector<memref::DeallocOp> Deallocs;
  std::string Why;
  (void)collectDeallocs(Op.getResult(), Deallocs, Why);
  for (memref::DeallocOp D : Deallocs) {
    OpBuilder DB(D);
    func::CallOp::create(DB, D.getLoc(), FreeFn, ValueRange{Buffer});
    D.erase();
  }
  Op.getResult().replaceAllUsesWith(View.getResult());
  Op.erase();
  ++numLowered;
}

void TensorMemLowerRuntimePass::runOnOperation() {
  ModuleOp M = getOperation();
  if (alignment <= 0 || !llvm::isPowerOf2_64(alignment)) {
    M.emitError() << "tensor-mem-lower-runtime: alignment must be a positive "
                     "power of two, got "
                  << static_cast<int64_t>(alignment);
    return signalPassFailure();
  }

  SmallVector<memref::AllocOp> Work;
  M.walk([&](memref::AllocOp Op) {
    MemRefType Ty = Op.getType();
    if (!all && Ty.hasStaticShape())
      return;
    auto Skip = [&](const Twine &Reason) {
      Op.emitRemark() << "tensor-mem-lower-runtime: left alone: " << Reason;
    };
    if (!Ty.getLayout().isIdentity())
      return Skip("non-identity layout");
    if (Ty.getMemorySpace())
      return Skip("non-default memory space");
    if (!hasKnownSize(Ty.getElementType()))
      return Skip("element size unknown to the data layout");
    SmallVector<memref::DeallocOp> Deallocs;
    std::string Why;
    if (failed(collectDeallocs(Op.getResult(), Deallocs, Why)))
      return Skip(Why);
    Work.push_back(Op);
  });
  if (Work.empty())
    return;
  if (failed(declareRuntime(M)))
    return signalPassFailure();
  for (memref::AllocOp Op : Work)
    lower(Op, DataLayout::closest(Op));
}

} // namespace
