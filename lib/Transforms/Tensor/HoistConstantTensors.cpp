//===- HoistConstantTensors.cpp - tensor-mem-hoist-constants --------------===//
//
// A tensor computed only from constants (a weight transposed at run time) is
// the largest buffer of most networks' arenas, yet its value never changes.
// This pass folds it where the data is present and otherwise computes it
// once, on the first call, into a module-level global; either way it leaves
// the arena. It runs on tensors, before bufferization.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/ElementLayout.h"
#include "memplan/Transforms/FoldSplatLinalg.h"
#include "memplan/Transforms/Passes.h"
#include "memplan/Transforms/Remarks.h"

#include "FoldConstantBytes.h"
#include "HoistInternal.h"
#include "ReadThroughPermutations.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "tensor-mem-hoist-constants"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMHOISTCONSTANTS
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;
using namespace memplan::hoist_constants;

namespace {
struct HoistConstantTensors
    : memplan::impl::TensorMemHoistConstantsBase<HoistConstantTensors> {
  using TensorMemHoistConstantsBase::TensorMemHoistConstantsBase;

  void runOnOperation() override;

private:
  /// How many constant ops of the module hold each piece of data (a blob,
  /// or a uniqued dense attribute, which bufferization makes one global):
  /// erasing one of several frees nothing.
  DenseMap<const void *, unsigned> DataRefs;
  void countData();
  bool dies(Operation *Constant, function_ref<bool(Operation *)> ReadBy);

  SmallVector<Candidate> findCandidates(func::FuncOp Fn);
  void fold(func::FuncOp Fn, ArrayRef<Candidate> Candidates);
  void remarkNested(func::FuncOp Fn);

  // This pass's remarks, through memplan's one channel.
  PassRemark remarkOn(Operation *Op, RemarkKind Kind, StringRef Name) {
    return emitPassRemark(Op, Kind, remark_category::HoistConstants, Name,
                          remarks);
  }
  PassRemark remarkAt(Location Loc, func::FuncOp Fn, RemarkKind Kind,
                      StringRef Name) {
    return emitPassRemark(Loc, Fn, Kind, remark_category::HoistConstants, Name,
                          remarks);
  }
};
} // namespace

static const void *dataKey(Operation *Constant) {
  Attribute A;
  if (!matchPattern(Constant, m_Constant(&A)))
    return nullptr;
  if (auto R = dyn_cast<DenseResourceElementsAttr>(A))
    return R.getRawHandle().getResource();
  return A.getAsOpaquePointer();
}

void HoistConstantTensors::countData() {
  DataRefs.clear();
  getOperation().walk([&](Operation *Op) {
    if (Op->hasTrait<OpTrait::ConstantLike>())
      if (const void *Key = dataKey(Op))
        ++DataRefs[Key];
  });
}

bool HoistConstantTensors::dies(Operation *Constant,
                                function_ref<bool(Operation *)> ReadBy) {
  return llvm::all_of(Constant->getUsers(), ReadBy) &&
         DataRefs.lookup(dataKey(Constant)) <= 1;
}

