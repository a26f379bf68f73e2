//===- memplan-solve.cpp - Plan a usage-record file -----------------------===//
//
// memplan-solve FILE.csv [--strategy=NAME|all] [--alignment=N]
//   [--capacity=BYTES] [--budget-ms=N] [--format=table|json|csv] [--list]
//   [--svg=FILE] [--html=FILE]
//
// Exit codes: 0 planned; 1 --capacity not met; 2 bad file or bad options.
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/Arithmetic.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/PlanJSON.h"
#include "memplan/Core/RecordFile.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Core/Timeline.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
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
static cl::opt<std::string>
    SvgFile("svg", cl::desc("Write a timeline picture (one per strategy)"),
            cl::value_desc("file.svg"), cl::cat(SolveCat));
static cl::opt<std::string>
    HtmlFile("html", cl::desc("Write the timelines as an HTML page"),
             cl::value_desc("file.html"), cl::cat(SolveCat));
static cl::list<std::string>
    Load("load",
         cl::desc("Load a shared library whose memplanRegisterStrategies() "
                  "registers a user's strategies (repeatable)"),
         cl::value_desc("lib.so"), cl::cat(SolveCat));
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

/// The per-buffer fields of the pass's JSON report (PlanReport.cpp), so one
/// reader handles both: ids are numbers when the file's ids are.
static void addReportFields(json::Object &O, const Plan &P,
                            const RecordSet &Set) {
  json::Array Buffers;
  uint64_t Raw = 0;
  for (auto [I, R] : llvm::enumerate(Set.Records)) {
    int64_t Num;
    json::Value Id = StringRef(Set.Ids[I]).getAsInteger(10, Num)
                         ? json::Value(Set.Ids[I])
                         : json::Value(Num);
    Buffers.push_back(json::Object{{"id", std::move(Id)},
                                   {"size", R.Size},
                                   {"offset", P.Offsets.Offsets[I]},
                                   {"first_task", R.FirstTask},
                                   {"last_task", R.LastTask}});
    Raw += R.Size;
  }
  O["alignment"] = static_cast<uint64_t>(Alignment);
  O["arena_size"] = P.Offsets.TotalSize;
  O["bytes_without_planning"] = Raw;
  O["buffers"] = std::move(Buffers);
}

static std::vector<TimelineSection> timelines(ArrayRef<Row> Rows,
                                              const RecordSet &Set) {
  std::vector<TimelineSection> Sections;
  for (const Row &R : Rows) {
    TimelineSection S;
    S.Title = sys::path::filename(InputFile).str() + ": " + R.P.Strategy;
    S.Subtitle = std::string(R.P.Objects ? "shared objects" : "offsets") +
                 ", alignment " + std::to_string(Alignment) +
                 (R.P.Optimal ? ", proven optimal" : "");
    S.ArenaSize = R.P.Offsets.TotalSize;
    S.LowerBound = R.Bound;
    S.Alignment = Alignment;
    for (auto [I, Rec] : llvm::enumerate(Set.Records)) {
      uint64_t Offset = R.P.Offsets.Offsets[I];
      S.Buffers.push_back({Rec, Offset, Set.Ids[I],
                           "id " + Set.Ids[I] + "\nsize " +
                               formatBytes(Rec.Size) + "\noffset " +
                               std::to_string(Offset) + "\ntasks [" +
                               std::to_string(Rec.FirstTask) + ", " +
                               std::to_string(Rec.LastTask) + "]"});
    }
    Sections.push_back(std::move(S));
  }
  return Sections;
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
  // A user's strategies register themselves into our registry: the library
  // resolves memplan::registerStrategy from this executable.
  for (const std::string &Path : Load) {
    std::string Error;
    auto Lib = sys::DynamicLibrary::getPermanentLibrary(Path.c_str(), &Error);
    if (!Lib.isValid())
      return fail(2, "--load=" + Path + ": " + Error);
    auto *Register = reinterpret_cast<void (*)()>(
        Lib.getAddressOfSymbol("memplanRegisterStrategies"));
    if (!Register)
      return fail(2, "--load=" + Path +
                         ": no function memplanRegisterStrategies()");
    Register();
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

  if (!SvgFile.empty() || !HtmlFile.empty()) {
    std::vector<TimelineSection> Sections = timelines(Rows, *Set);
    for (StringRef Path : {StringRef(SvgFile), StringRef(HtmlFile)})
      if (!Path.empty())
        if (Error E = writeTimelineFile(Path, Sections))
          return fail(2, toString(std::move(E)));
  }

  if (Format == "json") {
    json::Array All;
    for (const Row &R : Rows) {
      json::Value V = planToJSON(R.P, R.Bound);
      addReportFields(*V.getAsObject(), R.P, *Set);
      All.push_back(std::move(V));
    }
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
