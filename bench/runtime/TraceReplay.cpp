//===- TraceReplay.cpp - Alloc/free trace replay against one allocator ----===//
//
// Built once per allocator (MEMPLAN_BENCH_MEMPLAN, _TFBFC, _GLIBC, _JEMALLOC,
// _MIMALLOC), each binary alone in its process so malloc replacements cannot
// clash. Traces: every record set under $MEMPLAN_BENCH_RECORDS (MiniMalloc
// CSV, alloc at `lower`, free at `upper`, frees first at equal times), a
// 100k-record DNN-shaped trace and synthetic mixes; MEMPLAN_BENCH_TRACES=S
// keeps the traces whose name contains S. The random mix (issue 23): 100k
// allocs and frees over 1024 slots, 1 B to 1 MiB log-uniform, alignments 1
// to 4096. Every block is written (a line of every 4 KiB page it covers, see
// touch()), so purged pages fault back in as they would in a program. Timed:
// replays with 1 and 2 threads (each thread its own copy of the trace, one
// shared allocator), 64 byte alignment unless the trace says; each run starts
// from a fresh allocator where one can be made (memplan, BFC; malloc stays
// as the last trace left it), then every thread replays untimed (5 times,
// or for 0.1 s). (Timed on the heap the traces before had grown, a memplan
// with a frag cap sized by an earlier, larger peak never purged: the run.sh
// table showed the DNN trace at frag 1.10 in the time of no cap at all, half
// its time run alone.) Untimed, in a forked child each: replays (64Ki
// allocs at least) with 1 thread and with 2 threads that track peak
// reserved bytes against peak live bytes ("frag") and the peak RSS above
// the child's start. memplan runs with the defaults lowered code gets
// (MEMPLAN_RT_* apply), and counts what its purges gave back per timed
// replay (purged_per_replay, and purged_share of the bytes allocated) and
// how often its soft frag cap stepped aside (cap_pauses), and the share of
// allocs its learned plans served (replayed_share). No assertions on time.
//
//===----------------------------------------------------------------------===//

#include "DnnShapedTensors.h"

#include "benchmark/benchmark.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#if defined(MEMPLAN_BENCH_MEMPLAN)
#include "memplan/Runtime/memplan_runtime.h"
#elif defined(MEMPLAN_BENCH_TFBFC)
#include "TFBFC.h"
#elif defined(MEMPLAN_BENCH_JEMALLOC)
#include <jemalloc/jemalloc.h>
#elif defined(MEMPLAN_BENCH_MIMALLOC)
#include <mimalloc.h>
#else
#include <malloc.h>
#endif

