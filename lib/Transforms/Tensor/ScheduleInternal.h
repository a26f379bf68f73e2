//===- ScheduleInternal.h - The parts of tensor-mem-schedule ----*- C++ -*-===//
//
// tensor-mem-schedule is split by job: ScheduleMemoryFacts.cpp says what
// memory an op may read or write; ScheduleBlockModel.cpp turns a block into
// a Core scheduling problem; ScheduleForMemory.cpp is the pass, which asks
// Core for an order and moves the ops into it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_TRANSFORMS_TENSOR_SCHEDULEINTERNAL_H
#define MEMPLAN_LIB_TRANSFORMS_TENSOR_SCHEDULEINTERNAL_H

#include "memplan/Core/Schedule.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace memplan::tensor_schedule {

/// Bytes of a ranked tensor of integers or floats, counted as the planner
/// counts the memref it becomes (ElementLayout: an i1 takes a byte), with
/// each dynamic dimension counted as one; nothing otherwise.
std::optional<uint64_t> tensorStaticBytes(mlir::Type T, mlir::Operation *Scope);

/// One factor of a dynamic buffer's bytes: the index value V, or, when
/// ArgDim >= 0, dimension ArgDim of V, an argument of the function.
struct SizeFactor {
  mlir::Value V;
  int64_t ArgDim = -1;
};

/// Constants without operands go to the block's start: no order to keep.
bool isHoistableConstant(mlir::Operation *Op);

/// A tensor read from a memref (a global, such as a constant hoisted by
/// tensor-mem-hoist-constants, or an argument): no arena bytes. The to_tensor
/// is not pure, so it keeps its order after the op that fills the memref;
/// orderMemory keeps its readers between the writes to that memory.
bool isMemRefTensor(mlir::Operation *Op);

/// Ops whose tensor results are views of their first operand's buffer.
bool isView(mlir::Operation *Op);

/// Memory a read or a write may touch: some globals by name, or anything.
struct MemorySet {
  bool Any = false;
  llvm::SmallVector<mlir::StringAttr, 1> Globals;

  bool empty() const { return !Any && Globals.empty(); }
  void add(const MemorySet &Other) {
    Any |= Other.Any;
    for (mlir::StringAttr G : Other.Globals)
      if (!llvm::is_contained(Globals, G))
        Globals.push_back(G);
  }
  /// Only two distinct globals are known apart; a memref argument or any
  /// other memref may be a view of anything.
  bool mayAlias(const MemorySet &Other) const {
    if (empty() || Other.empty())
      return false;
    if (Any || Other.Any)
      return true;
    return llvm::any_of(Globals, [&](mlir::StringAttr G) {
      return llvm::is_contained(Other.Globals, G);
    });
  }
};

/// What bytes the values and ops of one function may read or write
/// (ScheduleMemoryFacts.cpp). Default-deny: whatever it cannot name is
/// "anything".
class MemoryFacts {
public:
  explicit MemoryFacts(mlir::Operation *Scope);

  /// The memory a memref value may point into.
  MemorySet memrefRoot(mlir::Value M);

  /// The mutable memory a memref reads: nothing for a constant global or a
  /// hoisted one (written only by the init function, which runs before the
  /// to_tensor that reads it).
  MemorySet mutableRoot(mlir::Value M);

  /// The mutable memory whose bytes a tensor value may still be: tensors are
  /// values, except one made by to_tensor from a memref, and what forwards it.
  const MemorySet &tensorSources(mlir::Value V);

  /// The mutable memory Op (and what it nests) reads through tensors.
  MemorySet tensorReads(mlir::Operation *Op);

  /// The memory Op (and what it nests) may write: its MemoryEffectOpInterface
  /// write and free effects, anything for an op without one (a call), and
  /// the memory behind a destination it may write in place.
  MemorySet writes(mlir::Operation *Op);

private:
  bool hasWritableToTensor();
  MemorySet computeSources(mlir::Value V);

  mlir::FunctionOpInterface Fn;
  std::optional<bool> WritableToTensor;
  mlir::SymbolTableCollection Symbols;
  llvm::DenseMap<mlir::Value, MemorySet> Sources;
};

/// Ops the byte model knows to produce tensors, or why not.
mlir::LogicalResult checkKnown(mlir::Operation *Op, std::string &Why);

/// A block as a Core problem: node I is NodeOps[I] preceded by Attached[I].
/// Value I takes Problem.ValueSizes[I] bytes times the product of
/// Factors[I] (none for a static shape).
struct BlockModel {
  ScheduleProblem Problem;
  std::vector<llvm::SmallVector<SizeFactor, 2>> Factors;
  bool isDynamic() const {
    return llvm::any_of(Factors, [](const auto &F) { return !F.empty(); });
  }
  llvm::SmallVector<mlir::Operation *> NodeOps;
  llvm::SmallVector<llvm::SmallVector<mlir::Operation *, 1>> Attached;
  llvm::SmallVector<mlir::Operation *> Hoisted;
};

/// Gives each use of a multi-use static tensor.empty of B its own, right
/// before the op of B that uses it (splitEmptyTensor, BeforeUserInBlock).
/// Returns whether it split any.
bool splitEmpties(mlir::Block &B);

/// The model of B (ScheduleBlockModel.cpp), in block order; every op in it
/// passed checkKnown. Nothing, with Why set, when a dynamic tensor's bytes
/// cannot be followed to the sizes that make it.
std::optional<BlockModel> buildBlockModel(mlir::Block &B, std::string &Why);

} // namespace memplan::tensor_schedule

#endif // MEMPLAN_LIB_TRANSFORMS_TENSOR_SCHEDULEINTERNAL_H
