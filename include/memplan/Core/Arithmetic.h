//===- Arithmetic.h - Overflow-checked size arithmetic ----------*- C++ -*-===//
//
// Sizes and offsets are 64-bit; every sum, product and round-up that a plan
// depends on goes through these so that overflow is an error, not a wrap.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_ARITHMETIC_H
#define MEMPLAN_CORE_ARITHMETIC_H

#include <cstdint>
#include <optional>

namespace memplan {

inline std::optional<uint64_t> checkedAdd(uint64_t A, uint64_t B) {
  uint64_t R;
  if (__builtin_add_overflow(A, B, &R))
    return std::nullopt;
  return R;
}

inline std::optional<uint64_t> checkedMul(uint64_t A, uint64_t B) {
  uint64_t R;
  if (__builtin_mul_overflow(A, B, &R))
    return std::nullopt;
  return R;
}

/// Rounds Value up to a multiple of Alignment (a power of two, or 0/1 for
/// none).
inline std::optional<uint64_t> checkedAlignTo(uint64_t Value,
                                              uint64_t Alignment) {
  if (Alignment <= 1)
    return Value;
  auto Sum = checkedAdd(Value, Alignment - 1);
  if (!Sum)
    return std::nullopt;
  return *Sum & ~(Alignment - 1);
}

inline bool isPowerOf2(uint64_t V) { return V && !(V & (V - 1)); }

} // namespace memplan

#endif // MEMPLAN_CORE_ARITHMETIC_H
