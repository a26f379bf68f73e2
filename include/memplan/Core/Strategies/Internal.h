//===- Internal.h - Helpers that several strategies share -------*- C++ -*-===//
//
// The counterpart of TFLite GPU's memory_management/internal.h: task
// profiles, positional maximums, and the conflict index and gap search that
// every offset strategy uses to place one record next to the ones placed so
// far. Not a public API: strategies include it, users should not need to.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_STRATEGIES_INTERNAL_H
#define MEMPLAN_CORE_STRATEGIES_INTERNAL_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace memplan::internal {

/// Indices 0..n-1 ordered by (FirstTask, LastTask, index): the order that
/// TFLite's in-order strategies assume their input is already in.
std::vector<size_t> orderByStart(llvm::ArrayRef<UsageRecord> Records);

/// Indices ordered by size, largest first; ties by FirstTask, then index.
std::vector<size_t> orderBySizeDesc(llvm::ArrayRef<UsageRecord> Records);

/// Time compressed to elementary segments: segment S covers the tasks from
/// Starts[S] up to the next start. A record covers segments
/// [FirstSeg[I], LastSeg[I]] (inclusive). Only segments where some record
/// starts exist, which is enough: live sets only grow at starts.
struct Segments {
  std::vector<uint64_t> Starts;
  std::vector<size_t> FirstSeg, LastSeg;
};
Segments computeSegments(llvm::ArrayRef<UsageRecord> Records);

/// Breadth of each segment: the sum of the sizes live in it (saturating).
std::vector<uint64_t> segmentBreadths(llvm::ArrayRef<UsageRecord> Records,
                                      const Segments &Segs);

/// Order of TFLite's greedy-by-breadth: tasks by decreasing breadth, and in
/// each task its not yet visited records by decreasing size. A record is thus
/// visited at the broadest segment it covers (the earliest of equal ones).
std::vector<size_t> orderByBreadth(llvm::ArrayRef<UsageRecord> Records);

/// TFLite's CalculatePositionalMaximums: in every task sort the live sizes in
/// decreasing order; entry K is the largest K-th size over all tasks.
std::vector<uint64_t> positionalMaximums(llvm::ArrayRef<UsageRecord> Records);

/// The placed records that conflict in time with a query record, found in
/// O((k + 1) log n) with a max-segment tree over records sorted by start.
class ConflictIndex {
public:
  explicit ConflictIndex(llvm::ArrayRef<UsageRecord> Records);
  /// Marks record I as placed.
  void insert(size_t I);
  /// Appends to Out every placed record that conflicts with R.
  void collect(const UsageRecord &R, std::vector<size_t> &Out) const;

private:
  void collectIn(size_t Node, size_t Lo, size_t Hi, size_t Limit,
                 uint64_t First, std::vector<size_t> &Out) const;
  llvm::ArrayRef<UsageRecord> Records;
  std::vector<size_t> ByStart;  // Leaf position -> record.
  std::vector<size_t> Position; // Record -> leaf position.
  std::vector<uint64_t> StartAt;
  // Max LastTask of the placed records below a node; none when none is.
  std::vector<std::optional<uint64_t>> Tree;
  size_t Leaves = 0;
};

enum class GapPolicy {
  /// The smallest gap that holds the record (TFLite greedy by size, XLA best
  /// fit); on top of the conflicting records when none does.
  BestFit,
  /// The lowest gap that holds the record.
  FirstFit,
};

/// Offset for a record of Size next to Conflicts (placed, all conflicting
/// with it). Conflicts is reordered. Offsets are aligned because every size
/// and offset already is.
uint64_t findOffset(uint64_t Size, std::vector<size_t> &Conflicts,
                    llvm::ArrayRef<UsageRecord> Records,
                    llvm::ArrayRef<uint64_t> Offsets, GapPolicy Policy);

/// Places the records one by one in Order, each at findOffset() among the
/// already placed ones that conflict with it.
OffsetsAssignment placeInOrder(llvm::ArrayRef<UsageRecord> Records,
                               llvm::ArrayRef<size_t> Order, GapPolicy Policy);

/// Sum of the object sizes: the arena a shared-object plan needs, alignment
/// aside.
uint64_t objectsTotal(const ObjectsAssignment &A);

} // namespace memplan::internal

#endif // MEMPLAN_CORE_STRATEGIES_INTERNAL_H
