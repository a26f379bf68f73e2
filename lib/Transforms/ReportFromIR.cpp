//===- ReportFromIR.cpp - What the IR says about planned buffers ----------===//
//
// The report names each buffer by its alloc and by the op that fills it
// (the linalg op whose outs it is), which is what a reader looks for.
//
//===----------------------------------------------------------------------===//

#include "TensorMemPlanInternal.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace memplan;

std::string memplan::locationOf(Operation *Op) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  Op->getLoc().print(OS);
  return S;
}

/// The ops that may write the buffer Root: its users and those of its views
/// (ViewLikeOpInterface), each op once.
static void collectWriters(Value Root, SmallVectorImpl<Operation *> &Writers) {
  SmallVector<Value> Work{Root};
  llvm::SmallPtrSet<Operation *, 8> Seen;
  while (!Work.empty() && Seen.size() < 4096) {
    Value V = Work.pop_back_val();
    for (OpOperand &Use : V.getUses()) {
      Operation *User = Use.getOwner();
      if (auto View = dyn_cast<ViewLikeOpInterface>(User);
          View && View.getViewSource() == V) {
        for (Value R : User->getResults())
          Work.push_back(R);
        continue;
      }
      if (!Seen.insert(User).second)
        continue;
      if (isa<memref::DeallocOp, bufferization::DeallocOp>(User))
        continue;
      auto Effects = dyn_cast<MemoryEffectOpInterface>(User);
      if (!Effects) {
        // Unknown effects (a call, an op with regions): it may write.
        Writers.push_back(User);
        continue;
      }
      SmallVector<MemoryEffects::EffectInstance> On;
      Effects.getEffectsOnValue(V, On);
      if (llvm::any_of(On, [](const MemoryEffects::EffectInstance &E) {
            return isa<MemoryEffects::Write>(E.getEffect());
          }))
        Writers.push_back(User);
    }
  }
}

/// The first op (in program order) that writes the buffer of Alloc, or the
/// alloc itself.
static Operation *writerOf(memref::AllocOp Alloc,
                           const DenseMap<Operation *, unsigned> &OpOrder) {
  SmallVector<Operation *> Writers;
  collectWriters(Alloc.getResult(), Writers);
  Operation *First = nullptr;
  unsigned FirstOrder = ~0u;
  for (Operation *W : Writers) {
    auto It = OpOrder.find(W);
    unsigned Order = It == OpOrder.end() ? ~0u - 1 : It->second;
    if (!First || Order < FirstOrder) {
      First = W;
      FirstOrder = Order;
    }
  }
  return First ? First : Alloc.getOperation();
}

void memplan::describeBuffers(ArenaReport &Arena, FunctionOpInterface Fn,
                              const ArenaGroup &Group, bool WithWriters) {
  assert(Arena.Buffers.size() == Group.Buffers.size() &&
         "one report entry per planned buffer");
  DenseMap<Operation *, unsigned> OpOrder;
  if (WithWriters) {
    unsigned N = 0;
    Fn->walk<WalkOrder::PreOrder>([&](Operation *Op) { OpOrder[Op] = N++; });
  }
  for (auto [B, Buffer] : llvm::zip_equal(Arena.Buffers, Group.Buffers)) {
    memref::AllocOp Alloc = Buffer->Alloc;
    B.Location = locationOf(Alloc);
    B.Op = Alloc->getName().getStringRef().str();
    llvm::raw_string_ostream(B.Type) << Alloc.getType();
    // A dynamic alloc is planned at its bound: its size is that bound.
    if (!Alloc.getType().hasStaticShape())
      B.Type += " (planned at its bound, " +
                std::to_string(Buffer->Record.Size) + " bytes)";
    if (!WithWriters)
      continue;
    Operation *Writer = writerOf(Alloc, OpOrder);
    B.WriterOp = Writer->getName().getStringRef().str();
    B.WriterLocation = locationOf(Writer);
  }
}
