//===- UsageRecordsFromIR.cpp - Buffer liveness as usage records ----------===//

#include "memplan/Analysis/UsageRecordsFromIR.h"
#include "memplan/Analysis/BufferAliases.h"
#include "memplan/Analysis/ElementLayout.h"
#include "memplan/Analysis/TaskNumbering.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Debug.h"

#include <optional>

#define DEBUG_TYPE "memplan-usage-records"

using namespace mlir;
using namespace memplan;

llvm::Expected<ElementLayout> memplan::staticBufferLayout(MemRefType MemTy,
                                                          Operation *Scope) {
  if (!MemTy.hasStaticShape())
    return llvm::createStringError("dynamic shape");
  return getBufferLayout(MemTy, Scope);
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
    if (auto Dim = dynamicArgumentDim(Size)) {
      auto Fn = cast<FunctionOpInterface>(
          cast<BlockArgument>(Size.getDefiningOp()->getOperand(0))
              .getOwner()
              ->getParentOp());
      return SizeBound{ArgumentBound,
                       "dim-bounds=" + std::to_string(ArgumentBound) +
                           " on dim " + std::to_string(Dim->second) +
                           " of argument " + std::to_string(Dim->first) +
                           " of @" + Fn.getName().str()};
    }
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
  if (failed(Bound) || *Bound < 0)
    return std::nullopt;
  return SizeBound{*Bound, ""};
}

llvm::Expected<ElementLayout>
memplan::boundedBufferLayout(memref::AllocOp Alloc, int64_t ArgumentDimBound,
                             SmallVectorImpl<SizePromise> *Promises) {
  MemRefType Type = Alloc.getType();
  SmallVector<int64_t> Shape(Type.getShape());
  unsigned Next = 0;
  for (int64_t &Dim : Shape)
    if (ShapedType::isDynamic(Dim)) {
      unsigned Index = Next++;
      std::optional<SizeBound> Bound =
          upperBound(Alloc.getDynamicSizes()[Index], ArgumentDimBound);
      if (!Bound)
        return llvm::createStringError("dynamic shape");
      Dim = Bound->Value;
      if (Promises && !Bound->Promise.empty())
        Promises->push_back({Index, Bound->Value, Bound->Promise});
    }
  return getBufferLayout(MemRefType::get(Shape, Type.getElementType(),
                                         Type.getLayout(),
                                         Type.getMemorySpace()),
                         Alloc.getOperation());
}

namespace {

bool isParallelLoop(Operation *Op) {
  return isa<scf::ForallOp, scf::ParallelOp, affine::AffineParallelOp>(Op);
}

/// An op whose regions may run more than once per execution of the op.
bool isLoop(Operation *Op) {
  if (auto Branch = dyn_cast<RegionBranchOpInterface>(Op))
    for (unsigned I = 0, E = Op->getNumRegions(); I < E; ++I)
      if (Branch.isRepetitiveRegion(I))
        return true;
  return isa<LoopLikeOpInterface>(Op) || isParallelLoop(Op);
}

class Analyzer {
public:
  explicit Analyzer(FunctionOpInterface Fn) : Fn(Fn), Tasks(Fn), Aliases(Fn) {
    Fn->walk([&](Region *R) {
      if (R->hasOneBlock() || R->empty())
        return;
      HasMultiBlockRegions = true;
    });
    if (HasMultiBlockRegions)
      Live.emplace(Fn);
  }

  /// The facts of every alloc of Fn (not of functions nested in it).
  void run(BufferUsageAnalysis &Result) {
    Result.NumTasks = Tasks.size();
    Fn->walk([&](Operation *Op) {
      if (isa<memref::DeallocOp, bufferization::DeallocOp>(Op))
        Result.FreesBuffers = true;
      auto Alloc = dyn_cast<memref::AllocOp>(Op);
      if (!Alloc || Alloc->getParentOfType<FunctionOpInterface>() != Fn)
        return;
      Result.Allocs.push_back(analyze(Alloc));
    });
  }

private:
  /// What holds whatever the options: why the alloc is left alone, or its
  /// tasks; the size and alignment depend on the options (bufferFacts).
  AllocFacts analyze(memref::AllocOp Alloc) {
    AllocFacts Facts;
    Facts.Alloc = Alloc;
    PastDeallocationCheck = false;
    if (std::optional<UnplannedBuffer> Why = analyze(Alloc, Facts)) {
      Facts.Left = std::move(*Why);
      Facts.LeftLate = PastDeallocationCheck;
    }
    return Facts;
  }

