//===- BFCAllocator.h - Best-fit with coalescing allocator ------*- C++ -*-===//
//
// Modelled on TensorFlow's BFCAllocator: memory comes in regions from a
// SubAllocator; a region is cut into address-ordered chunks; free chunks sit
// in 21 power-of-two bins (bin b holds sizes in [R << b, R << (b + 1)), the
// last bin is unbounded, R = rounding); allocation takes the smallest free
// chunk that fits (best fit), splits it, and free merges the chunk with free
// neighbours. All public methods take one lock.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_RUNTIME_BFCALLOCATOR_H
#define MEMPLAN_RUNTIME_BFCALLOCATOR_H

#include "memplan/Runtime/SubAllocator.h"
#include "memplan/Runtime/memplan_runtime.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace memplan::rt {

/// A test-and-test-and-set lock that yields the CPU after a short spin. The
/// allocator's critical sections are a few dozen instructions, where this is
/// several times cheaper than std::mutex uncontended and no worse contended.
class SpinLock {
public:
  void lock() {
    for (int Spins = 0; Flag.exchange(true, std::memory_order_acquire);) {
      while (Flag.load(std::memory_order_relaxed))
        if (++Spins > 64)
          std::this_thread::yield();
    }
  }
  void unlock() { Flag.store(false, std::memory_order_release); }

private:
  std::atomic<bool> Flag{false};
};

class BFCAllocator {
public:
  static constexpr int NumBins = 21;

  /// Null on bad options or when the up-front reservation fails; the reason
  /// goes to \p Status.
  static std::unique_ptr<BFCAllocator> create(const memplan_rt_options &Opts,
                                              memplan_rt_status *Status);
  ~BFCAllocator();
  BFCAllocator(const BFCAllocator &) = delete;
  BFCAllocator &operator=(const BFCAllocator &) = delete;

  /// \p Bytes == 0 gives null with MEMPLAN_RT_OK; failures give null and set
  /// \p Status (which may be null).
  void *allocate(uint64_t Bytes, uint64_t Align, memplan_rt_status *Status);
  memplan_rt_status deallocate(void *Ptr);

  memplan_rt_stats stats() const;
  /// Returns wholly free regions to the source; gives the bytes returned.
  uint64_t releaseFreeRegions();
  /// Chunk bytes behind a live allocation, 0 for anything else.
  uint64_t allocatedSize(const void *Ptr) const;
  const memplan_rt_options &options() const { return Opts; }

  /// Text (regions, chunks, bins, stats, trace) or the same as JSON.
  std::string dump(bool Json) const;

  /// Checks the structure: the chunks of each region address-ordered,
  /// contiguous and covering it; no two free chunks adjacent; the bins hold
  /// exactly the free chunks, each in the bin of its size and sorted; the
  /// in-use byte counters equal the sums over live chunks. On failure returns
  /// false and says why in \p Why.
  bool checkInvariants(std::string *Why) const;

  /// Bin of a chunk of \p Bytes (a multiple of the rounding).
  int binForSize(uint64_t Bytes) const;

private:
  using Handle = int32_t;
  static constexpr Handle None = -1;

  struct Chunk {
    char *Ptr = nullptr;
    uint64_t Size = 0;
    uint64_t Requested = 0;
    int64_t AllocId = -1;                  // -1 while free
    Handle Prev = None, Next = None;       // address neighbours
    Handle BinPrev = None, BinNext = None; // bin list, sorted (size, address)
    int32_t Bin = -1;                      // -1 when not in a bin
    bool inUse() const { return AllocId >= 0; }
  };

  struct Region {
    char *Base = nullptr;
    uint64_t Size = 0;
    /// Handle of the chunk starting at each rounding unit, None elsewhere.
    std::vector<Handle> Slots;
  };

  struct TraceEvent {
    uint64_t Seq;
    int64_t Id;
    bool IsAlloc;
    const char *Ptr;
    uint64_t Size, Requested;
  };

  explicit BFCAllocator(const memplan_rt_options &Opts);

  // BFCAllocator.cpp
  Handle newChunk();
  void deleteChunk(Handle H);
  void insertIntoBin(Handle H);
  void removeFromBin(Handle H);
  Handle findChunk(uint64_t Rounded, uint64_t Align) const;
  Handle split(Handle H, uint64_t Bytes);
  void merge(Handle H1, Handle H2);
  Handle coalesce(Handle H);
  bool extend(uint64_t Rounded, uint64_t Align);
  void addBlock(char *Ptr, uint64_t Bytes);
  uint64_t releaseFreeRegionsLocked();
  Region *regionFor(const void *Ptr);
  const Region *regionFor(const void *Ptr) const;
  void setSlot(const char *Ptr, Handle H);
  Handle lastChunk(const Region &R) const;
  memplan_rt_status classifyBadFree(const Region &R, const char *Ptr) const;
  uint64_t largestFreeChunk() const;
  memplan_rt_stats statsLocked() const;

  memplan_rt_options Opts;
  uint64_t SplitThreshold;
  uint64_t RegionAlign;
  uint64_t RegionUnit;
  uint64_t CurRegionBytes; // doubling growth
  std::unique_ptr<SubAllocator> Sub;

  mutable SpinLock Mu;
  std::vector<Chunk> Chunks;
  Handle FreeHandles = None;   // recycled chunk records, linked by Next
  std::vector<Region> Regions; // sorted by Base
  Handle BinHead[NumBins];
  uint32_t NonEmptyBins = 0;
  int64_t NextAllocId = 1;
  memplan_rt_stats Stats{};
  std::vector<TraceEvent> Trace;
  uint64_t TraceSeq = 0;

  friend struct DumpWriter;
};

} // namespace memplan::rt

#endif // MEMPLAN_RUNTIME_BFCALLOCATOR_H
