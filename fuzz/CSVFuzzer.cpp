//===- CSVFuzzer.cpp - Fuzz the MiniMalloc CSV reader ---------------------===//
//
// Any text must give records or an error, never a crash; accepted records
// must satisfy what the reader promises (positive sizes, FirstTask <=
// LastTask, unique ids, power-of-two alignments) and survive a write/read round
// trip unchanged.
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/RecordFile.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <set>

using namespace memplan;

static void fail(const char *Why) {
  fprintf(stderr, "memplan-fuzz-csv: %s\n", Why);
  abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  auto Set = parseRecordsCSV(Text, "fuzz.csv");
  if (!Set) {
    std::string Msg = llvm::toString(Set.takeError());
    if (Msg.rfind("fuzz.csv:", 0) != 0)
      fail("an error without FILE:LINE");
    return 0;
  }
  if (Set->Records.empty() || Set->Records.size() != Set->Ids.size())
    fail("records and ids disagree");
  std::set<std::string> Ids;
  for (size_t I = 0; I < Set->Records.size(); ++I) {
    const UsageRecord &R = Set->Records[I];
    if (R.Size == 0 || R.FirstTask > R.LastTask)
      fail("an invalid record was accepted");
    if (!Ids.insert(Set->Ids[I]).second)
      fail("a duplicate id was accepted");
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  writeRecordsCSV(*Set, OS);
  auto Again = parseRecordsCSV(Out, "again.csv");
  if (!Again) {
    llvm::consumeError(Again.takeError());
    fail("written records do not read back");
  }
  if (!Set->Alignments.empty() && Set->Alignments.size() != Set->Records.size())
    fail("alignments and records disagree");
  for (uint64_t A : Set->Alignments)
    if (!A || (A & (A - 1)))
      fail("an alignment that is not a power of two was accepted");
  if (Again->Records != Set->Records || Again->Ids != Set->Ids ||
      Again->Alignments != Set->Alignments)
    fail("round trip changed the records");
  return 0;
}
