//===- Types.h - The nouns of memory planning -------------------*- C++ -*-===//
//
// Usage records and the two kinds of assignment a strategy returns, in the
// terms of TFLite GPU's memory_management/types.h. Nothing else lives here.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_TYPES_H
#define MEMPLAN_CORE_TYPES_H

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace memplan {

/// One buffer: Size bytes, live over the inclusive task range
/// [FirstTask, LastTask].
struct UsageRecord {
  uint64_t Size = 0;
  uint64_t FirstTask = 0;
  uint64_t LastTask = 0;

  UsageRecord() = default;
  UsageRecord(uint64_t Size, uint64_t FirstTask, uint64_t LastTask)
      : Size(Size), FirstTask(FirstTask), LastTask(LastTask) {}

  /// Two records conflict when their inclusive intervals intersect.
  bool conflictsWith(const UsageRecord &Other) const {
    return FirstTask <= Other.LastTask && Other.FirstTask <= LastTask;
  }
  bool operator==(const UsageRecord &O) const {
    return Size == O.Size && FirstTask == O.FirstTask && LastTask == O.LastTask;
  }
};

/// Record Result takes the bytes of record Operand: an op writes its result
/// over an operand that dies at that op. The two records meet at exactly one
/// task (Operand's last, Result's first) and share one offset.
struct InplacePair {
  size_t Operand = 0;
  size_t Result = 0;
};

/// Marks a tensor that a shared-object strategy left without an object.
constexpr size_t kNotAssigned = std::numeric_limits<size_t>::max();

/// Shared-object plan: tensor I lives in object ObjectIds[I], whose size is
/// ObjectSizes[ObjectIds[I]]. Tensors sharing an object never conflict.
struct ObjectsAssignment {
  std::vector<size_t> ObjectIds;
  std::vector<uint64_t> ObjectSizes;
};

/// Offset plan: tensor I occupies [Offsets[I], Offsets[I] + size) of an arena
/// of TotalSize bytes.
struct OffsetsAssignment {
  std::vector<uint64_t> Offsets;
  uint64_t TotalSize = 0;
};

} // namespace memplan

#endif // MEMPLAN_CORE_TYPES_H