namespace {

//===-- The allocator under test ------------------------------------------===//

#if defined(MEMPLAN_BENCH_MEMPLAN)
const char *Name = "memplan";
memplan_rt_allocator *Fresh() {
  memplan_rt_options O;
  memplan_rt_options_from_env(&O); // as the global allocator
  return memplan_rt_create(&O, nullptr);
}
memplan_rt_allocator *Current = nullptr;
inline void *doAlloc(size_t N, size_t Align) {
  return memplan_rt_allocate(Current, N, Align, nullptr);
}
inline void doFree(void *P) { memplan_rt_deallocate(Current, P); }
void resetAllocator() {
  memplan_rt_destroy(Current);
  Current = Fresh();
}
uint64_t reservedBytes() { return memplan_rt_bytes_reserved(Current); }
memplan_rt_stats stats() {
  memplan_rt_stats S;
  memplan_rt_get_stats(Current, &S);
  return S;
}
uint64_t purgedBytes() { return stats().bytes_purged; }
uint64_t capPauses() { return stats().frag_cap_pauses; }
uint64_t replayedAllocs() { return stats().replayed_allocs; }
#elif defined(MEMPLAN_BENCH_TFBFC)
const char *Name = "tfbfc";
tfbfc::BFC *Current = new tfbfc::BFC();
// Chunks are 256-aligned; a larger alignment is reached by padding.
inline void *doAlloc(size_t N, size_t Align) {
  return Current->allocate(Align > 256 ? N + Align - 256 : N);
}
inline void doFree(void *P) { Current->deallocate(P); }
void resetAllocator() {
  delete Current;
  Current = new tfbfc::BFC();
}
uint64_t reservedBytes() { return Current->reserved(); }
#elif defined(MEMPLAN_BENCH_JEMALLOC)
const char *Name = "jemalloc";
// jemalloc's 8-byte class is only 8-aligned: malloc serves an alignment of
// 16 only from 16 bytes up. posix_memalign wants at least sizeof(void *).
inline void *doAlloc(size_t N, size_t Align) {
  void *P = nullptr;
  return Align <= 16 && N >= Align                                ? malloc(N)
         : posix_memalign(&P, std::max(Align, sizeof(void *)), N) ? nullptr
                                                                  : P;
}
inline void doFree(void *P) { free(P); }
void resetAllocator() {}
uint64_t reservedBytes() {
  uint64_t Epoch = 1;
  size_t Len = sizeof(Epoch);
  mallctl("epoch", &Epoch, &Len, &Epoch, Len);
  size_t Resident = 0;
  Len = sizeof(Resident);
  mallctl("stats.resident", &Resident, &Len, nullptr, 0);
  return Resident;
}
#elif defined(MEMPLAN_BENCH_MIMALLOC)
const char *Name = "mimalloc";
// mi_malloc(N) is aligned to N's size class only: a block of 1 to 8 bytes
// may sit at an 8-byte boundary. Asking it for 16 with mi_malloc (as this
// bench once did) made touch() write past the block into the next free
// block's link, and mimalloc crashed in mi_malloc in the random mix.
// mi_malloc_aligned itself sometimes misses the alignment (Debian's
// mimalloc 2.0: 256 bytes at 256 came back at an offset of 128, and touch()
// wrote past the block); then the block is asked for with room to align it.
inline void *doAlloc(size_t N, size_t Align) {
  void *P =
      Align <= 16 && N >= Align ? mi_malloc(N) : mi_malloc_aligned(N, Align);
  if (P && reinterpret_cast<uintptr_t>(P) % Align) {
    mi_free(P);
    P = mi_malloc(N + Align);
  }
  return P;
}
inline void doFree(void *P) { mi_free(P); }
void resetAllocator() {}
uint64_t reservedBytes() {
  size_t Elapsed, User, Sys, Rss, PeakRss, Commit, PeakCommit, Faults;
  mi_process_info(&Elapsed, &User, &Sys, &Rss, &PeakRss, &Commit, &PeakCommit,
                  &Faults);
  return Commit;
}
#else
const char *Name = "glibc";
inline void *doAlloc(size_t N, size_t Align) {
  void *P = nullptr;
  return Align <= 16 ? malloc(N) : posix_memalign(&P, Align, N) ? nullptr : P;
}
inline void doFree(void *P) { free(P); }
void resetAllocator() {}
uint64_t reservedBytes() {
  struct mallinfo2 M = mallinfo2();
  return M.arena + M.hblkhd;
}
#endif

#if !defined(MEMPLAN_BENCH_MEMPLAN)
uint64_t purgedBytes() { return 0; } // only memplan purges and counts it
uint64_t capPauses() { return 0; }
uint64_t replayedAllocs() { return 0; }
#endif

//===-- Traces ------------------------------------------------------------===//

struct Event {
  uint32_t Slot;
  uint32_t Size; // 0 = free
  uint32_t Align = 64;
};

struct Trace {
  std::string Name;
  std::vector<Event> Events;
  size_t NumBuffers = 0;
  uint64_t PeakLive = 0;
};

struct Record {
  uint64_t Lower, Upper, Size;
};

Trace fromRecords(std::string Name, const std::vector<Record> &Recs) {
  struct Timed {
    uint64_t Time;
    bool IsAlloc;
    uint32_t Slot;
  };
  std::vector<Timed> T;
  for (uint32_t I = 0; I < Recs.size(); ++I) {
    T.push_back({Recs[I].Lower, true, I});
    T.push_back({Recs[I].Upper, false, I});
  }
  // Half-open intervals: at one time, frees come before allocs.
  std::stable_sort(T.begin(), T.end(), [](const Timed &A, const Timed &B) {
    return A.Time != B.Time ? A.Time < B.Time : (!A.IsAlloc && B.IsAlloc);
  });
  Trace Out;
  Out.Name = std::move(Name);
  Out.NumBuffers = Recs.size();
  uint64_t Live = 0;
  for (const Timed &E : T) {
    uint32_t Size =
        static_cast<uint32_t>(std::max<uint64_t>(Recs[E.Slot].Size, 1));
    Out.Events.push_back({E.Slot, E.IsAlloc ? Size : 0});
    Live = E.IsAlloc ? Live + Size : Live - Size;
    Out.PeakLive = std::max(Out.PeakLive, Live);
  }
  return Out;
}

bool readCSV(const std::string &Path, std::vector<Record> &Recs) {
  std::ifstream In(Path);
  std::string Line;
  if (!std::getline(In, Line))
    return false;
  while (std::getline(In, Line)) {
    unsigned long long Id, L, U, S;
    if (std::sscanf(Line.c_str(), "%llu,%llu,%llu,%llu", &Id, &L, &U, &S) != 4)
      continue;
    if (U > L)
      Recs.push_back({L, U, S});
  }
  return !Recs.empty();
}

/// Random lifetimes over \p Tasks steps; sizes log-uniform in [Lo, Hi].
Trace synthetic(const char *Name, unsigned Seed, size_t N, uint64_t Lo,
                uint64_t Hi, uint64_t MaxLife) {
  std::mt19937_64 Rng(Seed);
  std::vector<Record> Recs;
  std::uniform_real_distribution<double> LogSize(std::log2(double(Lo)),
                                                 std::log2(double(Hi)));
  for (size_t I = 0; I < N; ++I) {
    uint64_t L = I;
    uint64_t U = L + 1 + Rng() % MaxLife;
    Recs.push_back({L, U, static_cast<uint64_t>(std::exp2(LogSize(Rng)))});
  }
  return fromRecords(Name, Recs);
}

/// The DNN-shaped set of bench/strategies (DnnShapedTensors.h).
Trace dnnShaped(const char *Name, size_t N, uint64_t Seed) {
  std::vector<Record> Recs;
  for (const memplan::bench::DnnTensor &T :
       memplan::bench::dnnShapedTensors(N, Seed))
    Recs.push_back({T.First, T.Last + 1, T.Bytes}); // half-open
  return fromRecords(Name, Recs);
}

/// Random allocs and frees over 1024 slots (a full slot is freed, an empty
/// one filled), 100k allocs, then the rest freed.
Trace randomMix(const char *Name, uint64_t Seed) {
  std::mt19937_64 Rng(Seed);
  std::uniform_real_distribution<double> LogSize(0.0, 20.0);
  constexpr uint32_t Slots = 1024;
  std::vector<uint32_t> Live(Slots, 0);
  Trace Out;
  Out.Name = Name;
  Out.NumBuffers = Slots;
  uint64_t Bytes = 0;
  auto Free = [&](uint32_t S) {
    Out.Events.push_back({S, 0});
    Bytes -= Live[S];
    Live[S] = 0;
  };
  for (size_t Allocs = 0; Allocs < 100000;) {
    uint32_t S = Rng() % Slots;
    if (Live[S]) {
      Free(S);
      continue;
    }
    Live[S] = static_cast<uint32_t>(std::exp2(LogSize(Rng)));
    Out.Events.push_back({S, Live[S], uint32_t(1) << (Rng() % 13)});
    Bytes += Live[S];
    Out.PeakLive = std::max(Out.PeakLive, Bytes);
    ++Allocs;
  }
  for (uint32_t S = 0; S < Slots; ++S)
    if (Live[S])
      Free(S);
  Out.NumBuffers = Slots;
  return Out;
}

/// Writes the block (from its aligned start), as a program writes a tensor.
/// MEMPLAN_BENCH_TOUCH=lines writes a byte on every 64-byte line: what a
/// program does, and 64x the stores; none writes nothing (the allocator's
/// time alone). The default writes one line of every 4 KiB page the block
/// covers, and its last byte: the same pages fault in. The line is chosen
/// by the page's address (a hash), not by the block's start:
/// - at the block's start plus multiples of 4 KiB (as this bench once
///   wrote), a block placed at another offset within the pages of a freed
///   one missed the lines the freed one had left in the cache, where a
///   program's writes hit them: tensor-mix measured the offsets of
///   placements, 1.43x BFC's time, against 0.92x with every line written;
/// - at each page's first line, every write fell in 1/64 of the cache's
///   sets, which no program does.
/// Both of those once-per-page patterns rank allocators by effects a
/// program does not see; run with lines to check a ranking.
const char *TouchMode = std::getenv("MEMPLAN_BENCH_TOUCH");
const bool TouchLines = TouchMode && !std::strcmp(TouchMode, "lines");
const bool TouchNone = TouchMode && !std::strcmp(TouchMode, "none");
inline void touch(void *P, uint32_t Size, uint32_t Align) {
  if (TouchNone)
    return;
  uintptr_t B =
      (reinterpret_cast<uintptr_t>(P) + Align - 1) & ~uintptr_t(Align - 1);
  uintptr_t E = B + Size;
  if (TouchLines) {
    for (uintptr_t A = B; A < E; A = (A | 63) + 1)
      *reinterpret_cast<volatile char *>(A) = 1;
  } else {
    for (uintptr_t Page = B & ~uintptr_t(4095); Page < E; Page += 4096) {
      uintptr_t A = Page + ((Page >> 12) * 0x9E3779B97F4A7C15ull >> 58) * 64;
      *reinterpret_cast<volatile char *>(std::clamp(A, B, E - 1)) = 1;
    }
  }
  *reinterpret_cast<volatile char *>(E - 1) = 1;
}

std::vector<Trace> loadTraces() {
  std::vector<Trace> Out;
  const char *Root = std::getenv("MEMPLAN_BENCH_RECORDS");
  std::string Dir = Root ? Root : MEMPLAN_BENCH_DEFAULT_RECORDS;
  for (const char *Sub : {"glow", "peers", "minimalloc"}) {
    std::string D = Dir + "/" + Sub;
    DIR *H = opendir(D.c_str());
    if (!H)
      continue;
    std::vector<std::string> Files;
    while (dirent *E = readdir(H)) {
      std::string F = E->d_name;
      if (F.size() > 4 && F.substr(F.size() - 4) == ".csv")
        Files.push_back(F);
    }
    closedir(H);
    std::sort(Files.begin(), Files.end());
    for (const std::string &F : Files) {
      std::vector<Record> Recs;
      if (readCSV(D + "/" + F, Recs))
        Out.push_back(fromRecords(
            std::string(Sub) + "/" + F.substr(0, F.size() - 4), Recs));
    }
  }
  Out.push_back(dnnShaped("dnn/dnn-100k", 100000, 1));
  Out.push_back(synthetic("synthetic/small-mix", 1, 20000, 16, 4096, 200));
  Out.push_back(synthetic("synthetic/tensor-mix", 2, 4000, 4096, 8 << 20, 40));
  Out.push_back(synthetic("synthetic/wide-mix", 3, 10000, 64, 1 << 20, 100));
  Out.push_back(randomMix("random/random-mix", 4));
  if (const char *Skip = std::getenv("MEMPLAN_BENCH_SKIP"))
    Out.erase(std::remove_if(Out.begin(), Out.end(),
                             [&](const Trace &T) {
                               return T.Name.find(Skip) != std::string::npos;
                             }),
              Out.end());
  if (const char *Keep = std::getenv("MEMPLAN_BENCH_TRACES"))
    Out.erase(std::remove_if(Out.begin(), Out.end(),
                             [&](const Trace &T) {
                               return T.Name.find(Keep) == std::string::npos;
                             }),
              Out.end());
  return Out;
}

//===-- Replay ------------------------------------------------------------===//

void replay(const Trace &T, std::vector<void *> &Slots) {
  for (const Event &E : T.Events) {
    if (E.Size) {
      void *P = doAlloc(E.Size, E.Align);
      touch(P, E.Size, E.Align); // written, as a tensor would be
      Slots[E.Slot] = P;
    } else {
      doFree(Slots[E.Slot]);
    }
  }
}

/// Peak reserved over one replay by each of \p Threads threads (each its
/// own copy of the trace), sampled after every alloc, above what was
/// reserved before, and the peak of the bytes live over all threads at
/// those samples. Runs in a forked child so that every trace starts from the
/// same allocator state (malloc keeps freed memory for later).
struct Peaks {
  uint64_t Reserved = 0, Live = 0, Rss = 0;
};

/// Minor page faults of the process so far: a purged page written again
/// costs one.
uint64_t minorFaults() {
  rusage U;
  getrusage(RUSAGE_SELF, &U);
  return static_cast<uint64_t>(U.ru_minflt);
}

/// A field of /proc/self/status in bytes ("VmRSS:", "VmHWM:").
uint64_t procStatus(const char *Key) {
  std::ifstream In("/proc/self/status");
  std::string Line;
  while (std::getline(In, Line))
    if (Line.rfind(Key, 0) == 0)
      return std::strtoull(Line.c_str() + std::strlen(Key), nullptr, 10) << 10;
  return 0;
}

Peaks peaksInChild(const Trace &T, int Threads) {
  resetAllocator();
  // The peak RSS restarts from now (clear_refs 5 resets VmHWM).
  std::ofstream("/proc/self/clear_refs") << "5";
  uint64_t RssBase = procStatus("VmRSS:");
  uint64_t Base = reservedBytes();
  std::atomic<uint64_t> Live{0}, PeakLive{0}, PeakRes{Base};
  auto Max = [](std::atomic<uint64_t> &A, uint64_t V) {
    uint64_t Cur = A.load();
    while (V > Cur && !A.compare_exchange_weak(Cur, V))
      ;
  };
  // Replays until 64Ki allocs, and 4 replays, at least, as a program that
  // repeats itself: one replay of a 30-record Glow net saw a soft frag cap
  // hold, where the timed replays, later, ran with it paused; one replay of
  // the 100k-record DNN trace saw memplan at frag 1.188, where its best fit
  // had reached 1.261 by the fourth (the free chunks a replay starts from
  // differ from a fresh heap's). The first writes the blocks
  // (the peak RSS); the rest would only fault in what glibc maps anew for
  // each large block, for minutes.
  size_t Pairs = std::count_if(T.Events.begin(), T.Events.end(),
                               [](const Event &E) { return E.Size != 0; });
  size_t Reps =
      Pairs ? std::clamp<size_t>((65536 + Pairs - 1) / Pairs, 4, 4096) : 1;
  auto Run = [&] {
    std::vector<void *> Slots(T.NumBuffers);
    std::vector<uint32_t> Sizes(T.NumBuffers);
    for (size_t R = 0; R < Reps; ++R)
      for (const Event &E : T.Events) {
        if (E.Size) {
          Slots[E.Slot] = doAlloc(E.Size, E.Align);
          if (R == 0)
            touch(Slots[E.Slot], E.Size, E.Align);
          Sizes[E.Slot] = E.Size;
          uint64_t L = Live.fetch_add(E.Size) + E.Size;
          Max(PeakLive, L);
          Max(PeakRes, reservedBytes());
        } else {
          Live.fetch_sub(Sizes[E.Slot]);
          doFree(Slots[E.Slot]);
        }
      }
  };
  std::vector<std::thread> Ts;
  for (int I = 1; I < Threads; ++I)
    Ts.emplace_back(Run);
  Run();
  for (auto &Th : Ts)
    Th.join();
  uint64_t Hwm = procStatus("VmHWM:");
  return {PeakRes.load() - Base, PeakLive.load(),
          Hwm > RssBase ? Hwm - RssBase : 0};
}

Peaks peaks(const Trace &T, int Threads) {
  int Fds[2];
  if (pipe(Fds) != 0)
    return {};
  pid_t Pid = fork();
  if (Pid == 0) {
    Peaks P = peaksInChild(T, Threads);
    ssize_t W = write(Fds[1], &P, sizeof(P));
    _exit(W == sizeof(P) ? 0 : 1);
  }
  close(Fds[1]);
  Peaks P;
  if (Pid < 0 || read(Fds[0], &P, sizeof(P)) != sizeof(P))
    P = {};
  close(Fds[0]);
  if (Pid > 0)
    waitpid(Pid, nullptr, 0);
  return P;
}

} // namespace

