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

/// Indices ordered by size, then lifetime, both decreasing, then index: XLA
/// heap simulator's spatial order (best-fit-size).
std::vector<size_t> orderBySizeLifetime(llvm::ArrayRef<UsageRecord> Records);

/// Indices ordered by size x lifetime, then size, both decreasing, then
/// index (best-fit-area).
std::vector<size_t> orderByArea(llvm::ArrayRef<UsageRecord> Records);

/// What placing records needs to know about their lifetimes, computed once
/// per record set and shared by every placement over it (`auto` runs
/// several). O(n log n) to build. Fewer than 2^32 records.
///
/// Time is compressed to segments (one per distinct start): two records
/// conflict iff their segment ranges [FirstSeg, LastSeg] intersect. Records
/// are grouped by length class (floor(log2(LastSeg - FirstSeg + 1))) and, in
/// class C, in buckets of 2^C segments by FirstSeg. A record of class C that
/// conflicts with [F, L] starts in [F - 2^(C+1) + 2, L]: a few buckets per
/// class, most of whose records do conflict.
class PlacementContext {
public:
  explicit PlacementContext(llvm::ArrayRef<UsageRecord> Records);
  llvm::ArrayRef<UsageRecord> Records;
  /// A record as placement sees it: entries of one bucket lie together, so
  /// the conflicts of a record are read from a few runs of memory.
  struct Entry {
    uint32_t FirstSeg, LastSeg, Index;
    uint64_t Size;
  };
  /// Records grouped by class, then bucket; ClassBuckets[C] is the index in
  /// BucketStart of class C's first bucket (empty classes have none).
  std::vector<Entry> Entries;
  std::vector<uint32_t> BucketStart; // Bucket -> first entry; one past end.
  std::vector<uint32_t> ClassBuckets;
  std::vector<uint32_t> ClassBucketCount;
  /// Record -> its entry.
  std::vector<uint32_t> EntryOf;
  /// The live-bytes bound of the records (liveBytesLowerBound), a by-product.
  uint64_t LiveBound = 0;
  /// Some record has size 0 (the gap search then breaks offset ties by
  /// index).
  bool HasZeroSize = false;
};

enum class GapPolicy {
  /// The smallest gap that holds the record (TFLite greedy by size, XLA best
  /// fit); on top of the conflicting records when none does.
  BestFit,
  /// The lowest gap that holds the record.
  FirstFit,
};

/// One placed record as the gap search sees it.
struct PlacedSpan {
  uint64_t Offset, End;
  uint32_t Index;
};

/// Offset for a record of Size next to Conflicts (placed, all conflicting
/// with it; reordered by offset, then index). Offsets are aligned because
/// every size and offset already is.
uint64_t findOffset(uint64_t Size, std::vector<PlacedSpan> &Conflicts,
                    GapPolicy Policy);

/// Places the records one by one in Order, each at findOffset() among the
/// already placed ones that conflict with it.
OffsetsAssignment placeInOrder(const PlacementContext &Ctx,
                               llvm::ArrayRef<size_t> Order, GapPolicy Policy);
OffsetsAssignment placeInOrder(llvm::ArrayRef<UsageRecord> Records,
                               llvm::ArrayRef<size_t> Order, GapPolicy Policy);

/// Sum of the object sizes: the arena a shared-object plan needs, alignment
/// aside.
uint64_t objectsTotal(const ObjectsAssignment &A);

} // namespace memplan::internal

#endif // MEMPLAN_CORE_STRATEGIES_INTERNAL_H
