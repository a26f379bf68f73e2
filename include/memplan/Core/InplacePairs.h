//===- InplacePairs.h - Records that share bytes by design ------*- C++ -*-===//
//
// An in-place pair lets a result take the bytes of an operand that dies at
// the op writing it. Strategies never see pairs: planMemory() merges each
// chain of pairs into one record (the union of their task ranges), plans the
// merged records and gives every member of a chain the chain's offset.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_INPLACEPAIRS_H
#define MEMPLAN_CORE_INPLACEPAIRS_H

#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace memplan {

/// Records with every chain of pairs merged into one.
struct MergedRecords {
  /// One record per chain (and per record in no pair): the union of the
  /// members' task ranges, the largest member's size.
  std::vector<UsageRecord> Records;
  /// MergedOf[I]: the merged record that holds original record I.
  std::vector<size_t> MergedOf;
};

/// Merges the chains of Pairs. An error when a pair names a record out of
/// range or twice, a record is the operand (or the result) of two pairs,
/// pairs form a cycle, or a pair's records do not meet at exactly one task
/// (the operand's last, which is the result's first).
/// \p Name names record I in errors ("record 'b1' (line 3)" from a tool
/// that read a file); null: "record I".
llvm::Expected<MergedRecords>
mergeInplacePairs(llvm::ArrayRef<UsageRecord> Records,
                  llvm::ArrayRef<InplacePair> Pairs, RecordNamer Name = {});

/// Offsets of the original records from those of the merged ones.
OffsetsAssignment expandOffsets(const MergedRecords &Merged,
                                const OffsetsAssignment &Plan);

/// Object ids of the original records from those of the merged ones.
ObjectsAssignment expandObjects(const MergedRecords &Merged,
                                const ObjectsAssignment &Plan);

/// The live peak with each chain counted once: Bytes is the live-bytes bound
/// of the merged records, Live names one member of each merged record live
/// at Task (the largest of those live there).
llvm::Expected<LivePeak> livePeakWithPairs(llvm::ArrayRef<UsageRecord> Records,
                                           llvm::ArrayRef<InplacePair> Pairs);

} // namespace memplan

#endif // MEMPLAN_CORE_INPLACEPAIRS_H
