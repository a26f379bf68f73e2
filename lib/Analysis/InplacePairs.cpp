//===- InplacePairs.cpp - Results that may take a dying operand's bytes ---===//

#include "memplan/Analysis/InplacePairs.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "memplan-inplace"

using namespace mlir;
using namespace memplan;

namespace {

/// An indexing map with every loop of trip count 1 replaced by 0: two maps
/// equal after this read the same element at every point of the loops.
AffineMap onDomain(AffineMap Map, ArrayRef<int64_t> Ranges) {
  SmallVector<AffineExpr> Dims;
  for (unsigned D = 0; D < Map.getNumDims(); ++D)
    Dims.push_back(Ranges[D] == 1 ? getAffineConstantExpr(0, Map.getContext())
                                  : getAffineDimExpr(D, Map.getContext()));
  return simplifyAffineMap(Map.replaceDimsAndSymbols(Dims, {}, Map.getNumDims(),
                                                     Map.getNumSymbols()));
}

/// Whether Map (on the domain) is a bijection from the loops onto the
/// elements of Shape: every result is either 0 on a unit dimension or a
/// loop of the same extent, and every loop longer than 1 appears once.
bool isBijection(AffineMap Map, ArrayRef<int64_t> Ranges,
                 ArrayRef<int64_t> Shape) {
  if (Map.getNumResults() != Shape.size())
    return false;
  llvm::SmallDenseSet<unsigned> Seen;
  for (auto [K, E] : llvm::enumerate(Map.getResults())) {
    if (auto C = dyn_cast<AffineConstantExpr>(E)) {
      if (C.getValue() != 0 || Shape[K] != 1)
        return false;
      continue;
    }
    auto D = dyn_cast<AffineDimExpr>(E);
    if (!D || !Seen.insert(D.getPosition()).second)
      return false;
    // A loop of dynamic extent runs over a dynamic dim of the buffer (its
    // extent is that dim, or the op reads out of bounds).
    int64_t Range = Ranges[D.getPosition()];
    if (ShapedType::isDynamic(Range) ? !ShapedType::isDynamic(Shape[K])
                                     : Range != Shape[K])
      return false;
  }
  for (auto [D, Range] : llvm::enumerate(Ranges))
    if (Range != 1 && !Seen.contains(D))
      return false;
  return true;
}

/// Same bits per element: element i is then at the same bytes in both.
bool sameElementSize(MemRefType A, MemRefType B) {
  Type EA = A.getElementType(), EB = B.getElementType();
  if (EA.isIntOrFloat() && EB.isIntOrFloat())
    return EA.getIntOrFloatBitWidth() == EB.getIntOrFloatBitWidth();
  return EA == EB;
}

memref::AllocOp allocOf(const PlannableBuffer *B) { return B->Alloc; }

class Finder {
public:
  /// Dynamic: pair Buffers.Dynamic (planned when Fn runs) instead of the
  /// static buffers.
  Finder(FunctionOpInterface Fn, const BufferUsageAnalysis &Analysis,
         const FunctionBuffers &Buffers,
         SmallVectorImpl<InplaceAttempt> *Attempts, bool Dynamic = false)
      : Fn(Fn), Analysis(Analysis), Tasks(Analysis.tasks()),
        Attempts(Attempts) {
    if (Dynamic) {
      for (const PlannableBuffer &B : Buffers.Dynamic)
        if (!B.Persistent)
          ByValue[memref::AllocOp(B.Alloc).getResult()] = &B;
      return;
    }
    for (const PlannableBuffer &B : Buffers.Planned)
      if (!B.Dynamic && !B.Persistent &&
          memref::AllocOp(B.Alloc).getType().hasStaticShape())
        ByValue[memref::AllocOp(B.Alloc).getResult()] = &B;
  }

  SmallVector<InplaceCandidate> run() {
    SmallVector<InplaceCandidate> Pairs;
    // Default-deny: one block, ops at its top level (no loop runs T again,
    // no CFG reorders the tasks).
    Region &Body = Fn.getFunctionBody();
    if (!Body.hasOneBlock())
      return Pairs;
    for (Operation &Op : Body.front()) {
      if (auto L = dyn_cast<linalg::LinalgOp>(&Op))
        visit(L, Pairs);
      else if (auto C = dyn_cast<memref::CopyOp>(&Op))
        visitCopy(C, Pairs);
    }
    return Pairs;
  }

private:
  using Refusal = std::optional<InplaceRefusal>;

  void note(Operation *Op, OpOperand *In, OpOperand *Out, Refusal Why) {
    if (!Attempts)
      return;
    InplaceAttempt A;
    A.Op = Op;
    if (In)
      A.Operand = In->getOperandNumber();
    if (Out)
      A.Result = Out->getOperandNumber();
    A.Refused = Why;
    Attempts->push_back(A);
  }

  /// An elementwise op (all loops parallel) whose payload only computes.
  static bool isElementwise(linalg::LinalgOp L) {
    if (!L.hasPureBufferSemantics() || L->getNumRegions() != 1 ||
        L.getNumParallelLoops() != L.getNumLoops())
      return false;
    return llvm::all_of(L.getBlock()->without_terminator(),
                        [](Operation &Op) { return isMemoryEffectFree(&Op); });
  }

