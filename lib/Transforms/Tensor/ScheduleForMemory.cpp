//===- ScheduleForMemory.cpp - The tensor-mem-schedule pass ---------------===//
//
// Builds, for each block, the DAG of its ops with the bytes one-shot-bufferize
// will allocate for them, asks memplan's Core scheduler for an order of lower
// peak and moves the ops into it. Default-deny: a block holding anything the
// byte model does not know is left as it is.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/AttrNames.h"
#include "memplan/Analysis/ElementLayout.h"
#include "memplan/Analysis/ReadOnlyData.h"
#include "memplan/Core/Schedule.h"
#include "memplan/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "tensor-mem-schedule"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMSCHEDULE
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;

namespace {

/// Bytes of a static tensor of integers or floats, counted as the planner
/// counts the memref it becomes (ElementLayout: an i1 takes a byte); nothing
/// otherwise.
std::optional<uint64_t> tensorBytes(Type T, Operation *Scope) {
  auto R = dyn_cast<RankedTensorType>(T);
  if (!R || !R.hasStaticShape() || !R.getElementType().isIntOrFloat())
    return std::nullopt;
  llvm::Expected<ElementLayout> L =
      getBufferLayout(MemRefType::get(R.getShape(), R.getElementType()), Scope);
  if (!L) {
    llvm::consumeError(L.takeError());
    return std::nullopt;
  }
  return L->Size;
}

/// Constants without operands go to the block's start: no order to keep.
bool isHoistableConstant(Operation *Op) {
  return Op->hasTrait<OpTrait::ConstantLike>() && Op->getNumOperands() == 0 &&
         Op->getNumRegions() == 0 && isMemoryEffectFree(Op);
}

/// A tensor read from a memref (a global, such as a constant hoisted by
/// tensor-mem-hoist-constants, or an argument): no arena bytes. The to_tensor
/// is not pure, so it keeps its order after the op that fills the memref;
/// orderMemory keeps its readers between the writes to that memory.
bool isMemRefTensor(Operation *Op) {
  return isa<bufferization::ToTensorOp>(Op) &&
         isa<BaseMemRefType>(Op->getOperand(0).getType());
}

/// Ops whose tensor results are views of their first operand's buffer.
bool isView(Operation *Op) {
  return isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
             tensor::ExtractSliceOp, tensor::CastOp>(Op) ||
         isMemRefTensor(Op);
}

/// Memory a read or a write may touch: some globals by name, or anything.
struct MemorySet {
  bool Any = false;
  SmallVector<StringAttr, 1> Globals;

  bool empty() const { return !Any && Globals.empty(); }
  void add(const MemorySet &Other) {
    Any |= Other.Any;
    for (StringAttr G : Other.Globals)
      if (!llvm::is_contained(Globals, G))
        Globals.push_back(G);
  }
  /// Only two distinct globals are known apart; a memref argument or any
  /// other memref may be a view of anything.
  bool mayAlias(const MemorySet &Other) const {
    if (empty() || Other.empty())
      return false;
    if (Any || Other.Any)
      return true;
    return llvm::any_of(Globals, [&](StringAttr G) {
      return llvm::is_contained(Other.Globals, G);
    });
  }
};

/// What bytes the values and ops of one function may read or write.
/// Default-deny: whatever it cannot name is "anything".
class MemoryFacts {
public:
  explicit MemoryFacts(Operation *Scope)
      : Fn(dyn_cast<FunctionOpInterface>(Scope)) {
    if (!Fn)
      Fn = Scope->getParentOfType<FunctionOpInterface>();
  }

  /// The memory a memref value may point into.
  MemorySet memrefRoot(Value M) {
    MemorySet S;
    if (auto Get = M.getDefiningOp<memref::GetGlobalOp>())
      S.Globals.push_back(Get.getNameAttr().getAttr());
    else
      S.Any = true;
    return S;
  }

  /// The mutable memory a memref reads: nothing for a constant global or a
  /// hoisted one (written only by the init function, which runs before the
  /// to_tensor that reads it).
  MemorySet mutableRoot(Value M) {
    if (auto Get = M.getDefiningOp<memref::GetGlobalOp>()) {
      auto Global = Symbols.lookupNearestSymbolFrom<memref::GlobalOp>(
          Get, Get.getNameAttr().getAttr());
      if (Global && (Global.getConstant() ||
                     Global->hasAttr(memplan::kHoistedGlobalAttr)))
        return {};
    }
    return memrefRoot(M);
  }

  /// The mutable memory whose bytes a tensor value may still be: tensors are
  /// values, except one made by to_tensor from a memref, and what forwards it.
  const MemorySet &tensorSources(Value V) {
    auto It = Sources.find(V);
    if (It != Sources.end())
      return It->second;
    MemorySet S = computeSources(V);
    return Sources[V] = std::move(S);
  }

