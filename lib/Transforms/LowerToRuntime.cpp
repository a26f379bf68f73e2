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

#include "memplan/Analysis/ElementLayout.h"
#include "memplan/Core/Arithmetic.h"
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
  /// StaticBytes: the element size times the static dimensions.
  void lower(memref::AllocOp Op, uint64_t StaticBytes, uint64_t EltAlign);

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

void TensorMemLowerRuntimePass::lower(memref::AllocOp Op, uint64_t StaticBytes,
                                      uint64_t EltAlign) {
  MemRefType Ty = Op.getType();
  Location Loc = Op.getLoc();
  OpBuilder B(Op);
  Type I64 = B.getI64Type();

  // Bytes = element size * static dims (folded) * dynamic dims.
  Value Bytes = arith::ConstantIntOp::create(B, Loc, I64, StaticBytes);
  for (Value D : Op.getDynamicSizes()) {
    Value Dim = arith::IndexCastOp::create(B, Loc, I64, D);
    Bytes = arith::MulIOp::create(B, Loc, Bytes, Dim);
  }
  uint64_t AlignBytes = std::max<uint64_t>(alignment, EltAlign);
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

  struct Item {
    memref::AllocOp Op;
    uint64_t StaticBytes, EltAlign;
  };
  SmallVector<Item> Work;
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
    llvm::Expected<memplan::ElementLayout> Element =
        memplan::getElementLayout(Ty.getElementType(), Op);
    if (!Element)
      return Skip(llvm::toString(Element.takeError()));
    std::optional<uint64_t> StaticBytes = Element->Size;
    for (int64_t D : Ty.getShape())
      if (StaticBytes && !ShapedType::isDynamic(D))
        StaticBytes =
            memplan::checkedMul(*StaticBytes, static_cast<uint64_t>(D));
    if (!StaticBytes || *StaticBytes > static_cast<uint64_t>(INT64_MAX))
      return Skip("byte size overflows 64 bits");
    SmallVector<memref::DeallocOp> Deallocs;
    std::string Why;
    if (failed(collectDeallocs(Op.getResult(), Deallocs, Why)))
      return Skip(Why);
    Work.push_back({Op, *StaticBytes, Element->Alignment});
  });
  if (Work.empty())
    return;
  if (failed(declareRuntime(M)))
    return signalPassFailure();
  for (const Item &I : Work)
    lower(I.Op, I.StaticBytes, I.EltAlign);
}

} // namespace
