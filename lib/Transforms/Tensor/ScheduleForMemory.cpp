//===- ScheduleForMemory.cpp - The tensor-mem-schedule pass ---------------===//
//
// Builds, for each block, the DAG of its ops with the bytes one-shot-bufferize
// will allocate for them (ScheduleBlockModel.cpp), asks memplan's Core
// scheduler for an order of lower peak and moves the ops into it.
// Default-deny: a block holding anything the byte model does not know is
// left as it is. A block with dynamic sizes gets an order only when its
// peak is at most the block's own at every sample value of the sizes.
//
//===----------------------------------------------------------------------===//

#include "ScheduleInternal.h"

#include "memplan/Analysis/SampledSizes.h"
#include "memplan/Transforms/Passes.h"
#include "memplan/Transforms/Remarks.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Debug.h"

#include <numeric>

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
    bool AnyDynamic = false;
    for (Block *B : Blocks) {
      bool Refused = false, Dynamic = false;
      FailureOr<std::optional<ScheduleResult>> R =
          scheduleBlock(Fn, *B, Refused, Dynamic);
      if (failed(R))
        return failure();
      AnyDynamic |= Dynamic && *R;
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
        << " blocks with a lower peak, " << LeftAlone << " left alone"
        << (AnyDynamic
                ? "; dynamic sizes taken at " + std::to_string(kReferenceSample)
                : "")
        << ")";
    return success();
  }

  /// The sample value of every dynamic size the remark's peaks are given at.
  static constexpr int64_t kReferenceSample = 256;

  static std::optional<int64_t> evalFactor(IndexSampler &E,
                                           const SizeFactor &F) {
    return F.ArgDim >= 0 ? std::optional<int64_t>(E.argumentDim(
                               cast<BlockArgument>(F.V), F.ArgDim))
                         : E.eval(F.V);
  }

  /// The entry values M's dynamic sizes are computed from; nothing, with Why
  /// set, when a size is not such a polynomial.
  static std::optional<SmallVector<SizeLeaf>>
  sizeLeaves(FunctionOpInterface Fn, const BlockModel &M, std::string &Why) {
    IndexSampler Probe(Fn.getFunctionBody().front(), 1);
    for (const auto &Fs : M.Factors)
      for (const SizeFactor &F : Fs)
        (void)evalFactor(Probe, F);
    if (Probe.Unknown) {
      Why = "a dynamic size not computed from the function's arguments by "
            "arithmetic";
      return std::nullopt;
    }
    return Probe.Leaves;
  }

  /// The order of a block with dynamic sizes: Core's at a few sample values
  /// of Leaves, the entry values the sizes come from (SampledSizes.h), kept
  /// only if its model peak is at most the block's own at every sample
  /// point, and below it at one. Peaks are those at kReferenceSample.
  /// Nothing, with Why set, when the sizes overflow there.
  llvm::Expected<std::optional<ScheduleResult>>
  scheduleSampled(FunctionOpInterface Fn, const BlockModel &M,
                  ArrayRef<SizeLeaf> Leaves, const ScheduleOptions &Options,
                  std::string &Why) {
    Block &Entry = Fn.getFunctionBody().front();
    // The value sizes at each sample point; a point where a size overflows
    // is none a program can run at.
    std::vector<std::vector<uint64_t>> PointSizes;
    std::vector<int64_t> Diagonal; // the sample of each point, -1 if skewed
    for (const SamplePoint &Pt : samplePoints(Leaves)) {
      IndexSampler E(Entry, Pt.Sample, &Pt.Skew);
      std::vector<uint64_t> Sizes = M.Problem.ValueSizes;
      bool Usable = true;
      for (size_t V = 0; V < Sizes.size() && Usable; ++V)
        for (const SizeFactor &F : M.Factors[V]) {
          std::optional<int64_t> D = evalFactor(E, F);
          std::optional<uint64_t> Bytes =
              D && *D >= 0
                  ? llvm::checkedMulUnsigned<uint64_t>(Sizes[V], uint64_t(*D))
                  : std::nullopt;
          if (!Bytes) {
            Usable = false;
            break;
          }
          Sizes[V] = *Bytes;
        }
      if (!Usable)
        continue;
      PointSizes.push_back(std::move(Sizes));
      Diagonal.push_back(Pt.Skew.empty() ? Pt.Sample : -1);
    }
    // One problem, its sizes those of one point at a time: the nodes and
    // their edges are the same at every point.
    ScheduleProblem P = M.Problem;
    auto AtPoint = [&](size_t K) -> const ScheduleProblem & {
      P.ValueSizes = PointSizes[K];
      return P;
    };
    std::vector<size_t> Given(M.Problem.Nodes.size());
    std::iota(Given.begin(), Given.end(), 0);
    std::vector<uint64_t> GivenPeak;
    for (size_t K = 0; K < PointSizes.size(); ++K)
      GivenPeak.push_back(schedulePeak(AtPoint(K), Given));
    auto Ref = llvm::find(Diagonal, kReferenceSample);
    if (Ref == Diagonal.end()) {
      Why =
          "dynamic sizes that overflow at " + std::to_string(kReferenceSample);
      return std::optional<ScheduleResult>();
    }
    size_t RefI = Ref - Diagonal.begin();
    ScheduleResult Best;
    Best.Order = Given;
    Best.PeakBefore = Best.PeakAfter = GivenPeak[RefI];
    double BestScore = double(PointSizes.size());
    for (int64_t Sample : {int64_t(16), kReferenceSample, int64_t(4096)}) {
      auto At = llvm::find(Diagonal, Sample);
      if (At == Diagonal.end())
        continue;
      auto R = scheduleForMemory(AtPoint(At - Diagonal.begin()), Options);
      if (!R)
        return R.takeError();
      double Score = 0;
      bool NeverAbove = true;
      for (size_t K = 0; K < PointSizes.size() && NeverAbove; ++K) {
        uint64_t Peak = schedulePeak(AtPoint(K), R->Order);
        NeverAbove = Peak <= GivenPeak[K];
        Score += GivenPeak[K] ? double(Peak) / double(GivenPeak[K]) : 1.0;
      }
      LLVM_DEBUG(llvm::dbgs() << "order of sample " << Sample << ": "
                              << (NeverAbove ? "never above" : "above")
                              << " the given order, score " << Score << "\n");
      if (NeverAbove && Score < BestScore) {
        BestScore = Score;
        Best.Order = R->Order;
        Best.PeakAfter = schedulePeak(AtPoint(RefI), R->Order);
        Best.ExactWindows = R->ExactWindows;
        Best.GreedyWindows = R->GreedyWindows;
      }
    }
    return std::optional<ScheduleResult>(std::move(Best));
  }

  /// The result for a block it ordered; nothing for one without tensors or
  /// left alone (then Refused is set). Dynamic: the block has dynamic sizes.
  FailureOr<std::optional<ScheduleResult>> scheduleBlock(FunctionOpInterface Fn,
                                                         Block &B,
                                                         bool &Refused,
                                                         bool &Dynamic) {
    auto LeaveAlone = [&](Operation *At, StringRef Why) {
      if (auto R =
              emitPassRemark(At, RemarkKind::Missed, remark_category::Schedule,
                             "BlockLeftAlone", remarks))
        R << "tensor-mem-schedule: block left alone: " << Why;
      Refused = true;
      return std::optional<ScheduleResult>();
    };
    if (B.empty() || !B.back().hasTrait<OpTrait::IsTerminator>())
      return std::optional<ScheduleResult>();
    bool HasTensors = false;
    for (Operation &Op : B) {
      std::string Why;
      if (failed(checkKnown(&Op, Why)))
        return LeaveAlone(&Op, Why);
      HasTensors |=
          !isHoistableConstant(&Op) &&
          llvm::any_of(Op.getResultTypes(), llvm::IsaPred<TensorType>);
    }
    if (!HasTensors)
      return std::optional<ScheduleResult>();
    // A block whose dynamic sizes cannot be followed stays exactly as it
    // was: found out on a model of the block as given, before splitEmpties
    // changes it.
    std::string Why;
    std::optional<SmallVector<SizeLeaf>> Leaves;
    std::optional<BlockModel> Model;
    bool AnyDynamicTensor = llvm::any_of(B, [](Operation &Op) {
      return llvm::any_of(Op.getResultTypes(), [](Type T) {
        auto R = dyn_cast<RankedTensorType>(T);
        return R && !R.hasStaticShape();
      });
    });
    if (AnyDynamicTensor) {
      Model = buildBlockModel(B, Why);
      if (!Model || !(Leaves = sizeLeaves(Fn, *Model, Why)))
        return LeaveAlone(B.getParentOp(), Why);
    }
    // The model above stays right unless a split changed the block.
    if (splitEmpties(B) || !Model)
      Model = buildBlockModel(B, Why);
    if (!Model)
      return LeaveAlone(B.getParentOp(), Why);
    BlockModel &M = *Model;
    ScheduleOptions Options;
    Options.StateBudget = size_t(stateBudget);
    Dynamic = M.isDynamic();
    // A dynamic size is a dynamic tensor's, and splitEmpties clones only
    // static ones: the leaves found before it are the model's.
    assert((!Dynamic || Leaves) && "a dynamic block was checked before");
    auto Solve = [&]() -> llvm::Expected<std::optional<ScheduleResult>> {
      if (Dynamic)
        return scheduleSampled(Fn, M, *Leaves, Options, Why);
      llvm::Expected<ScheduleResult> S = scheduleForMemory(M.Problem, Options);
      if (!S)
        return S.takeError();
      return std::optional<ScheduleResult>(std::move(*S));
    };
    llvm::Expected<std::optional<ScheduleResult>> Solved = Solve();
    if (!Solved) {
      // The model is built in block order: an error here is a bug of ours.
      B.getParentOp()->emitError()
          << "tensor-mem-schedule: " << llvm::toString(Solved.takeError());
      return failure();
    }
    if (!*Solved)
      return LeaveAlone(B.getParentOp(), Why);
    const ScheduleResult &R = **Solved;
    LLVM_DEBUG(llvm::dbgs()
               << "block of " << M.NodeOps.size() << " nodes: " << R.PeakBefore
               << " -> " << R.PeakAfter << " (" << R.ExactWindows << " exact, "
               << R.GreedyWindows << " greedy windows)\n");
    Operation *Term = &B.back();
    assert(R.Order.back() == M.NodeOps.size() - 1 && "terminator last");
    for (Operation *C : M.Hoisted)
      C->moveBefore(Term);
    for (size_t I : R.Order) {
      if (M.NodeOps[I] == Term)
        continue;
      for (Operation *A : M.Attached[I])
        A->moveBefore(Term);
      M.NodeOps[I]->moveBefore(Term);
    }
    return std::move(*Solved);
  }
};

} // namespace