  /// The mutable memory Op (and what it nests) reads through tensors.
  MemorySet tensorReads(Operation *Op) {
    MemorySet S;
    Op->walk([&](Operation *Inner) {
      for (Value V : Inner->getOperands())
        if (isa<TensorType>(V.getType()) &&
            !Op->isAncestor(V.getParentRegion()->getParentOp()))
          S.add(tensorSources(V));
    });
    return S;
  }

  /// The memory Op (and what it nests) may write: its MemoryEffectOpInterface
  /// write and free effects, anything for an op without one (a call), and
  /// the memory behind a destination it may write in place.
  MemorySet writes(Operation *Op) {
    MemorySet S;
    Op->walk([&](Operation *Inner) {
      if (auto D = dyn_cast<DestinationStyleOpInterface>(Inner))
        if (hasWritableToTensor())
          for (OpOperand &Init : D.getDpsInitsMutable())
            if (isa<TensorType>(Init.get().getType()))
              S.add(tensorSources(Init.get()));
      // A to_tensor reads; writes through its result are the users'.
      if (isa<bufferization::ToTensorOp>(Inner))
        return;
      auto Effects = dyn_cast<MemoryEffectOpInterface>(Inner);
      if (!Effects) {
        if (!Inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
          S.Any = true;
        return;
      }
      SmallVector<MemoryEffects::EffectInstance> List;
      Effects.getEffects(List);
      for (const MemoryEffects::EffectInstance &E : List) {
        if (!isa<MemoryEffects::Write, MemoryEffects::Free>(E.getEffect()))
          continue;
        if (Value M = E.getValue()) {
          // A buffer allocated inside Op is no memory anyone else reads.
          Operation *Def = M.getDefiningOp();
          if (Def && Op->isAncestor(Def) &&
              isa<memref::AllocOp, memref::AllocaOp>(Def))
            continue;
          S.add(memrefRoot(M));
        } else if (SymbolRefAttr Sym = E.getSymbolRef()) {
          S.Globals.push_back(Sym.getLeafReference());
        } else {
          S.Any = true;
        }
      }
    });
    return S;
  }

private:
  /// Bufferization writes into a to_tensor's memory only when it is marked
  /// writable (it copies otherwise); without one, a destination written in
  /// place is never mutable memory.
  bool hasWritableToTensor() {
    if (!WritableToTensor)
      WritableToTensor = !Fn || Fn->walk([](bufferization::ToTensorOp T) {
                                    return T.getWritable()
                                               ? WalkResult::interrupt()
                                               : WalkResult::advance();
                                  }).wasInterrupted();
    return *WritableToTensor;
  }

  MemorySet computeSources(Value V) {
    MemorySet Anything;
    Anything.Any = true;
    if (auto Arg = dyn_cast<BlockArgument>(V)) {
      // A function's tensor arguments are values; a loop's or a branch's
      // block arguments may carry anything into the block.
      if (Fn && Arg.getOwner() == &Fn.getFunctionBody().front())
        return {};
      return Anything;
    }
    Operation *Def = V.getDefiningOp();
    if (isMemRefTensor(Def))
      return mutableRoot(Def->getOperand(0));
    if (isa<tensor::EmptyOp, tensor::PadOp, tensor::ConcatOp>(Def) ||
        Def->hasTrait<OpTrait::ConstantLike>())
      return {};
    if (auto D = dyn_cast<DestinationStyleOpInterface>(Def)) {
      // The result may be its init written in place.
      auto R = cast<OpResult>(V);
      if (OpOperand *Init = D.getTiedOpOperand(R))
        return tensorSources(Init->get());
      return Anything;
    }
    // A pure op without regions forwards at most its operands (a view, a
    // reshape, a select); anything else may hand on any memory.
    if (Def->getNumRegions() != 0 || !isMemoryEffectFree(Def))
      return Anything;
    MemorySet S;
    for (Value Operand : Def->getOperands())
      if (isa<TensorType>(Operand.getType()))
        S.add(tensorSources(Operand));
    return S;
  }

  FunctionOpInterface Fn;
  std::optional<bool> WritableToTensor;
  SymbolTableCollection Symbols;
  DenseMap<Value, MemorySet> Sources;
};

/// Ops the byte model knows to produce tensors, or why not.
LogicalResult checkKnown(Operation *Op, std::string &Why) {
  bool HasTensor = false;
  for (Type T : Op->getResultTypes()) {
    // A global is no arena buffer (hoisted constants are read this way).
    if (isa<BaseMemRefType>(T) && isa<memref::GetGlobalOp>(Op))
      continue;
    if (isa<BaseMemRefType>(T)) {
      Why = "an op producing a buffer (the block mixes tensors and buffers)";
      return failure();
    }
    if (!isa<TensorType>(T))
      continue;
    HasTensor = true;
    // A view allocates nothing: its type may be anything (a cast to an
    // unranked tensor for printing, say).
    if (!isHoistableConstant(Op) && !isView(Op) && !tensorBytes(T, Op)) {
      Why = "a dynamic, unranked or non-numeric tensor";
      return failure();
    }
  }
  if (!HasTensor || isHoistableConstant(Op) || isView(Op) ||
      isa<tensor::EmptyOp, tensor::PadOp, tensor::ConcatOp>(Op))
    return success();
  auto D = dyn_cast<DestinationStyleOpInterface>(Op);
  if (D && D.hasPureTensorSemantics())
    return success();
  Why = "an op producing tensors the byte model does not know";
  return failure();
}

/// A block as a Core problem: node I is NodeOps[I] preceded by Attached[I].
struct BlockModel {
  ScheduleProblem Problem;
  SmallVector<Operation *> NodeOps;
  SmallVector<SmallVector<Operation *, 1>> Attached;
  SmallVector<Operation *> Hoisted;
};

/// Gives each use of a multi-use static tensor.empty its own, right before
/// the user: one-shot-bufferize allocates one buffer per use anyway, at the
/// tensor.empty, which would make them all live from there.
void splitEmpties(Block &B) {
  SmallVector<tensor::EmptyOp> Empties;
  for (Operation &Op : B)
    if (auto E = dyn_cast<tensor::EmptyOp>(Op))
      if (E->getNumOperands() == 0 && !E->hasOneUse() && !E->use_empty())
        Empties.push_back(E);
  for (tensor::EmptyOp E : Empties) {
    for (OpOperand &Use : llvm::make_early_inc_range(E->getUses())) {
      Operation *At = B.findAncestorOpInBlock(*Use.getOwner());
      OpBuilder Builder(At);
      Use.set(Builder.clone(*E)->getResult(0));
    }
    E->erase();
  }
}

/// The single user, in B, a tensor.empty is emitted right before; null when
/// it stays a node of its own.
Operation *attachTarget(Operation *Op, Block &B) {
  auto E = dyn_cast<tensor::EmptyOp>(Op);
  if (!E || !E->hasOneUse())
    return nullptr;
  Operation *User = *E->user_begin();
  if (User->getBlock() != &B || User->hasTrait<OpTrait::IsTerminator>())
    return nullptr;
  return User;
}

class ModelBuilder {
public:
  explicit ModelBuilder(Block &B) : B(B), Memory(B.getParentOp()) {}