  void visit(linalg::LinalgOp L, SmallVectorImpl<InplaceCandidate> &Pairs) {
    if (!isElementwise(L))
      return note(L, nullptr, nullptr, InplaceRefusal::NotElementwise);
    for (OpOperand &Out : L.getDpsInitsMutable()) {
      // The result's old contents must not matter.
      if (L.payloadUsesValueFromOperand(&Out)) {
        note(L, nullptr, &Out, InplaceRefusal::ReadsResult);
        continue;
      }
      const PlannableBuffer *B = ByValue.lookup(Out.get());
      if (!B || Taken.contains(B)) {
        note(L, nullptr, &Out,
             B ? InplaceRefusal::ResultTaken
               : InplaceRefusal::ResultNotPlanned);
        continue;
      }
      for (OpOperand *In : L.getDpsInputOperands()) {
        const PlannableBuffer *A = ByValue.lookup(In->get());
        Refusal Why = refuse(A, B);
        if (!Why && !sameElements(L, *In, Out, allocOf(A).getType()))
          Why = InplaceRefusal::DifferentElements;
        if (!Why)
          Why = diesAndStarts(L, *In, Out, A, B);
        note(L, In, &Out, Why);
        if (Why)
          continue;
        add(A, B, L, Pairs);
        break;
      }
    }
  }

  /// memref.copy A -> B: element i of B is element i of A. After planning
  /// it copies the bytes onto themselves, which MLIR folds away and LLVM's
  /// memcpy allows (source and destination equal or disjoint).
  void visitCopy(memref::CopyOp C, SmallVectorImpl<InplaceCandidate> &Pairs) {
    const PlannableBuffer *A = ByValue.lookup(C.getSource());
    const PlannableBuffer *B = ByValue.lookup(C.getTarget());
    OpOperand &In = C.getSourceMutable(), &Out = C.getTargetMutable();
    Refusal Why = !B ? Refusal(InplaceRefusal::ResultNotPlanned) : refuse(A, B);
    if (!Why && Taken.contains(B))
      Why = InplaceRefusal::ResultTaken;
    if (!Why)
      Why = diesAndStarts(C, In, Out, A, B);
    note(C, &In, &Out, Why);
    if (!Why)
      add(A, B, C, Pairs);
  }

  /// What rules an operand A out for the result B, before the rules on
  /// elements and tasks.
  Refusal refuse(const PlannableBuffer *A, const PlannableBuffer *B) {
    if (!A)
      return InplaceRefusal::OperandNotPlanned;
    if (A == B)
      return InplaceRefusal::SameBuffer;
    if (Dies.contains(A))
      return InplaceRefusal::OperandTaken;
    if (!sameBytes(A, B))
      return InplaceRefusal::DifferentBytes;
    return std::nullopt;
  }

  void add(const PlannableBuffer *A, const PlannableBuffer *B, Operation *Op,
           SmallVectorImpl<InplaceCandidate> &Pairs) {
    LLVM_DEBUG(llvm::dbgs() << "in-place: " << allocOf(B) << " over "
                            << allocOf(A) << " at " << Op->getName() << "\n");
    Pairs.push_back({A, B, Op, Tasks.start(Op)});
    Dies.insert(A);
    Taken.insert(B);
  }

  /// Element i of A and of B are at the same bytes: the same shape, and
  /// its dynamic dims the very same values.
  static bool sameBytes(const PlannableBuffer *A, const PlannableBuffer *B) {
    MemRefType TA = allocOf(A).getType(), TB = allocOf(B).getType();
    return TA.getShape() == TB.getShape() &&
           llvm::equal(allocOf(A).getDynamicSizes(),
                       allocOf(B).getDynamicSizes()) &&
           sameElementSize(TA, TB) && A->Record.Size == B->Record.Size &&
           A->MemorySpace == B->MemorySpace && TA.getLayout().isIdentity() &&
           TB.getLayout().isIdentity();
  }

  /// L reads In and writes Out at the same element at every point of its
  /// loops, and each element at one point only.
  static bool sameElements(linalg::LinalgOp L, OpOperand &In, OpOperand &Out,
                           MemRefType Type) {
    SmallVector<int64_t> Ranges = L.getStaticLoopRanges();
    AffineMap MA = onDomain(L.getMatchingIndexingMap(&In), Ranges);
    AffineMap MB = onDomain(L.getMatchingIndexingMap(&Out), Ranges);
    return MA == MB && isBijection(MA, Ranges, Type.getShape());
  }

