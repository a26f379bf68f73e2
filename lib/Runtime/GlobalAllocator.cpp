//===- GlobalAllocator.cpp - Process-wide allocator and MLIR entry points -===//
//
// Lowered MLIR calls _mlir_ciface_memplan_rt_alloc/_free; both use one
// allocator per process, configured from MEMPLAN_RT_* environment variables
// on first use. It is never destroyed: buffers may outlive static
// destructors, and the exit report must see the final state.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "memplan/Runtime/memplan_runtime.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <strings.h>

namespace {

/// The decimal count at the start of \p S (no sign, no space, as strtoull
/// alone would take: it read "-1" as 2^64 - 1), and where it ends; false if
/// there is none or it passes 2^64 - 1.
bool leadingCount(const char *S, uint64_t &V, const char *&End) {
  if (*S < '0' || *S > '9')
    return false;
  errno = 0;
  char *E = nullptr;
  V = std::strtoull(S, &E, 10);
  End = E;
  return errno != ERANGE;
}

/// A plain decimal count; false if malformed or out of range.
bool parseCount(const char *S, uint64_t &Out) {
  const char *End;
  return leadingCount(S, Out, End) && !*End;
}

/// Bytes: a count with an optional binary unit and B ("123", "64K", "16M",
/// "2G", "1MB"); false if malformed or past 2^64 - 1 (a unit once wrapped
/// "99999999999999G").
bool parseBytes(const char *S, uint64_t &Out) {
  uint64_t V;
  const char *End;
  if (!leadingCount(S, V, End))
    return false;
  int Shift = 0;
  switch (*End) {
  case 'k':
  case 'K':
    Shift = 10;
    break;
  case 'm':
  case 'M':
    Shift = 20;
    break;
  case 'g':
  case 'G':
    Shift = 30;
    break;
  default:
    break;
  }
  if (Shift) {
    if (V > (~uint64_t(0) >> Shift))
      return false;
    V <<= Shift, ++End;
  }
  if (*End == 'B' || *End == 'b')
    ++End;
  if (*End)
    return false;
  Out = V;
  return true;
}

constexpr const char *ByteCount =
    "bytes, up to 2^64 - 1, as in 4096, 64K, 16M or 2G";

void warnBadEnv(const char *Name, const char *Value,
                const char *Why = "not understood") {
  std::fprintf(stderr, "memplan_rt: ignoring %s=%s (%s)\n", Name, Value, Why);
}

/// An on/off variable: 1, on, yes, true or 0, off, no, false (any case);
/// \p Default when unset or empty, and, with a warning, when it is anything
/// else (MEMPLAN_RT_CACHE=off once left the cache on: any value but 0 was
/// on). \p Warn false: no warning (read again at exit).
bool envSwitch(const char *Name, bool Default, bool Warn = true) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return Default;
  for (const char *On : {"1", "on", "yes", "true"})
    if (!strcasecmp(V, On))
      return true;
  for (const char *Off : {"0", "off", "no", "false"})
    if (!strcasecmp(V, Off))
      return false;
  if (Warn)
    warnBadEnv(Name, V,
               Default ? "0 or 1, off or on; on it is"
                       : "0 or 1, off or on; off it is");
  return Default;
}
bool envFlag(const char *Name) { return envSwitch(Name, false, false); }

} // namespace

