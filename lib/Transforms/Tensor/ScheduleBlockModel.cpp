//===- ScheduleBlockModel.cpp - A block as a scheduling problem -----------===//
//
// tensor-mem-schedule's byte model: which ops it knows, and for a block of
// them the DAG Core schedules, each node with the bytes one-shot-bufferize
// will allocate for it, the buffers it reads, and the order its memory
// effects keep. A dynamic tensor's bytes are its static part times the index
// values its dynamic sizes come from, followed back through the ops that
// keep them (inits, views, casts) to a tensor.empty, a slice's sizes or an
// argument's dims.
//
//===----------------------------------------------------------------------===//

#include "ScheduleInternal.h"
#include "SplitEmptyTensors.h"

#include "memplan/Analysis/ElementLayout.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace memplan;
using namespace memplan::tensor_schedule;

std::optional<uint64_t> tensor_schedule::tensorStaticBytes(Type T,
                                                           Operation *Scope) {
  auto R = dyn_cast<RankedTensorType>(T);
  if (!R || !R.getElementType().isIntOrFloat())
    return std::nullopt;
  return tensorStaticPartBytes(R, Scope);
}

bool tensor_schedule::isHoistableConstant(Operation *Op) {
  return Op->hasTrait<OpTrait::ConstantLike>() && Op->getNumOperands() == 0 &&
         Op->getNumRegions() == 0 && isMemoryEffectFree(Op);
}

bool tensor_schedule::isMemRefTensor(Operation *Op) {
  return isa<bufferization::ToTensorOp>(Op) &&
         isa<BaseMemRefType>(Op->getOperand(0).getType());
}

bool tensor_schedule::isView(Operation *Op) {
  return isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
             tensor::ExtractSliceOp, tensor::CastOp>(Op) ||
         isMemRefTensor(Op);
}

LogicalResult tensor_schedule::checkKnown(Operation *Op, std::string &Why) {
  bool HasTensor = false;
  for (Type T : Op->getResultTypes()) {
    // A global is no arena buffer (hoisted constants are read this way),
    // and a view of a memref allocates nothing: MemoryFacts follows it to
    // the memory it lies in.
    if (isa<BaseMemRefType>(T) &&
        isa<memref::GetGlobalOp, ViewLikeOpInterface>(Op) &&
        isMemoryEffectFree(Op))
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
    if (!isHoistableConstant(Op) && !isView(Op) && !tensorStaticBytes(T, Op)) {
      Why = "an unranked or non-numeric tensor";
      return failure();
    }
  }
  if (!HasTensor || isHoistableConstant(Op) || isView(Op) ||
      isa<tensor::EmptyOp, tensor::PadOp, tensor::ConcatOp,
          tensor::FromElementsOp>(Op))
    return success();
  auto D = dyn_cast<DestinationStyleOpInterface>(Op);
  if (D && D.hasPureTensorSemantics())
    return success();
  Why = "an op producing tensors the byte model does not know";
  return failure();
}

bool tensor_schedule::splitEmpties(Block &B) {
  SmallVector<tensor::EmptyOp> Empties;
  for (Operation &Op : B)
    if (auto E = dyn_cast<tensor::EmptyOp>(Op))
      if (E->getNumOperands() == 0 && !E->hasOneUse() && !E->use_empty())
        Empties.push_back(E);
  // Each clone before the op of B that uses it: the op the model orders.
  for (tensor::EmptyOp E : Empties)
    splitEmptyTensor(E, EmptyPlacement::BeforeUserInBlock);
  return !Empties.empty();
}

/// The single user, in B, a tensor.empty is emitted right before; null when
/// it stays a node of its own.
static Operation *attachTarget(Operation *Op, Block &B) {
  auto E = dyn_cast<tensor::EmptyOp>(Op);
  if (!E || !E->hasOneUse())
    return nullptr;
  Operation *User = *E->user_begin();
  if (User->getBlock() != &B || User->hasTrait<OpTrait::IsTerminator>())
    return nullptr;
  return User;
}

namespace {

class ModelBuilder {
public:
  explicit ModelBuilder(Block &B) : B(B), Memory(B.getParentOp()) {}

