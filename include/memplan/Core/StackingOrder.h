//===- StackingOrder.h - A plan that holds for every size -------*- C++ -*-===//
//
// A plan made for one set of sizes says, for each pair of records that meet
// in time, which lies below the other. Kept as that order, it places any
// sizes: each record sits on top of the highest record below it,
//
//   offset(i) = alignUp(max over j in Below[i] of offset(j) + size(j)),
//
// so records that meet never share a byte, whatever their sizes. At the
// sizes it was made for it is never larger than the plan it came from.
// Symbolic plans of dynamic buffers are built from it (PlanAtRunTime.cpp):
// the sizes are known only when the function runs, the order at compile
// time.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_STACKINGORDER_H
#define MEMPLAN_CORE_STACKINGORDER_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace memplan {

struct StackingOrder {
  /// Records in an order where everything below a record comes first.
  std::vector<size_t> Order;
  /// Below[I]: the records I is placed on top of, without those implied by
  /// another (j below k below I: k's top is never under j's).
  std::vector<std::vector<size_t>> Below;

  bool operator==(const StackingOrder &O) const {
    return Order == O.Order && Below == O.Below;
  }
};

/// The order of \p Plan: of two records that meet in time, the one at the
/// lower offset is below (ties: the smaller index).
StackingOrder stackingOrderOf(llvm::ArrayRef<UsageRecord> Records,
                              const OffsetsAssignment &Plan);

/// Places \p Sizes by \p Order with offsets aligned to \p Alignment (a power
/// of two). std::nullopt when an offset would overflow 64 bits.
std::optional<OffsetsAssignment> placeByStacking(const StackingOrder &Order,
                                                 llvm::ArrayRef<uint64_t> Sizes,
                                                 uint64_t Alignment);

} // namespace memplan

#endif // MEMPLAN_CORE_STACKINGORDER_H