void memplan_rt_options_from_env(memplan_rt_options *Out) {
  if (!Out)
    return;
  memplan_rt_options &O = *Out;
  memplan_rt_options_init(&O);
  uint64_t V;
  if (const char *S = std::getenv("MEMPLAN_RT_LIMIT")) {
    if (!parseBytes(S, V))
      warnBadEnv("MEMPLAN_RT_LIMIT", S, ByteCount);
    else if (V && V < 4096)
      warnBadEnv("MEMPLAN_RT_LIMIT", S,
                 "under a page, 4096 bytes: every allocation would fail");
    else
      O.memory_limit = V;
  }
  // What memplan_rt_create would refuse is ignored here, with a warning
  // naming the variable, instead of leaving the process no allocator.
  if (const char *S = std::getenv("MEMPLAN_RT_ROUNDING")) {
    if (parseBytes(S, V) && V >= 16 && V <= 65536 && !(V & (V - 1)))
      O.rounding = V;
    else
      warnBadEnv("MEMPLAN_RT_ROUNDING", S, "a power of two from 16 to 65536");
  }
  if (const char *S = std::getenv("MEMPLAN_RT_GROWTH")) {
    O.allow_growth = envSwitch("MEMPLAN_RT_GROWTH", true);
    if (!O.allow_growth && !O.memory_limit) {
      warnBadEnv("MEMPLAN_RT_GROWTH", S,
                 "no growth needs MEMPLAN_RT_LIMIT, the bytes to reserve");
      O.allow_growth = 1;
    }
  }
  if (const char *S = std::getenv("MEMPLAN_RT_SOURCE")) {
    if (!std::strcmp(S, "virtual"))
      O.source = MEMPLAN_RT_SOURCE_VIRTUAL;
    else if (!std::strcmp(S, "mmap"))
      O.source = MEMPLAN_RT_SOURCE_MMAP;
    else if (!std::strcmp(S, "malloc"))
      O.source = MEMPLAN_RT_SOURCE_MALLOC;
    else
      warnBadEnv("MEMPLAN_RT_SOURCE", S, "virtual, mmap or malloc");
  }
  if (const char *S = std::getenv("MEMPLAN_RT_ARENAS")) {
    if (parseCount(S, V) && V <= 64)
      O.arenas = static_cast<uint32_t>(V);
    else
      warnBadEnv("MEMPLAN_RT_ARENAS", S, "0 to 64");
  }
  // Lowered code frees and re-allocates the same shapes over and over.
  O.cache = envSwitch("MEMPLAN_RT_CACHE", true);
  // Off unless asked: 1M made the DNN trace 0.42x TF-BFC's time, but frag
  // 1.43 against 1.19, and the random mix 2.3x slower (bench/runtime/run.sh,
  // the memplan-tc column).
  if (const char *S = std::getenv("MEMPLAN_RT_THREAD_CACHE")) {
    if (parseBytes(S, V))
      O.thread_cache = V;
    else
      warnBadEnv("MEMPLAN_RT_THREAD_CACHE", S, ByteCount);
  }
  if (const char *S = std::getenv("MEMPLAN_RT_PURGE_DELAY_MS")) {
    if (parseCount(S, V))
      O.purge_delay_ms = V;
    else
      warnBadEnv("MEMPLAN_RT_PURGE_DELAY_MS", S, "milliseconds, 0 or more");
  }
  // A soft 1.10 cap unless told otherwise (0: none). Once the learned plans
  // served Glow's nets and MiniMalloc's sets (whose first windows it had
  // made up to 1.3x and 1.6x slower), alternating runs put its time within
  // the noise of none on every family at 1 thread (the DNN trace +12%),
  // for frag 1.10 against 1.26 there, 1.10 against 1.33 on Glow's nets and
  // 1.36-1.43 against 1.61-1.68 on MiniMalloc's (README, runtime). Where its
  // purges cost more than a quarter of the time (the random mix, tensor-mix),
  // it steps aside.
  O.frag_cap = 1.10;
  O.frag_cap_soft = envSwitch("MEMPLAN_RT_FRAG_CAP_SOFT", true);
  if (const char *S = std::getenv("MEMPLAN_RT_FRAG_CAP")) {
    char *End = nullptr;
    double Cap = std::strtod(S, &End);
    if (End != S && !*End && memplan::rt::validFragCap(Cap))
      O.frag_cap = Cap;
    else
      warnBadEnv("MEMPLAN_RT_FRAG_CAP", S, "0, or a number from 1 to 1000");
  }
  // Off unless asked: the thread makes the program multi-threaded.
  O.purge_thread = envSwitch("MEMPLAN_RT_PURGE_THREAD", false);
  if (O.purge_thread && (O.memory_limit || !O.purge_delay_ms)) {
    warnBadEnv("MEMPLAN_RT_PURGE_THREAD",
               std::getenv("MEMPLAN_RT_PURGE_THREAD"),
               "the thread purges by age: it needs MEMPLAN_RT_PURGE_DELAY_MS "
               "above 0 and no MEMPLAN_RT_LIMIT");
    O.purge_thread = 0;
  }
  O.trace = envSwitch("MEMPLAN_RT_TRACE", false);
  // Lowered code calls the same functions over and over: their episodes
  // are planned once (bench/runtime/run.sh, the memplan-noreplay column).
  // 2 (always): every episode is planned, its records' cost not weighed
  // (the differential fuzzer's small programs would never plan one).
  const char *R = std::getenv("MEMPLAN_RT_REPLAY");
  bool Off = !envSwitch("MEMPLAN_RT_REPLAY", true, false);
  bool On = envSwitch("MEMPLAN_RT_REPLAY", false, false);
  O.replay = R && (!strcmp(R, "2") || !strcasecmp(R, "always")) ? 2 : !Off;
  if (R && *R && !On && !Off && O.replay != 2)
    warnBadEnv("MEMPLAN_RT_REPLAY", R,
               "0 or 1, off or on, or 2 (always); on it is");
  envSwitch("MEMPLAN_RT_STATS", false); // read at exit; warned of now
  // Read at exit (and at a fatal error); a typo would print nothing then.
  if (const char *S = std::getenv("MEMPLAN_RT_DUMP"))
    if (*S && std::strcmp(S, "text") && std::strcmp(S, "json"))
      warnBadEnv("MEMPLAN_RT_DUMP", S, "text or json");
  if (const char *S = std::getenv("MEMPLAN_RT_ON_OOM"))
    if (*S && std::strcmp(S, "abort") && std::strcmp(S, "exit"))
      warnBadEnv("MEMPLAN_RT_ON_OOM", S, "abort or exit; abort it is");
}

