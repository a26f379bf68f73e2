//===- Internal.h - What the runtime's sources share ------------*- C++ -*-===//
//
// Private to lib/Runtime (not installed): the bit arithmetic of the heaps and
// the region sources, and how an MLIR entry point ends the process. The runtime
// uses no LLVM, so it has its own.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_RUNTIME_INTERNAL_H
#define MEMPLAN_LIB_RUNTIME_INTERNAL_H

#include <cstdint>

namespace memplan::rt {

inline bool isPow2(uint64_t X) { return X && !(X & (X - 1)); }

/// The largest region size the options may ask for (initial_region,
/// growth_granule): rounding and doubling sizes up to it cannot wrap.
constexpr uint64_t kMaxRegionBytes = uint64_t(1) << 62;

/// X rounded up / down to a multiple of A, a power of two.
inline uint64_t alignUp(uint64_t X, uint64_t A) {
  return (X + A - 1) & ~(A - 1);
}
inline uint64_t alignDown(uint64_t X, uint64_t A) { return X & ~(A - 1); }

/// options.frag_cap: 0 (none), or from 1 to 1000 (a cap that high never
/// purges). Written so that NaN fails too.
inline bool validFragCap(double Cap) {
  return Cap == 0 || (Cap >= 1 && Cap <= 1000);
}

/// floor(log2(X)) for X > 0.
inline int log2Floor(uint64_t X) { return 63 - __builtin_clzll(X); }

/// Ends the process for an MLIR entry point that cannot return a failure,
/// once its message is printed (GlobalAllocator.cpp): abort(), or
/// exit(MEMPLAN_RT_EXIT_STATUS) with MEMPLAN_RT_ON_OOM=exit.
[[noreturn]] void endProcess();

} // namespace memplan::rt

#endif // MEMPLAN_LIB_RUNTIME_INTERNAL_H