SmallVector<Candidate> HoistConstantTensors::findCandidates(func::FuncOp Fn) {
  SmallVector<Candidate> Candidates;
  llvm::SetVector<Operation *> Derived = constantDerivedOps(Fn.front());
  for (Operation *Op : Derived) {
    // Constants are data already; an empty tensor has none to compute.
    if (Op->hasTrait<OpTrait::ConstantLike>() || isa<tensor::EmptyOp>(Op))
      continue;
    for (Value V : Op->getResults()) {
      if (!isa<TensorType>(V.getType()))
        continue;
      Candidate C{V.getLoc()};
      for (OpOperand &Use : V.getUses())
        if (!Derived.contains(Use.getOwner()))
          C.Reads.emplace_back(Use.getOwner(), Use.getOperandNumber());
      if (C.Reads.empty())
        continue;
      std::string Why = whyKeep(V, Derived);
      std::optional<uint64_t> Bytes = staticTensorBytes(V.getType(), Op);
      if (!Bytes)
        Why = "not a static shape of a known element size";
      if (!Why.empty()) {
        // A fill as a destination is how linalg initialises an accumulator:
        // nothing to hoist, and a remark on every matmul's init is noise.
        bool InitIdiom =
            isa<linalg::FillOp>(Op) && Why == "used as a destination (outs)";
        if (!InitIdiom)
          if (auto R = remarkOn(Op, RemarkKind::Missed, "LeftAlone"))
            R << "tensor-mem-hoist-constants: left alone: " << Why;
        continue;
      }
      // A broadcast made global trades a transient arena buffer for
      // permanent data larger than the constants it comes from.
      uint64_t Leaves = 0;
      for (Operation *S : backwardSlice({V}, Derived))
        if (S->hasTrait<OpTrait::ConstantLike>())
          if (std::optional<uint64_t> L =
                  staticTensorBytes(S->getResult(0).getType(), S))
            Leaves = llvm::SaturatingAdd(Leaves, *L);
      if (maxGrowth != 0 &&
          *Bytes > llvm::SaturatingMultiply(Leaves, uint64_t(maxGrowth))) {
        if (auto R = remarkOn(Op, RemarkKind::Missed, "LeftAlone"))
          R << "tensor-mem-hoist-constants: left alone: " << *Bytes
            << " bytes, more than the " << Leaves
            << " bytes of constants it reads";
        continue;
      }
      // Without a second copy: folding keeps the footprint only when the
      // constants it reads die with it (nothing else reads them).
      if (mode == memplan::HoistMode::Memory) {
        DenseSet<Operation *> Slice = backwardSlice({V}, Derived);
        uint64_t Dying = 0;
        for (Operation *S : Slice)
          if (S->hasTrait<OpTrait::ConstantLike>() &&
              dies(S, [&](Operation *U) { return Slice.contains(U); }))
            if (std::optional<uint64_t> L =
                    staticTensorBytes(S->getResult(0).getType(), S))
              Dying = llvm::SaturatingAdd(Dying, *L);
        if (*Bytes > Dying) {
          if (auto R = remarkOn(Op, RemarkKind::Missed, "LeftAlone"))
            R << "tensor-mem-hoist-constants: left alone: folding would "
                 "keep "
              << *Bytes << " bytes beside constants still read elsewhere "
              << "(mode=memory)";
          continue;
        }
      }
      C.Bytes = *Bytes;
      Candidates.push_back(std::move(C));
    }
  }
  return Candidates;
}

