//===- HoistConstantTensors.cpp - tensor-mem-hoist-constants --------------===//
//
// A tensor computed only from constants (a weight transposed at run time) is
// the largest buffer of most networks' arenas, yet its value never changes.
// This pass folds it where the data is present and otherwise computes it
// once, on the first call, into a module-level global; either way it leaves
// the arena. It runs on tensors, before bufferization.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/AttrNames.h"
#include "memplan/Analysis/ElementLayout.h"
#include "memplan/Analysis/ReadOnlyData.h"
#include "memplan/Transforms/FoldSplatLinalg.h"
#include "memplan/Transforms/Passes.h"

#include "ReadThroughPermutations.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "tensor-mem-hoist-constants"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMHOISTCONSTANTS
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;

namespace {

/// A constant-derived tensor that an op outside the constant-derived set
/// reads: what is folded or hoisted.
struct Candidate {
  Location Loc;
  uint64_t Bytes = 0;
  /// The reads by other ops, as (user, operand number): they survive folding
  /// and tell what value replaced the tensor.
  SmallVector<std::pair<Operation *, unsigned>> Reads;
};

} // namespace

/// Pure, and so is everything nested in it (a payload that calls or stores
/// makes a linalg op impure in effect even when the op says otherwise).
static bool isPureTree(Operation *Op) {
  if (!isPure(Op) || Op->getNumSuccessors() != 0)
    return false;
  return !Op->walk([&](Operation *Nested) {
              if (Nested != Op && !isMemoryEffectFree(Nested))
                return WalkResult::interrupt();
              return WalkResult::advance();
            }).wasInterrupted();
}

/// The ops of Entry computed only from constants: pure, and every operand
/// (and every value their regions capture) computed by such an op. A block
/// argument never is, so no function argument reaches them.
static llvm::SetVector<Operation *> constantDerivedOps(Block &Entry) {
  llvm::SetVector<Operation *> Derived;
  auto IsDerived = [&](Value V) {
    Operation *Def = V.getDefiningOp();
    return Def && Derived.contains(Def);
  };
  for (Operation &Op : Entry) {
    if (Op.hasTrait<OpTrait::IsTerminator>() || !isPureTree(&Op) ||
        !llvm::all_of(Op.getOperands(), IsDerived))
      continue;
    llvm::SetVector<Value> Captured;
    getUsedValuesDefinedAbove(Op.getRegions(), Captured);
    if (llvm::all_of(Captured, IsDerived))
      Derived.insert(&Op);
  }
  return Derived;
}

/// The ops of Derived that Roots are computed from (Roots' own included).
static DenseSet<Operation *>
backwardSlice(ArrayRef<Value> Roots,
              const llvm::SetVector<Operation *> &Derived) {
  DenseSet<Operation *> Slice;
  SmallVector<Operation *> Work;
  for (Value V : Roots)
    Work.push_back(V.getDefiningOp());
  while (!Work.empty()) {
    Operation *Op = Work.pop_back_val();
    if (!Op || !Derived.contains(Op) || !Slice.insert(Op).second)
      continue;
    for (Value V : Op->getOperands())
      Work.push_back(V.getDefiningOp());
    llvm::SetVector<Value> Captured;
    getUsedValuesDefinedAbove(Op->getRegions(), Captured);
    for (Value V : Captured)
      Work.push_back(V.getDefiningOp());
  }
  return Slice;
}

/// Bytes of a static-shape tensor of a known element type, or none.
static std::optional<uint64_t> tensorBytes(Type T, Operation *Scope) {
  auto Tensor = dyn_cast<RankedTensorType>(T);
  if (!Tensor || !Tensor.hasStaticShape())
    return std::nullopt;
  auto Layout = memplan::getBufferLayout(
      MemRefType::get(Tensor.getShape(), Tensor.getElementType()), Scope);
  if (!Layout) {
    llvm::consumeError(Layout.takeError());
    return std::nullopt;
  }
  return Layout->Size;
}