namespace {

memplan_rt_allocator *Global = nullptr;

void reportAtExit() {
  if (!Global)
    return;
  // The program's own output comes first when both streams share a pipe.
  std::fflush(stdout);
  const char *Dump = std::getenv("MEMPLAN_RT_DUMP");
  if (envFlag("MEMPLAN_RT_STATS") || (Dump && !std::strcmp(Dump, "text"))) {
    // The text dump starts with the stats; print only them unless asked.
    std::string Text(memplan_rt_dump(Global, 0, nullptr, 0) + 1, '\0');
    memplan_rt_dump(Global, 0, Text.data(), Text.size());
    Text.pop_back();
    if (!(Dump && !std::strcmp(Dump, "text"))) {
      size_t End = Text.find("region 0:");
      if (End != std::string::npos)
        Text.resize(End);
      size_t Bins = Text.find("bin ");
      if (Bins != std::string::npos)
        Text.resize(Bins);
    }
    std::fprintf(stderr, "%s", Text.c_str());
  }
  if (Dump && !std::strcmp(Dump, "json")) {
    std::string Json(memplan_rt_dump(Global, 1, nullptr, 0) + 1, '\0');
    memplan_rt_dump(Global, 1, Json.data(), Json.size());
    std::fprintf(stderr, "%s", Json.c_str());
  }
  std::fflush(stderr);
}

/// Lowered code has no way to handle a failed allocation: it would write
/// through a null buffer. So the MLIR entry points end the process instead,
/// after saying what failed, how much was in use and the limit.
/// MEMPLAN_RT_ON_OOM=abort (default: abort(), a core or a debugger stop) or
/// exit (exit status MEMPLAN_RT_EXIT_STATUS, atexit reports still run).
[[noreturn]] void fatal(const char *What) {
  std::fprintf(stderr, "memplan_rt: fatal: %s\n", What);
  memplan::rt::endProcess();
}

[[noreturn]] void fatalAlloc(int64_t Bytes, int64_t Align,
                             memplan_rt_status S) {
  memplan_rt_stats St{};
  if (Global)
    memplan_rt_get_stats(Global, &St);
  char Limit[32] = "none";
  if (St.bytes_limit)
    std::snprintf(Limit, sizeof(Limit), "%llu bytes",
                  static_cast<unsigned long long>(St.bytes_limit));
  // Lowered code asks for -1 bytes when a dynamic size's byte count (or
  // its arena's) wrapped past 64 bits.
  const char *Why = Bytes < 0 ? "the byte count passed 2^63 - 1 (a dynamic "
                                "size times its element size, or the arena "
                                "of such sizes)"
                              : memplan_rt_status_string(S);
  char Msg[400];
  std::snprintf(Msg, sizeof(Msg),
                "allocation of %lld bytes (align %lld) failed: %s; in use "
                "%llu bytes, reserved %llu bytes, limit %s",
                static_cast<long long>(Bytes), static_cast<long long>(Align),
                Why, static_cast<unsigned long long>(St.bytes_in_use),
                static_cast<unsigned long long>(St.bytes_reserved), Limit);
  fatal(Msg);
}

memplan_rt_allocator *createGlobal() {
  memplan_rt_options O;
  memplan_rt_options_from_env(&O);
  memplan_rt_status S = MEMPLAN_RT_OK;
  memplan_rt_allocator *A = memplan_rt_create(&O, &S);
  if (!A) {
    std::fprintf(stderr, "memplan_rt: cannot create the allocator: %s\n",
                 memplan_rt_status_string(S));
    return nullptr;
  }
  Global = A;
  std::atexit(reportAtExit);
  return A;
}

} // namespace

