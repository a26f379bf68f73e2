//===- StrategyBench.cpp - Quality and scale tables of every strategy -----===//
//
//   memplan-bench-strategies quality RECORDS_DIR
//     every strategy on every file of RECORDS_DIR/{glow,peers,minimalloc}, as
//     the ratio to its kind's lower bound; `auto` on minimalloc sets is also
//     run against the capacity in the file name.
//   memplan-bench-strategies scale [MAX_RECORDS [STRATEGY...]]
//     random DNN-shaped sets (sparse and dense) of 1k..MAX_RECORDS (default
//     1M) records: each strategy's time, its ratio to the live-bytes bound
//     and its growth exponent fitted from 10k up.
//   memplan-bench-strategies write N FILE.csv [dense]
//     the scale benchmark's set of N records as a record file.
//
// Prints numbers only; nothing here asserts on time.
//
//===----------------------------------------------------------------------===//

#include "DnnShapedTensors.h"

#include "memplan/Core/LowerBound.h"
#include "memplan/Core/RecordFile.h"
#include "memplan/Core/Strategy.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <map>
#include <random>

using namespace llvm;
using namespace memplan;

namespace {
double nowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Outcome {
  uint64_t Total = 0, Bound = 0;
  double Ms = 0;
  bool Optimal = false, Ok = false;
};

Outcome run(StringRef Name, const std::vector<UsageRecord> &R,
            const StrategyOptions &O) {
  Outcome Out;
  double Start = nowMs();
  auto P = planMemory(Name, R, O);
  Out.Ms = nowMs() - Start;
  if (!P) {
    errs() << Name << ": " << toString(P.takeError()) << "\n";
    return Out;
  }
  Out.Ok = true;
  Out.Total = P->Offsets.TotalSize;
  // Shared-object plans are measured against their own kind's bound.
  Out.Bound = P->ObjectsLowerBound.value_or(P->Peak.Bytes);
  Out.Optimal = P->Optimal;
  return Out;
}

std::vector<std::string> listCSV(const std::string &Dir) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (StringRef(It->path()).ends_with(".csv"))
      Files.push_back(It->path());
  std::sort(Files.begin(), Files.end());
  return Files;
}

int quality(const std::string &Root) {
  std::vector<std::string> Names = strategyNames();
  StrategyOptions O; // Defaults: budget 1000 ms for exact and auto.
  for (const char *Group : {"peers", "glow", "minimalloc"}) {
    auto Files = listCSV(Root + "/" + Group);
    outs() << "\n== " << Group << " (" << Files.size()
           << " sets): ratio to each kind's bound\n";
    outs() << format("%-26s %9s %9s %9s %8s %10s\n", "strategy", "mean", "max",
                     "at-bound", "sets", "total-ms");
    std::map<std::string, std::vector<Outcome>> Results;
    std::vector<RecordSet> Sets;
    for (const std::string &F : Files) {
      auto Set = readRecordsCSV(F);
      if (!Set) {
        errs() << toString(Set.takeError()) << "\n";
        return 2;
      }
      Sets.push_back(std::move(*Set));
    }
    for (const std::string &Name : Names) {
      double Sum = 0, Max = 0, Ms = 0;
      unsigned AtBound = 0;
      for (const RecordSet &S : Sets) {
        Outcome R = run(Name, S.Records, O);
        Results[Name].push_back(R);
        double Ratio = R.Bound ? (double)R.Total / R.Bound : 1;
        Sum += Ratio;
        Max = std::max(Max, Ratio);
        AtBound += R.Total == R.Bound;
        Ms += R.Ms;
      }
      outs() << format("%-26s %9.4f %9.4f %9u %8zu %10.1f\n", Name.c_str(),
                       Sum / Sets.size(), Max, AtBound, Sets.size(), Ms);
    }
    outs() << "-- auto per set (default budget 1000 ms)\n";
    for (size_t I = 0; I < Files.size(); ++I) {
      const Outcome &A = Results["auto"][I];
      outs() << format("  %-42s total %10llu bound %10llu ratio %.4f %8.1f ms"
                       " %s\n",
                       sys::path::filename(Files[I]).str().c_str(),
                       (unsigned long long)A.Total, (unsigned long long)A.Bound,
                       A.Bound ? (double)A.Total / A.Bound : 1.0, A.Ms,
                       A.Optimal ? "optimal" : "");
    }
    if (StringRef(Group) == "minimalloc") {
      outs() << "-- auto with --capacity from the file name, budget 10000 ms "
                "(memplan-solve's default with --capacity)\n";
      for (size_t I = 0; I < Files.size(); ++I) {
        StringRef Base = sys::path::stem(Files[I]); // "A.1048576"
        uint64_t Cap = 0;
        Base.split('.').second.getAsInteger(10, Cap);
        StrategyOptions C;
        C.BudgetMs = 10000;
        C.Capacity = Cap;
        Outcome A = run("auto", Sets[I].Records, C);
        outs() << format("  %-42s total %10llu capacity %10llu %8.1f ms %s\n",
                         sys::path::filename(Files[I]).str().c_str(),
                         (unsigned long long)A.Total, (unsigned long long)Cap,
                         A.Ms, A.Total <= Cap ? "FITS" : "does not fit");
      }
    }
  }
  return 0;
}

