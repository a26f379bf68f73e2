//===- SymbolicPlan.h - Offsets of dynamic buffers as arithmetic -*- C++
//-*-===//

#ifndef MEMPLAN_LIB_TRANSFORMS_SYMBOLICPLAN_H
#define MEMPLAN_LIB_TRANSFORMS_SYMBOLICPLAN_H

#include "memplan/Core/StackingOrder.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <optional>
#include <vector>

namespace memplan {

/// One buffer of a symbolic plan: its bytes are StaticBytes times its
/// dynamic sizes, its live range the record's.
struct SymbolicBuffer {
  UsageRecord Record; // Record.Size: the static part of the bytes
  llvm::SmallVector<mlir::Value> DynamicSizes;
};

/// The stacking orders (StackingOrder.h) a function's dynamic buffers get:
/// each is made by planning the sizes the buffers take when every index
/// value they are computed from takes one sample value, and kept when it is
/// the best at some sample. std::nullopt when a size is not a polynomial of
/// values known at \p Entry (arguments and their dims, through +, -, *, /,
/// min, max, casts and affine.apply): the run-time planner serves those.
std::optional<std::vector<StackingOrder>>
chooseStackingOrders(llvm::ArrayRef<SymbolicBuffer> Buffers, mlir::Block &Entry,
                     uint64_t Alignment);

/// Emits at \p B the offsets of \p Bytes (i64, one per buffer) under every
/// order, and selects the plan with the smallest arena. Returns the i64
/// arena size (-1 when a size or an offset overflows, which the runtime's
/// alloc reports and stops on) and the offsets.
std::pair<mlir::Value, llvm::SmallVector<mlir::Value>>
emitStackedOffsets(mlir::OpBuilder &B, mlir::Location Loc,
                   llvm::ArrayRef<StackingOrder> Orders,
                   llvm::ArrayRef<mlir::Value> Bytes, mlir::Value Overflow,
                   uint64_t Alignment);

} // namespace memplan

#endif // MEMPLAN_LIB_TRANSFORMS_SYMBOLICPLAN_H
