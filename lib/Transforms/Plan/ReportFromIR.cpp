//===- ReportFromIR.cpp - What the IR says about planned buffers ----------===//
//
// The report names each buffer by its alloc and by the op that computes it
// (the linalg op whose outs it is), and the peak by its op, which is what a
// reader looks for.
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

/// The ops that access the buffer Root (through its views too), each op
/// once, and whether each may write it: an op with unknown effects (a call,
/// an op with regions) may.
static void
collectAccesses(Value Root,
                SmallVectorImpl<std::pair<Operation *, bool>> &Ops) {
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
        Ops.push_back({User, true});
        continue;
      }
      SmallVector<MemoryEffects::EffectInstance> On;
      Effects.getEffectsOnValue(V, On);
      bool Writes =
          llvm::any_of(On, [](const MemoryEffects::EffectInstance &E) {
            return isa<MemoryEffects::Write>(E.getEffect());
          });
      bool Reads = llvm::any_of(On, [](const MemoryEffects::EffectInstance &E) {
        return isa<MemoryEffects::Read>(E.getEffect());
      });
      if (Writes || Reads)
        Ops.push_back({User, Writes});
    }
  }
}

/// The op that computes the buffer of Alloc: the last one (in program
/// order) writing it before an op only reads it. A matmul's output is
/// zeroed by a linalg.fill, then accumulated by the matmul, then read: the
/// matmul computes it. The alloc itself when nothing writes it.
static Operation *writerOf(memref::AllocOp Alloc,
                           const DenseMap<Operation *, unsigned> &OpOrder) {
  SmallVector<std::pair<Operation *, bool>> Accesses;
  collectAccesses(Alloc.getResult(), Accesses);
  auto Order = [&](Operation *Op) {
    auto It = OpOrder.find(Op);
    return It == OpOrder.end() ? ~0u - 1 : It->second;
  };
  llvm::stable_sort(Accesses, [&](const auto &A, const auto &B) {
    return Order(A.first) < Order(B.first);
  });
  Operation *Writer = nullptr;
  for (auto [Op, Writes] : Accesses) {
    if (!Writes) {
      if (Writer)
        break;
      continue;
    }
    Writer = Op;
  }
  return Writer ? Writer : Alloc.getOperation();
}

/// The op numbered Task in Fn (tasks as the usage records number them: ops
/// in pre-order, from 0, without Fn itself).
static Operation *opAtTask(FunctionOpInterface Fn, uint64_t Task) {
  Operation *Found = nullptr;
  uint64_t N = 0;
  Fn->walk<WalkOrder::PreOrder>([&](Operation *Op) {
    if (Op == Fn.getOperation())
      return WalkResult::advance();
    if (N++ == Task) {
      Found = Op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return Found;
}

void memplan::describeBuffers(ArenaResult &Arena, FunctionOpInterface Fn,
                              const ArenaGroup &Group, bool WithWriters) {
  assert(Arena.Buffers.size() == Group.Buffers.size() &&
         "one report entry per planned buffer");
  DenseMap<Operation *, unsigned> OpOrder;
  if (WithWriters) {
    unsigned N = 0;
    Fn->walk<WalkOrder::PreOrder>([&](Operation *Op) { OpOrder[Op] = N++; });
  }
  if (WithWriters)
    if (Operation *Peak = opAtTask(Fn, Arena.Peak.Task)) {
      Arena.PeakOp = Peak->getName().getStringRef().str();
      Arena.PeakLocation = locationOf(Peak);
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
