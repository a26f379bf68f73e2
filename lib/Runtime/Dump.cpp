//===- Dump.cpp - Text and JSON memory dump of the BFC allocator ----------===//

#include "memplan/Runtime/BFCAllocator.h"

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
};

/// Builds the dump under the allocator's lock.
struct DumpWriter {
  const BFCAllocator &A;
  std::string Out;

  void put(const char *Fmt, ...) __attribute__((format(printf, 2, 3))) {
    char Buf[512];
    va_list Args;
    va_start(Args, Fmt);
    int N = vsnprintf(Buf, sizeof(Buf), Fmt, Args);
    va_end(Args);
    if (N > 0)
      Out.append(Buf, std::min<size_t>(N, sizeof(Buf) - 1));
  }

  void text() {
    memplan_rt_stats S = A.statsLocked();
    put("memplan_rt BFC allocator: rounding %" PRIu64 ", limit %" PRIu64
        ", growth %d, source %d\n",
        A.Opts.rounding, A.Opts.memory_limit, A.Opts.allow_growth,
        static_cast<int>(A.Opts.source));
    textStats(S);
    for (size_t RI = 0; RI < A.Regions.size(); ++RI) {
      const auto &R = A.Regions[RI];
      put("region %zu: base %p size %" PRIu64 "\n", RI,
          static_cast<void *>(R.Base), R.Size);
      for (auto H = R.Slots[0]; H != BFCAllocator::None; H = A.Chunks[H].Next) {
        const auto &C = A.Chunks[H];
        if (C.inUse())
          put("  chunk +%td size %" PRIu64 " in use id %" PRId64
              " requested %" PRIu64 "\n",
              C.Ptr - R.Base, C.Size, C.AllocId, C.Requested);
        else
          put("  chunk +%td size %" PRIu64 " free bin %d\n", C.Ptr - R.Base,
              C.Size, C.Bin);
      }
    }
    for (int B = 0; B < BFCAllocator::NumBins; ++B) {
      uint64_t N = 0, Bytes = 0;
      for (auto H = A.BinHead[B]; H != BFCAllocator::None;
           H = A.Chunks[H].BinNext)
        ++N, Bytes += A.Chunks[H].Size;
      if (N)
        put("bin %d (>= %" PRIu64 " bytes): %" PRIu64 " free chunks, %" PRIu64
            " bytes\n",
            B, A.Opts.rounding << B, N, Bytes);
    }
    for (const auto &E : A.Trace)
      put("trace %" PRIu64 ": %s id %" PRId64 " at %p size %" PRIu64
          " requested %" PRIu64 "\n",
          E.Seq, E.IsAlloc ? "alloc" : "free", E.Id,
          static_cast<const void *>(E.Ptr), E.Size, E.Requested);
  }

  void textStats(const memplan_rt_stats &S) {
    for (const StatField &F : StatFields)
      put("%s: %" PRIu64 "\n", F.Label, S.*F.Value);
    put("fragmentation: %.4f\n", S.fragmentation);
  }

  void json() {
    memplan_rt_stats S = A.statsLocked();
    put("{\"options\":{\"rounding\":%" PRIu64 ",\"memory_limit\":%" PRIu64
        ",\"allow_growth\":%d,\"source\":%d},\n",
        A.Opts.rounding, A.Opts.memory_limit, A.Opts.allow_growth,
        static_cast<int>(A.Opts.source));
    put("\"stats\":{");
    for (const StatField &F : StatFields)
      put("\"%s\":%" PRIu64 ",", F.Key, S.*F.Value);
    put("\"fragmentation\":%.6f},\n", S.fragmentation);
    put("\"regions\":[");
    for (size_t RI = 0; RI < A.Regions.size(); ++RI) {
      const auto &R = A.Regions[RI];
      put("%s\n{\"base\":\"%p\",\"size\":%" PRIu64 ",\"chunks\":[",
          RI ? "," : "", static_cast<void *>(R.Base), R.Size);
      const char *Sep = "";
      for (auto H = R.Slots[0]; H != BFCAllocator::None; H = A.Chunks[H].Next) {
        const auto &C = A.Chunks[H];
        put("%s{\"offset\":%td,\"size\":%" PRIu64
            ",\"in_use\":%s,\"id\":%" PRId64 ",\"requested\":%" PRIu64
            ",\"bin\":%d}",
            Sep, C.Ptr - R.Base, C.Size, C.inUse() ? "true" : "false",
            C.AllocId, C.Requested, C.Bin);
        Sep = ",";
      }
      put("]}");
    }
    put("],\n\"bins\":[");
    for (int B = 0; B < BFCAllocator::NumBins; ++B) {
      put("%s{\"bin\":%d,\"min_size\":%" PRIu64 ",\"chunks\":[", B ? "," : "",
          B, A.Opts.rounding << B);
      const char *Sep = "";
      for (auto H = A.BinHead[B]; H != BFCAllocator::None;
           H = A.Chunks[H].BinNext) {
        put("%s{\"ptr\":\"%p\",\"size\":%" PRIu64 "}", Sep,
            static_cast<void *>(A.Chunks[H].Ptr), A.Chunks[H].Size);
        Sep = ",";
      }
      put("]}");
    }
    put("],\n\"trace\":[");
    for (size_t I = 0; I < A.Trace.size(); ++I) {
      const auto &E = A.Trace[I];
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
  std::lock_guard<SpinLock> L(Mu);
  DumpWriter W{*this, {}};
  if (Json)
    W.json();
  else
    W.text();
  return std::move(W.Out);
}
