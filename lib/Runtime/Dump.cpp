//===- Dump.cpp - Text and JSON memory dump of the BFC allocator ----------===//

#include "BFCHeap.h"

#include <algorithm>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>

using namespace memplan::rt;

namespace memplan::rt {

/// The counters of memplan_rt_stats, named once for both dump formats: the
/// JSON key and the text label.
struct StatField {
  const char *Key;
  const char *Label;
  uint64_t memplan_rt_stats::*Value;
};
// The names MEMPLAN_RT_SOURCE takes.
static const char *sourceName(memplan_rt_source Source) {
  switch (Source) {
  case MEMPLAN_RT_SOURCE_VIRTUAL:
    return "virtual";
  case MEMPLAN_RT_SOURCE_MMAP:
    return "mmap";
  case MEMPLAN_RT_SOURCE_MALLOC:
    return "malloc";
  }
  return "unknown";
}

static const StatField StatFields[] = {
    {"num_allocs", "num allocs", &memplan_rt_stats::num_allocs},
    {"num_frees", "num frees", &memplan_rt_stats::num_frees},
    {"num_failures", "num failures", &memplan_rt_stats::num_failures},
    {"bytes_in_use", "bytes in use", &memplan_rt_stats::bytes_in_use},
    {"peak_bytes_in_use", "peak bytes in use",
     &memplan_rt_stats::peak_bytes_in_use},
    {"requested_bytes_in_use", "requested bytes in use",
     &memplan_rt_stats::requested_bytes_in_use},
    {"peak_requested_bytes_in_use", "peak requested bytes in use",
     &memplan_rt_stats::peak_requested_bytes_in_use},
    {"largest_alloc_size", "largest alloc size",
     &memplan_rt_stats::largest_alloc_size},
    {"bytes_reserved", "bytes reserved", &memplan_rt_stats::bytes_reserved},
    {"peak_bytes_reserved", "peak bytes reserved",
     &memplan_rt_stats::peak_bytes_reserved},
    {"bytes_limit", "bytes limit", &memplan_rt_stats::bytes_limit},
    {"num_regions", "regions", &memplan_rt_stats::num_regions},
    {"num_free_chunks", "free chunks", &memplan_rt_stats::num_free_chunks},
    {"bytes_held", "bytes held (committed or purged)",
     &memplan_rt_stats::bytes_held},
    {"bytes_purged", "bytes purged (total)", &memplan_rt_stats::bytes_purged},
    {"frag_cap_pauses", "times the soft frag cap stepped aside",
     &memplan_rt_stats::frag_cap_pauses},
    {"replay_plans", "repeated episodes planned (MEMPLAN_RT_REPLAY)",
     &memplan_rt_stats::replay_plans},
    {"replayed_allocs", "allocs served by those plans",
     &memplan_rt_stats::replayed_allocs},
    {"plan_cache_hits", "plan cache hits (process)",
     &memplan_rt_stats::plan_cache_hits},
    {"plan_cache_misses", "plan cache misses (process)",
     &memplan_rt_stats::plan_cache_misses},
};

/// Builds the dump while holding every heap's lock. Regions are numbered
/// over all heaps; bins and the trace merge the heaps.
struct DumpWriter {
  const BFCAllocator &A;
  std::string Out;
  using Handle = BFCHeap::Handle;

  void put(const char *Fmt, ...) __attribute__((format(printf, 2, 3))) {
    char Buf[512];
    va_list Args;
    va_start(Args, Fmt);
    int N = vsnprintf(Buf, sizeof(Buf), Fmt, Args);
    va_end(Args);
    if (N > 0)
      Out.append(Buf, std::min<size_t>(N, sizeof(Buf) - 1));
  }

  std::vector<BFCHeap::TraceEvent> trace() const {
    std::vector<BFCHeap::TraceEvent> T;
    for (const auto &H : A.Heaps)
      T.insert(T.end(), H->Trace.begin(), H->Trace.end());
    std::sort(T.begin(), T.end(),
              [](const auto &X, const auto &Y) { return X.Seq < Y.Seq; });
    return T;
  }

  void text() {
    memplan_rt_stats S = A.statsLocked();
    put("memplan_rt BFC allocator: rounding %" PRIu64 ", limit %" PRIu64
        ", growth %d, source %s, heaps %zu\n",
        A.Opts.rounding, A.Opts.memory_limit, A.Opts.allow_growth,
        sourceName(A.Opts.source), A.Heaps.size());
    textStats(S);
    size_t RI = 0;
    for (const auto &HP : A.Heaps) {
      const BFCHeap &Hp = *HP;
      for (const auto &R : Hp.Regions) {
        put("region %zu: base %p size %" PRIu64 "%s\n", RI++,
            static_cast<void *>(R.Base), R.Size,
            A.Heaps.size() > 1 ? (" heap " + std::to_string(Hp.Index)).c_str()
                               : "");
        for (Handle H = R.Slots[0]; H != BFCHeap::None; H = Hp.Chunks[H].Next) {
          const auto &C = Hp.Chunks[H];
          if (C.inUse())
            put("  chunk +%td size %" PRIu64 " in use id %" PRId64
                " requested %" PRIu64 "\n",
                C.Ptr - R.Base, C.Size, C.AllocId, C.Requested);
          else if (C.cached())
            put("  chunk +%td size %" PRIu64 " cached\n", C.Ptr - R.Base,
                C.Size);
          else
            put("  chunk +%td size %" PRIu64 " free bin %d\n", C.Ptr - R.Base,
                C.Size, C.Bin);
        }
      }
    }
    for (int B = 0; B < BFCHeap::NumBins; ++B) {
      uint64_t N = 0, Bytes = 0;
      for (const auto &Hp : A.Heaps)
        for (Handle H = Hp->BinHead[B]; H != BFCHeap::None;
             H = Hp->Chunks[H].BinNext)
          ++N, Bytes += Hp->Chunks[H].Size;
      if (N)
        put("bin %d (>= %" PRIu64 " bytes): %" PRIu64 " free chunks, %" PRIu64
            " bytes\n",
            B, A.Heaps[0]->binMinSize(B), N, Bytes);
    }
    for (const auto &E : trace())
      put("trace %" PRIu64 ": %s id %" PRId64 " at %p size %" PRIu64
          " requested %" PRIu64 "\n",
          E.Seq, E.IsAlloc ? "alloc" : "free", E.Id,
          static_cast<const void *>(E.Ptr), E.Size, E.Requested);
  }

