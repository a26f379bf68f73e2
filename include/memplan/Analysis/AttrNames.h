//===- AttrNames.h - The names of memplan's attributes ----------*- C++ -*-===//
//
// Every `memplan.*` attribute in one place: those a user may write into the
// IR, and those one pass leaves for another (or for the runtime).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_ATTRNAMES_H
#define MEMPLAN_ANALYSIS_ATTRNAMES_H

#include "llvm/ADT/StringRef.h"

namespace memplan {

//--- Written by the user. ---

/// On an index argument of a function: the largest value it takes. An alloc
/// sized by it is planned at the bound (a promise, checked at run time).
inline constexpr llvm::StringLiteral kMaxAttr = "memplan.max";

/// Unit attribute on an alloc: its buffer never shares bytes (live for the
/// whole function, like TFLite's persistent arena).
inline constexpr llvm::StringLiteral kPersistentAttr = "memplan.persistent";

/// Unit attribute on a memref argument: the callee keeps no reference to the
/// buffer after the call (also set by markNoCaptureArguments).
inline constexpr llvm::StringLiteral kNoCaptureAttr = "memplan.nocapture";

/// On a module: the functions (symbol references) that never run at once;
/// tensor-mem-plan gives them one shared arena (a promise checked at run
/// time).
inline constexpr llvm::StringLiteral kSharedArenaAttr = "memplan.shared_arena";

//--- Written by the passes. ---

/// On the arena argument tensor-mem-plan adds (arena=argument): the bytes
/// and the alignment a caller must pass.
inline constexpr llvm::StringLiteral kArenaSizeAttr = "memplan.arena_size";
inline constexpr llvm::StringLiteral kArenaAlignmentAttr =
    "memplan.arena_alignment";

/// Unit attributes tensor-mem-plan puts on the check that no other function
/// of memplan.shared_arena runs (the scf.if at each entry of the set) and on
/// the shared static arena's global: tensor-mem-lower-runtime shares the
/// run-time arena only where it finds the check.
inline constexpr llvm::StringLiteral kExclusionGuardAttr =
    "memplan.exclusion_guard";
inline constexpr llvm::StringLiteral kSharedArenaGlobalAttr =
    "memplan.shared_arena_global";

/// Unit attribute tensor-mem-hoist-constants puts on the globals it creates.
inline constexpr llvm::StringLiteral kHoistedGlobalAttr = "memplan.hoisted";

/// Unit attribute on the function that fills them on the first call.
inline constexpr llvm::StringLiteral kInitFunctionAttr = "memplan.init";

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_ATTRNAMES_H
