//===- NoCapture.cpp - Calls that only use a buffer while they run --------===//

#include "memplan/Analysis/NoCapture.h"
#include "memplan/Analysis/BufferAliases.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

/// MLIR's runner utilities (libmlir_runner_utils) that read the memref they
/// are given and keep nothing: the print and verify functions integration
/// tests and examples call.
static bool isKnownReader(StringRef Name) {
  return Name.starts_with("printMemref") || Name.starts_with("verifyMemRef");
}

bool memplan::callOnlyReads(CallOpInterface Call) {
  auto Fn = dyn_cast_if_present<FunctionOpInterface>(Call.resolveCallable());
  return Fn && isKnownReader(Fn.getName());
}

std::optional<unsigned> memplan::calleeArgumentIndex(CallOpInterface Call,
                                                     FunctionOpInterface Fn,
                                                     OpOperand &Use) {
  OperandRange Args = Call.getArgOperands();
  if (Args.empty() || Use.getOperandNumber() < Args.getBeginOperandIndex())
    return std::nullopt;
  unsigned Index = Use.getOperandNumber() - Args.getBeginOperandIndex();
  if (Index >= Args.size() || Index >= Fn.getNumArguments())
    return std::nullopt;
  return Index;
}

bool memplan::callKeepsNoReference(CallOpInterface Call, OpOperand &Use) {
  auto Fn = dyn_cast_if_present<FunctionOpInterface>(Call.resolveCallable());
  if (!Fn)
    return false;
  // Only an operand that is an argument of the callee.
  std::optional<unsigned> Arg = calleeArgumentIndex(Call, Fn, Use);
  if (!Arg)
    return false;
  unsigned Index = *Arg;
  if (Fn.getArgAttr(Index, kNoCaptureAttr) ||
      Fn.getArgAttr(Index, "llvm.nocapture"))
    return true;
  return Fn.isExternal() && isKnownReader(Fn.getName());
}

/// Whether Fn's argument Index may stay with Fn after it returns.
static bool keepsArgument(FunctionOpInterface Fn, unsigned Index) {
  memplan::BufferAliasAnalysis Aliases(Fn);
  memplan::BufferAliasInfo Info = Aliases.analyze(Fn.getArgument(Index));
  // Freeing it takes it from the caller too.
  return Info.Escape.has_value() || !Info.Deallocs.empty();
}

SmallVector<std::pair<FunctionOpInterface, unsigned>>
memplan::markNoCaptureArguments(Operation *Root) {
  SmallVector<std::pair<FunctionOpInterface, unsigned>> Marked, Added;
  Root->walk([&](FunctionOpInterface Fn) {
    if (Fn.isExternal() || !Fn->getParentOp() ||
        !Fn->getParentOp()->hasTrait<OpTrait::SymbolTable>())
      return;
    for (unsigned I = 0, E = Fn.getNumArguments(); I < E; ++I) {
      if (!isa<BaseMemRefType>(Fn.getArgument(I).getType()))
        continue;
      // Assumed first, so that recursion does not count as keeping.
      if (!Fn.getArgAttr(I, kNoCaptureAttr))
        Added.push_back({Fn, I});
      Fn.setArgAttr(I, kNoCaptureAttr, UnitAttr::get(Fn.getContext()));
      Marked.push_back({Fn, I});
    }
  });
  // Remove the marks the bodies disprove until none changes: what remains
  // is kept by no path.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[Fn, I] : Marked)
      if (Fn.getArgAttr(I, kNoCaptureAttr) && keepsArgument(Fn, I)) {
        Fn.removeArgAttr(I, kNoCaptureAttr);
        Changed = true;
      }
  }
  llvm::erase_if(Added, [](auto &M) {
    return !M.first.getArgAttr(M.second, kNoCaptureAttr);
  });
  return Added;
}

void memplan::unmarkArguments(
    ArrayRef<std::pair<FunctionOpInterface, unsigned>> Marked) {
  for (auto [Fn, I] : Marked)
    Fn.removeArgAttr(I, kNoCaptureAttr);
}
