/*===- memplan_runtime.h - C ABI of libmemplan_runtime ------------*- C -*-===*\
|*                                                                            *|
|* A best-fit-with-coalescing (BFC) allocator in the manner of TensorFlow's   *|
|* BFCAllocator, callable from C and from lowered MLIR. In this C API errors  *|
|* are values: allocation returns NULL plus a status, free returns a status.  *|
|* Only the MLIR entry points (_mlir_ciface_*) end the process on a failed    *|
|* allocation, since lowered code cannot check for NULL.                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MEMPLAN_RUNTIME_MEMPLAN_RUNTIME_H
#define MEMPLAN_RUNTIME_MEMPLAN_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum memplan_rt_status {
  MEMPLAN_RT_OK = 0,
  /* The memory limit (or the system) cannot provide the bytes asked for. */
  MEMPLAN_RT_OUT_OF_MEMORY = 1,
  /* Alignment not a power of two, or above MEMPLAN_RT_MAX_ALIGNMENT. */
  MEMPLAN_RT_BAD_ALIGNMENT = 2,
  /* Free of a pointer this allocator never returned (or an interior one). */
  MEMPLAN_RT_FOREIGN_POINTER = 3,
  /* Free of a pointer whose memory is already free. */
  MEMPLAN_RT_DOUBLE_FREE = 4,
  /* Options that cannot work (see memplan_rt_options). */
  MEMPLAN_RT_BAD_OPTIONS = 5
} memplan_rt_status;

/* Largest alignment alloc accepts. */
#define MEMPLAN_RT_MAX_ALIGNMENT ((uint64_t)1 << 20)

/* Where regions come from. */
typedef enum memplan_rt_source {
  /* One PROT_NONE address-space reservation; regions are committed from it
     end to end, so consecutive regions merge and growth can be exact. */
  MEMPLAN_RT_SOURCE_VIRTUAL = 0,
  /* One mmap per region (regions double, as TF's allow_growth). */
  MEMPLAN_RT_SOURCE_MMAP = 1,
  /* One aligned malloc per region (regions double). */
  MEMPLAN_RT_SOURCE_MALLOC = 2
} memplan_rt_source;

