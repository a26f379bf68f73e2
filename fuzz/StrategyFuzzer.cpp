//===- StrategyFuzzer.cpp - Every strategy against the validator ---------===//
//
// Input bytes become up to 64 records (sizes of 1..2^k bytes with k drawn
// from the input, so 64-bit overflow is reachable) and an alignment. Every
// registered strategy must return a plan or an error; planMemory validates
// what it returns, and this fuzzer validates again independently, so a plan
// that does not validate is a finding (abort).
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/LowerBound.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Core/Validator.h"

#include "FuzzReader.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace memplan;
using memplan::fuzz::Reader;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Reader In(Data, Size);
  uint64_t Mode = In.take(1);
  StrategyOptions Options;
  Options.Alignment = uint64_t(1) << (Mode % 8);
  Options.BudgetMs = 0.5;  // exact and auto: a small budget
  bool Huge = Mode & 0x80; // sizes up to 2^64, tasks near 2^64
  std::vector<UsageRecord> Records;
  while (!In.empty() && Records.size() < 64) {
    uint64_t First = In.take(1), Len = In.take(1) % 32;
    uint64_t Shift = In.take(1) % (Huge ? 64 : 20);
    uint64_t Size = 1 + (In.take(8) & ((uint64_t(1) << Shift) - 1));
    if (Huge && (First & 1))
      First = UINT64_MAX - 40 + First % 8;
    uint64_t Last = First + Len < First ? UINT64_MAX : First + Len;
    Records.emplace_back(Size, First, Last);
  }
  for (const std::string &Name : strategyNames()) {
    auto P = planMemory(Name, Records, Options);
    if (!P) {
      std::string Msg = llvm::toString(P.takeError());
      // The validator refusing a strategy's plan is a finding unless 64 bits
      // cannot hold the plan at all.
      if (Msg.find("returned an invalid plan") != std::string::npos &&
          liveBytesLowerBound(Records) < (uint64_t(1) << 62)) {
        fprintf(stderr, "strategy %s: %s\n", Name.c_str(), Msg.c_str());
        abort();
      }
      continue;
    }
    auto Aligned = alignRecords(Records, Options.Alignment);
    if (!Aligned)
      abort(); // planMemory succeeded, so aligning did
    if (llvm::Error E =
            validateOffsets(*Aligned, P->Offsets, Options.Alignment)) {
      fprintf(stderr, "strategy %s: %s\n", Name.c_str(),
              llvm::toString(std::move(E)).c_str());
      abort();
    }
    if (P->Offsets.TotalSize < liveBytesLowerBound(*Aligned)) {
      fprintf(stderr, "strategy %s: below the lower bound\n", Name.c_str());
      abort();
    }
  }
  return 0;
}