/// Why V keeps its place, or "" when no alias of it leaves the function or
/// is written: the whole alias closure is checked, not only V's users (a
/// select or a reshape returned hands the global to the caller, which may
/// write it). Every tensor result of an op that may forward V is followed (a
/// view, reshape, cast or select, a branch's yield, a destination written in
/// place by a constant-derived op). Default-deny: a return, a loop's yield, a
/// call, an op with regions, or an op with memory effects or buffer results
/// taking an alias keeps V; a destination outside the constant-derived ops is
/// written (bufferization would copy the global back into the arena).
static std::string whyKeep(Value V,
                           const llvm::SetVector<Operation *> &Derived) {
  SmallVector<Value> Work{V};
  DenseSet<Value> Seen{V};
  auto Follow = [&](ValueRange Results) {
    for (Value R : Results)
      if (isa<TensorType>(R.getType()) && Seen.insert(R).second)
        Work.push_back(R);
  };
  while (!Work.empty()) {
    Value Alias = Work.pop_back_val();
    for (OpOperand &Use : Alias.getUses()) {
      Operation *User = Use.getOwner();
      StringRef Why;
      if (auto Dps = dyn_cast<DestinationStyleOpInterface>(User)) {
        if (!Dps.isDpsInit(&Use))
          continue;
        if (!Derived.contains(User))
          Why = "used as a destination (outs)";
        else
          Follow(Dps.getTiedOpResult(&Use));
      } else if (User->hasTrait<OpTrait::IsTerminator>()) {
        // A branch's yield forwards to the op's results; other terminators
        // (return, a loop's yield) hand the tensor on.
        Operation *Parent = User->getParentOp();
        if (isa<scf::YieldOp>(User) &&
            isa<scf::IfOp, scf::IndexSwitchOp>(Parent))
          Follow(Parent->getResult(Use.getOperandNumber()));
        else
          Why = "returned or yielded";
      } else if (isa<CallOpInterface>(User)) {
        Why = "passed to a call";
      } else if (User->getNumRegions() != 0) {
        Why = "an operand of an op with regions";
      } else if (llvm::any_of(User->getResultTypes(),
                              llvm::IsaPred<BaseMemRefType>)) {
        Why = "an operand of an op producing a buffer";
      } else if (!isMemoryEffectFree(User)) {
        Why = "an operand of an op with memory effects";
      } else {
        Follow(User->getResults());
      }
      if (Why.empty())
        continue;
      if (Alias == V)
        return Why.str();
      // Name the op that forwarded it, for the remark.
      Operation *Via = Alias.getDefiningOp();
      return (Why + " through '" +
              (Via ? Via->getName().getStringRef() : StringRef("a block")) +
              "'")
          .str();
    }
  }
  return "";
}

namespace {
struct HoistConstantTensors
    : memplan::impl::TensorMemHoistConstantsBase<HoistConstantTensors> {
  using TensorMemHoistConstantsBase::TensorMemHoistConstantsBase;

  void runOnOperation() override;

private:
  SmallVector<Candidate> findCandidates(func::FuncOp Fn);
  void fold(func::FuncOp Fn, ArrayRef<Candidate> Candidates);
  void hoistInto(func::FuncOp Fn, ArrayRef<std::pair<Value, Candidate>> Values,
                 SymbolTable &Symbols);
  void remarkNested(func::FuncOp Fn);
};
} // namespace

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
      std::optional<uint64_t> Bytes = tensorBytes(V.getType(), Op);
      if (!Bytes)
        Why = "not a static shape of a known element size";
      if (!Why.empty()) {
        if (remarks)
          Op->emitRemark() << "tensor-mem-hoist-constants: left alone: " << Why;
        continue;
      }
      // A broadcast made global trades a transient arena buffer for
      // permanent data larger than the constants it comes from.
      uint64_t Leaves = 0;
      for (Operation *S : backwardSlice({V}, Derived))
        if (S->hasTrait<OpTrait::ConstantLike>())
          if (std::optional<uint64_t> L =
                  tensorBytes(S->getResult(0).getType(), S))
            Leaves = llvm::SaturatingAdd(Leaves, *L);
      if (maxGrowth != 0 &&
          *Bytes > llvm::SaturatingMultiply(Leaves, uint64_t(maxGrowth))) {
        if (remarks)
          Op->emitRemark() << "tensor-mem-hoist-constants: left alone: "
                           << *Bytes << " bytes, more than the " << Leaves
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
              llvm::all_of(S->getUsers(),
                           [&](Operation *U) { return Slice.contains(U); }))
            if (std::optional<uint64_t> L =
                    tensorBytes(S->getResult(0).getType(), S))
              Dying = llvm::SaturatingAdd(Dying, *L);
        if (*Bytes > Dying) {
          if (remarks)
            Op->emitRemark()
                << "tensor-mem-hoist-constants: left alone: folding would "
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
  SmallVector<Value> Roots;
  for (const Candidate &C : Candidates)
    Roots.push_back(C.Reads.front().first->getOperand(C.Reads.front().second));
  DenseSet<Operation *> Slice =
      backwardSlice(Roots, constantDerivedOps(Fn.front()));

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
      std::optional<uint64_t> B = tensorBytes(T, &Op);
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
          std::optional<uint64_t> B = tensorBytes(T, Op);
          return B && *B <= Limit;
        });
      });
  GreedyRewriteConfig Config;
  Config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  (void)applyOpPatternsGreedily(Offered, std::move(Patterns), Config);
}

