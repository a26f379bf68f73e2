//===- Remarks.cpp - The one channel of memplan's remarks -----------------===//

#include "memplan/Transforms/Remarks.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace memplan;

PassRemark::~PassRemark() {
  if (!Engine)
    return;
  // The same text as the diagnostic, then the engine's own arguments.
  Engine << remark::detail::Remark::Arg("Remark", text()->str());
  for (remark::detail::Remark::Arg &A : EngineArgs)
    Engine << A;
}

PassRemark &PassRemark::operator<<(const remark::detail::LazyTextBuild &Arg) {
  if (Engine)
    EngineArgs.emplace_back(Arg.key, Arg.thunk());
  return *this;
}

Diagnostic &PassRemark::attachNote(Location Loc) {
  assert(*this && "a note on a remark nobody listens to");
  return text()->attachNote(Loc);
}

Diagnostic *PassRemark::text() {
  if (Diag)
    return Diag->getUnderlyingDiagnostic();
  return TextOnly ? &*TextOnly : nullptr;
}

static remark::detail::InFlightRemark engineRemark(Location Loc, Operation *Fn,
                                                   RemarkKind Kind,
                                                   StringRef Category,
                                                   StringRef Name) {
  if (!Loc->getContext()->getRemarkEngine())
    return {};
  auto Opts = remark::RemarkOpts::name(Name).category(Category);
  // The symbol's name lives in the context, as long as the engine.
  if (auto Sym = dyn_cast_or_null<SymbolOpInterface>(Fn))
    Opts = Opts.function(Sym.getName());
  switch (Kind) {
  case RemarkKind::Passed:
    return remark::passed(Loc, Opts);
  case RemarkKind::Missed:
    return remark::missed(Loc, Opts);
  case RemarkKind::Analysis:
    return remark::analysis(Loc, Opts);
  }
  llvm_unreachable("unknown remark kind");
}

/// The engine's remark when a filter takes it, the diagnostic
/// (made by Emit, which differs only in what it points at) when asked.
PassRemark PassRemark::make(Location Loc, Operation *Fn, RemarkKind Kind,
                            StringRef Category, StringRef Name,
                            bool AsDiagnostic,
                            function_ref<InFlightDiagnostic()> Emit) {
  PassRemark R;
  R.Engine = engineRemark(Loc, Fn, Kind, Category, Name);
  if (AsDiagnostic)
    R.Diag.emplace(Emit());
  else if (R.Engine)
    R.TextOnly.emplace(Loc, DiagnosticSeverity::Remark);
  return R;
}

PassRemark memplan::emitPassRemark(Operation *Op, RemarkKind Kind,
                                   StringRef Category, StringRef Name,
                                   bool AsDiagnostic) {
  Operation *Fn = isa<FunctionOpInterface>(Op)
                      ? Op
                      : Op->getParentOfType<FunctionOpInterface>();
  return PassRemark::make(Op->getLoc(), Fn, Kind, Category, Name, AsDiagnostic,
                          [&] { return Op->emitRemark(); });
}

PassRemark memplan::emitPassRemark(Location Loc, Operation *Fn, RemarkKind Kind,
                                   StringRef Category, StringRef Name,
                                   bool AsDiagnostic) {
  return PassRemark::make(Loc, Fn, Kind, Category, Name, AsDiagnostic,
                          [&] { return mlir::emitRemark(Loc); });
}

bool memplan::passRemarksWanted(MLIRContext *Ctx, bool AsDiagnostic) {
  return AsDiagnostic || Ctx->getRemarkEngine();
}