int main(int Argc, char **Argv) {
#if defined(MEMPLAN_BENCH_MEMPLAN)
  Current = Fresh();
#endif
  static std::vector<Trace> Traces = loadTraces();
  // MEMPLAN_BENCH_THREADS=1 (or 2): that count only. A process that has run
  // 2 threads is never single-threaded again, and glibc's malloc and
  // memplan's heap lock skip their atomics only in one that is: run.sh runs
  // 1 thread in a process of its own, as a single-threaded program is.
  std::vector<int> Counts = {1, 2};
  if (const char *C = std::getenv("MEMPLAN_BENCH_THREADS"))
    Counts = {std::atoi(C) == 2 ? 2 : 1};
  for (const Trace &T : Traces) {
    size_t Pairs = std::count_if(T.Events.begin(), T.Events.end(),
                                 [](const Event &E) { return E.Size != 0; });
    uint64_t Bytes = 0;
    for (const Event &E : T.Events)
      Bytes += E.Size;
    for (int Threads : Counts) {
      Peaks P = peaks(T, Threads);
      double Ratio = P.Live ? double(P.Reserved) / double(P.Live) : 0.0;
      auto *B = benchmark::RegisterBenchmark(
          (std::string(Name) + "/" + T.Name).c_str(),
          [&T, Pairs, Bytes, P, Ratio](benchmark::State &St) {
            std::vector<void *> Slots(T.NumBuffers);
            // Warm, untimed: growth, first faults and what the allocator
            // adapts (memplan's size cache decides per 4096 allocations).
            // One replay left memplan 1.1x slower on tensor-mix than five.
            auto Warm = std::chrono::steady_clock::now();
            for (int W = 0; W < 5; ++W)
              if (W == 0 || std::chrono::steady_clock::now() - Warm <
                                std::chrono::milliseconds(100))
                replay(T, Slots);
            // Each thread times its own replays; kAvgThreads averages them.
            uint64_t Purged = purgedBytes();
            uint64_t Pauses = capPauses();
            uint64_t Replayed = replayedAllocs();
            uint64_t Faults = minorFaults();
            auto Start = std::chrono::steady_clock::now();
            for (auto _ : St)
              replay(T, Slots);
            double Ns = std::chrono::duration<double, std::nano>(
                            std::chrono::steady_clock::now() - Start)
                            .count();
            // Pages the timed replays faulted in, per replay: the process's
            // count, so with 2 threads both threads' faults together.
            St.counters["faults_per_replay"] = benchmark::Counter(
                double(minorFaults() - Faults) / double(St.iterations()),
                benchmark::Counter::kAvgThreads);
            // What the timed replays purged (all threads; memplan only).
            St.counters["purged_per_replay"] = benchmark::Counter(
                double(purgedBytes() - Purged) / double(St.iterations()),
                benchmark::Counter::kAvgThreads);
            St.counters["cap_pauses"] = benchmark::Counter(
                double(capPauses() - Pauses), benchmark::Counter::kAvgThreads);
            // The share of the timed allocs a learned plan served (all
            // threads; memplan with MEMPLAN_RT_REPLAY only).
            St.counters["replayed_share"] = benchmark::Counter(
                double(replayedAllocs() - Replayed) /
                    (double(Pairs) * double(St.iterations())),
                benchmark::Counter::kAvgThreads);
            // The share of the bytes allocated that purged pages were.
            St.counters["purged_share"] = benchmark::Counter(
                double(purgedBytes() - Purged) /
                    (double(Bytes) * double(St.iterations())),
                benchmark::Counter::kAvgThreads);
            St.counters["ns_per_pair"] = benchmark::Counter(
                Ns / (double(Pairs) * double(St.iterations())),
                benchmark::Counter::kAvgThreads);
            St.counters["peak_live"] = benchmark::Counter(
                double(P.Live), benchmark::Counter::kAvgThreads);
            St.counters["peak_reserved"] = benchmark::Counter(
                double(P.Reserved), benchmark::Counter::kAvgThreads);
            St.counters["reserved_ratio"] =
                benchmark::Counter(Ratio, benchmark::Counter::kAvgThreads);
            St.counters["peak_rss"] = benchmark::Counter(
                double(P.Rss), benchmark::Counter::kAvgThreads);
          });
      // Before the run's threads start.
      B->Setup([](const benchmark::State &) { resetAllocator(); });
      B->Threads(Threads)->UseRealTime();
    }
  }
  benchmark::Initialize(&Argc, Argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