extern "C" {

memplan_rt_allocator *memplan_rt_global(void) {
  // A function-local static is initialized once, thread-safely.
  static memplan_rt_allocator *A = createGlobal();
  return A;
}

void _mlir_ciface_memplan_rt_alloc(memplan_rt_memref_i8 *Result, int64_t Bytes,
                                   int64_t Align) {
  if (!Result)
    fatal("memplan_rt_alloc called without a result memref");
  memplan_rt_status S = MEMPLAN_RT_OK;
  void *P = nullptr;
  if (Bytes < 0 || Align < 0)
    S = Bytes < 0 ? MEMPLAN_RT_OUT_OF_MEMORY : MEMPLAN_RT_BAD_ALIGNMENT;
  else if (memplan_rt_allocator *A = memplan_rt_global())
    // An empty buffer is a block too, as malloc(0) gives one: upstream's
    // printMemrefF32 reads the first element of an empty memref, and a null
    // one crashed where malloc's ran (the dynamic-shapes probe, size 0).
    P = memplan_rt_allocate(A,
                            static_cast<uint64_t>(std::max<int64_t>(Bytes, 1)),
                            static_cast<uint64_t>(Align), &S);
  else
    fatal("the allocator could not be created (see above)");
  // Never a null buffer for a non-empty request: report and end.
  if (S != MEMPLAN_RT_OK)
    fatalAlloc(Bytes, Align, S);
  Result->allocated = static_cast<int8_t *>(P);
  Result->aligned = static_cast<int8_t *>(P);
  Result->offset = 0;
  Result->sizes[0] = Bytes;
  Result->strides[0] = 1;
}

void _mlir_ciface_memplan_rt_free(memplan_rt_memref_i8 *M) {
  if (!M || !M->allocated)
    return;
  memplan_rt_allocator *A = memplan_rt_global();
  memplan_rt_status S =
      A ? memplan_rt_deallocate(A, M->allocated) : MEMPLAN_RT_FOREIGN_POINTER;
  if (S != MEMPLAN_RT_OK)
    std::fprintf(stderr, "memplan_rt: free of %p failed: %s\n",
                 static_cast<void *>(M->allocated),
                 memplan_rt_status_string(S));
}

} // extern "C"

// Shared by every entry point that ends the process (PromiseCheck.cpp,
// SharedArena.cpp too).
[[noreturn]] void memplan::rt::endProcess() {
  const char *Mode = std::getenv("MEMPLAN_RT_ON_OOM");
  if (Mode && !std::strcmp(Mode, "exit")) {
    std::fflush(stderr);
    std::exit(MEMPLAN_RT_EXIT_STATUS);
  }
  if (Mode && *Mode && std::strcmp(Mode, "abort"))
    std::fprintf(stderr,
                 "memplan_rt: MEMPLAN_RT_ON_OOM=%s not understood "
                 "(abort or exit); aborting\n",
                 Mode);
  std::fflush(stderr);
  std::abort();
}
