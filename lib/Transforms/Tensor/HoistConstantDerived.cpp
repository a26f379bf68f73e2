//===- HoistConstantDerived.cpp - What is computed from constants only ----===//
//
// The facts tensor-mem-hoist-constants decides on: which ops of a function's
// entry block are computed from constants only, what a tensor is computed
// from, and whether anything may write or keep the tensor once it is a
// global (then it stays).
//
//===----------------------------------------------------------------------===//

#include "HoistInternal.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace memplan;

bool hoist_constants::isPureTree(Operation *Op) {
  if (!isPure(Op) || Op->getNumSuccessors() != 0)
    return false;
  return !Op->walk([&](Operation *Nested) {
              if (Nested != Op && !isMemoryEffectFree(Nested))
                return WalkResult::interrupt();
              return WalkResult::advance();
            }).wasInterrupted();
}

llvm::SetVector<Operation *> hoist_constants::constantDerivedOps(Block &Entry) {
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

DenseSet<Operation *>
hoist_constants::backwardSlice(ArrayRef<Value> Roots,
                               const llvm::SetVector<Operation *> &Derived) {
  // Through operands and the values their regions capture, staying inside
  // Derived (which holds no block argument's owner).
  BackwardSliceOptions Options;
  Options.inclusive = true;
  Options.omitBlockArguments = true;
  Options.omitUsesFromAbove = false;
  Options.filter = [&](Operation *Op) { return Derived.contains(Op); };
  llvm::SetVector<Operation *> Slice;
  for (Value V : Roots)
    if (Operation *Def = V.getDefiningOp())
      (void)getBackwardSlice(Def, &Slice, Options);
  return DenseSet<Operation *>(Slice.begin(), Slice.end());
}

std::string
hoist_constants::whyKeep(Value V, const llvm::SetVector<Operation *> &Derived) {
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