void HoistConstantTensors::fold(func::FuncOp Fn,
                                ArrayRef<Candidate> Candidates) {
  auto SliceOfCandidates = [&] {
    SmallVector<Value> Roots;
    for (const Candidate &C : Candidates)
      Roots.push_back(
          C.Reads.front().first->getOperand(C.Reads.front().second));
    return backwardSlice(Roots, constantDerivedOps(Fn.front()));
  };
  // Raw bytes first, of any size and of blobs, in program order so that a
  // chain (a transpose, then a reshape) folds link by link.
  DenseSet<Operation *> Slice = SliceOfCandidates();
  IRRewriter Rewriter(&getContext());
  SmallVector<Operation *> InOrder;
  for (Operation &Op : Fn.front())
    if (Slice.contains(&Op) && !Op.hasTrait<OpTrait::ConstantLike>() &&
        !isa<tensor::EmptyOp>(Op))
      InOrder.push_back(&Op);
  // A link of a chain must not grow the weights either (a broadcast in the
  // slice of a small candidate): memory folds it only when the constants it
  // reads die with it, speed within max-growth. A reshape of a blob shares
  // the blob.
  auto Grows = [&](Operation *Op) {
    std::optional<uint64_t> Out =
        Op->getNumResults() == 1
            ? staticTensorBytes(Op->getResult(0).getType(), Op)
            : std::nullopt;
    if (!Out)
      return true;
    Attribute Source;
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp, tensor::ReshapeOp,
            tensor::CastOp>(Op) &&
        matchPattern(Op->getOperand(0), m_Constant(&Source)) &&
        isa<DenseResourceElementsAttr>(Source))
      return false;
    uint64_t Read = 0, Dying = 0;
    SmallPtrSet<Operation *, 4> Seen;
    for (Value V : Op->getOperands()) {
      Operation *Def = V.getDefiningOp();
      std::optional<uint64_t> B;
      if (!Def || !Seen.insert(Def).second ||
          !Def->hasTrait<OpTrait::ConstantLike>() ||
          !(B = staticTensorBytes(V.getType(), Def)))
        continue;
      Read += *B;
      if (dies(Def, [&](Operation *U) { return U == Op; }))
        Dying += *B;
    }
    if (mode == memplan::HoistMode::Memory)
      return *Out > Dying;
    return maxGrowth != 0 &&
           *Out > llvm::SaturatingMultiply(Read, uint64_t(maxGrowth));
  };
  // (A fold erases only constants and empty tensors, never one of these.)
  for (Operation *Op : foldBytes ? ArrayRef(InOrder) : ArrayRef<Operation *>())
    if (!Grows(Op) &&
        succeeded(constant_bytes::foldOnBytes(Op, Rewriter, foldLimitBytes)))
      countData();
  Slice = SliceOfCandidates();

  // A fold that copies a large non-splat constant costs compile time and
  // binary size: above the limit only what stays a splat is offered.
  DenseSet<Operation *> Splat;
  SmallVector<Operation *> Offered;
  for (Operation &Op : Fn.front()) {
    if (!Slice.contains(&Op))
      continue;
    Attribute A;
    bool IsSplat;
    if (matchPattern(&Op, m_Constant(&A)))
      IsSplat = !isa<ElementsAttr>(A) || isa<SplatElementsAttr>(A);
    else if (isa<tensor::EmptyOp>(Op))
      IsSplat = true;
    else
      IsSplat = (Op.getNumRegions() == 0 || isa<linalg::LinalgOp>(Op)) &&
                !Op.walk([](linalg::IndexOp) {
                     return WalkResult::interrupt();
                   }).wasInterrupted() &&
                llvm::all_of(Op.getOperands(), [&](Value V) {
                  return Splat.contains(V.getDefiningOp());
                });
    if (IsSplat)
      Splat.insert(&Op);
    bool Small = llvm::all_of(Op.getResultTypes(), [&](Type T) {
      std::optional<uint64_t> B = staticTensorBytes(T, &Op);
      return !isa<TensorType>(T) ||
             (B && *B <= static_cast<uint64_t>(foldLimitBytes));
    });
    if (IsSplat || Small)
      Offered.push_back(&Op);
  }

  RewritePatternSet Patterns(&getContext());
  memplan::populateFoldSplatLinalgPatterns(Patterns);
  uint64_t Limit = foldLimitBytes;
  linalg::populateConstantFoldLinalgOperations(
      Patterns, [Limit](OpOperand *Operand) {
        Operation *Op = Operand->getOwner();
        return llvm::all_of(Op->getResultTypes(), [&](Type T) {
          std::optional<uint64_t> B = staticTensorBytes(T, Op);
          return B && *B <= Limit;
        });
      });
  GreedyRewriteConfig Config;
  Config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  (void)applyOpPatternsGreedily(Offered, std::move(Patterns), Config);
}

void HoistConstantTensors::remarkNested(func::FuncOp Fn) {
  // Default-deny: a constant-derived tensor inside a loop or branch is left
  // where it is; say so.
  Fn.front().walk([&](Operation *Op) {
    if (Op->getBlock() == &Fn.front() || !isPureTree(Op) ||
        Op->hasTrait<OpTrait::ConstantLike>() || isa<tensor::EmptyOp>(Op) ||
        Op->getNumResults() == 0 ||
        !llvm::all_of(Op->getResultTypes(), llvm::IsaPred<TensorType>))
      return;
    if (llvm::all_of(Op->getOperands(), [](Value V) {
          Operation *Def = V.getDefiningOp();
          return Def && (Def->hasTrait<OpTrait::ConstantLike>() ||
                         isa<tensor::EmptyOp>(Def));
        }))
      remarkOn(Op, RemarkKind::Missed, "LeftAlone")
          << "tensor-mem-hoist-constants: left alone: inside a "
             "nested region";
  });
}

