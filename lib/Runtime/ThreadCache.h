//===- ThreadCache.h - Freed blocks a thread keeps for itself ---*- C++ -*-===//
//
// Private to lib/Runtime (not installed). A thread keeps the blocks it frees,
// by size in rounding units, for its own next requests of that size: taken
// and given back without a lock. Its heaps count them in use; the heap's
// size word of each (BFCHeap::sizeWord) says it is in a thread cache, so a
// second free is still caught. The counters here correct the heaps' stats.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_RUNTIME_THREADCACHE_H
#define MEMPLAN_LIB_RUNTIME_THREADCACHE_H

#include "memplan/Runtime/BFCAllocator.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace memplan::rt {

/// One thread's cache, for one allocator at a time. Only its thread takes
/// and gives blocks; the counters are atomics for stats() readers.
struct ThreadCache {
  /// The allocator it holds blocks of; set by its thread, cleared by the
  /// allocator's destructor (the blocks die with it).
  std::atomic<BFCAllocator *> Owner{nullptr};
  /// Heads[U]: the blocks of U rounding units, linked through their first
  /// word; the second word is the block's size word.
  std::vector<void *> Heads;
  std::vector<uint64_t> NonEmpty; // a bit per size pushed since the flush
  uint64_t Bytes = 0, Limit = 0;
  uint64_t Epoch = 0; // SharedCounters::FlushEpoch at the last flush
  unsigned Shift = 0; // log2 of the rounding
  /// Blocks handed out and taken back here, unknown to the heaps; the chunk
  /// bytes held; requested bytes (now) - requested bytes (the heaps'
  /// records) of the blocks that went through this cache.
  std::atomic<uint64_t> Allocs{0}, Frees{0}, Held{0};
  std::atomic<int64_t> Requested{0};
  ~ThreadCache();
};

/// An allocator's thread caches: those attached and the counters of those
/// that flushed and left. Lock is innermost: nothing is locked under it.
struct BFCAllocator::ThreadCaches {
  std::mutex Lock;
  std::vector<ThreadCache *> Attached;
  /// Attached.size(), read without the lock.
  std::atomic<unsigned> Count{0};
  uint64_t Allocs = 0, Frees = 0;
  int64_t Requested = 0;
  ~ThreadCaches();
};

} // namespace memplan::rt

#endif // MEMPLAN_LIB_RUNTIME_THREADCACHE_H