/// A DNN-shaped set (DnnShapedTensors.h, which the runtime bench replays).
std::vector<UsageRecord> dnnShaped(size_t N, uint64_t Seed) {
  std::vector<UsageRecord> R;
  R.reserve(N);
  for (const memplan::bench::DnnTensor &T :
       memplan::bench::dnnShapedTensors(N, Seed))
    R.emplace_back(T.Bytes, T.First, T.Last);
  return R;
}

/// Denser than dnnShaped: activations of real layer shapes (so sizes are
/// not powers of two), more and longer skips; greedy by size stays above the
/// live-bytes bound here, so `auto` runs more than one strategy.
std::vector<UsageRecord> dnnDense(size_t N, uint64_t Seed) {
  std::mt19937_64 Rng(Seed);
  static const uint64_t Channels[] = {64,  96,  128, 160, 192,
                                      256, 320, 384, 512};
  static const uint64_t Side[] = {7, 14, 28, 56};
  std::vector<UsageRecord> R;
  R.reserve(N);
  for (size_t I = 0; I < N; ++I) {
    uint64_t Len = 1 + Rng() % 2;
    unsigned Kind = Rng() % 100;
    if (Kind < 15)
      Len = 2 + Rng() % 30;
    else if (Kind < 17)
      Len = 1 + Rng() % 3000;
    uint64_t H = Side[Rng() % 4];
    R.emplace_back(Channels[Rng() % 9] * H * H * 4, I, I + Len);
  }
  return R;
}

double exponent(const std::vector<double> &Xs, const std::vector<double> &Ys) {
  double MX = 0, MY = 0, SXY = 0, SXX = 0;
  for (size_t I = 0; I < Xs.size(); ++I) {
    MX += Xs[I] / Xs.size();
    MY += Ys[I] / Ys.size();
  }
  for (size_t I = 0; I < Xs.size(); ++I) {
    SXY += (Xs[I] - MX) * (Ys[I] - MY);
    SXX += (Xs[I] - MX) * (Xs[I] - MX);
  }
  return SXX ? SXY / SXX : 0;
}

