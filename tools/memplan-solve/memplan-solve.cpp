//===- memplan-solve.cpp - Plan a usage-record file -----------------------===//

#include "memplan/Core/LowerBound.h"
#include "memplan/Core/RecordFile.h"
#include "memplan/Core/Strategy.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<std::string> InputFile(cl::Positional, cl::desc("<records.csv>"),
                                      cl::Required);
static cl::opt<std::string> StrategyName("strategy", cl::desc("Strategy name"),
                                         cl::init("auto"));
static cl::opt<uint64_t> Alignment("alignment", cl::desc("Offset alignment"),
                                   cl::init(1));

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "memplan record-file planner\n");
  auto Set = memplan::readRecordsCSV(InputFile);
  if (!Set) {
    WithColor::error(errs(), "memplan-solve") << toString(Set.takeError())
                                              << "\n";
    return 2;
  }
  memplan::StrategyOptions Opts;
  Opts.Alignment = Alignment;
  auto P = memplan::planMemory(StrategyName, Set->Records, Opts);
  if (!P) {
    WithColor::error(errs(), "memplan-solve") << toString(P.takeError())
                                              << "\n";
    return 1;
  }
  outs() << P->Strategy << " total " << P->Offsets.TotalSize << "\n";
  return 0;
}
