//===- ResultsToOutParams.cpp - Returned buffers allocated by callers -----===//
//
// The tensor-mem-results-to-out-params pass (Passes.td says what and when).
// A buffer a callee allocates and returns becomes an argument its callers
// allocate right before the call: an ordinary buffer of the caller, which
// tensor-mem-plan plans like any other. Default-deny: only a fresh alloc of
// the callee's entry block that nothing else keeps, once per result, with
// a shape the caller can compute, of a function reached only by func.call
// and not recursive. Everything else stays as it was (a remark says why).
//
//===----------------------------------------------------------------------===//

#include "ResultsToOutParams.h"
#include "TensorMemPlanInternal.h"

#include "memplan/Analysis/BufferAliases.h"
#include "memplan/Analysis/NoCapture.h"
#include "memplan/Transforms/Passes.h"
#include "memplan/Transforms/Remarks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/BitVector.h"

namespace memplan {
#define GEN_PASS_DEF_TENSORMEMRESULTSTOOUTPARAMS
#include "memplan/Transforms/Passes.h.inc"
} // namespace memplan

using namespace mlir;

namespace {

/// How a caller computes one dynamic size of the callee's alloc, from the
/// call's operands.
struct CallerSize {
  enum { Argument, Constant, DimOfArgument } Kind;
  unsigned Arg = 0;
  int64_t Value = 0; // the constant, or the dimension
};

/// A returned buffer that becomes an out-parameter.
struct OutParam {
  unsigned Result;
  SmallVector<CallerSize> Sizes;
};

/// A function whose returned buffers become out-parameters.
struct Decision {
  func::FuncOp Fn;
  SmallVector<OutParam> Params;
};

/// Why something stays as it was, and where to say it.
struct Refusal {
  Operation *At;
  std::string Why;
};

/// Where a returned buffer's remark goes.
Operation *firstReturn(func::FuncOp Fn) {
  Operation *First = nullptr;
  Fn.walk([&](func::ReturnOp Ret) {
    if (!First)
      First = Ret;
  });
  return First;
}

/// The returned value at Result, the same on every return, or null.
Value returnedValue(func::FuncOp Fn, unsigned Result) {
  Value V;
  bool Same = true;
  Fn.walk([&](func::ReturnOp Ret) {
    Value W = Ret.getOperand(Result);
    Same = Same && (!V || V == W);
    V = W;
  });
  return Same ? V : Value();
}

/// How the caller computes Size, a dynamic size of an alloc of Fn.
std::optional<CallerSize> callerSize(func::FuncOp Fn, Value Size) {
  auto IsArgument = [&](Value V) {
    auto Arg = dyn_cast<BlockArgument>(V);
    return Arg && Arg.getOwner() == &Fn.front() ? Arg : BlockArgument();
  };
  APInt C;
  if (BlockArgument Arg = IsArgument(Size))
    return CallerSize{CallerSize::Argument, Arg.getArgNumber(), 0};
  if (matchPattern(Size, m_ConstantInt(&C)))
    return CallerSize{CallerSize::Constant, 0, C.getSExtValue()};
  if (auto Dim = Size.getDefiningOp<memref::DimOp>())
    if (BlockArgument Arg = IsArgument(Dim.getSource()))
      if (matchPattern(Dim.getIndex(), m_ConstantInt(&C)))
        return CallerSize{CallerSize::DimOfArgument, Arg.getArgNumber(),
                          C.getSExtValue()};
  return std::nullopt;
}

/// Whether Fn's result Result can become an out-parameter; if not, Why
/// says why (empty: not a buffer, nothing to say).
std::optional<OutParam> outParam(func::FuncOp Fn, unsigned Result,
                                 memplan::BufferAliasAnalysis &Aliases,
                                 std::string &Why) {
  if (!isa<MemRefType>(Fn.getResultTypes()[Result]))
    return std::nullopt;
  Value V = returnedValue(Fn, Result);
  if (!V) {
    Why = "its returns give different buffers";
    return std::nullopt;
  }
  if (isa<BlockArgument>(V)) {
    Why = "it is an argument or a block argument, not a fresh allocation";
    return std::nullopt;
  }
  auto Alloc = V.getDefiningOp<memref::AllocOp>();
  if (!Alloc) {
    Operation *Def = V.getDefiningOp();
    Why = isa<memref::GetGlobalOp>(Def)
              ? "it is a global"
              : "it comes from '" + Def->getName().getStringRef().str() +
                    "', not from a memref.alloc";
    return std::nullopt;
  }
  if (Alloc->getBlock() != &Fn.front()) {
    Why = "it is allocated in a loop or a branch, not once per call";
    return std::nullopt;
  }
  if (!Alloc.getType().getLayout().isIdentity() ||
      !Alloc.getSymbolOperands().empty()) {
    Why = "its layout is not the identity";
    return std::nullopt;
  }
  OutParam P{Result, {}};
  for (Value Size : Alloc.getDynamicSizes()) {
    std::optional<CallerSize> S = callerSize(Fn, Size);
    if (!S) {
      Why = "its shape depends on values the caller does not have";
      return std::nullopt;
    }
    P.Sizes.push_back(*S);
  }
  memplan::BufferAliasInfo Info = Aliases.analyze(V);
  if (!Info.Deallocs.empty()) {
    Why = "the callee frees it";
    return std::nullopt;
  }
  // Returned here once, and kept by nothing else.
  for (Value A : Info.Aliases)
    for (OpOperand &Use : A.getUses()) {
      if (isa<func::ReturnOp>(Use.getOwner())) {
        if (A != V || Use.getOperandNumber() != Result) {
          Why = "it is returned twice (result #" +
                std::to_string(Use.getOperandNumber()) + " too)";
          return std::nullopt;
        }
        continue;
      }
      if (std::optional<std::string> E = Aliases.escapes(Use)) {
        Why = "it also escapes: " + *E;
        return std::nullopt;
      }
    }
  if (llvm::any_of(Info.Aliases, [](Value A) {
        return !isa<BaseMemRefType, ShapedType>(A.getType());
      })) {
    Why = "it is used asynchronously";
    return std::nullopt;
  }
  return P;
}

/// Whether Fn can call itself through the direct calls of the module.
bool isRecursive(func::FuncOp Fn, SymbolTable &Symbols) {
  SmallVector<func::FuncOp> Work{Fn};
  DenseSet<Operation *> Seen;
  while (!Work.empty()) {
    func::FuncOp F = Work.pop_back_val();
    bool Found = false;
    F.walk([&](CallOpInterface Call) {
      auto Ref =
          dyn_cast_if_present<SymbolRefAttr>(Call.getCallableForCallee());
      auto Target = Ref ? Symbols.lookup<func::FuncOp>(Ref.getRootReference())
                        : func::FuncOp();
      if (Target == Fn)
        Found = true;
      else if (Target && Seen.insert(Target).second)
        Work.push_back(Target);
    });
    if (Found)
      return true;
  }
  return false;
}

/// The direct calls of Fn in M; Why is set (and the result empty) when Fn
/// is reached otherwise.
SmallVector<func::CallOp> directCalls(func::FuncOp Fn, ModuleOp M,
                                      std::optional<Refusal> &Why) {
  SmallVector<func::CallOp> Calls;
  std::optional<SymbolTable::UseRange> Uses = SymbolTable::getSymbolUses(Fn, M);
  if (!Uses) {
    Why = Refusal{Fn, "its uses are unknown"};
    return {};
  }
  for (const SymbolTable::SymbolUse &U : *Uses) {
    auto Call = dyn_cast<func::CallOp>(U.getUser());
    if (!Call) {
      Why = Refusal{U.getUser(),
                    "'" + U.getUser()->getName().getStringRef().str() +
                        "' refers to @" + Fn.getName().str() +
                        ": calls through it keep the returned "
                        "buffers"};
      return {};
    }
    Calls.push_back(Call);
  }
  return Calls;
}

/// Rewrites Fn: each out-parameter's alloc becomes a new trailing argument.
void rewriteCallee(func::FuncOp Fn, ArrayRef<OutParam> Params) {
  BitVector Erased(Fn.getNumResults());
  for (const OutParam &P : Params) {
    auto Alloc = returnedValue(Fn, P.Result).getDefiningOp<memref::AllocOp>();
    unsigned Index = Fn.getNumArguments();
    (void)Fn.insertArgument(Index, Alloc.getType(),
                            Fn.getResultAttrDict(P.Result), Alloc.getLoc());
    Alloc.getResult().replaceAllUsesWith(Fn.getArgument(Index));
    Alloc.erase();
    Erased.set(P.Result);
  }
  Fn.walk([&](func::ReturnOp Ret) { Ret->eraseOperands(Erased); });
  (void)Fn.eraseResults(Erased);
}

/// Rewrites Call (to the old Fn) into a call of Target, with the
/// out-parameters allocated right before it.
void rewriteCall(func::CallOp Call, func::FuncOp Target,
                 ArrayRef<OutParam> Params, ArrayRef<DictionaryAttr> Attrs,
                 ArrayRef<IntegerAttr> Alignments) {
  OpBuilder B(Call);
  Location Loc = Call.getLoc();
  SmallVector<Value> Operands(Call.getOperands());
  BitVector Erased(Call.getNumResults());
  for (auto [I, P] : llvm::enumerate(Params)) {
    SmallVector<Value> Sizes;
    for (const CallerSize &S : P.Sizes) {
      if (S.Kind == CallerSize::Argument) {
        Sizes.push_back(Call.getOperand(S.Arg));
        continue;
      }
      Value C = arith::ConstantIndexOp::create(B, Loc, S.Value);
      Sizes.push_back(
          S.Kind == CallerSize::Constant
              ? C
              : memref::DimOp::create(B, Loc, Call.getOperand(S.Arg), C)
                    .getResult());
    }
    Value Result = Call.getResult(P.Result);
    auto Alloc = memref::AllocOp::create(
        B, Loc, cast<MemRefType>(Result.getType()), Sizes, Alignments[I]);
    for (NamedAttribute A : Attrs[I])
      Alloc->setAttr(A.getName(), A.getValue());
    Result.replaceAllUsesWith(Alloc.getResult());
    Operands.push_back(Alloc);
    Erased.set(P.Result);
  }
  auto New = func::CallOp::create(B, Loc, Target, Operands);
  New->setDiscardableAttrs(Call->getDiscardableAttrDictionary());
  unsigned Next = 0;
  for (OpResult R : Call.getResults())
    if (!Erased.test(R.getResultNumber()))
      R.replaceAllUsesWith(New.getResult(Next++));
  Call.erase();
}

/// The functions of this round whose results change, and why others do
/// not.
void decide(ModuleOp M, SmallVectorImpl<Decision> &Decisions,
            SmallVectorImpl<Refusal> &Refusals) {
  SymbolTable Symbols(M);
  for (func::FuncOp Fn : M.getOps<func::FuncOp>()) {
    if (Fn.isExternal() ||
        !llvm::any_of(Fn.getResultTypes(), llvm::IsaPred<MemRefType>))
      continue;
    std::optional<Refusal> Why;
    SmallVector<func::CallOp> Calls = directCalls(Fn, M, Why);
    if (Why) {
      Refusals.push_back(*Why);
      continue;
    }
    if (Calls.empty())
      continue;
    if (isRecursive(Fn, Symbols)) {
      Refusals.push_back({Fn, "@" + Fn.getName().str() +
                                  " is recursive: its returned buffers stay "
                                  "returned"});
      continue;
    }
    memplan::BufferAliasAnalysis Aliases(Fn);
    Decision D{Fn, {}};
    for (unsigned R = 0, E = Fn.getNumResults(); R < E; ++R) {
      std::string Why;
      if (std::optional<OutParam> P = outParam(Fn, R, Aliases, Why))
        D.Params.push_back(std::move(*P));
      else if (!Why.empty())
        Refusals.push_back({firstReturn(Fn), "result #" + std::to_string(R) +
                                                 " of @" + Fn.getName().str() +
                                                 " stays returned: " + Why});
    }
    if (!D.Params.empty())
      Decisions.push_back(std::move(D));
  }
}

/// Applies D: a public function keeps its signature (unless
/// ModifyPublicFunctions) for callers outside the module, and the module's
/// calls go to a private clone with out-parameters.
void apply(ModuleOp M, const Decision &D,
           const memplan::OutParamsOptions &Options,
           memplan::OutParamsCounts &Counts) {
  func::FuncOp Fn = D.Fn;
  SmallVector<DictionaryAttr> Attrs;
  SmallVector<IntegerAttr> Alignments;
  for (const OutParam &P : D.Params) {
    auto Alloc = returnedValue(Fn, P.Result).getDefiningOp<memref::AllocOp>();
    Attrs.push_back(Alloc->getDiscardableAttrDictionary());
    Alignments.push_back(Alloc.getAlignmentAttr());
    if (auto R = memplan::emitPassRemark(
            Alloc, memplan::RemarkKind::Passed,
            memplan::remark_category::ResultsToOutParams, "OutParameter",
            Options.Remarks))
      R << "result #" << P.Result << " of @" << Fn.getName()
        << " becomes an out-parameter: its callers allocate it";
  }
  std::optional<Refusal> Unused;
  SmallVector<func::CallOp> Calls = directCalls(Fn, M, Unused);
  func::FuncOp Target = Fn;
  if (Fn.isPublic() && !Options.ModifyPublicFunctions) {
    Target = Fn.clone();
    Target.setPrivate();
    Target->removeAttr("llvm.emit_c_interface");
    Target.setName((Fn.getName() + "_out_params").str());
    // Renamed if the name is taken.
    SymbolTable(M).insert(Target, std::next(Block::iterator(Fn)));
    ++Counts.Clones;
    // The same method: the module's calls share Fn's arena too.
    memplan::SharedArenas::addClone(M, Fn, Target);
  }
  rewriteCallee(Target, D.Params);
  for (func::CallOp Call : Calls)
    rewriteCall(Call, Target, D.Params, Attrs, Alignments);
  Counts.OutParams += D.Params.size();
}

struct TensorMemResultsToOutParams
    : memplan::impl::TensorMemResultsToOutParamsBase<
          TensorMemResultsToOutParams> {
  using Base::Base;

  void runOnOperation() override {
    memplan::OutParamsCounts Counts = memplan::resultsToOutParams(
        getOperation(), {modifyPublicFunctions, remarks});
    numOutParams += Counts.OutParams;
    numClones += Counts.Clones;
  }
};

} // namespace

memplan::OutParamsCounts
memplan::resultsToOutParams(ModuleOp M, const OutParamsOptions &Options) {
  OutParamsCounts Counts;
  // A caller returning what its callee now writes into an out-parameter
  // qualifies on the next round.
  for (;;) {
    auto Marked = markNoCaptureArguments(M);
    SmallVector<Decision> Decisions;
    SmallVector<Refusal> Refusals;
    decide(M, Decisions, Refusals);
    unmarkArguments(Marked);
    if (Decisions.empty()) {
      for (const Refusal &R : Refusals)
        emitPassRemark(R.At, RemarkKind::Missed,
                       remark_category::ResultsToOutParams, "LeftAlone",
                       Options.Remarks)
            << R.Why;
      return Counts;
    }
    for (const Decision &D : Decisions)
      apply(M, D, Options, Counts);
  }
}
