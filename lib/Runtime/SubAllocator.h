//===- SubAllocator.h - Where the heaps' regions come from ----*- C++ -*-===//
//
// Private to lib/Runtime: the sources (VIRTUAL, MMAP, MALLOC) behind BFCHeap.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_RUNTIME_SUBALLOCATOR_H
#define MEMPLAN_LIB_RUNTIME_SUBALLOCATOR_H

#include "memplan/Runtime/memplan_runtime.h"

#include <cstddef>
#include <memory>
#include <utility>

namespace memplan::rt {

/// Hands out large aligned blocks (regions) and takes them back. Never
/// throws and never aborts: failure is a null pointer.
class SubAllocator {
public:
  virtual ~SubAllocator();
  /// A block of \p Bytes aligned to \p Align (a power of two), or null.
  virtual void *alloc(size_t Bytes, size_t Align) = 0;
  /// Returns [Ptr, Ptr + Bytes). For contiguous sources this may be any
  /// range made of earlier blocks (merged regions).
  virtual void free(void *Ptr, size_t Bytes) = 0;
  /// True when successive blocks are handed out end to end, so that the
  /// allocator may merge a new block into the region it extends.
  virtual bool contiguous() const { return false; }
  /// For contiguous sources: where the next block will start (if aligned).
  virtual char *nextAddress() const { return nullptr; }
  /// Granularity of block sizes (the page size, or 1).
  virtual size_t unit() const { return 1; }
  /// Gives the pages of [Ptr, Ptr + Bytes) (page-aligned, inside a block)
  /// back to the system while keeping the range usable: the next touch
  /// gets zeroed pages. False when the source cannot.
  virtual bool decommit(void *Ptr, size_t Bytes) { return false; }
  /// Faults in the pages of [Ptr, Ptr + Bytes) (page-aligned, inside a
  /// block) that decommit gave back, in one call rather than one fault per
  /// page at the first touch. A hint: may do nothing.
  virtual void prefault(void *Ptr, size_t Bytes) {}
  /// The address range every block lies in, fixed for the source's life;
  /// {null, null} when blocks may come from anywhere.
  virtual std::pair<const char *, const char *> range() const {
    return {nullptr, nullptr};
  }
};

/// The source \p Kind; \p ReserveBytes bounds the address space a VIRTUAL
/// source reserves (0: a large default). If the reservation fails the VIRTUAL
/// source falls back to MMAP. Null only when out of memory.
std::unique_ptr<SubAllocator> createSubAllocator(memplan_rt_source Kind,
                                                 size_t ReserveBytes);

} // namespace memplan::rt

#endif // MEMPLAN_LIB_RUNTIME_SUBALLOCATOR_H