  std::optional<UnplannedBuffer> analyze(memref::AllocOp Alloc,
                                         AllocFacts &Facts) {
    auto Leave = [&](const Twine &Reason, Operation *Culprit = nullptr) {
      return UnplannedBuffer{Alloc, Reason.str(), Culprit};
    };
    MemRefType Type = Alloc.getType();
    PlannableBuffer &Buffer = Facts.Buffer;

    // Every region between the function and the alloc must have known
    // semantics, and run its iterations one after the other, in order with
    // the ops around it.
    for (Operation *P = Alloc->getParentOp(); P != Fn.getOperation();
         P = P->getParentOp()) {
      if (isParallelLoop(P))
        return Leave("inside a parallel loop ('" + P->getName().getStringRef() +
                         "')",
                     P);
      if (BufferAliasAnalysis::isAsynchronous(P))
        return Leave("inside an asynchronous region ('" +
                         P->getName().getStringRef() + "')",
                     P);
      if (!isa<RegionBranchOpInterface>(P))
        return Leave("inside a region of unknown semantics ('" +
                         P->getName().getStringRef() + "')",
                     P);
    }

    BufferAliasInfo Info = Aliases.analyze(Alloc.getResult());
    for (Value V : Info.Aliases) {
      if (V == Alloc.getResult())
        continue;
      // A block argument of a loop around the alloc carries the buffer into
      // the next iteration, where the alloc runs again.
      if (auto Arg = dyn_cast<BlockArgument>(V)) {
        Operation *Owner = Arg.getOwner()->getParentOp();
        if (Owner != Fn.getOperation() && Owner->isProperAncestor(Alloc) &&
            isLoop(Owner))
          return Leave("carried across iterations of its loop", Owner);
      }
      if (Live && isLiveAt(V, Alloc))
        return Leave("carried across iterations of a control-flow loop");
    }
    if (Info.Escape)
      return Leave(Info.Escape->Reason, Info.Escape->Culprit);
    // Left alone only when the ownership-based deallocation runs after
    // planning (UsageRecordsOptions::DeallocationRunsAfter).
    for (Value V : Info.Aliases) {
      if (Facts.LeftIfDeallocationRunsAfter)
        break;
      if (!isa<MemRefType>(V.getType()))
        continue;
      Operation *Owner = isa<BlockArgument>(V)
                             ? cast<BlockArgument>(V).getOwner()->getParentOp()
                             : V.getDefiningOp();
      if (isa<BlockArgument>(V) || isa<RegionBranchOpInterface>(Owner))
        Facts.LeftIfDeallocationRunsAfter =
            Leave("forwarded through control flow, where the "
                  "deallocation that runs after planning would free "
                  "the arena",
                  Owner);
      // Live into another block of a CFG: the deallocation takes
      // ownership of it there and frees it through its view.
      else if (Live && isLiveIntoABlock(V))
        Facts.LeftIfDeallocationRunsAfter =
            Leave("used in another block of a CFG, where the "
                  "deallocation that runs after planning would free "
                  "the arena");
    }

    // Reasons found from here on come after that one.
    PastDeallocationCheck = true;

    // The record spans every point where an alias may be live: its
    // definition, its uses, and over a CFG the blocks it is live into or
    // out of. Blocks may be laid out in any order, so both ends move.
    Span S{Tasks.start(Alloc), Tasks.start(Alloc), Alloc};
    for (Value V : Info.Aliases) {
      if (auto Arg = dyn_cast<BlockArgument>(V)) {
        if (!Arg.getOwner()->empty())
          S.add(firstTaskOf(&Arg.getOwner()->front(), Alloc),
                Tasks.start(&Arg.getOwner()->front()),
                &Arg.getOwner()->front());
      } else if (Operation *Def = V.getDefiningOp()) {
        // A result exists once its op is done (an scf.if yielding the
        // buffer begins before the alloc inside it).
        uint64_t Defined = Tasks.end(Def);
        if (Operation *Loop = outermostLoopWithout(Def, Alloc))
          Defined = std::min(Defined, Tasks.start(Loop));
        S.add(Defined, Defined, Def);
      }
      for (OpOperand &Use : V.getUses()) {
        Operation *User = Use.getOwner();
        if (isa<memref::DeallocOp>(User))
          continue;
        // Used after the loop that allocates it: the next iteration would
        // reuse its bytes while it is alive.
        for (Operation *P = Alloc->getParentOp(); P != Fn.getOperation();
             P = P->getParentOp())
          if (isLoop(P) && !P->isAncestor(User))
            return Leave("outlives the iteration of its loop", User);
        S.add(firstTaskOf(User, Alloc), lastTaskOf(User, Alloc), User);
      }
      if (Live)
        extendOverBlocks(V, Alloc, S);
    }

    Buffer.Alloc = Alloc;
    Buffer.Record = UsageRecord(0, S.First, S.Last);
    Buffer.LastUser = S.LastUser;
    Buffer.Deallocs = Info.Deallocs;
    Buffer.MemorySpace = Type.getMemorySpace();
    Buffer.Persistent = Alloc->hasAttr(kPersistentAttr);
    return std::nullopt;
  }

