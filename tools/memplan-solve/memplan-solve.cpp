//===- memplan-solve.cpp - Plan a usage-record file -----------------------===//
//
// memplan-solve FILE.csv [--strategy=NAME|all] [--alignment=N]
//   [--capacity=BYTES] [--budget-ms=N] [--format=table|json|csv] [--list]
//
// Exit codes: 0 planned; 1 --capacity not met; 2 bad file or bad options.
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/Arithmetic.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/PlanJSON.h"
#include "memplan/Core/RecordFile.h"
#include "memplan/Core/Strategy.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;
using namespace memplan;

static cl::OptionCategory SolveCat("memplan-solve options");
static cl::opt<std::string> InputFile(cl::Positional, cl::desc("<records.csv>"),
                                      cl::cat(SolveCat));
static cl::opt<std::string>
    StrategyName("strategy", cl::desc("Strategy name, or 'all' (see --list)"),
                 cl::init("auto"), cl::cat(SolveCat));
static cl::opt<uint64_t> Alignment("alignment",
                                   cl::desc("Offset alignment, a power of two"),
                                   cl::init(1), cl::cat(SolveCat));
static cl::opt<uint64_t>
    Capacity("capacity",
             cl::desc("Arena size to meet (exit 1 when not met); search-based "
                      "strategies stop once they reach it"),
             cl::cat(SolveCat));
static cl::opt<double>
    BudgetMs("budget-ms", cl::desc("Time budget of search-based strategies"),
             cl::init(1000), cl::cat(SolveCat));
static cl::opt<std::string> Format("format",
                                   cl::desc("Output: table, json or csv"),
                                   cl::init("table"), cl::cat(SolveCat));
static cl::opt<bool> List("list", cl::desc("List the strategies and exit"),
                          cl::cat(SolveCat));

static int fail(int Code, const Twine &Msg) {
  WithColor::error(errs(), "memplan-solve") << Msg << "\n";
  return Code;
}

namespace {
struct Row {
  Plan P;
  uint64_t Bound = 0;
  double Ms = 0;
};
} // namespace

static double ratio(const Row &R) {
  return R.Bound ? (double)R.P.Offsets.TotalSize / (double)R.Bound : 1.0;
}

static void printTable(ArrayRef<Row> Rows, raw_ostream &OS) {
  OS << format("%-26s %14s %14s %8s %10s %s\n", "strategy", "total",
               "lower_bound", "ratio", "ms", "optimal");
  for (const Row &R : Rows)
    OS << format("%-26s %14llu %14llu %8.4f %10.2f %s\n", R.P.Strategy.c_str(),
                 (unsigned long long)R.P.Offsets.TotalSize,
                 (unsigned long long)R.Bound, ratio(R), R.Ms,
                 R.P.Optimal ? "yes" : "no");
}

static void printCSV(ArrayRef<Row> Rows, raw_ostream &OS) {
  OS << "strategy,total_size,lower_bound,ratio,milliseconds,optimal\n";
  for (const Row &R : Rows)
    OS << R.P.Strategy << "," << R.P.Offsets.TotalSize << "," << R.Bound << ","
       << format("%.6f", ratio(R)) << "," << format("%.3f", R.Ms) << ","
       << (R.P.Optimal ? "true" : "false") << "\n";
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(SolveCat);
  std::string ParseErrors;
  raw_string_ostream ErrOS(ParseErrors);
  if (!cl::ParseCommandLineOptions(
          argc, argv, "memplan: plan a usage-record file\n", &ErrOS)) {
    errs() << ParseErrors;
    return 2;
  }
  if (List) {
    for (const std::string &Name : strategyNames()) {
      const StrategyInfo *Info = lookupStrategy(Name);
      const char *Kind = Info->Kind == StrategyKind::SharedObjects ? "objects"
                         : Info->Kind == StrategyKind::Meta        ? "meta"
                                                                   : "offsets";
      outs() << format("%-26s %-8s %s\n", Name.c_str(), Kind,
                       Info->Description.c_str());
    }
    return 0;
  }
  if (InputFile.empty())
    return fail(2, "no input file (usage: memplan-solve FILE.csv ...)");
  if (!isPowerOf2(Alignment))
    return fail(2, "--alignment=" + Twine(Alignment) +
                       " is not a power of two (1, 2, 4, ...)");
  if (BudgetMs < 0)
    return fail(2, "--budget-ms=" + Twine(std::to_string(BudgetMs)) +
                       " is negative");
  if (Format != "table" && Format != "json" && Format != "csv")
    return fail(2, "--format=" + Format + " is not one of table, json, csv");
  std::vector<std::string> Names;
  if (StrategyName == "all") {
    Names = strategyNames();
  } else {
    if (!lookupStrategy(StrategyName))
      return fail(2, toString(unknownStrategyError(StrategyName)) + ", or all");
    Names.push_back(StrategyName);
  }

  auto Set = readRecordsCSV(InputFile);
  if (!Set)
    return fail(2, toString(Set.takeError()));
  auto Aligned = alignRecords(Set->Records, Alignment);
  if (!Aligned)
    return fail(2, InputFile + ": " + toString(Aligned.takeError()));

  StrategyOptions Opts;
  Opts.Alignment = Alignment;
  Opts.BudgetMs = BudgetMs;
  if (Capacity.getNumOccurrences())
    Opts.Capacity = Capacity;
  std::vector<Row> Rows;
  for (const std::string &Name : Names) {
    auto Start = std::chrono::steady_clock::now();
    auto P = planMemory(Name, Set->Records, Opts);
    double Ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - Start)
                    .count();
    if (!P)
      return fail(2, "strategy '" + Name + "': " + toString(P.takeError()));
    uint64_t Bound = planLowerBound(*P, *Aligned);
    Rows.push_back({std::move(*P), Bound, Ms});
  }

  if (Format == "json") {
    json::Array All;
    for (const Row &R : Rows)
      All.push_back(planToJSON(R.P, R.Bound));
    if (Rows.size() == 1)
      outs() << formatv("{0:2}", All[0]) << "\n";
    else
      outs() << formatv("{0:2}", json::Value(std::move(All))) << "\n";
  } else if (Format == "csv") {
    printCSV(Rows, outs());
  } else {
    printTable(Rows, outs());
  }

  if (Opts.Capacity) {
    uint64_t Smallest = UINT64_MAX;
    for (const Row &R : Rows)
      Smallest = std::min(Smallest, R.P.Offsets.TotalSize);
    if (Smallest > *Opts.Capacity)
      return fail(1, "capacity " + Twine(*Opts.Capacity) +
                         " bytes not met: the smallest plan needs " +
                         Twine(Smallest) + " bytes");
  }
  return 0;
}
