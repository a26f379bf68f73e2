//===- ScheduleForMemory.cpp - The tensor-mem-schedule pass ---------------===//
//
// Builds, for each block, the DAG of its ops with the bytes one-shot-bufferize
// will allocate for them (ScheduleBlockModel.cpp), asks memplan's Core
// scheduler for an order of lower peak and moves the ops into it.
// Default-deny: a block holding anything the byte model does not know is
// left as it is.
//
//===----------------------------------------------------------------------===//

#include "ScheduleInternal.h"

#include "memplan/Transforms/Passes.h"
#include "memplan/Transforms/Remarks.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tensor-mem-schedule"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMSCHEDULE
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;
using namespace memplan::tensor_schedule;

namespace {

struct TensorMemSchedulePass
    : memplan::impl::TensorMemScheduleBase<TensorMemSchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    if (stateBudget < 0) {
      // On the location alone: attached to the op, the whole module prints.
      mlir::emitError(getOperation()->getLoc())
          << "tensor-mem-schedule: state-budget " << int64_t(stateBudget)
          << " is negative";
      return signalPassFailure();
    }
    SmallVector<FunctionOpInterface> Functions;
    getOperation()->walk([&](FunctionOpInterface Fn) {
      if (!Fn.isExternal())
        Functions.push_back(Fn);
    });
    for (FunctionOpInterface Fn : Functions)
      if (failed(scheduleFunction(Fn)))
        return signalPassFailure();
  }

  LogicalResult scheduleFunction(FunctionOpInterface Fn) {
    SmallVector<Block *> Blocks;
    Fn->walk([&](Block *B) { Blocks.push_back(B); });
    uint64_t Before = 0, After = 0;
    unsigned Reordered = 0, LeftAlone = 0;
    for (Block *B : Blocks) {
      bool Refused = false;
      FailureOr<std::optional<ScheduleResult>> R = scheduleBlock(*B, Refused);
      if (failed(R))
        return failure();
      LeftAlone += Refused;
      if (!*R)
        continue;
      Before = std::max(Before, (*R)->PeakBefore);
      After = std::max(After, (*R)->PeakAfter);
      Reordered += (*R)->PeakAfter < (*R)->PeakBefore;
    }
    if (auto R = emitPassRemark(Fn.getLoc(), Fn, RemarkKind::Analysis,
                                remark_category::Schedule, "Summary", remarks))
      R << "tensor-mem-schedule: '" << Fn.getName() << "' model peak " << Before
        << " -> " << After << " bytes (" << Reordered
        << " blocks with a lower peak, " << LeftAlone << " left alone)";
    return success();
  }

  /// The result for a block it ordered; nothing for one without tensors or
  /// left alone (then Refused is set).
  FailureOr<std::optional<ScheduleResult>> scheduleBlock(Block &B,
                                                         bool &Refused) {
    if (B.empty() || !B.back().hasTrait<OpTrait::IsTerminator>())
      return std::optional<ScheduleResult>();
    bool HasTensors = false;
    for (Operation &Op : B) {
      std::string Why;
      if (failed(checkKnown(&Op, Why))) {
        if (auto R = emitPassRemark(&Op, RemarkKind::Missed,
                                    remark_category::Schedule, "BlockLeftAlone",
                                    remarks))
          R << "tensor-mem-schedule: block left alone: " << Why;
        Refused = true;
        return std::optional<ScheduleResult>();
      }
      HasTensors |=
          !isHoistableConstant(&Op) &&
          llvm::any_of(Op.getResultTypes(), llvm::IsaPred<TensorType>);
    }
    if (!HasTensors)
      return std::optional<ScheduleResult>();
    splitEmpties(B);
    BlockModel M = buildBlockModel(B);
    ScheduleOptions Options;
    Options.StateBudget = size_t(stateBudget);
    auto R = scheduleForMemory(M.Problem, Options);
    if (!R) {
      // The model is built in block order: an error here is a bug of ours.
      B.getParentOp()->emitError()
          << "tensor-mem-schedule: " << llvm::toString(R.takeError());
      return failure();
    }
    LLVM_DEBUG(llvm::dbgs()
               << "block of " << M.NodeOps.size() << " nodes: " << R->PeakBefore
               << " -> " << R->PeakAfter << " (" << R->ExactWindows
               << " exact, " << R->GreedyWindows << " greedy windows)\n");
    Operation *Term = &B.back();
    assert(R->Order.back() == M.NodeOps.size() - 1 && "terminator last");
    for (Operation *C : M.Hoisted)
      C->moveBefore(Term);
    for (size_t I : R->Order) {
      if (M.NodeOps[I] == Term)
        continue;
      for (Operation *A : M.Attached[I])
        A->moveBefore(Term);
      M.NodeOps[I]->moveBefore(Term);
    }
    return std::optional<ScheduleResult>(std::move(*R));
  }
};

} // namespace
