//===- ExactSearch.h - The exact strategy's decision procedure --*- C++ -*-===//
//
// Private to the exact strategy (Exact.cpp): the branch and bound that
// decides whether one time partition of the records fits in a capacity
// (ExactSearch.cpp). Not a strategy of its own.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_STRATEGIES_EXACTSEARCH_H
#define MEMPLAN_CORE_STRATEGIES_EXACTSEARCH_H

#include "memplan/Core/Types.h"

#include "llvm/ADT/ArrayRef.h"

#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

namespace memplan::exact {

using Clock = std::chrono::steady_clock;

enum class Outcome { Found, NotFound, NodeLimit, Timeout };

/// Records that overlap no record outside: solved apart from the others.
class Partition {
public:
  Partition(llvm::ArrayRef<UsageRecord> All, std::vector<size_t> Ids);

  /// Searches offsets with every buffer ending at or below Capacity. On
  /// Found, Solution holds them (indexed like Ids).
  Outcome decide(uint64_t Capacity, Clock::time_point Deadline);

  std::vector<size_t> Ids;
  std::vector<uint64_t> Solution;

private:
  Outcome search(const std::vector<size_t> &Parent, uint64_t LastOffset,
                 size_t LastRank, size_t SecFrom, size_t SecTo);
  Outcome decompose(size_t B, const std::vector<size_t> &Order, uint64_t Off,
                    size_t SecFrom, size_t SecTo);
  /// Returns whether some unplaced buffer overlaps B (B has a "hat").
  bool place(size_t B, uint64_t Off);
  void unplace(size_t B, size_t MinMark, size_t FloorMark);
  bool check(uint64_t Off, size_t SecFrom, size_t SecTo) const;

  // The problem.
  std::vector<uint64_t> Size;
  std::vector<size_t> SecLo, SecHi; // Sections [SecLo, SecHi) of a buffer.
  std::vector<std::vector<size_t>> Overlaps, SectionBuffers;
  std::vector<uint64_t> InitialTotal;
  std::vector<std::vector<size_t>> Preorders;
  std::vector<uint64_t> Width;
  std::vector<unsigned __int128> Area;
  size_t Heuristic = 0; // Index into Preorders of the running search.

  // Search state.
  static constexpr uint64_t kUnplaced = UINT64_MAX;
  std::vector<uint64_t> Offset, MinOffset, Floor, Total;
  std::vector<size_t> Rank;
  /// Cuts[S]: unplaced buffers live in both section S and S + 1. At zero,
  /// the buffers left on either side are independent.
  std::vector<size_t> Cuts, InitialCuts;
  std::vector<std::pair<size_t, uint64_t>> MinLog, FloorLog; // Undo logs.
  std::vector<size_t> Stamp;
  size_t StampValue = 0;
  uint64_t Capacity = 0;
  int64_t NodesLeft = 0;
  uint64_t Nodes = 0;
  Clock::time_point Deadline;
};

} // namespace memplan::exact

#endif // MEMPLAN_CORE_STRATEGIES_EXACTSEARCH_H
