//===- VerifyScale.cpp - Every strategy on 10^6 random record sets --------===//
//
// memplan-verify-scale [SETS] [THREADS]: SETS random record sets (default
// 10^6; 1..12 records, log-uniform sizes, random alignment) planned by every
// registered strategy. planMemory validates each plan; this tool validates
// it again on its own and counts. Exit 1 when any plan is invalid.
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Core/Validator.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace memplan;

namespace {
struct Counts {
  uint64_t Planned = 0, Errors = 0, Invalid = 0;
};
} // namespace

int main(int argc, char **argv) {
  uint64_t Sets = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  unsigned Threads = argc > 2 ? std::atoi(argv[2]) : 2;
  if (Threads == 0)
    Threads = 1;
  std::vector<std::string> Names = strategyNames();
  std::vector<Counts> Total(Names.size());
  std::mutex Mutex;
  std::atomic<uint64_t> NextChunk{0};
  const uint64_t Chunk = 1000;
  auto Start = std::chrono::steady_clock::now();

  auto Work = [&] {
    std::vector<Counts> Local(Names.size());
    for (;;) {
      uint64_t Begin = NextChunk.fetch_add(Chunk);
      if (Begin >= Sets)
        break;
      uint64_t End = std::min(Sets, Begin + Chunk);
      for (uint64_t Set = Begin; Set < End; ++Set) {
        std::mt19937_64 Rng(Set); // set K is the same on every run
        size_t N = 1 + Rng() % 12;
        std::vector<UsageRecord> Records;
        for (size_t I = 0; I < N; ++I) {
          uint64_t First = Rng() % 24, Len = Rng() % 8;
          uint64_t Size = 1 + Rng() % (uint64_t(1) << (Rng() % 24));
          Records.emplace_back(Size, First, First + Len);
        }
        StrategyOptions O;
        O.Alignment = uint64_t(1) << (Rng() % 7);
        O.BudgetMs = 1;
        auto Aligned = alignRecords(Records, O.Alignment);
        for (size_t S = 0; S < Names.size(); ++S) {
          auto P = planMemory(Names[S], Records, O);
          if (!P) {
            std::string Msg = llvm::toString(P.takeError());
            if (Msg.find("invalid plan") != std::string::npos) {
              ++Local[S].Invalid;
              std::lock_guard<std::mutex> L(Mutex);
              fprintf(stderr, "set %llu, %s: %s\n", (unsigned long long)Set,
                      Names[S].c_str(), Msg.c_str());
            } else {
              ++Local[S].Errors;
            }
            continue;
          }
          if (llvm::Error E =
                  validateOffsets(*Aligned, P->Offsets, O.Alignment)) {
            ++Local[S].Invalid;
            std::lock_guard<std::mutex> L(Mutex);
            fprintf(stderr, "set %llu, %s: %s\n", (unsigned long long)Set,
                    Names[S].c_str(), llvm::toString(std::move(E)).c_str());
            continue;
          }
          ++Local[S].Planned;
        }
      }
    }
    std::lock_guard<std::mutex> L(Mutex);
    for (size_t S = 0; S < Names.size(); ++S) {
      Total[S].Planned += Local[S].Planned;
      Total[S].Errors += Local[S].Errors;
      Total[S].Invalid += Local[S].Invalid;
    }
  };
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < Threads; ++T)
    Pool.emplace_back(Work);
  for (std::thread &T : Pool)
    T.join();

  double Secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  printf("%-26s %12s %8s %8s\n", "strategy", "valid", "errors", "invalid");
  uint64_t Invalid = 0, Planned = 0;
  for (size_t S = 0; S < Names.size(); ++S) {
    printf("%-26s %12llu %8llu %8llu\n", Names[S].c_str(),
           (unsigned long long)Total[S].Planned,
           (unsigned long long)Total[S].Errors,
           (unsigned long long)Total[S].Invalid);
    Invalid += Total[S].Invalid;
    Planned += Total[S].Planned;
  }
  printf("%llu random sets, %llu plans validated, %llu invalid, %.1f s on %u "
         "threads\n",
         (unsigned long long)Sets, (unsigned long long)Planned,
         (unsigned long long)Invalid, Secs, Threads);
  return Invalid ? 1 : 0;
}