  BlockModel build() {
    Operation *Term = &B.back();
    DenseMap<Operation *, SmallVector<Operation *, 1>> Pending;
    for (Operation &Op : B) {
      if (isHoistableConstant(&Op)) {
        M.Hoisted.push_back(&Op);
        continue;
      }
      if (Operation *User = attachTarget(&Op, B)) {
        Pending[User].push_back(&Op);
        continue;
      }
      size_t I = M.NodeOps.size();
      NodeOf[&Op] = I;
      M.NodeOps.push_back(&Op);
      M.Attached.push_back(Pending.lookup(&Op));
      for (Operation *A : M.Attached.back())
        NodeOf[A] = I;
      M.Problem.Nodes.emplace_back();
      if (&Op == Term)
        addTerminator(I);
      else
        addOp(I, &Op);
    }
    return std::move(M);
  }

private:
  /// SSA predecessors (also of nested regions) and the buffers read.
  void addUses(size_t I, Operation *Op) {
    ScheduleNode &N = M.Problem.Nodes[I];
    SetVector<Value> Used;
    // Values defined inside Op's own regions are no dependency.
    Op->walk([&](Operation *Inner) {
      for (Value V : Inner->getOperands())
        if (!Op->isAncestor(V.getParentRegion()->getParentOp()))
          Used.insert(V);
    });
    for (Value V : Used) {
      Operation *Def = V.getDefiningOp();
      if (Def && Def->getBlock() == &B) {
        auto It = NodeOf.find(Def);
        if (It != NodeOf.end() && It->second != I)
          N.After.push_back(It->second);
      }
      auto Buf = BufferOf.find(V);
      if (Buf != BufferOf.end())
        N.Uses.push_back(Buf->second);
    }
  }

  size_t newBuffer(size_t I, Value V) {
    size_t Id = M.Problem.ValueSizes.size();
    M.Problem.ValueSizes.push_back(*tensorBytes(V.getType(), B.getParentOp()));
    M.Problem.Nodes[I].Defines.push_back(Id);
    Aliases.emplace_back();
    alias(V, Id);
    return Id;
  }

  void alias(Value V, size_t Id) {
    BufferOf[V] = Id;
    Aliases[Id].push_back(V);
  }