typedef struct memplan_rt_options {
  /* Every chunk is a multiple of this (power of two, 16..65536; 256). */
  uint64_t rounding;
  /* Cap on bytes reserved from the source; 0 = unlimited. */
  uint64_t memory_limit;
  /* 1: reserve regions on demand; 0: reserve memory_limit at create. */
  int allow_growth;
  /* First region of the doubling sources (MMAP, MALLOC); 1 MiB. At most
     2^62 (more: MEMPLAN_RT_BAD_OPTIONS). */
  uint64_t initial_region;
  /* VIRTUAL source: growth step (rounded up to the page size); 0 = a page.
     At most 2^62. */
  uint64_t growth_granule;
  /* A chunk is split when the part left over is >= this; 0 = rounding. */
  uint64_t split_threshold;
  memplan_rt_source source;
  /* On a failed allocation, return wholly free regions and retry. */
  int release_free_regions;
  /* Record every alloc/free event (id, address, sizes) for the dump. */
  int trace;
  /* Heaps (arenas), each with its own lock; a thread allocates from its own
     heap and frees go to the heap a block came from. 0 = twice the number
     of processors (at most 16). Only the VIRTUAL source with growth uses
     more than one. */
  uint32_t arenas;
  /* 1: a freed chunk of up to 4096 rounding units waits, unmerged, for the
     next request of its exact size (at most 1/128 of the bytes in use, or
     64 KiB, wait; all of them go back to the bins before a heap grows). A
     heap's cache takes chunks only while at least half of the last 4096
     requests found (or would have found) their size in it. The global
     allocator turns it on (MEMPLAN_RT_CACHE=0 turns it off); 0 here. */
  int cache;
  /* 1 (default): the whole pages of free chunks are given back to the
     system (purged: madvise DONTNEED; they come back zeroed when reused), so
     bytes_reserved counts committed memory and follows the bytes in use.
     VIRTUAL source without a memory limit only. When, see purge_delay_ms. */
  int decommit;
  /* Purge the pages of a free chunk once it has stayed free this long (on
     the heap's next alloc or free after that), and, when a heap must grow
     past the peak of committed bytes, the oldest free pages first (free for
     an eighth of the delay at least: a page reused sooner is never purged),
     only as many as the growth needs. Reusing purged pages purges nothing
     else. 0: eager, every free page of
     every heap as soon as the committed bytes would pass their peak. Default
     1000 ms (MEMPLAN_RT_PURGE_DELAY_MS): bench/runtime's timed replays then
     purge at most 100 bytes per replay, where at 10 ms its random mix with
     2 threads purges (and faults back) 31-45 MB per replay and takes
     1.2-1.4x the time (the UserGuide names the command). Delays past 2^62
     ns (146 years) are taken as that. */
  uint64_t purge_delay_ms;
  /* The clock of purge_delay_ms, in nanoseconds (tests pass their own);
     NULL: CLOCK_MONOTONIC. Read once every 64 allocs and frees of a heap. */
  uint64_t (*clock_ns)(void *ctx);
  void *clock_ctx;
  /* Bytes of freed blocks (of up to 4096 rounding units each) a thread may
     keep for its own next requests of their size, taken and given back
     without a lock. All go back to their heaps before the thread's heap
     grows, at a heap's purge pass, on memplan_rt_purge and at thread exit.
     VIRTUAL source without a limit or trace only. The cached blocks stay
     where they are, so best fit works around them: faster, but more bytes
     reserved (see the README's runtime numbers). Under frag_cap a thread
     keeps at most its share of the cap's slack, (frag_cap - 1) times the
     peak in use over the threads with caches, since purges cannot reach
     cached blocks. 0: none (the default; the global allocator:
     MEMPLAN_RT_THREAD_CACHE). */
  uint64_t thread_cache;
  /* 0: none (the default). At least 1: a heap whose growth, or whose reuse
     of purged pages, would make the allocator's committed bytes pass
     frag_cap times the peak of its bytes in use (over all heaps, as the
     cap's checks see it; blocks held in thread caches are free) first
     purges free pages, its own and then other heaps' whose lock is free,
     the highest first and only as many as that takes, whatever their age
     (as far as whole free pages allow). Compact, not fast: every purged
     page reused faults back in (bench/runtime/run.sh's memplan-cap and
     memplan-tc-cap columns, and the README's runtime numbers). Needs
     purging (decommit, VIRTUAL source, no limit). Global allocator:
     1.10, soft (see frag_cap_soft), unless MEMPLAN_RT_FRAG_CAP says (0:
     none). */
  double frag_cap;
  /* 1: the cap steps aside where it costs: when, in a heap's window of
     32768 allocs, purging and faulting purged pages back take more than a
     quarter of the window's time, the cap pauses for every heap for 64
     windows (twice as long after each costly window it holds again, at
     most 1024; half as long after a cheap one), then purges down to the
     cap at once. A window ends early when they take three quarters of its
     time (after 1 ms of them) or a quarter (after 4 ms). Windows in which the
     peak in use rose by more than a sixteenth (a warm-up) are not judged.
     The DNN trace of bench/runtime, Glow's nets and MiniMalloc's sets stay
     under a 1.10 cap at the time of none, within the noise (their
     repeated episodes served by learned plans, which the cap leaves
     alone); the random mix and tensor-mix, whose blocks are large next to
     their peak (up to 100x slower under a hard cap), run at the frag the
     delay gives. 0: the cap holds whatever it costs (the default; the
     global allocator: 1, MEMPLAN_RT_FRAG_CAP_SOFT). */
  int frag_cap_soft;
  /* 1: a thread of the allocator's own makes the heaps' purge passes every
     eighth of purge_delay_ms, so that the pages of a program that frees
     its peak and then makes no call at all still go back after the delay
     (without it, they go at its next alloc or free, or on
     memplan_rt_purge). The process then has two threads: the heaps' locks
     take their atomic path (3-10% of an alloc+free pair's time in a
     single-threaded program, README). Needs purging by age (decommit,
     VIRTUAL source, no limit, purge_delay_ms > 0); a forked child has no
     such thread. 0: none (the default; the global allocator:
     MEMPLAN_RT_PURGE_THREAD). */
  int purge_thread;
  /* 1: a heap learns an episode that repeats (from an alloc until every
     block allocated since is freed: a call of a function whose buffers
     are freed by its end), plans it offline (greedy by size or first fit,
     the smaller) and serves the next episodes from one chunk at the planned
     offsets (up to 4 kinds of episode that take turns: a plan each, chosen
     by the episode's first request, in the one chunk), checking that each
     request matches the recorded one and that the blocks planned over its
     bytes are freed; anything else goes to the bins and the plan goes on
     (skipping up to 8 of its blocks to a later match). A plan that misses
     more than a quarter of an episode is dropped and learnt again later.
     The chunk is taken from free chunks only (never growth), and only for
     an episode that starts with a plan's first block. Only episodes
     whose records (about 40 bytes per block) stay within a sixteenth of
     their peak in use are planned; a plan idle for an eighth of
     purge_delay_ms (or at memplan_rt_purge) gives its chunk back. Not with
     trace or thread_cache. 2: every episode is planned, whatever its
     records cost (tests and fuzzers). 0: off (the default; the global
     allocator: on, MEMPLAN_RT_REPLAY=0 turns it off, 2 plans always). */
  int replay;
} memplan_rt_options;

