//===- Remarks.h - The one channel of memplan's remarks ---------*- C++ -*-===//
//
// Every remark of a memplan pass goes through emitPassRemark. It reaches
// MLIR's remark engine when the context has one that accepts the pass's
// category (mlir-opt/memplan-opt --remarks-filter='memplan.*'), and is
// printed as a diagnostic remark when the pass was asked for remarks
// (remarks=true), with the same text either way. When neither listens,
// nothing is built: the remark converts to false and ignores what is
// streamed into it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TRANSFORMS_REMARKS_H
#define MEMPLAN_TRANSFORMS_REMARKS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Remarks.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <type_traits>

namespace memplan {

/// The remark engine's category of each pass: "memplan." and the pass's
/// name. The engine's filters match a whole category, so 'memplan.*' selects
/// every pass and "memplan.tensor-mem-plan" one. The engine keeps the
/// category by reference: these constants, not built strings.
namespace remark_category {
inline constexpr llvm::StringLiteral Plan = "memplan.tensor-mem-plan";
inline constexpr llvm::StringLiteral LowerRuntime =
    "memplan.tensor-mem-lower-runtime";
inline constexpr llvm::StringLiteral HoistConstants =
    "memplan.tensor-mem-hoist-constants";
inline constexpr llvm::StringLiteral Schedule = "memplan.tensor-mem-schedule";
inline constexpr llvm::StringLiteral ResultsToOutParams =
    "memplan.tensor-mem-results-to-out-params";
inline constexpr llvm::StringLiteral LiveInsAsArguments =
    "memplan.tensor-mem-live-ins-as-arguments";
} // namespace remark_category

/// What a remark says of the pass's work: done (planned, rewritten), not
/// done with a reason, or a summary.
enum class RemarkKind { Passed, Missed, Analysis };

/// One remark being built, sent when it goes out of scope. Text streamed
/// with << is formatted as a diagnostic formats it; a remark::metric or
/// remark::reason goes to the engine only, as an argument of its own.
class PassRemark {
public:
  PassRemark() = default;
  PassRemark(PassRemark &&) = default;
  ~PassRemark();

  /// Whether anyone listens (the engine, or remarks=true).
  explicit operator bool() const { return Diag || TextOnly; }

  template <typename T,
            typename = std::enable_if_t<!std::is_same_v<
                std::decay_t<T>, mlir::remark::detail::LazyTextBuild>>>
  PassRemark &operator<<(T &&Value) {
    if (mlir::Diagnostic *D = text())
      *D << std::forward<T>(Value);
    return *this;
  }
  PassRemark &operator<<(const mlir::remark::detail::LazyTextBuild &Arg);

  /// A note under the diagnostic remark (the engine's remarks have none).
  /// Only on a remark that converts to true.
  mlir::Diagnostic &attachNote(mlir::Location Loc);

private:
  friend PassRemark emitPassRemark(mlir::Operation *, RemarkKind,
                                   llvm::StringRef, llvm::StringRef, bool);
  friend PassRemark emitPassRemark(mlir::Location, mlir::Operation *,
                                   RemarkKind, llvm::StringRef, llvm::StringRef,
                                   bool);
  mlir::Diagnostic *text();
  /// What both emitPassRemark forms build; Emit makes the diagnostic.
  static PassRemark make(mlir::Location Loc, mlir::Operation *Fn,
                         RemarkKind Kind, llvm::StringRef Category,
                         llvm::StringRef Name, bool AsDiagnostic,
                         llvm::function_ref<mlir::InFlightDiagnostic()> Emit);

  // Declared before Diag: the diagnostic is reported first.
  mlir::remark::detail::InFlightRemark Engine;
  llvm::SmallVector<mlir::remark::detail::Remark::Arg, 0> EngineArgs;
  std::optional<mlir::InFlightDiagnostic> Diag;
  std::optional<mlir::Diagnostic> TextOnly;
};

/// A remark on Op, printed as Op->emitRemark() prints (the op under it, as
/// -mlir-print-op-on-diagnostic says) when AsDiagnostic. Category is one of
/// remark_category; Name (a static string) names the remark in the
/// engine's output ("LeftAlone", "Hoisted", ...).
PassRemark emitPassRemark(mlir::Operation *Op, RemarkKind Kind,
                          llvm::StringRef Category, llvm::StringRef Name,
                          bool AsDiagnostic);

/// A remark on a location alone (a function's summary, without the function
/// printed under it); Fn, if given, names the function for the engine.
PassRemark emitPassRemark(mlir::Location Loc, mlir::Operation *Fn,
                          RemarkKind Kind, llvm::StringRef Category,
                          llvm::StringRef Name, bool AsDiagnostic);

/// Whether a remark could be wanted: to skip work done only for remarks.
bool passRemarksWanted(mlir::MLIRContext *Ctx, bool AsDiagnostic);

} // namespace memplan

#endif // MEMPLAN_TRANSFORMS_REMARKS_H
