//===- SizedRecords.h - Records whose size is not a byte count --*- C++ -*-===//
//
// GPU textures are sized in 2-D or 3-D; an object can hold a tensor only
// when it has exactly its shape. Naive and equality work on any such size
// type (TFLite GPU's TensorUsageRecord<uint2> / <uint3>).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_STRATEGIES_SIZEDRECORDS_H
#define MEMPLAN_CORE_STRATEGIES_SIZEDRECORDS_H

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

namespace memplan {

struct Size2D {
  uint64_t X = 0, Y = 0;
  bool operator==(const Size2D &O) const { return X == O.X && Y == O.Y; }
  bool operator<(const Size2D &O) const {
    return std::tie(X, Y) < std::tie(O.X, O.Y);
  }
};

struct Size3D {
  uint64_t X = 0, Y = 0, Z = 0;
  bool operator==(const Size3D &O) const {
    return X == O.X && Y == O.Y && Z == O.Z;
  }
  bool operator<(const Size3D &O) const {
    return std::tie(X, Y, Z) < std::tie(O.X, O.Y, O.Z);
  }
};

/// A usage record of any size type (ordered with operator<).
template <typename SizeT> struct SizedUsageRecord {
  SizeT Size{};
  uint64_t FirstTask = 0;
  uint64_t LastTask = 0;
};

template <typename SizeT> struct SizedObjectsAssignment {
  std::vector<size_t> ObjectIds;
  std::vector<SizeT> ObjectSizes;
};

} // namespace memplan

#endif // MEMPLAN_CORE_STRATEGIES_SIZEDRECORDS_H