  /// A dies at Op and B starts there; nothing else at Op sees either.
  Refusal diesAndStarts(Operation *L, OpOperand &In, OpOperand &Out,
                        const PlannableBuffer *A, const PlannableBuffer *B) {
    if (A->Record.LastTask != Tasks.end(L))
      return InplaceRefusal::OperandLivesOn;
    // Every planned buffer has its aliases; without them, default-deny.
    const BufferAliasInfo *IA = Analysis.aliasesOf(allocOf(A));
    const BufferAliasInfo *IB = Analysis.aliasesOf(allocOf(B));
    if (!IA || !IB || IA->Escape || IB->Escape)
      return InplaceRefusal::Escapes;
    // No other operand of L, and nothing inside it, sees A or B.
    for (OpOperand &Other : L->getOpOperands())
      if (&Other != &In && &Other != &Out &&
          (IA->Aliases.contains(Other.get()) ||
           IB->Aliases.contains(Other.get())))
        return InplaceRefusal::SeenElsewhereAtOp;
    bool UsedInside = false;
    L->walk([&](Operation *Inner) {
      if (Inner != L)
        for (Value V : Inner->getOperands())
          UsedInside |= IA->Aliases.contains(V) || IB->Aliases.contains(V);
    });
    if (UsedInside)
      return InplaceRefusal::SeenElsewhereAtOp;
    // Nothing touches B (or makes a view of it) before L.
    uint64_t End = Tasks.end(L);
    for (Value V : IB->Aliases) {
      if (V != allocOf(B).getResult()) {
        Operation *Def = V.getDefiningOp();
        if (!Def || Tasks.start(Def) <= End)
          return InplaceRefusal::ResultUsedBefore;
      }
      for (OpOperand &Use : V.getUses())
        if (&Use != &Out && !isa<memref::DeallocOp>(Use.getOwner()) &&
            Tasks.start(Use.getOwner()) <= End)
          return InplaceRefusal::ResultUsedBefore;
    }
    return std::nullopt;
  }

  FunctionOpInterface Fn;
  const BufferUsageAnalysis &Analysis;
  const TaskNumbering &Tasks;
  SmallVectorImpl<InplaceAttempt> *Attempts;
  DenseMap<Value, const PlannableBuffer *> ByValue;
  llvm::SmallPtrSet<const PlannableBuffer *, 16> Dies, Taken;
};

} // namespace

StringRef memplan::inplaceRefusalText(InplaceRefusal Why) {
  switch (Why) {
  case InplaceRefusal::NotElementwise:
    return "not elementwise";
  case InplaceRefusal::ReadsResult:
    return "the payload reads the result's old contents";
  case InplaceRefusal::ResultNotPlanned:
    return "the result is not a planned buffer of static shape";
  case InplaceRefusal::OperandNotPlanned:
    return "the operand is not a planned buffer of static shape";
  case InplaceRefusal::SameBuffer:
    return "operand and result are one buffer";
  case InplaceRefusal::ResultTaken:
    return "the result already takes another operand's bytes";
  case InplaceRefusal::OperandTaken:
    return "the operand's bytes already go on in another result";
  case InplaceRefusal::DifferentBytes:
    return "element i is not at the same bytes in both";
  case InplaceRefusal::DifferentElements:
    return "the op does not read and write the same element at once";
  case InplaceRefusal::OperandLivesOn:
    return "the operand is used after the op";
  case InplaceRefusal::Escapes:
    return "one of them escapes";
  case InplaceRefusal::SeenElsewhereAtOp:
    return "another operand of the op, or an op inside it, sees one of them";
  case InplaceRefusal::ResultUsedBefore:
    return "the result is used before the op";
  }
  llvm_unreachable("every refusal has its text");
}

SmallVector<InplaceCandidate> memplan::findInplacePairs(
    FunctionOpInterface Fn, const BufferUsageAnalysis &Analysis,
    const FunctionBuffers &Buffers, SmallVectorImpl<InplaceAttempt> *Attempts) {
  return Finder(Fn, Analysis, Buffers, Attempts).run();
}

SmallVector<InplaceCandidate>
memplan::findDynamicInplacePairs(FunctionOpInterface Fn,
                                 const BufferUsageAnalysis &Analysis,
                                 const FunctionBuffers &Buffers) {
  return Finder(Fn, Analysis, Buffers, nullptr, /*Dynamic=*/true).run();
}

std::vector<InplacePair>
memplan::addInplacePairs(const ArenaGroup &Group,
                         ArrayRef<InplaceCandidate> Candidates,
                         ArenaInput &In) {
  DenseMap<const PlannableBuffer *, size_t> Index;
  for (auto [I, B] : llvm::enumerate(Group.Buffers))
    Index[B] = I;
  std::vector<InplacePair> Pairs;
  // A chain cuts its middle records at both ends: compare with the records
  // as they came.
  const std::vector<UsageRecord> Given = In.Records;
  for (const InplaceCandidate &C : Candidates) {
    auto A = Index.find(C.Operand), B = Index.find(C.Result);
    if (A == Index.end() || B == Index.end())
      continue;
    UsageRecord &RA = In.Records[A->second], &RB = In.Records[B->second];
    // Records widened for the arena (persistent, preserve-intermediates)
    // keep their bytes to themselves.
    if (!(Given[A->second] == C.Operand->Record) ||
        !(Given[B->second] == C.Result->Record))
      continue;
    assert(RA.FirstTask <= C.Task && C.Task <= RB.LastTask);
    RA.LastTask = C.Task;
    RB.FirstTask = C.Task;
    Pairs.push_back({A->second, B->second});
  }
  return Pairs;
}
