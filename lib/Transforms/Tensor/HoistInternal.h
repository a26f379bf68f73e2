//===- HoistInternal.h - Parts of tensor-mem-hoist-constants ----*- C++ -*-===//
//
// tensor-mem-hoist-constants is split by job: HoistConstantDerived.cpp finds
// the ops computed only from constants and says why a tensor must stay;
// HoistIntoGlobals.cpp moves tensors into globals filled once, on the first
// call; HoistConstantTensors.cpp is the pass, which picks the candidates,
// folds what it can and hoists the rest.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_TENSOR_HOISTINTERNAL_H
#define MEMPLAN_LIB_TRANSFORMS_TENSOR_HOISTINTERNAL_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <utility>

namespace memplan::hoist_constants {

/// A constant-derived tensor that an op outside the constant-derived set
/// reads: what is folded or hoisted.
struct Candidate {
  mlir::Location Loc;
  uint64_t Bytes = 0;
  /// The reads by other ops, as (user, operand number): they survive folding
  /// and tell what value replaced the tensor.
  llvm::SmallVector<std::pair<mlir::Operation *, unsigned>> Reads;
};

/// Pure, and so is everything nested in it (a payload that calls or stores
/// makes a linalg op impure in effect even when the op says otherwise).
bool isPureTree(mlir::Operation *Op);

/// The ops of Entry computed only from constants: pure, and every operand
/// (and every value their regions capture) computed by such an op. A block
/// argument never is, so no function argument reaches them.
llvm::SetVector<mlir::Operation *> constantDerivedOps(mlir::Block &Entry);

/// The ops of Derived that Roots are computed from (Roots' own included).
llvm::DenseSet<mlir::Operation *>
backwardSlice(llvm::ArrayRef<mlir::Value> Roots,
              const llvm::SetVector<mlir::Operation *> &Derived);

/// Why V keeps its place, or "" when no alias of it leaves the function or
/// is written: the whole alias closure is checked, not only V's users (a
/// select or a reshape returned hands the global to the caller, which may
/// write it). Every tensor result of an op that may forward V is followed (a
/// view, reshape, cast or select, a branch's yield, a destination written in
/// place by a constant-derived op). Default-deny: a return, a loop's yield, a
/// call, an op with regions, or an op with memory effects or buffer results
/// taking an alias keeps V; a destination outside the constant-derived ops is
/// written (bufferization would copy the global back into the arena).
std::string whyKeep(mlir::Value V,
                    const llvm::SetVector<mlir::Operation *> &Derived);

/// Computes each of Values (constant-derived tensors of Fn's entry block)
/// into a global of its own, in an init function that Fn calls exactly once,
/// and makes Fn read the globals instead. Returns the global of each value,
/// in the order of Values.
llvm::SmallVector<mlir::memref::GlobalOp>
hoistIntoGlobals(mlir::func::FuncOp Fn,
                 llvm::ArrayRef<std::pair<mlir::Value, Candidate>> Values,
                 mlir::SymbolTable &Symbols);

} // namespace memplan::hoist_constants

#endif // MEMPLAN_LIB_TRANSFORMS_TENSOR_HOISTINTERNAL_H
