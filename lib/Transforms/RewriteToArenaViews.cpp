//===- RewriteToArenaViews.cpp - The tensor-mem-plan pass -----------------===//
//
// Asks the analysis for each function's usage records, plans them with a
// registered strategy and rewrites every planned alloc into a view of one
// arena per function and memory space.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/UsageRecordsFromIR.h"
#include "memplan/Core/Arithmetic.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/TimeProfiler.h"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMPLAN
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;

namespace {

/// One arena: the planned buffers of one function in one memory space.
struct ArenaGroup {
  Attribute MemorySpace;
  SmallVector<const PlannableBuffer *> Buffers;
};

struct TensorMemPlanPass
    : memplan::impl::TensorMemPlanBase<TensorMemPlanPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *) override {
    if (!lookupStrategy(strategy)) {
      llvm::errs() << "tensor-mem-plan: "
                   << llvm::toString(unknownStrategyError(strategy)) << "\n";
      return failure();
    }
    if (alignment <= 0 || !isPowerOf2(static_cast<uint64_t>(alignment))) {
      llvm::errs() << "tensor-mem-plan: alignment " << alignment
                   << " is not a positive power of two\n";
      return failure();
    }
    if (budgetMs < 0) {
      llvm::errs() << "tensor-mem-plan: budget-ms " << budgetMs
                   << " is negative\n";
      return failure();
    }
    if (arena != "alloc" && arena != "argument") {
      llvm::errs() << "tensor-mem-plan: arena '" << arena
                   << "' is not one of 'alloc', 'argument'\n";
      return failure();
    }
    return success();
  }

  void runOnOperation() override {
    SmallVector<FunctionOpInterface> Functions;
    getOperation()->walk([&](FunctionOpInterface Fn) {
      if (!Fn.isExternal())
        Functions.push_back(Fn);
    });
    for (FunctionOpInterface Fn : Functions)
      if (failed(planFunction(Fn)))
        return signalPassFailure();
  }

  LogicalResult planFunction(FunctionOpInterface Fn) {
    FunctionBuffers Buffers;
    {
      llvm::TimeTraceScope Scope("memplan analysis");
      Buffers = computeUsageRecords(Fn);
    }
    numUnplanned += Buffers.Unplanned.size();
    if (remarks)
      for (const UnplannedBuffer &U : Buffers.Unplanned) {
        InFlightDiagnostic D = U.Alloc->emitRemark()
                               << "buffer not planned: " << U.Reason;
        if (U.Culprit)
          D.attachNote(U.Culprit->getLoc()) << "because of this op";
      }
    // One arena per memory space, in order of first appearance.
    SmallVector<ArenaGroup> Groups;
    for (const PlannableBuffer &B : Buffers.Planned) {
      auto It = llvm::find_if(Groups, [&](const ArenaGroup &G) {
        return G.MemorySpace == B.MemorySpace;
      });
      if (It == Groups.end()) {
        Groups.push_back({B.MemorySpace, {}});
        It = std::prev(Groups.end());
      }
      It->Buffers.push_back(&B);
    }
    for (ArenaGroup &G : Groups)
      if (failed(planArena(Fn, G, Buffers)))
        return failure();
    return success();
  }

  LogicalResult planArena(FunctionOpInterface Fn, ArenaGroup &G,
                          const FunctionBuffers &Buffers) {
    std::vector<UsageRecord> Records;
    uint64_t Align = alignment, RawBytes = 0;
    for (const PlannableBuffer *B : G.Buffers) {
      UsageRecord R = B->Record;
      // Persistent buffers (and, with preserve-intermediates, all) live over
      // the whole function, so nothing shares their bytes.
      if (preserveIntermediates || B->Persistent) {
        R.FirstTask = 0;
        R.LastTask = Buffers.NumTasks;
      }
      Records.push_back(R);
      RawBytes += R.Size;
      if (std::optional<uint64_t> A =
              memref::AllocOp(B->Alloc).getAlignment())
        Align = std::max<uint64_t>(Align, *A);
    }
    StrategyOptions Options;
    Options.Alignment = Align;
    Options.BudgetMs = budgetMs;
    llvm::Expected<Plan> P = [&] {
      llvm::TimeTraceScope Scope("memplan strategy", strategy.getValue());
      return planMemory(strategy, Records, Options);
    }();
    if (!P)
      return Fn.emitError() << "tensor-mem-plan: " << llvm::toString(P.takeError());
    auto AlignedRecords = alignRecords(Records, Align);
    if (!AlignedRecords)
      return Fn.emitError() << llvm::toString(AlignedRecords.takeError());

    uint64_t Bound = liveBytesLowerBound(*AlignedRecords);
    {
      llvm::TimeTraceScope Scope("memplan rewrite");
      rewrite(Fn, G, P->Offsets, Align, Buffers.FreesBuffers);
    }
    // Debian's LLVM is built without LLVM_ENABLE_STATS, which makes
    // Pass::Statistic a no-op there; the remark carries the same numbers.
    numPlanned += G.Buffers.size();
    bytesUnplanned += RawBytes;
    arenaBytes += P->Offsets.TotalSize;
    lowerBoundBytes += Bound;
    if (remarks) {
      InFlightDiagnostic D = Fn.emitRemark()
                             << "tensor-mem-plan: " << G.Buffers.size()
                             << " buffers planned, " << RawBytes
                             << " bytes without planning, arena "
                             << P->Offsets.TotalSize << " bytes, lower bound "
                             << Bound << ", strategy " << P->Strategy;
      if (G.MemorySpace)
        D << ", memory space " << G.MemorySpace;
    }
    return success();
  }

  void rewrite(FunctionOpInterface Fn, ArenaGroup &G,
               const OffsetsAssignment &Offsets, uint64_t Align,
               bool FreesBuffers) {
    Block &Entry = Fn.getFunctionBody().front();
    OpBuilder B(Fn.getContext());
    B.setInsertionPointToStart(&Entry);
    auto ArenaType = MemRefType::get(
        {static_cast<int64_t>(Offsets.TotalSize)}, B.getI8Type(),
        MemRefLayoutAttrInterface(), G.MemorySpace);
    Value Arena = memref::AllocOp::create(B, Fn.getLoc(), ArenaType, ValueRange(),
                                        B.getI64IntegerAttr(Align));

    for (auto [I, Buffer] : llvm::enumerate(G.Buffers)) {
      memref::AllocOp Alloc = Buffer->Alloc;
      B.setInsertionPoint(Alloc);
      Value Offset = arith::ConstantIndexOp::create(
          B, Alloc.getLoc(), static_cast<int64_t>(Offsets.Offsets[I]));
      Value View = memref::ViewOp::create(B, Alloc.getLoc(), Alloc.getType(),
                                        Arena, Offset, ValueRange());
      for (Operation *Dealloc : Buffer->Deallocs)
        Dealloc->erase();
      Alloc.replaceAllUsesWith(View);
      Alloc.erase();
    }
    if (!FreesBuffers)
      return;
    // The input frees its buffers, so the arena is freed as well: after the
    // last top-level op that uses it in a one-block body, else at each exit.
    Region &Body = Fn.getFunctionBody();
    if (Body.hasOneBlock()) {
      Operation *LastUser = Arena.getDefiningOp();
      BufferViewFlowAnalysis Aliases(Fn);
      for (Value Alias : Aliases.resolve(Arena))
        for (Operation *User : Alias.getUsers()) {
          Operation *Top = Entry.findAncestorOpInBlock(*User);
          if (Top && LastUser->isBeforeInBlock(Top))
            LastUser = Top;
        }
      if (LastUser->hasTrait<OpTrait::IsTerminator>())
        B.setInsertionPoint(LastUser);
      else
        B.setInsertionPointAfter(LastUser);
      memref::DeallocOp::create(B, Fn.getLoc(), Arena);
      return;
    }
    for (Block &Blk : Body)
      if (!Blk.empty() && Blk.back().hasTrait<OpTrait::ReturnLike>()) {
        B.setInsertionPoint(&Blk.back());
        memref::DeallocOp::create(B, Fn.getLoc(), Arena);
      }
  }
};

} // namespace