void HoistConstantTensors::hoistInto(
    func::FuncOp Fn, ArrayRef<std::pair<Value, Candidate>> Values,
    SymbolTable &Symbols) {
  MLIRContext *Ctx = &getContext();
  Location Loc = Fn.getLoc();
  OpBuilder B(Ctx);
  auto Private = B.getStringAttr("private");
  // Globals go before Fn, renamed by the symbol table if the name is taken.
  auto Mark = [&](Operation *Op) {
    Op->setAttr(memplan::kHoistedGlobalAttr, UnitAttr::get(Ctx));
    Symbols.insert(Op, Block::iterator(Fn));
  };

  // The once-flag: 0 before the first call, 1 while the init function runs,
  // 2 once it ran. An i32, as atomics need a whole word.
  auto FlagType = MemRefType::get({}, B.getI32Type());
  B.setInsertionPoint(Fn);
  auto Flag = memref::GlobalOp::create(
      B, Loc, ("__memplan_ready_" + Fn.getName()).str(), Private, FlagType,
      DenseElementsAttr::get(RankedTensorType::get({}, B.getI32Type()),
                             Attribute(B.getI32IntegerAttr(0))),
      /*constant=*/false, /*alignment=*/B.getI64IntegerAttr(4));
  Flag->remove();
  Mark(Flag);

  // One global per tensor, and the init function that fills them all.
  auto Init = func::FuncOp::create(
      Loc, ("__memplan_init_" + Fn.getName()).str(), B.getFunctionType({}, {}));
  Init.setPrivate();
  // The report counts its arenas on the first call only.
  Init->setAttr(memplan::kInitFunctionAttr, B.getUnitAttr());
  Symbols.insert(Init, Block::iterator(Fn));
  OpBuilder InitB = OpBuilder::atBlockEnd(Init.addEntryBlock());
  llvm::SetVector<Operation *> Derived = constantDerivedOps(Fn.front());
  SmallVector<Value> Roots = llvm::map_to_vector(
      Values, [](const std::pair<Value, Candidate> &H) { return H.first; });
  DenseSet<Operation *> Slice = backwardSlice(Roots, Derived);
  DenseMap<Value, memref::GlobalOp> Globals;
  for (const auto &[V, C] : Values) {
    auto Tensor = cast<RankedTensorType>(V.getType());
    auto Type = MemRefType::get(Tensor.getShape(), Tensor.getElementType());
    B.setInsertionPoint(Fn);
    auto Global = memref::GlobalOp::create(
        B, C.Loc, ("__memplan_hoisted_" + Fn.getName()).str(), Private, Type,
        UnitAttr::get(Ctx), /*constant=*/false, B.getI64IntegerAttr(64));
    Global->remove();
    Mark(Global);
    Globals[V] = Global;
  }

  // Each tensor is written to its global right after it is computed, so the
  // init function's own temporaries die early.
  IRMapping Map;
  for (Operation &Op : Fn.front()) {
    if (!Slice.contains(&Op))
      continue;
    InitB.clone(Op, Map);
    for (Value V : Op.getResults()) {
      memref::GlobalOp Global = Globals.lookup(V);
      if (!Global)
        continue;
      auto Get = memref::GetGlobalOp::create(
          InitB, V.getLoc(), Global.getType(), Global.getSymName());
      bufferization::MaterializeInDestinationOp::create(
          InitB, V.getLoc(), TypeRange{}, Map.lookup(V), Get,
          /*restrict=*/true, /*writable=*/true);
    }
  }

  for (const auto &[Root, C] : Values) {
    // The function reads the global where it computed the tensor.
    Value V = Root;
    memref::GlobalOp Global = Globals.lookup(V);
    B.setInsertionPointAfterValue(V);
    auto Get = memref::GetGlobalOp::create(B, C.Loc, Global.getType(),
                                           Global.getSymName());
    auto Read = bufferization::ToTensorOp::create(
        B, C.Loc, V.getType(), Get, /*restrict=*/true, /*writable=*/false);
    V.replaceAllUsesWith(Read.getResult());
    ++numHoisted;
    bytesHoisted += C.Bytes;
    if (remarks)
      emitRemark(C.Loc) << "tensor-mem-hoist-constants: hoisted into @"
                        << Global.getSymName() << ": " << C.Bytes << " bytes";
  }
  func::ReturnOp::create(InitB, Loc);

  // At entry: run the init function exactly once, also when several threads
  // make the first call at once. Only memref.atomic_rmw touches the flag (an
  // acq_rel atomicrmw once lowered): reading 2 orders the init function's
  // writes before this call's reads. The first to move the flag from 0 to 1
  // runs the init function; the others spin until it reads 2.
  B.setInsertionPointToStart(&Fn.front());
  auto FlagGet =
      memref::GetGlobalOp::create(B, Loc, FlagType, Flag.getSymName());
  auto I32 = [&](int64_t V) {
    return arith::ConstantIntOp::create(B, Loc, V, 32).getResult();
  };
  Value NotStarted = I32(0), Running = I32(1), Done = I32(2);
  auto AtomicRMW = [&](arith::AtomicRMWKind Kind, Value V) {
    return memref::AtomicRMWOp::create(B, Loc, Kind, V, FlagGet, ValueRange{})
        .getResult();
  };
  auto Equals = [&](Value A, Value C) {
    return arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::eq, A, C)
        .getResult();
  };
  // An atomic read: or with 0.
  Value State = AtomicRMW(arith::AtomicRMWKind::ori, NotStarted);
  Value NotDone =
      arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::ne, State, Done);
  auto If = scf::IfOp::create(B, Loc, TypeRange{}, NotDone,
                              /*withElseRegion=*/false);
  B.setInsertionPointToStart(If.thenBlock());
  // Claim: max(flag, 1) leaves 1 and 2 as they are.
  Value Before = AtomicRMW(arith::AtomicRMWKind::maxs, Running);
  auto Claimed =
      scf::IfOp::create(B, Loc, TypeRange{}, Equals(Before, NotStarted),
                        /*withElseRegion=*/true);
  B.setInsertionPointToStart(Claimed.thenBlock());
  func::CallOp::create(B, Loc, Init, ValueRange{});
  AtomicRMW(arith::AtomicRMWKind::assign, Done);
  B.setInsertionPointToStart(Claimed.elseBlock());
  auto Wait = scf::WhileOp::create(B, Loc, TypeRange{}, ValueRange{});
  B.createBlock(&Wait.getBefore());
  Value Now = AtomicRMW(arith::AtomicRMWKind::ori, NotStarted);
  Value Spin =
      arith::CmpIOp::create(B, Loc, arith::CmpIPredicate::ne, Now, Done);
  scf::ConditionOp::create(B, Loc, Spin, ValueRange{});
  B.createBlock(&Wait.getAfter());
  scf::YieldOp::create(B, Loc);

  // What computed the hoisted tensors is dead now.
  for (Operation &Op : llvm::make_early_inc_range(llvm::reverse(Fn.front())))
    if (Slice.contains(&Op) && Op.use_empty())
      Op.erase();
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
      Op->emitRemark() << "tensor-mem-hoist-constants: left alone: inside a "
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
    if (remarks)
      remarkNested(Fn);
    // A weight permuted only to be read needs neither a buffer nor a copy
    // (speed folds or hoists it instead: its readers then read the final
    // layout, contiguous).
    if (mode == memplan::HoistMode::Memory) {
      unsigned Removed = 0;
      uint64_t Bytes = memplan::readThroughPermutations(
          Fn, constantDerivedOps(Fn.front()), Removed);
      numReadThrough += Removed;
      if (remarks && Removed)
        emitRemark(Fn.getLoc()) << "tensor-mem-hoist-constants: " << Removed
                                << " permuted constants read through a map ("
                                << Bytes << " bytes never materialized)";
    }
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
        if (remarks)
          emitRemark(C.Loc)
              << "tensor-mem-hoist-constants: folded: " << C.Bytes << " bytes";
        continue;
      }
      bool MayHoist = hoist && mode == memplan::HoistMode::Speed;
      if (!MayHoist || !Def || !Derived.contains(Def)) {
        if (remarks)
          emitRemark(C.Loc)
              << "tensor-mem-hoist-constants: left alone: "
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
        if (remarks)
          emitRemark(C.Loc)
              << "tensor-mem-hoist-constants: left alone: " << Why;
        continue;
      }
      if (llvm::none_of(Hoisted, [&](auto &H) { return H.first == Now; }))
        Hoisted.emplace_back(Now, C);
    }
    if (!Hoisted.empty())
      hoistInto(Fn, Hoisted, Symbols);
  }
}