  /// Whether Op can write into buffer Id in place, as one-shot-bufferize
  /// decides it: no other reader of its values comes later. Then those
  /// readers must stay before Op, which the extra edges ensure.
  bool writeInPlace(size_t I, Operation *Op, size_t Id) {
    SmallVector<size_t> Readers;
    for (Value V : Aliases[Id])
      for (Operation *User : V.getUsers()) {
        Operation *At = B.findAncestorOpInBlock(*User);
        if (!At || At == Op)
          continue;
        if (At->hasTrait<OpTrait::IsTerminator>() || !At->isBeforeInBlock(Op))
          return false;
        auto It = NodeOf.find(At);
        if (It != NodeOf.end())
          Readers.push_back(It->second);
      }
    llvm::append_range(M.Problem.Nodes[I].After, Readers);
    return true;
  }

  void addOp(size_t I, Operation *Op) {
    // An attached tensor.empty that is no init: its buffer is allocated right
    // before Op (and lives on through views of it).
    for (Operation *A : M.Attached[I]) {
      OpOperand &Use = *A->getUses().begin();
      auto D = dyn_cast<DestinationStyleOpInterface>(Op);
      if (!D || !D.isDpsInit(&Use))
        newBuffer(I, A->getResult(0));
    }
    addUses(I, Op);
    MemorySet Writes = Memory.writes(Op);
    if (!isMemoryEffectFree(Op) || !Writes.empty()) {
      if (LastImpure)
        M.Problem.Nodes[I].After.push_back(*LastImpure);
      LastImpure = I;
    }
    orderMemory(I, Op, Writes);
    if (isa<tensor::EmptyOp, tensor::PadOp, tensor::ConcatOp>(Op)) {
      newBuffer(I, Op->getResult(0));
      return;
    }
    if (isView(Op)) {
      auto Src = BufferOf.find(Op->getOperand(0));
      if (Src != BufferOf.end())
        alias(Op->getResult(0), Src->second);
      return;
    }
    auto D = dyn_cast<DestinationStyleOpInterface>(Op);
    if (!D)
      return;
    for (OpResult R : Op->getResults()) {
      if (!isa<TensorType>(R.getType()))
        continue;
      Value Init = D.getTiedOpOperand(R)->get();
      auto Def = NodeOf.find(Init.getDefiningOp());
      auto Buf = BufferOf.find(Init);
      bool FromAttached = Def != NodeOf.end() && Def->second == I &&
                          isa<tensor::EmptyOp>(Def->first);
      if (!FromAttached && Buf != BufferOf.end() &&
          writeInPlace(I, Op, Buf->second))
        alias(R, Buf->second);
      else
        newBuffer(I, R);
    }
  }

  /// A pure op reading mutable memory through a tensor stays between the
  /// writes to that memory: after the last one before it, before the next.
  /// Writers are all in the chain of ops with effects, so the last
  /// conflicting writer stands for the earlier ones.
  void orderMemory(size_t I, Operation *Op, const MemorySet &Writes) {
    ScheduleNode &N = M.Problem.Nodes[I];
    MemorySet Reads = Memory.tensorReads(Op);
    if (!Reads.empty()) {
      for (const auto &[W, WSet] : llvm::reverse(Writers))
        if (WSet.mayAlias(Reads)) {
          N.After.push_back(W);
          break;
        }
      Readers.emplace_back(I, std::move(Reads));
    }
    if (Writes.empty())
      return;
    for (const auto &[R, RSet] : Readers)
      if (R != I && RSet.mayAlias(Writes))
        N.After.push_back(R);
    // Later writers come after this one: a write of anything orders every
    // earlier reader for them too.
    if (Writes.Any)
      Readers.clear();
    Writers.emplace_back(I, Writes);
  }

  /// The terminator reads what it returns and comes after every node.
  void addTerminator(size_t I) {
    addUses(I, M.NodeOps[I]);
    for (size_t K = 0; K < I; ++K)
      M.Problem.Nodes[I].After.push_back(K);
  }

  Block &B;
  BlockModel M;
  DenseMap<Operation *, size_t> NodeOf;
  DenseMap<Value, size_t> BufferOf;
  std::vector<SmallVector<Value>> Aliases;
  std::optional<size_t> LastImpure;
  MemoryFacts Memory;
  SmallVector<std::pair<size_t, MemorySet>> Readers, Writers;
};

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
    if (remarks)
      mlir::emitRemark(Fn.getLoc())
          << "tensor-mem-schedule: '" << Fn.getName() << "' model peak "
          << Before << " -> " << After << " bytes (" << Reordered
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
        if (remarks)
          Op.emitRemark() << "tensor-mem-schedule: block left alone: " << Why;
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
    BlockModel M = ModelBuilder(B).build();
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
