/* Serves MLIR's generic allocation functions (finalize-memref-to-llvm
 * {use-generic-functions=true use-aligned-alloc=true}) for bench/dynamic:
 *   MEMPLAN_BENCH_ALLOC=runtime: from libmemplan_runtime's process-wide BFC
 *     allocator (the one lowered memplan_rt_alloc calls use), so
 *     MEMPLAN_RT_STATS=1 counts every buffer of the program;
 *   MEMPLAN_BENCH_ALLOC=malloc (default): posix_memalign/free, and at exit
 *     "peak bytes in use" (sum of requested sizes) and "peak bytes reserved"
 *     (sum of malloc_usable_size of the live blocks: what glibc holds for the
 *     program's buffers, without the gaps of its heap) on stderr. */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memplan/Runtime/memplan_runtime.h"

static int mode = -1; /* 0 malloc, 1 runtime */
static size_t inUse, peakInUse, held, peakHeld;

static void report(void) {
  fflush(stdout);
  fprintf(stderr, "malloc peak bytes in use: %zu\nmalloc peak bytes reserved: %zu\n",
          peakInUse, peakHeld);
}

static int getMode(void) {
  if (mode < 0) {
    const char *M = getenv("MEMPLAN_BENCH_ALLOC");
    mode = M && !strcmp(M, "runtime");
    if (!mode)
      atexit(report);
  }
  return mode;
}

/* The size of each malloc'ed block, for the in-use count: a small table. */
#define SLOTS 65536
static void *keys[SLOTS];
static size_t vals[SLOTS];
static size_t slot(void *p) {
  size_t h = ((uintptr_t)p >> 6) * 0x9E3779B97F4A7C15ull % SLOTS;
  return h;
}

void *_mlir_memref_to_llvm_aligned_alloc(uint64_t align, uint64_t size) {
  if (getMode()) {
    memplan_rt_status st = MEMPLAN_RT_OK;
    void *p = memplan_rt_allocate(memplan_rt_global(), size ? size : 1,
                                  align < 16 ? 16 : align, &st);
    if (!p) {
      fprintf(stderr, "alloc_shim: runtime allocation of %llu failed\n",
              (unsigned long long)size);
      abort();
    }
    return p;
  }
  void *p = NULL;
  if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align,
                     size ? size : 1))
    abort();
  size_t h = slot(p);
  while (keys[h])
    h = (h + 1) % SLOTS;
  keys[h] = p;
  vals[h] = size;
  inUse += size;
  held += malloc_usable_size(p);
  if (inUse > peakInUse)
    peakInUse = inUse;
  if (held > peakHeld)
    peakHeld = held;
  return p;
}

void *_mlir_memref_to_llvm_alloc(uint64_t size) {
  return _mlir_memref_to_llvm_aligned_alloc(16, size);
}

void _mlir_memref_to_llvm_free(void *p) {
  if (!p)
    return;
  if (getMode()) {
    memplan_rt_deallocate(memplan_rt_global(), p);
    return;
  }
  size_t h = slot(p);
  while (keys[h] != p)
    h = (h + 1) % SLOTS;
  /* Backward-shift deletion keeps the probe chains intact. */
  inUse -= vals[h];
  held -= malloc_usable_size(p);
  keys[h] = NULL;
  for (size_t j = (h + 1) % SLOTS; keys[j]; j = (j + 1) % SLOTS) {
    size_t want = slot(keys[j]);
    if ((j > h && (want <= h || want > j)) || (j < h && (want <= h && want > j))) {
      keys[h] = keys[j], vals[h] = vals[j], keys[j] = NULL, h = j;
    }
  }
  free(p);
}
