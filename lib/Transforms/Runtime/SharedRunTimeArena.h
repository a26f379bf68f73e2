//===- SharedRunTimeArena.h - One run-time arena across calls ---*- C++ -*-===//
//
// The functions a module names in memplan.shared_arena never run at once
// (tensor-mem-plan checks it at each of their entries). Their run-time
// arenas are then one block kept across calls in a slot of the program
// (memplan_rt_shared_arena), grown when a call needs more, instead of one
// block per call. Once the set holds such a block, the static shared arena
// (tensor-mem-plan's global) moves into its first bytes: one block, sized
// for the largest call.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_RUNTIME_SHAREDRUNTIMEARENA_H
#define MEMPLAN_LIB_TRANSFORMS_RUNTIME_SHAREDRUNTIMEARENA_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace memplan {

class SharedRunTimeArena {
public:
  /// The functions of M's memplan.shared_arena whose entry block holds
  /// tensor-mem-plan's check (a function without it shares nothing).
  static SharedRunTimeArena collect(mlir::ModuleOp M);

  bool shares(mlir::FunctionOpInterface Fn) const;

  /// Bytes at the start of the block Fn keeps for the static shared arena
  /// when it reads it (0 otherwise).
  uint64_t prefix(mlir::FunctionOpInterface Fn);

  /// Right after Fn's check: the block of Total bytes aligned to Align
  /// (i64 values defined before the check); Fn's reads of the static
  /// shared arena become its first bytes. Null, with an error, when the
  /// runtime function cannot be declared.
  mlir::Value take(mlir::FunctionOpInterface Fn, mlir::Value Total,
                   mlir::Value Align);

  /// After every function's run-time arena: when the set holds a block,
  /// the functions that only read the static shared arena take it from the
  /// block too, and the global goes. Returns those functions.
  mlir::FailureOr<llvm::SmallVector<mlir::FunctionOpInterface>> finish();

  /// The slot's global, once a function took the block.
  llvm::StringRef slotName() { return Slot ? Slot.getSymName() : ""; }

private:
  mlir::Operation *guardOf(mlir::FunctionOpInterface Fn) const;

  mlir::ModuleOp Module;
  llvm::SmallVector<mlir::FunctionOpInterface> Functions;
  /// tensor-mem-plan's shared global of the default memory space, if any.
  mlir::memref::GlobalOp Static;
  mlir::memref::GlobalOp Slot;
  mlir::func::FuncOp TakeFn;
  llvm::DenseSet<mlir::Operation *> Took;
  /// Each function's reads of Static, when the block can replace them
  /// (all after its check); found once, gone once replaced.
  llvm::DenseMap<mlir::Operation *,
                 llvm::SmallVector<mlir::memref::GetGlobalOp>>
      Reads;
};

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_RUNTIME_SHAREDRUNTIMEARENA_H