  std::optional<BlockModel> build(std::string &Why) {
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
      if (Unsized) {
        Why = "a dynamic size the byte model cannot follow (" +
              Unsized->getName().getStringRef().str() + ")";
        return std::nullopt;
      }
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

  /// The bytes of V as a static part times the index values its dynamic
  /// sizes come from; nothing when they cannot be followed.
  using Bytes = std::pair<uint64_t, SmallVector<SizeFactor, 2>>;
  std::optional<Bytes> bytesOf(Value V) {
    auto T = dyn_cast<RankedTensorType>(V.getType());
    std::optional<uint64_t> Static =
        T ? tensorStaticBytes(T, B.getParentOp()) : std::nullopt;
    if (!Static)
      return std::nullopt;
    if (T.hasStaticShape())
      return Bytes{*Static, {}};
    if (auto It = BytesMemo.find(V); It != BytesMemo.end())
      return It->second;
    std::optional<Bytes> R = followBytes(V, *Static, T);
    BytesMemo[V] = R;
    return R;
  }

  std::optional<Bytes> followBytes(Value V, uint64_t Static,
                                   RankedTensorType T) {
    auto FromSizes = [&](ValueRange Sizes) -> std::optional<Bytes> {
      if (Sizes.size() != size_t(T.getNumDynamicDims()))
        return std::nullopt;
      Bytes R{Static, {}};
      for (Value S : Sizes)
        R.second.push_back({S});
      return R;
    };
    if (auto Arg = dyn_cast<BlockArgument>(V)) {
      // The function's own arguments only: the caller picks their dims.
      if (!Arg.getOwner()->isEntryBlock() ||
          !isa<FunctionOpInterface>(Arg.getOwner()->getParentOp()))
        return std::nullopt;
      Bytes R{Static, {}};
      for (int64_t D = 0; D < T.getRank(); ++D)
        if (T.isDynamicDim(D))
          R.second.push_back({V, D});
      return R;
    }
    Operation *Def = V.getDefiningOp();
    if (auto E = dyn_cast<tensor::EmptyOp>(Def))
      return FromSizes(E.getDynamicSizes());
    if (auto S = dyn_cast<tensor::ExtractSliceOp>(Def))
      return FromSizes(S.getSizes());
    // Reshapes and casts keep the number of elements: their source's bytes.
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp>(
            Def))
      return bytesOf(Def->getOperand(0));
    if (auto D = dyn_cast<DestinationStyleOpInterface>(Def))
      if (OpOperand *Init = D.getTiedOpOperand(cast<OpResult>(V)))
        return bytesOf(Init->get());
    return std::nullopt;
  }

  size_t newBuffer(size_t I, Value V) {
    size_t Id = M.Problem.ValueSizes.size();
    std::optional<Bytes> Size = bytesOf(V);
    if (!Size) {
      if (!Unsized)
        Unsized = V.getDefiningOp();
      Size = Bytes{0, {}};
    }
    M.Problem.ValueSizes.push_back(Size->first);
    M.Factors.push_back(std::move(Size->second));
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
      // Its dynamic sizes are emitted with Op, so their definitions go first.
      addUses(I, A);
    }
    addUses(I, Op);
    MemorySet Writes = Memory.writes(Op);
    if (!isMemoryEffectFree(Op) || !Writes.empty()) {
      if (LastImpure)
        M.Problem.Nodes[I].After.push_back(*LastImpure);
      LastImpure = I;
    }
    orderMemory(I, Op, Writes);
    if (isa<tensor::EmptyOp, tensor::PadOp, tensor::ConcatOp,
            tensor::FromElementsOp>(Op)) {
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
  /// The first op whose buffer's bytes could not be followed.
  Operation *Unsized = nullptr;
  DenseMap<Value, std::optional<Bytes>> BytesMemo;
  DenseMap<Operation *, size_t> NodeOf;
  DenseMap<Value, size_t> BufferOf;
  std::vector<SmallVector<Value>> Aliases;
  std::optional<size_t> LastImpure;
  MemoryFacts Memory;
  SmallVector<std::pair<size_t, MemorySet>> Readers, Writers;
};

} // namespace

std::optional<BlockModel> tensor_schedule::buildBlockModel(Block &B,
                                                           std::string &Why) {
  return ModelBuilder(B).build(Why);
}