typedef struct memplan_rt_stats {
  uint64_t num_allocs;
  uint64_t num_frees;
  uint64_t num_failures; /* failed allocs and rejected frees */
  uint64_t bytes_in_use; /* chunk bytes (rounded) of live allocations */
  /* Peaks over all heaps: of their sum, as each heap's own new peaks saw
     it (a lower bound of the true peak with several heaps). */
  uint64_t peak_bytes_in_use;
  uint64_t requested_bytes_in_use; /* bytes the callers asked for */
  uint64_t peak_requested_bytes_in_use;
  uint64_t largest_alloc_size;
  uint64_t bytes_reserved; /* committed: bytes held from the source, less
                              the pages purged (given back) */
  uint64_t peak_bytes_reserved;
  uint64_t bytes_limit;
  uint64_t num_regions;
  uint64_t num_free_chunks;
  /* (free bytes - largest free chunk) / free bytes; 0 when nothing free. */
  double fragmentation;
  /* peak_bytes_reserved / peak_bytes_in_use ("frag"); 0 before any alloc. */
  double frag;
  /* Address space held from the source (regions), committed or purged:
     bytes_held - bytes_reserved is purged now. */
  uint64_t bytes_held;
  /* Bytes purged since creation (a page purged twice counts twice). */
  uint64_t bytes_purged;
  /* The run-time plan cache of the process (memplan_rt_plan_offsets, shared
     by every allocator): lookups served by a cached plan, and plans made. */
  uint64_t plan_cache_hits;
  uint64_t plan_cache_misses;
  /* Chunk bytes freed into thread caches and not taken again (counted
     neither in use nor in the free chunks). */
  uint64_t bytes_thread_cached;
  /* Times a soft frag cap stepped aside (options.frag_cap_soft). */
  uint64_t frag_cap_pauses;
  /* options.replay: episodes planned, and allocs served by their plans. */
  uint64_t replay_plans;
  uint64_t replayed_allocs;
} memplan_rt_stats;

typedef struct memplan_rt_allocator memplan_rt_allocator;

/* Fills *opts with the defaults. */
void memplan_rt_options_init(memplan_rt_options *opts);
/* Fills *opts with what memplan_rt_global() uses: the defaults, the size
   cache on, a frag cap (when one is asked) soft, then the MEMPLAN_RT_*
   environment variables. A value not
   understood, or one memplan_rt_create would refuse (a rounding not a
   power of two from 16 to 65536, no growth without a limit), keeps the
   default, with a warning on stderr. */
void memplan_rt_options_from_env(memplan_rt_options *opts);

/* NULL on failure, with the reason in *status when status is not NULL. */
memplan_rt_allocator *memplan_rt_create(const memplan_rt_options *opts,
                                        memplan_rt_status *status);
