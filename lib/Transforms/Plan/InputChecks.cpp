//===- InputChecks.cpp - What tensor-mem-plan says of its input -----------===//
//
// Diagnostics about the input as a whole, before any buffer is planned.
//
//===----------------------------------------------------------------------===//

#include "TensorMemPlanInternal.h"
#include "memplan/Analysis/AttrNames.h"
#include "memplan/Transforms/Remarks.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace memplan;

/// Warns when Fn still holds tensors but has nothing to plan: the input was
/// most likely never bufferized.
void memplan::warnIfNotBufferized(FunctionOpInterface Fn,
                                  const FunctionBuffers &Buffers) {
  if (!Buffers.Planned.empty() || !Buffers.Unplanned.empty())
    return;
  std::optional<Location> Where;
  if (llvm::any_of(Fn.getArgumentTypes(), llvm::IsaPred<TensorType>) ||
      llvm::any_of(Fn.getResultTypes(), llvm::IsaPred<TensorType>))
    Where = Fn.getLoc();
  if (!Where)
    Fn.getFunctionBody().walk([&](Operation *Op) {
      if (llvm::any_of(Op->getResultTypes(), llvm::IsaPred<TensorType>)) {
        Where = Op->getLoc();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
  if (Where)
    mlir::emitWarning(*Where)
        << "tensor-mem-plan: the input has tensor values; run "
           "one-shot-bufferize first (nothing planned in '"
        << Fn.getName() << "')";
}

LogicalResult memplan::checkUserAttributes(Operation *Root) {
  // Promises and requests the pass does not understand are errors, not
  // ignored: memplan.persistent = false was taken as persistent, and
  // memplan.max = -1 (or "16", or on an f32) silently promised nothing.
  auto Bad = [](Operation *At, StringRef Name, Attribute A, StringRef Want) {
    return At->emitError() << "tensor-mem-plan: " << Name << " " << Want
                           << "; got " << A;
  };
  WalkResult R = Root->walk([&](Operation *Op) {
    if (Attribute A = Op->getAttr(kPersistentAttr); A && !isa<UnitAttr>(A))
      return (Bad(Op, kPersistentAttr, A,
                  "is a unit attribute: write it alone on the alloc"),
              WalkResult::interrupt());
    if (Attribute A = Op->getAttr(kSharedArenaAttr); A && !isa<ArrayAttr>(A))
      return (Bad(Op, kSharedArenaAttr, A,
                  "is an array of the functions that share one arena, as in "
                  "[@prefill, @decode]"),
              WalkResult::interrupt());
    auto Fn = dyn_cast<FunctionOpInterface>(Op);
    if (!Fn)
      return WalkResult::advance();
    for (unsigned I = 0; I < Fn.getNumArguments(); ++I) {
      std::string Where =
          " on argument " + std::to_string(I) + " of @" + Fn.getName().str();
      if (Attribute A = Fn.getArgAttr(I, kMaxAttr)) {
        auto Int = dyn_cast<IntegerAttr>(A);
        if (!Int || !Int.getType().isSignlessInteger() ||
            Int.getValue().isNegative() || !Fn.getArgumentTypes()[I].isIndex())
          return (Bad(Op, kMaxAttr, A,
                      "is the largest value of an index argument, a "
                      "non-negative integer (memplan.max = 16 : i64)" +
                          Where),
                  WalkResult::interrupt());
      }
      if (Attribute A = Fn.getArgAttr(I, kNoCaptureAttr);
          A && !isa<UnitAttr>(A))
        return (Bad(Op, kNoCaptureAttr, A, "is a unit attribute" + Where),
                WalkResult::interrupt());
    }
    return WalkResult::advance();
  });
  return failure(R.wasInterrupted());
}

LogicalResult memplan::dropFreesBeforeDeallocation(FunctionOpInterface Fn,
                                                   bool Remarks) {
  // Upstream's ownership-based deallocation does not follow a buffer into
  // memory: it freed one that a callee stored into its caller's box at the
  // callee's end, and the caller read it after (a use after free, with or
  // without the caller's own free). Default-deny: not with a deallocation.
  Operation *Stored = nullptr;
  Fn.getFunctionBody().walk([&](memref::StoreOp Store) {
    if (isa<BaseMemRefType>(Store.getValueToStore().getType())) {
      Stored = Store;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (Stored)
    return Stored->emitError()
           << "tensor-mem-plan: this stores a buffer into memory, where the "
              "deallocation that runs after this pass "
              "(deallocation-runs-after; memplan-pipeline's deallocate=true) "
              "does not follow it: it would free the buffer while the memory "
              "still holds it; run memplan-pipeline with deallocate=false "
              "and free it in the program";
  // A program lowered to the runtime already: the deallocation would free
  // a block of memplan_rt_alloc with free(), or after its memplan_rt_free
  // (a second planning of planned output crashed in free()).
  Operation *Runtime = nullptr;
  Fn.getFunctionBody().walk([&](CallOpInterface Call) {
    auto Callee =
        llvm::dyn_cast_if_present<SymbolRefAttr>(Call.getCallableForCallee());
    // A block from the runtime (memplan_rt_alloc, a slot or a shared
    // arena), or one going back to it; a broken-promise message is neither.
    StringRef Name = Callee ? Callee.getLeafReference().getValue() : "";
    if (Name.starts_with("memplan_rt_") &&
        (Name == "memplan_rt_free" ||
         llvm::any_of(Call->getResultTypes(),
                      [](Type T) { return isa<BaseMemRefType>(T); }))) {
      Runtime = Call;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (Runtime)
    return Runtime->emitError()
           << "tensor-mem-plan: this program already calls the memplan "
              "runtime, whose blocks go back through memplan_rt_free: the "
              "deallocation that runs after this pass "
              "(deallocation-runs-after; memplan-pipeline's deallocate=true) "
              "would free them with free(), or a second time; plan a program "
              "once, before tensor-mem-lower-runtime, or run memplan-pipeline "
              "with deallocate=false";
  auto Frees = [](Operation *Op) {
    if (isa<bufferization::DeallocOp>(Op))
      return true;
    auto Effects = dyn_cast<MemoryEffectOpInterface>(Op);
    if (!Effects || isa<memref::ReallocOp>(Op) ||
        Op->hasAttr(bufferization::BufferizationDialect::kManualDeallocation))
      return false;
    return llvm::any_of(Op->getOperands(), [&](Value V) {
      return isa<BaseMemRefType>(V.getType()) &&
             Effects.getEffectOnValue<MemoryEffects::Free>(V).has_value();
    });
  };
  SmallVector<Operation *> Dropped;
  Operation *Other = nullptr;
  Fn.getFunctionBody().walk([&](Operation *Op) {
    if (!Frees(Op))
      return WalkResult::advance();
    if (!isa<memref::DeallocOp>(Op)) {
      Other = Op;
      return WalkResult::interrupt();
    }
    Dropped.push_back(Op);
    return WalkResult::advance();
  });
  if (Other)
    return Other->emitError()
           << "tensor-mem-plan: '" << Other->getName()
           << "' frees a buffer, but the deallocation that runs after this "
              "pass (deallocation-runs-after; memplan-pipeline's "
              "deallocate=true) places every free itself and takes no "
              "program that frees: run memplan-pipeline with "
              "deallocate=false to keep this program's frees";
  for (Operation *Op : Dropped) {
    if (PassRemark R =
            emitPassRemark(Op, RemarkKind::Analysis, remark_category::Plan,
                           "FreeLeftToDeallocation", Remarks))
      R << "tensor-mem-plan: this free of a buffer left unplanned is "
           "dropped: the deallocation that runs after this pass places "
           "every free itself";
    Op->erase();
  }
  return success();
}