  /// The tasks over which a buffer is live, and the op at its last task.
  struct Span {
    uint64_t First, Last;
    Operation *LastUser;
    void add(uint64_t F, uint64_t L, Operation *Op) {
      First = std::min(First, F);
      if (L > Last) {
        Last = L;
        LastUser = Op;
      }
    }
  };

  /// The outermost loop around User that does not hold the alloc: a use in
  /// it keeps the buffer alive over all of it.
  Operation *outermostLoopWithout(Operation *User, Operation *Alloc) {
    Operation *Outer = nullptr;
    for (Operation *P = User->getParentOp(); P && P != Fn.getOperation();
         P = P->getParentOp())
      if (isLoop(P) && !P->isAncestor(Alloc))
        Outer = P;
    return Outer;
  }

  /// The last task at which User keeps the buffer alive: the end of User's
  /// own regions, or of any loop around it that does not hold the alloc.
  uint64_t lastTaskOf(Operation *User, Operation *Alloc) {
    uint64_t Last = Tasks.end(User);
    if (Operation *Loop = outermostLoopWithout(User, Alloc))
      Last = std::max(Last, Tasks.end(Loop));
    return Last;
  }

  uint64_t firstTaskOf(Operation *User, Operation *Alloc) {
    uint64_t First = Tasks.start(User);
    if (Operation *Loop = outermostLoopWithout(User, Alloc))
      First = std::min(First, Tasks.start(Loop));
    return First;
  }

  bool isLiveIntoABlock(Value V) {
    return Fn
        ->walk([&](Block *B) {
          const LivenessBlockInfo *Info = Live->getLiveness(B);
          return Info && Info->isLiveIn(V) ? WalkResult::interrupt()
                                           : WalkResult::advance();
        })
        .wasInterrupted();
  }

  bool isLiveAt(Value V, Operation *Op) {
    const LivenessBlockInfo *Info = Live->getLiveness(Op->getBlock());
    return Info && Info->currentlyLiveValues(Op).contains(V);
  }

  /// Over a CFG, a value live into a block is alive from the block's start,
  /// one live out of it until the block's end (and any loop around it).
  void extendOverBlocks(Value V, Operation *Alloc, Span &S) {
    Fn->walk([&](Block *B) {
      if (B->empty())
        return;
      const LivenessBlockInfo *Info = Live->getLiveness(B);
      if (!Info)
        return;
      if (Info->isLiveIn(V))
        S.add(firstTaskOf(&B->front(), Alloc), Tasks.start(&B->front()),
              &B->front());
      if (Info->isLiveOut(V))
        S.add(firstTaskOf(&B->back(), Alloc), lastTaskOf(&B->back(), Alloc),
              &B->back());
    });
  }