void memplan_rt_destroy(memplan_rt_allocator *a);

/* align 0 means 1. bytes 0 gives NULL with MEMPLAN_RT_OK. */
void *memplan_rt_allocate(memplan_rt_allocator *a, uint64_t bytes,
                          uint64_t align, memplan_rt_status *status);
/* free(NULL) is MEMPLAN_RT_OK. */
memplan_rt_status memplan_rt_deallocate(memplan_rt_allocator *a, void *ptr);

void memplan_rt_get_stats(memplan_rt_allocator *a, memplan_rt_stats *out);
/* bytes_reserved alone, read without taking any heap's lock. */
uint64_t memplan_rt_bytes_reserved(memplan_rt_allocator *a);
/* Returns wholly free regions to the source; gives the bytes returned. */
uint64_t memplan_rt_release_free_regions(memplan_rt_allocator *a);
/* Purges every free page now, whatever its age (a program about to idle);
   gives the bytes purged. */
uint64_t memplan_rt_purge(memplan_rt_allocator *a);

/* Regions, chunks, bins, stats (and the trace when on) as text (json = 0)
   or JSON (json = 1). Writes at most cap bytes including the NUL; returns the
   full length without the NUL, like snprintf. */
size_t memplan_rt_dump(memplan_rt_allocator *a, int json, char *buf,
                       size_t cap);

const char *memplan_rt_status_string(memplan_rt_status s);

/* The process-wide allocator behind the MLIR entry points, configured from
   MEMPLAN_RT_LIMIT (bytes, K/M/G suffix), MEMPLAN_RT_GROWTH (0/1),
   MEMPLAN_RT_SOURCE (virtual/mmap/malloc), MEMPLAN_RT_ROUNDING,
   MEMPLAN_RT_ARENAS (heaps, 0 = auto), MEMPLAN_RT_CACHE (0/1, default 1:
   the size cache), MEMPLAN_RT_PURGE_DELAY_MS (0 = eager), MEMPLAN_RT_TRACE
   (0/1) (memplan_rt_options_from_env);
   MEMPLAN_RT_STATS=1 prints the stats to stderr at exit (with frag, peak
   reserved / peak in use), MEMPLAN_RT_DUMP=text|json prints the dump. NULL
   if it could not be created (the reason goes to stderr). */
memplan_rt_allocator *memplan_rt_global(void);

/* The 1-D strided memref MLIR passes by pointer to C interface functions. */
typedef struct memplan_rt_memref_i8 {
  int8_t *allocated;
  int8_t *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} memplan_rt_memref_i8;

/* The same for i64 elements. */
typedef struct memplan_rt_memref_i64 {
  int64_t *allocated;
  int64_t *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} memplan_rt_memref_i64;

/* Run-time planning of a function's dynamic buffers, once their sizes are
   known. Table: [n, site, sizes[n] (bytes), firsts[n], lasts[n] (inclusive
   task ranges, from the static liveness)]. Writes each buffer's offset
   (a multiple of align) to offsets[i] and returns the arena's bytes. Plans
   are cached by (site, sizes, align): a shape seen before costs a lookup.
   A negative size (a byte count that wrapped), a first task after its last
   or sizes whose sum (each rounded up to align, plus align) passes
   INT64_MAX give -1, every offset 0: lowered code then asks
   memplan_rt_alloc for -1 bytes, which reports and stops. A null table,
   or null offsets for a table of buffers, give -1 too.
   Thread-safe. */
int64_t memplan_rt_plan_offsets(const int64_t *table, int64_t align,
                                int64_t *offsets);

/* The run-time plan cache holds at most this many plans (about 1 KiB each
   for 16 buffers); a new one past it replaces one held, by the clock
   (second chance): a plan found again since the hand last passed stays.
   Unbounded, a program whose sizes keep changing (a decoder's length at
   each step, sizes read from data) grew by 1 GiB over 10^6 shapes. */
#define MEMPLAN_RT_PLAN_CACHE_ENTRIES 1024
/* The run-time plan cache since the process started: lookups that found a
   plan (hits), plans made for a new table (misses) and plans held. Misses -
   entries plans were replaced (or made twice, by threads that raced). */
