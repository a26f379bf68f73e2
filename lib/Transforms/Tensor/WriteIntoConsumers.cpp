//===- WriteIntoConsumers.cpp - Producers write into pad/concat buffers ---===//
//
// The tensor-mem-write-into-consumers pass (Passes.td says why). Only the
// tensor IR changes; one-shot bufferization's own analysis decides whether
// each slice is written in place, so a missed case costs a copy, never
// correctness.
//
//===----------------------------------------------------------------------===//

#include "BlockLiveBytes.h"

#include "memplan/Analysis/ElementLayout.h"
#include "memplan/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMWRITEINTOCONSUMERS
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;
using namespace memplan;

namespace {

// How a producer chain ends: the tensor.empty operand its first op writes,
// and the elementwise ops that may write over their own dying input instead
// of a fresh tensor.empty.
struct Chain {
  OpOperand *RootUse = nullptr;
  SmallVector<std::pair<OpOperand *, Value>> Switches;
};

// One use, or one use and the slices a concat's later inputs are written
// into (this pass's matching extract/insert pairs).
static bool usedOnceBesidesSlices(Value V) {
  return llvm::count_if(V.getUsers(), [](Operation *User) {
           return !isa<tensor::ExtractSliceOp>(User);
         }) == 1;
}

// Walks back from `V` through the destinations of tensor-only
// destination-style ops in `Block`, each value used once, to the
// tensor.empty the chain starts from.
static std::optional<Chain> findChain(Value V, Block *Block) {
  Chain C;
  while (true) {
    Operation *Def = V.getDefiningOp();
    if (!Def || Def->getBlock() != Block || !usedOnceBesidesSlices(V))
      return std::nullopt;
    auto DPS = dyn_cast<DestinationStyleOpInterface>(Def);
    if (!DPS || !DPS.hasPureTensorSemantics())
      return std::nullopt;
    OpOperand *Init = DPS.getTiedOpOperand(cast<OpResult>(V));
    if (Init->get().getDefiningOp<tensor::EmptyOp>()) {
      auto G = dyn_cast<linalg::GenericOp>(Def);
      Value In = G ? dyingInput(G) : Value();
      if (!In) {
        C.RootUse = Init;
        return C;
      }
      C.Switches.push_back({Init, In});
      V = In;
      continue;
    }
    V = Init->get();
  }
}

static int64_t bytesOf(Type T, Operation *Scope) {
  return staticTensorBytes(T, Scope).value_or(0);
}

struct WriteIntoConsumersPass
    : memplan::impl::TensorMemWriteIntoConsumersBase<WriteIntoConsumersPass> {
  using Base::Base;

  // tensor.empty ops this pass made for a concat: a pad that consumes the
  // concat then replaces every use of one, not just the chain's.
  llvm::SmallPtrSet<Operation *, 8> OwnEmpties;

  void runOnOperation() override {
    SmallVector<tensor::ConcatOp> Concats;
    SmallVector<tensor::PadOp> Pads;
    getOperation()->walk([&](Operation *Op) {
      if (auto C = dyn_cast<tensor::ConcatOp>(Op))
        Concats.push_back(C);
      else if (auto P = dyn_cast<tensor::PadOp>(Op))
        Pads.push_back(P);
    });
    // A concat first, so that a pad of it reaches its sources' producers.
    for (tensor::ConcatOp C : Concats)
      rewriteConcat(C);
    for (tensor::PadOp P : Pads)
      rewritePad(P);
  }

  // Points `Root` (the first write of a chain) at `Slice` and lets its
  // elementwise ops overwrite their dying inputs.
  void redirect(const Chain &C, Value Slice) {
    for (auto [Init, In] : C.Switches) {
      // Every operand read at the identity says so: one-shot bufferization
      // lets an op overwrite what it reads only through identity maps.
      auto G = cast<linalg::GenericOp>(Init->getOwner());
      SmallVector<AffineMap> Maps = G.getIndexingMapsArray();
      for (OpOperand &Operand : G->getOpOperands())
        if (Operand.get() == In || &Operand == Init)
          Maps[Operand.getOperandNumber()] = AffineMap::getMultiDimIdentityMap(
              G.getNumLoops(), G.getContext());
      G.setIndexingMapsAttr(Builder(G).getAffineMapArrayAttr(Maps));
      Init->set(In);
    }
    Operation *Empty = C.RootUse->get().getDefiningOp();
    if (OwnEmpties.contains(Empty)) {
      Empty->replaceAllUsesWith(ValueRange{Slice});
      OwnEmpties.erase(Empty);
      Empty->erase();
    } else {
      C.RootUse->set(Slice);
    }
    ++numRedirected;
  }

  // Where a chain's first write happens: its root's user, or the
  // tensor.empty of a concat this pass rewrote (every use of it moves).
  Operation *startOf(const Chain &C) const {
    Operation *Empty = C.RootUse->get().getDefiningOp();
    return OwnEmpties.contains(Empty) ? Empty : C.RootUse->getOwner();
  }

  void rewriteConcat(tensor::ConcatOp Concat) {
    auto Type = Concat.getResultType();
    if (!Type.hasStaticShape() || llvm::any_of(Concat.getInputs(), [](Value V) {
          return !cast<RankedTensorType>(V.getType()).hasStaticShape();
        }))
      return;
    Block *Block = Concat->getBlock();
    SmallVector<std::optional<Chain>> Chains;
    Operation *Start = Concat;
    for (Value Input : Concat.getInputs()) {
      Chains.push_back(findChain(Input, Block));
      if (Chains.back() && startOf(*Chains.back())->isBeforeInBlock(Start))
        Start = startOf(*Chains.back());
    }
    // Each input is inserted as soon as it and the previous insertion
    // exist, and a chain writes a slice of the latest insertion: one-shot
    // bufferization then sees matching extract/insert pairs, which it
    // keeps in place. A chain that starts before the previous insertion
    // exists keeps its own buffer.
    BlockLiveBytes Live(*Block);
    unsigned From = Live.position(Start), At = Live.position(Concat);
    std::vector<int64_t> Delta(Live.size(), 0);
    int64_t Bytes = bytesOf(Type, Concat);
    for (unsigned I = From; I < At; ++I)
      Delta[I] += Bytes;
    int Avail = int(From) - 1;
    for (auto [Input, C] : llvm::zip(Concat.getInputs(), Chains)) {
      if (C && int(Live.position(startOf(*C))) > Avail) {
        for (unsigned I = Live.position(startOf(*C)); I <= At; ++I)
          Delta[I] -= bytesOf(Input.getType(), Concat);
      } else {
        C.reset();
      }
      if (Operation *Def = Input.getDefiningOp())
        if (Def->getBlock() == Block)
          Avail = std::max<int>(Avail, Live.position(Def));
    }
    if (llvm::none_of(Chains, [](auto &C) { return C.has_value(); }) ||
        Live.peakWith(Delta) > Live.peak())
      return;
    OpBuilder B(Start);
    auto Empty = tensor::EmptyOp::create(B, Concat.getLoc(), Type.getShape(),
                                         Type.getElementType());
    OwnEmpties.insert(Empty);
    int64_t Dim = Concat.getDim();
    int64_t Offset = 0;
    Value Dest = Empty;
    for (auto [Input, C] : llvm::zip(Concat.getInputs(), Chains)) {
      auto InType = cast<RankedTensorType>(Input.getType());
      SmallVector<OpFoldResult> Offsets(Type.getRank(), B.getIndexAttr(0));
      Offsets[Dim] = B.getIndexAttr(Offset);
      SmallVector<OpFoldResult> Sizes =
          getAsIndexOpFoldResult(B.getContext(), InType.getShape());
      SmallVector<OpFoldResult> Strides(Type.getRank(), B.getIndexAttr(1));
      Operation *DestDef = Dest.getDefiningOp();
      if (C) {
        assert(DestDef->isBeforeInBlock(startOf(*C)));
        B.setInsertionPoint(startOf(*C));
        Value Slice = tensor::ExtractSliceOp::create(
            B, Concat.getLoc(), InType, Dest, Offsets, Sizes, Strides);
        redirect(*C, Slice);
      }
      Operation *InputDef = Input.getDefiningOp();
      if (InputDef && InputDef->getBlock() == Block &&
          DestDef->isBeforeInBlock(InputDef))
        B.setInsertionPointAfter(InputDef);
      else
        B.setInsertionPointAfter(DestDef);
      Dest = tensor::InsertSliceOp::create(B, Concat.getLoc(), Input, Dest,
                                           Offsets, Sizes, Strides);
      Offset += InType.getDimSize(Dim);
    }
    Concat.getResult().replaceAllUsesWith(Dest);
    Concat->erase();
  }

  void rewritePad(tensor::PadOp Pad) {
    Value Fill = Pad.getConstantPaddingValue();
    auto Type = Pad.getResultType();
    if (!Fill || Pad.getNofold() || !Type.hasStaticShape() ||
        !Pad.getSourceType().hasStaticShape() || !Pad.getLow().empty() ||
        !Pad.getHigh().empty())
      return;
    std::optional<Chain> C = findChain(Pad.getSource(), Pad->getBlock());
    if (!C)
      return;
    Operation *Start = startOf(*C);
    // The padding value must exist where the buffer now starts; a constant
    // defined later is cloned there.
    // Judged by the block's peak: the padded buffer now lives over the
    // whole chain (its border added there), and the chain's own buffer and
    // the pad's no longer meet at the pad.
    BlockLiveBytes Live(*Pad->getBlock());
    unsigned From = Live.position(Start), At = Live.position(Pad);
    std::vector<int64_t> Delta(Live.size(), 0);
    int64_t Border = bytesOf(Type, Pad) - bytesOf(Pad.getSourceType(), Pad);
    for (unsigned I = From; I < At; ++I)
      Delta[I] += Border;
    Delta[At] -= bytesOf(Pad.getSourceType(), Pad);
    if (Live.peakWith(Delta) > Live.peak())
      return;
    OpBuilder B(Start);
    if (!DominanceInfo().properlyDominates(Fill, Start)) {
      Operation *FillDef = Fill.getDefiningOp();
      if (!FillDef || !matchPattern(Fill, m_Constant()))
        return;
      Fill = B.clone(*FillDef)->getResult(0);
    }
    Location Loc = Pad.getLoc();
    Value Dest =
        tensor::EmptyOp::create(B, Loc, Type.getShape(), Type.getElementType());
    Dest = linalg::FillOp::create(B, Loc, Fill, Dest).getResult(0);
    SmallVector<OpFoldResult> Offsets =
        getAsIndexOpFoldResult(B.getContext(), Pad.getStaticLow());
    SmallVector<OpFoldResult> Sizes =
        getAsIndexOpFoldResult(B.getContext(), Pad.getSourceType().getShape());
    SmallVector<OpFoldResult> Strides(Type.getRank(), B.getIndexAttr(1));
    B.setInsertionPoint(Start);
    Value Slice = tensor::ExtractSliceOp::create(B, Loc, Pad.getSourceType(),
                                                 Dest, Offsets, Sizes, Strides);
    redirect(*C, Slice);
    B.setInsertionPoint(Pad);
    Value Result = tensor::InsertSliceOp::create(B, Loc, Pad.getSource(), Dest,
                                                 Offsets, Sizes, Strides);
    Pad.getResult().replaceAllUsesWith(Result);
    Pad->erase();
  }
};

} // namespace