  FunctionOpInterface Fn;
  TaskNumbering Tasks;
  BufferAliasAnalysis Aliases;
  bool HasMultiBlockRegions = false;
  std::optional<Liveness> Live;
  /// The alloc being analyzed got past the checks that only hold when the
  /// deallocation runs after planning.
  bool PastDeallocationCheck = false;
};

} // namespace

BufferUsageAnalysis::BufferUsageAnalysis(Operation *Function) {
  Analyzer(cast<FunctionOpInterface>(Function)).run(*this);
}

/// The size and alignment of Facts' buffer under Options, or why it has
/// none; the reasons come in the order the checks used to run.
static std::optional<UnplannedBuffer>
sizeBuffer(const AllocFacts &Facts, const UsageRecordsOptions &Options,
           PlannableBuffer &Buffer) {
  memref::AllocOp Alloc = Facts.Alloc;
  auto Leave = [&](std::string Reason) {
    return UnplannedBuffer{Alloc, std::move(Reason), nullptr};
  };
  MemRefType Type = Alloc.getType();
  SmallVector<SizePromise, 1> Promises;
  llvm::Expected<ElementLayout> Layout =
      Type.hasStaticShape()
          ? staticBufferLayout(Type, Alloc.getOperation())
          : boundedBufferLayout(Alloc, Options.ArgumentDimBound, &Promises);
  // A bound far above what the program will use (minui %n, 2^40) would
  // make an arena nobody can allocate: above the cap it stays dynamic.
  bool OverCap =
      Layout && !Type.hasStaticShape() && Layout->Size > Options.MaxStaticBytes;
  if (OverCap)
    Layout = llvm::createStringError(
        "dynamic shape (its bound, " + std::to_string(Layout->Size) +
        " bytes, is above max-static-bytes=" +
        std::to_string(Options.MaxStaticBytes) + ")");
  bool Dynamic = false;
  if (!Layout) {
    std::string Why = llvm::toString(Layout.takeError());
    if (!Options.DynamicRecords ||
        !StringRef(Why).starts_with("dynamic shape")) {
      UnplannedBuffer U = Leave(Why);
      U.AlwaysRemark = OverCap;
      return U;
    }
    Promises.clear();
    Layout = getBufferLayout(Type, Alloc.getOperation());
    if (!Layout)
      return Leave(llvm::toString(Layout.takeError()));
    Dynamic = true;
  }
  if (Facts.Left && !Facts.LeftLate)
    return Facts.Left;
  if (Options.DeallocationRunsAfter && Facts.LeftIfDeallocationRunsAfter)
    return Facts.LeftIfDeallocationRunsAfter;
  if (Facts.Left)
    return Facts.Left;
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
                              << Why->Reason << "\n");
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

SmallVector<ArenaGroup>
memplan::groupByMemorySpace(const FunctionBuffers &Buffers) {
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
  return Groups;
}

ArenaInput memplan::arenaInput(const ArenaGroup &Group, uint64_t NumTasks,
                               uint64_t Alignment, bool PreserveIntermediates) {
  ArenaInput In;
  In.Alignment = Alignment;
  for (const PlannableBuffer *B : Group.Buffers) {
    UsageRecord R = B->Record;
    if (PreserveIntermediates || B->Persistent) {
      R.FirstTask = 0;
      R.LastTask = NumTasks;
    }
    In.Records.push_back(R);
    In.BytesWithoutPlanning =
        llvm::SaturatingAdd(In.BytesWithoutPlanning, R.Size);
    In.Alignment = std::max(In.Alignment, B->Alignment);
  }
  assert(In.Records.size() == Group.Buffers.size() &&
         "one record per buffer, in the group's order");
  return In;
}