typedef struct memplan_rt_plan_cache_stats {
  uint64_t hits;
  uint64_t misses;
  uint64_t entries;
} memplan_rt_plan_cache_stats;
void memplan_rt_get_plan_cache_stats(memplan_rt_plan_cache_stats *out);

/* `func.func private @memplan_rt_plan(memref<?xi64>, memref<?xi64>, i64)
   -> i64 attributes {llvm.emit_c_interface}` calls this: -1 when the table
   memref is shorter than its count says or the offsets fewer than its
   buffers (or not contiguous). */
int64_t _mlir_ciface_memplan_rt_plan(memplan_rt_memref_i64 *table,
                                     memplan_rt_memref_i64 *offsets,
                                     int64_t align);

/* Exit status of the MLIR entry points' fatal errors under
   MEMPLAN_RT_ON_OOM=exit. */
#define MEMPLAN_RT_EXIT_STATUS 3

/* Served by memplan_rt_global(). `func.func private @memplan_rt_alloc(i64,
   i64) -> memref<?xi8> attributes {llvm.emit_c_interface}` calls this. It
   never hands back a null buffer for a non-empty request: when the
   allocation fails (out of memory or the limit, an alignment that is not a
   power of two or above MEMPLAN_RT_MAX_ALIGNMENT, a negative size) it
   prints the size, the alignment, the bytes in use, the bytes reserved and
   the limit to stderr and ends the process: abort() by default or with
   MEMPLAN_RT_ON_OOM=abort, exit(MEMPLAN_RT_EXIT_STATUS) with
   MEMPLAN_RT_ON_OOM=exit. 0 bytes give a memref of size 0 on a block of
   its own (never NULL, as malloc(0)), freed as any other. */
void _mlir_ciface_memplan_rt_alloc(memplan_rt_memref_i8 *result, int64_t bytes,
                                   int64_t align);
void _mlir_ciface_memplan_rt_free(memplan_rt_memref_i8 *m);

/* `func.func private @memplan_rt_slot(memref<?xi8>) -> memref<?xi8>
   attributes {llvm.emit_c_interface}`: returns its argument. tensor-mem-
   lower-runtime takes each slot (offset) of a run-time arena through it, so
   that the optimizer sees each slot as an object of its own: loops that
   read one slot and write another are then vectorized behind an overlap
   check, instead of not at all (the offsets are not constants). */
void _mlir_ciface_memplan_rt_slot(memplan_rt_memref_i8 *result,
                                  memplan_rt_memref_i8 *arena);

/* `func.func private @memplan_rt_shared_arena(memref<?xi64>, i64, i64) ->
   memref<?xi8> attributes {llvm.emit_c_interface}`: the run-time arena of
   the functions of memplan.shared_arena, which never run at once. The slot
   (a module global of 3 i64: pointer, bytes, alignment; zero at first)
   keeps one block across calls: a call that needs no more bytes and no
   larger alignment gets the same block, otherwise the block is freed and a
   larger one allocated (as memplan_rt_alloc, with its errors). Never freed. */
void _mlir_ciface_memplan_rt_shared_arena(memplan_rt_memref_i8 *result,
                                          memplan_rt_memref_i64 *slot,
                                          int64_t bytes, int64_t align);

/* `func.func private @memplan_rt_broken_promise(memref<?xi8>, i64, i64)
   attributes {llvm.emit_c_interface}`: tensor-mem-plan calls it when a size
   it planned at a promised bound (memplan.max, dim-bounds) is above it.
   Prints what was promised (the text in `what`), the size and the bound,
   then ends the process as MEMPLAN_RT_ON_OOM says (abort by default, or
   exit(MEMPLAN_RT_EXIT_STATUS)). */
void _mlir_ciface_memplan_rt_broken_promise(memplan_rt_memref_i8 *what,
                                            int64_t got, int64_t bound);

#ifdef __cplusplus
}
#endif

#endif /* MEMPLAN_RUNTIME_MEMPLAN_RUNTIME_H */