void HoistConstantTensors::runOnOperation() {
  if (maxGrowth < 0) {
    emitError(getOperation().getLoc())
        << "tensor-mem-hoist-constants: max-growth "
        << static_cast<int64_t>(maxGrowth) << " is negative";
    return signalPassFailure();
  }
  if (foldLimitBytes < 0) {
    emitError(getOperation().getLoc())
        << "tensor-mem-hoist-constants: fold-limit-bytes "
        << static_cast<int64_t>(foldLimitBytes) << " is negative";
    return signalPassFailure();
  }
  ModuleOp Module = getOperation();
  SymbolTable Symbols(Module);
  SmallVector<func::FuncOp> Functions;
  for (func::FuncOp Fn : Module.getOps<func::FuncOp>())
    if (!Fn.isExternal())
      Functions.push_back(Fn);

  for (func::FuncOp Fn : Functions) {
    if (passRemarksWanted(&getContext(), remarks))
      remarkNested(Fn);
    // A weight permuted only to be read needs neither a buffer nor a copy
    // (speed folds or hoists it instead: its readers then read the final
    // layout, contiguous).
    if (mode == memplan::HoistMode::Memory) {
      unsigned Removed = 0;
      uint64_t Bytes = memplan::readThroughPermutations(
          Fn, constantDerivedOps(Fn.front()), Removed);
      numReadThrough += Removed;
      if (Removed)
        if (auto R =
                remarkAt(Fn.getLoc(), Fn, RemarkKind::Passed, "ReadThrough"))
          R << "tensor-mem-hoist-constants: " << Removed
            << " permuted constants read through a map (" << Bytes
            << " bytes never materialized)";
    }
    countData();
    SmallVector<Candidate> Candidates = findCandidates(Fn);
    if (Candidates.empty())
      continue;
    fold(Fn, Candidates);

    // What folding left is computed still: hoist it (or leave it).
    SmallVector<std::pair<Value, Candidate>> Hoisted;
    llvm::SetVector<Operation *> Derived = constantDerivedOps(Fn.front());
    for (Candidate &C : Candidates) {
      auto [User, Number] = C.Reads.front();
      Value Now = User->getOperand(Number);
      assert(llvm::all_of(C.Reads,
                          [&](auto R) {
                            return R.first->getOperand(R.second) == Now;
                          }) &&
             "the reads of one tensor read one value after folding");
      Operation *Def = Now.getDefiningOp();
      if (Def && Def->hasTrait<OpTrait::ConstantLike>()) {
        ++numFolded;
        bytesFolded += C.Bytes;
        if (auto R = remarkAt(C.Loc, Fn, RemarkKind::Passed, "Folded"))
          R << "tensor-mem-hoist-constants: folded: " << C.Bytes << " bytes";
        continue;
      }
      bool MayHoist = hoist && mode == memplan::HoistMode::Speed;
      if (!MayHoist || !Def || !Derived.contains(Def)) {
        if (auto R = remarkAt(C.Loc, Fn, RemarkKind::Missed, "LeftAlone"))
          R << "tensor-mem-hoist-constants: left alone: "
            << (!MayHoist ? (mode == memplan::HoistMode::Memory
                                 ? "cannot fold; a hoisted copy would "
                                   "grow the footprint (mode=memory)"
                                 : "cannot fold (hoist=false)")
                          : "no longer constant-derived");
        continue;
      }
      // Folding may have made it a value with other uses: every use of it
      // reads the global once hoisted, so check them all again.
      if (std::string Why = whyKeep(Now, Derived); !Why.empty()) {
        if (auto R = remarkAt(C.Loc, Fn, RemarkKind::Missed, "LeftAlone"))
          R << "tensor-mem-hoist-constants: left alone: " << Why;
        continue;
      }
      if (llvm::none_of(Hoisted, [&](auto &H) { return H.first == Now; }))
        Hoisted.emplace_back(Now, C);
    }
    if (Hoisted.empty())
      continue;
    SmallVector<memref::GlobalOp> Globals =
        hoistIntoGlobals(Fn, Hoisted, Symbols);
    for (const auto &[H, Global] : llvm::zip_equal(Hoisted, Globals)) {
      const Candidate &C = H.second;
      ++numHoisted;
      bytesHoisted += C.Bytes;
      if (auto R = remarkAt(C.Loc, Fn, RemarkKind::Passed, "Hoisted"))
        R << "tensor-mem-hoist-constants: hoisted into @" << Global.getSymName()
          << ": " << C.Bytes << " bytes";
    }
  }
}
