//===- BufferWriters.cpp - The op that computes a buffer ------------------===//
//
// The report names each buffer by the op that computes it (the linalg op
// whose outs it is), which is what a reader looks for, more than the alloc.
// Ordered by the analysis' own tasks.
//
//===----------------------------------------------------------------------===//

#include "memplan/Analysis/NoCapture.h"
#include "memplan/Analysis/UsageRecordsFromIR.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace memplan;

/// The ops that access the buffer Root (through its views too), each op
/// once, and whether each may write it: an op with unknown effects (a call
/// of a function without a body here, an op with regions) may.
static void collectAccesses(Value Root,
                            SmallVectorImpl<std::pair<Operation *, bool>> &Ops,
                            unsigned Depth = 0);

/// Whether a call may write the buffer it is given in Use: a callee with a
/// body here is looked into (a few calls deep); any other may.
static bool callMayWrite(CallOpInterface Call, OpOperand &Use, unsigned Depth) {
  auto Fn = dyn_cast_if_present<FunctionOpInterface>(Call.resolveCallable());
  if (!Fn || Fn.isExternal() || Depth >= 4)
    return true;
  std::optional<unsigned> Index = calleeArgumentIndex(Call, Fn, Use);
  if (!Index)
    return true;
  SmallVector<std::pair<Operation *, bool>> Inner;
  collectAccesses(Fn.getArgument(*Index), Inner, Depth + 1);
  return llvm::any_of(Inner, [](const auto &A) { return A.second; });
}

static void collectAccesses(Value Root,
                            SmallVectorImpl<std::pair<Operation *, bool>> &Ops,
                            unsigned Depth) {
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
      // A print only reads (it was named the writer of what it printed).
      if (auto Call = dyn_cast<CallOpInterface>(User);
          Call && callOnlyReads(Call)) {
        Ops.push_back({User, false});
        continue;
      }
      if (auto Call = dyn_cast<CallOpInterface>(User)) {
        Ops.push_back({User, callMayWrite(Call, Use, Depth)});
        continue;
      }
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

/// The last op (in program order) writing the buffer before an op only
/// reads it: a matmul's output is zeroed by a linalg.fill, then accumulated
/// by the matmul, then read; the matmul computes it.
Operation *BufferUsageAnalysis::writerOf(memref::AllocOp Alloc) const {
  SmallVector<std::pair<Operation *, bool>> Accesses;
  collectAccesses(Alloc.getResult(), Accesses);
  auto Order = [&](Operation *Op) {
    return Tasks.contains(Op) ? Tasks.start(Op) : UINT64_MAX;
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
