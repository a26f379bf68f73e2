//===- CAPI.cpp - The C ABI over BFCAllocator -----------------------------===//

#include "BFCHeap.h"
#include "memplan/Runtime/memplan_runtime.h"

#include <cstring>

using memplan::rt::BFCAllocator;

struct memplan_rt_allocator {
  std::unique_ptr<BFCAllocator> Impl;
};

extern "C" {

void memplan_rt_options_init(memplan_rt_options *Opts) {
  if (!Opts)
    return;
  std::memset(Opts, 0, sizeof(*Opts));
  Opts->rounding = 256;
  Opts->memory_limit = 0;
  Opts->allow_growth = 1;
  Opts->initial_region = 1 << 20;
  Opts->growth_granule = 0;
  Opts->split_threshold = 0;
  Opts->source = MEMPLAN_RT_SOURCE_VIRTUAL;
  Opts->release_free_regions = 0;
  Opts->trace = 0;
  Opts->arenas = 0;
  Opts->cache = 0;
  Opts->decommit = 1;
  // Measured (bench/runtime/run.sh; memplan_runtime.h says how).
  Opts->purge_delay_ms = 1000;
  Opts->clock_ns = nullptr;
  Opts->clock_ctx = nullptr;
  Opts->frag_cap = 0;
  Opts->frag_cap_soft = 0;
  Opts->purge_thread = 0;
  Opts->replay = 0;
}

memplan_rt_allocator *memplan_rt_create(const memplan_rt_options *Opts,
                                        memplan_rt_status *Status) {
  memplan_rt_options Defaults;
  memplan_rt_options_init(&Defaults);
  auto Impl = BFCAllocator::create(Opts ? *Opts : Defaults, Status);
  if (!Impl)
    return nullptr;
  auto *A = new (std::nothrow) memplan_rt_allocator{std::move(Impl)};
  if (!A && Status)
    *Status = MEMPLAN_RT_OUT_OF_MEMORY;
  return A;
}

void memplan_rt_destroy(memplan_rt_allocator *A) { delete A; }

void *memplan_rt_allocate(memplan_rt_allocator *A, uint64_t Bytes,
                          uint64_t Align, memplan_rt_status *Status) {
  if (!A) {
    if (Status)
      *Status = MEMPLAN_RT_BAD_OPTIONS;
    return nullptr;
  }
  return A->Impl->allocate(Bytes, Align, Status);
}

memplan_rt_status memplan_rt_deallocate(memplan_rt_allocator *A, void *Ptr) {
  if (!A)
    return MEMPLAN_RT_BAD_OPTIONS;
  return A->Impl->deallocate(Ptr);
}

void memplan_rt_get_stats(memplan_rt_allocator *A, memplan_rt_stats *Out) {
  if (!Out)
    return;
  if (!A) {
    std::memset(Out, 0, sizeof(*Out));
    return;
  }
  *Out = A->Impl->stats();
}

uint64_t memplan_rt_bytes_reserved(memplan_rt_allocator *A) {
  return A ? A->Impl->bytesReserved() : 0;
}

uint64_t memplan_rt_release_free_regions(memplan_rt_allocator *A) {
  return A ? A->Impl->releaseFreeRegions() : 0;
}

uint64_t memplan_rt_purge(memplan_rt_allocator *A) {
  return A ? A->Impl->purge() : 0;
}

size_t memplan_rt_dump(memplan_rt_allocator *A, int Json, char *Buf,
                       size_t Cap) {
  if (!A)
    return 0;
  std::string S = A->Impl->dump(Json != 0);
  if (Buf && Cap) {
    size_t N = std::min(S.size(), Cap - 1);
    std::memcpy(Buf, S.data(), N);
    Buf[N] = '\0';
  }
  return S.size();
}

const char *memplan_rt_status_string(memplan_rt_status S) {
  switch (S) {
  case MEMPLAN_RT_OK:
    return "ok";
  case MEMPLAN_RT_OUT_OF_MEMORY:
    return "out of memory (limit or system)";
  case MEMPLAN_RT_BAD_ALIGNMENT:
    return "alignment is not a power of two or is too large";
  case MEMPLAN_RT_FOREIGN_POINTER:
    return "pointer was not returned by this allocator";
  case MEMPLAN_RT_DOUBLE_FREE:
    return "pointer is already free";
  case MEMPLAN_RT_BAD_OPTIONS:
    return "invalid options or allocator";
  }
  return "unknown status";
}

} // extern "C"
