//===- TraceReplay.cpp - Alloc/free trace replay against one allocator ----===//
//
// Built once per allocator (MEMPLAN_BENCH_BFC, _GLIBC, _JEMALLOC, _MIMALLOC),
// each binary alone in its process so malloc replacements cannot clash.
// Traces: every record set under $MEMPLAN_BENCH_RECORDS (MiniMalloc CSV,
// alloc at `lower`, free at `upper`, frees first at equal times) plus
// synthetic mixes. Timed: replays with 1 and 2 threads (each thread its own
// copy of the trace, one shared allocator). Untimed: one replay that tracks
// peak reserved bytes, reported as counters next to the trace's peak live
// bytes. No assertions on time.
//
//===----------------------------------------------------------------------===//

#include "benchmark/benchmark.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#if defined(MEMPLAN_BENCH_BFC)
#include "memplan/Runtime/memplan_runtime.h"
#elif defined(MEMPLAN_BENCH_JEMALLOC)
#include <jemalloc/jemalloc.h>
#elif defined(MEMPLAN_BENCH_MIMALLOC)
#include <mimalloc.h>
#else
#include <malloc.h>
#endif

namespace {

//===-- The allocator under test ------------------------------------------===//

#if defined(MEMPLAN_BENCH_BFC)
const char *Name = "bfc";
memplan_rt_allocator *Fresh() {
  memplan_rt_options O;
  memplan_rt_options_init(&O);
  return memplan_rt_create(&O, nullptr);
}
memplan_rt_allocator *Current = nullptr;
inline void *doAlloc(size_t N) {
  return memplan_rt_allocate(Current, N, 64, nullptr);
}
inline void doFree(void *P) { memplan_rt_deallocate(Current, P); }
void resetAllocator() {
  memplan_rt_destroy(Current);
  Current = Fresh();
}
uint64_t reservedBytes() {
  memplan_rt_stats S;
  memplan_rt_get_stats(Current, &S);
  return S.bytes_reserved;
}
#elif defined(MEMPLAN_BENCH_JEMALLOC)
const char *Name = "jemalloc";
inline void *doAlloc(size_t N) { return malloc(N); }
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
inline void *doAlloc(size_t N) { return mi_malloc(N); }
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
inline void *doAlloc(size_t N) { return malloc(N); }
inline void doFree(void *P) { free(P); }
void resetAllocator() {}
uint64_t reservedBytes() {
  struct mallinfo2 M = mallinfo2();
  return M.arena + M.hblkhd;
}
#endif

//===-- Traces ------------------------------------------------------------===//

struct Event {
  uint32_t Slot;
  uint32_t Size; // 0 = free
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
  Out.push_back(synthetic("synthetic/small-mix", 1, 20000, 16, 4096, 200));
  Out.push_back(synthetic("synthetic/tensor-mix", 2, 4000, 4096, 8 << 20, 40));
  Out.push_back(synthetic("synthetic/wide-mix", 3, 10000, 64, 1 << 20, 100));
  return Out;
}

//===-- Replay ------------------------------------------------------------===//

void replay(const Trace &T, std::vector<void *> &Slots) {
  for (const Event &E : T.Events) {
    if (E.Size) {
      void *P = doAlloc(E.Size);
      static_cast<char *>(P)[0] = 1; // touch, as a tensor would
      Slots[E.Slot] = P;
    } else {
      doFree(Slots[E.Slot]);
    }
  }
}

/// Peak reserved over one replay, sampled after every alloc, above what was
/// reserved before it. Runs in a forked child so that every trace starts
/// from the same allocator state (malloc keeps freed memory for later).
uint64_t peakReservedInChild(const Trace &T) {
  resetAllocator();
  std::vector<void *> Slots(T.NumBuffers);
  uint64_t Base = reservedBytes(), Peak = Base;
  for (const Event &E : T.Events) {
    if (E.Size) {
      Slots[E.Slot] = doAlloc(E.Size);
      static_cast<char *>(Slots[E.Slot])[0] = 1;
      Peak = std::max(Peak, reservedBytes());
    } else {
      doFree(Slots[E.Slot]);
    }
  }
  return Peak - Base;
}

uint64_t peakReserved(const Trace &T) {
  int Fds[2];
  if (pipe(Fds) != 0)
    return 0;
  pid_t Pid = fork();
  if (Pid == 0) {
    uint64_t Peak = peakReservedInChild(T);
    ssize_t W = write(Fds[1], &Peak, sizeof(Peak));
    _exit(W == sizeof(Peak) ? 0 : 1);
  }
  close(Fds[1]);
  uint64_t Peak = 0;
  if (Pid < 0 || read(Fds[0], &Peak, sizeof(Peak)) != sizeof(Peak))
    Peak = 0;
  close(Fds[0]);
  if (Pid > 0)
    waitpid(Pid, nullptr, 0);
  return Peak;
}

} // namespace

int main(int Argc, char **Argv) {
#if defined(MEMPLAN_BENCH_BFC)
  Current = Fresh();
#endif
  static std::vector<Trace> Traces = loadTraces();
  for (const Trace &T : Traces) {
    uint64_t Peak = peakReserved(T);
    size_t Pairs = T.NumBuffers;
    double Ratio = T.PeakLive ? double(Peak) / double(T.PeakLive) : 0.0;
    for (int Threads : {1, 2}) {
      auto *B = benchmark::RegisterBenchmark(
          (std::string(Name) + "/" + T.Name).c_str(),
          [&T, Pairs, Peak, Ratio](benchmark::State &St) {
            std::vector<void *> Slots(T.NumBuffers);
            // Each thread times its own replays; kAvgThreads averages them.
            auto Start = std::chrono::steady_clock::now();
            for (auto _ : St)
              replay(T, Slots);
            double Ns = std::chrono::duration<double, std::nano>(
                            std::chrono::steady_clock::now() - Start)
                            .count();
            St.counters["ns_per_pair"] = benchmark::Counter(
                Ns / (double(Pairs) * double(St.iterations())),
                benchmark::Counter::kAvgThreads);
            St.counters["peak_live"] = benchmark::Counter(
                double(T.PeakLive), benchmark::Counter::kAvgThreads);
            St.counters["peak_reserved"] = benchmark::Counter(
                double(Peak), benchmark::Counter::kAvgThreads);
            St.counters["reserved_ratio"] =
                benchmark::Counter(Ratio, benchmark::Counter::kAvgThreads);
          });
      B->Threads(Threads)->UseRealTime();
    }
  }
  benchmark::Initialize(&Argc, Argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