int scale(size_t MaxRecords, std::vector<std::string> Only) {
  std::vector<size_t> Sizes;
  for (size_t N = 1000; N <= MaxRecords; N *= 10)
    Sizes.push_back(N);
  // Strategies whose cost grows too fast are skipped above a size.
  std::map<std::string, size_t> Limit = {{"min-cost-flow", 500},
                                         {"greedy-by-size", 20000},
                                         {"greedy-best", 20000},
                                         {"exact", 20000},
                                         {"greedy-by-breadth", 200000}};
  for (int Shape = 0; Shape < 2; ++Shape) {
    outs() << "\n== scale: random DNN-shaped sets, "
           << (Shape ? "dense (bench dnnDense)" : "sparse (bench dnnShaped)")
           << "; time in ms (median of 3 up to 100k, else 1 run), ratio to "
              "the live-bytes bound; exponent fitted from 10k up\n";
    outs() << format("%-26s", "strategy");
    for (size_t N : Sizes)
      outs() << format(" %18zu", N);
    outs() << format(" %9s\n", "exponent");
    std::vector<std::vector<UsageRecord>> Sets;
    for (size_t N : Sizes)
      Sets.push_back(Shape ? dnnDense(N, N) : dnnShaped(N, N));
    for (const std::string &Name : Only.empty() ? strategyNames() : Only) {
      outs() << format("%-26s", Name.c_str());
      std::vector<double> Xs, Ys;
      for (size_t K = 0; K < Sizes.size(); ++K) {
        auto It = Limit.find(Name);
        if (It != Limit.end() && Sizes[K] > It->second) {
          outs() << format(" %18s", "skipped");
          continue;
        }
        int Runs = Sizes[K] <= 100000 ? 3 : 1;
        std::vector<double> Ms;
        Outcome R;
        for (int Run = 0; Run < Runs; ++Run) {
          R = run(Name, Sets[K], StrategyOptions());
          Ms.push_back(R.Ms);
        }
        std::sort(Ms.begin(), Ms.end());
        R.Ms = Ms[Ms.size() / 2];
        // Every row against the live-bytes bound.
        uint64_t Live = liveBytesLowerBound(Sets[K]);
        outs() << format(" %9.1f (%6.4f)", R.Ms,
                         Live ? (double)R.Total / Live : 1.0);
        // `auto` spends its exact budget only up to 5000 records.
        if (Sizes[K] >= 10000) {
          Xs.push_back(std::log((double)Sizes[K]));
          Ys.push_back(std::log(std::max(R.Ms, 1e-3)));
        }
      }
      if (Xs.size() >= 2)
        outs() << format(" %9.2f", exponent(Xs, Ys));
      outs() << "\n";
    }
  }
  outs() << "skipped: min-cost-flow above 500 records (O(n^2) edges), "
            "greedy-by-size / greedy-best / exact above 20000 (O(n^2)), "
            "greedy-by-breadth above 200000 (O(n * objects)).\n"
            "Times are planMemory's: alignment, the strategy, the validator "
            "and the bound. `memplan-solve FILE` end to end: write a set with "
            "`memplan-bench-strategies write N FILE [dense]`.\n";
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  if (argc >= 3 && StringRef(argv[1]) == "quality")
    return quality(argv[2]);
  if (argc >= 4 && StringRef(argv[1]) == "write") {
    // The scale benchmark's set of N records as a record file, for timing
    // memplan-solve end to end.
    std::error_code EC;
    raw_fd_ostream OS(argv[3], EC);
    if (EC) {
      errs() << argv[3] << ": " << EC.message() << "\n";
      return 2;
    }
    size_t N = std::stoull(argv[2]);
    bool Dense = argc >= 5 && StringRef(argv[4]) == "dense";
    writeRecordsCSV({Dense ? dnnDense(N, N) : dnnShaped(N, N), {}}, OS);
    return 0;
  }
  if (argc >= 2 && StringRef(argv[1]) == "scale")
    return scale(
        argc >= 3 ? std::stoull(argv[2]) : 1000000,
        std::vector<std::string>(argv + std::min(argc, 3), argv + argc));
  errs() << "usage: memplan-bench-strategies quality RECORDS_DIR | scale "
            "[MAX_RECORDS [STRATEGY...]] | write N FILE.csv [dense]\n";
  return 2;
}
