//===- SubAllocator.cpp - Region sources: virtual, mmap, malloc -----------===//

#include "SubAllocator.h"
#include "Internal.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

using namespace memplan::rt;

SubAllocator::~SubAllocator() = default;

namespace {

size_t pageSize() {
  long P = sysconf(_SC_PAGESIZE);
  return P > 0 ? static_cast<size_t>(P) : 4096;
}

/// One aligned malloc block per region.
class MallocSource final : public SubAllocator {
public:
  void *alloc(size_t Bytes, size_t Align) override {
    void *P = nullptr;
    if (posix_memalign(&P, std::max(Align, sizeof(void *)), Bytes) != 0)
      return nullptr;
    return P;
  }
  void free(void *Ptr, size_t) override { std::free(Ptr); }
};

/// One anonymous mapping per region; alignments above a page are reached by
/// mapping more and unmapping the ends.
class MmapSource final : public SubAllocator {
public:
  void *alloc(size_t Bytes, size_t Align) override {
    size_t Page = pageSize();
    size_t Extra = Align > Page ? Align : 0;
    void *P = mmap(nullptr, Bytes + Extra, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (P == MAP_FAILED)
      return nullptr;
    if (!Extra)
      return P;
    uintptr_t Begin = reinterpret_cast<uintptr_t>(P);
    uintptr_t Aligned = alignUp(Begin, Align);
    if (Aligned > Begin)
      munmap(P, Aligned - Begin);
    uintptr_t End = Begin + Bytes + Extra;
    if (End > Aligned + Bytes)
      munmap(reinterpret_cast<void *>(Aligned + Bytes), End - Aligned - Bytes);
    return reinterpret_cast<void *>(Aligned);
  }
  void free(void *Ptr, size_t Bytes) override { munmap(Ptr, Bytes); }
  size_t unit() const override { return pageSize(); }
};

/// One PROT_NONE reservation of address space; blocks are committed from it
/// end to end, so the allocator can merge them into one region and grow it
/// by exactly what it lacks. Freed ranges are decommitted; the top of the
/// reservation moves down when the freed range is (or joins) the top.
class VirtualSource final : public SubAllocator {
public:
  static std::unique_ptr<SubAllocator> create(size_t Reserve) {
    size_t Page = pageSize();
    // Without a limit, reserve 64 GiB of address space (PROT_NONE and
    // MAP_NORESERVE cost no memory), halving down to 1 GiB if refused.
    size_t Want = Reserve ? alignUp(Reserve, Page) : size_t{64} << 30;
    size_t Min = std::min(Want, size_t{1} << 30);
    for (size_t Size = Want; Size >= Min && Size > 0; Size /= 2) {
      void *P = mmap(nullptr, Size, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (P == MAP_FAILED)
        continue;
      auto *S = new (std::nothrow) VirtualSource(static_cast<char *>(P), Size);
      if (!S)
        munmap(P, Size);
      return std::unique_ptr<SubAllocator>(S);
    }
    return nullptr;
  }
  ~VirtualSource() override { munmap(Base, Size); }

  void *alloc(size_t Bytes, size_t Align) override {
    char *P = reinterpret_cast<char *>(
        alignUp(reinterpret_cast<uintptr_t>(Top), std::max(Align, Page)));
    Bytes = alignUp(Bytes, Page);
    if (P > Base + Size || Bytes > static_cast<size_t>(Base + Size - P))
      return nullptr;
    if (mprotect(P, Bytes, PROT_READ | PROT_WRITE) != 0)
      return nullptr;
    Top = P + Bytes;
    return P;
  }

  void free(void *Ptr, size_t Bytes) override {
    char *P = static_cast<char *>(Ptr);
    madvise(P, Bytes, MADV_DONTNEED);
    mprotect(P, Bytes, PROT_NONE);
    Holes.push_back({P, P + Bytes});
    // Lower the top across every hole that now ends at it.
    for (bool Moved = true; Moved;) {
      Moved = false;
      for (size_t I = 0; I < Holes.size(); ++I) {
        if (Holes[I].second != Top)
          continue;
        Top = Holes[I].first;
        Holes.erase(Holes.begin() + I);
        Moved = true;
        break;
      }
    }
  }

  bool contiguous() const override { return true; }
  bool decommit(void *Ptr, size_t Bytes) override {
    return madvise(Ptr, Bytes, MADV_DONTNEED) == 0;
  }
  void prefault(void *Ptr, size_t Bytes) override {
#ifdef MADV_POPULATE_WRITE
    if (CanPopulate && madvise(Ptr, Bytes, MADV_POPULATE_WRITE) != 0 &&
        errno == EINVAL)
      CanPopulate = false; // a kernel before 5.14: the touch faults them in
#endif
  }
  char *nextAddress() const override { return Top; }
  std::pair<const char *, const char *> range() const override {
    return {Base, Base + Size};
  }
  size_t unit() const override { return Page; }

private:
  VirtualSource(char *Base, size_t Size)
      : Base(Base), Size(Size), Top(Base), Page(pageSize()) {}
  char *Base;
  size_t Size;
  char *Top;
  size_t Page;
  std::vector<std::pair<char *, char *>> Holes;
  bool CanPopulate = true;
};

} // namespace

std::unique_ptr<SubAllocator>
memplan::rt::createSubAllocator(memplan_rt_source Kind, size_t ReserveBytes) {
  switch (Kind) {
  case MEMPLAN_RT_SOURCE_VIRTUAL:
    if (auto S = VirtualSource::create(ReserveBytes))
      return S;
    [[fallthrough]];
  case MEMPLAN_RT_SOURCE_MMAP:
    return std::unique_ptr<SubAllocator>(new (std::nothrow) MmapSource());
  case MEMPLAN_RT_SOURCE_MALLOC:
    return std::unique_ptr<SubAllocator>(new (std::nothrow) MallocSource());
  }
  return nullptr;
}