  void textStats(const memplan_rt_stats &S) {
    for (const StatField &F : StatFields)
      put("%s: %" PRIu64 "\n", F.Label, S.*F.Value);
    // Free bytes in pieces say nothing while nothing is in use.
    if (S.bytes_in_use)
      put("fragmentation: %.4f\n", S.fragmentation);
    else
      put("fragmentation: - (nothing in use)\n");
    put("frag (peak reserved / peak in use): %.4f\n", S.frag);
  }

  void json() {
    memplan_rt_stats S = A.statsLocked();
    put("{\"options\":{\"rounding\":%" PRIu64 ",\"memory_limit\":%" PRIu64
        ",\"allow_growth\":%d,\"source\":%d,\"heaps\":%zu},\n",
        A.Opts.rounding, A.Opts.memory_limit, A.Opts.allow_growth,
        static_cast<int>(A.Opts.source), A.Heaps.size());
    put("\"stats\":{");
    for (const StatField &F : StatFields)
      put("\"%s\":%" PRIu64 ",", F.Key, S.*F.Value);
    put("\"fragmentation\":%.6f,\"frag\":%.6f},\n", S.fragmentation, S.frag);
    put("\"regions\":[");
    size_t RI = 0;
    for (const auto &HP : A.Heaps) {
      const BFCHeap &Hp = *HP;
      for (const auto &R : Hp.Regions) {
        put("%s\n{\"base\":\"%p\",\"size\":%" PRIu64
            ",\"heap\":%d,\"chunks\":[",
            RI++ ? "," : "", static_cast<void *>(R.Base), R.Size, Hp.Index);
        const char *Sep = "";
        for (Handle H = R.Slots[0]; H != BFCHeap::None; H = Hp.Chunks[H].Next) {
          const auto &C = Hp.Chunks[H];
          put("%s{\"offset\":%td,\"size\":%" PRIu64
              ",\"in_use\":%s,\"id\":%" PRId64 ",\"requested\":%" PRIu64
              ",\"bin\":%d%s}",
              Sep, C.Ptr - R.Base, C.Size, C.inUse() ? "true" : "false",
              C.AllocId, C.Requested, C.Bin,
              C.cached() ? ",\"cached\":true" : "");
          Sep = ",";
        }
        put("]}");
      }
    }
    put("],\n\"bins\":[");
    for (int B = 0; B < BFCHeap::NumBins; ++B) {
      put("%s{\"bin\":%d,\"min_size\":%" PRIu64 ",\"chunks\":[", B ? "," : "",
          B, A.Heaps[0]->binMinSize(B));
      const char *Sep = "";
      for (const auto &Hp : A.Heaps)
        for (Handle H = Hp->BinHead[B]; H != BFCHeap::None;
             H = Hp->Chunks[H].BinNext) {
          put("%s{\"ptr\":\"%p\",\"size\":%" PRIu64 "}", Sep,
              static_cast<void *>(Hp->Chunks[H].Ptr), Hp->Chunks[H].Size);
          Sep = ",";
        }
      put("]}");
    }
    put("],\n\"trace\":[");
    std::vector<BFCHeap::TraceEvent> T = trace();
    for (size_t I = 0; I < T.size(); ++I) {
      const auto &E = T[I];
      put("%s{\"seq\":%" PRIu64 ",\"event\":\"%s\",\"id\":%" PRId64
          ",\"ptr\":\"%p\",\"size\":%" PRIu64 ",\"requested\":%" PRIu64 "}",
          I ? ",\n" : "\n", E.Seq, E.IsAlloc ? "alloc" : "free", E.Id,
          static_cast<const void *>(E.Ptr), E.Size, E.Requested);
    }
    put("]}\n");
  }
};

} // namespace memplan::rt

std::string BFCAllocator::dump(bool Json) const {
  std::vector<std::unique_lock<HeapMutex>> Locks;
  for (const auto &H : Heaps) // index order, as stats()
    Locks.emplace_back(H->Mu);
  DumpWriter W{*this, {}};
  if (Json)
    W.json();
  else
    W.text();
  return std::move(W.Out);
}
