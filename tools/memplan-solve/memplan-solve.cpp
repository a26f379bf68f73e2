//===- memplan-solve.cpp - Plan a usage-record file -----------------------===//
//
// memplan-solve FILE.csv [--strategy=NAME|all] [--alignment=N]
//   [--capacity=BYTES] [--budget-ms=N] [--format=table|json|csv] [--list]
//   [--svg=FILE] [--html=FILE]
//
// Exit codes: 0 planned; 1 --capacity not met; 2 bad file or bad options.
//
// Every row is measured against the same live-bytes bound; shared-object
// strategies also show the objects bound (sum of positional maximums) in a
// column of their own. The table ends with the best lower bound proven for
// the records and the gap of the smallest plan to it.
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/Arithmetic.h"
#include "memplan/Core/LowerBound.h"
#include "memplan/Core/PlanJSON.h"
#include "memplan/Core/RecordFile.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Core/Timeline.h"
#include "memplan/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <optional>

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
static cl::opt<double> BudgetMs(
    "budget-ms",
    cl::desc("Time budget of search-based strategies (default 1000; with "
             "--capacity 10000: the search stops once the capacity is met)"),
    cl::init(1000), cl::cat(SolveCat));
/// The budget when --capacity is given and --budget-ms is not.
static constexpr double kCapacityBudgetMs = 10000;
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
  /// The live-bytes bound (the same for every row).
  uint64_t Bound = 0;
  /// The objects bound, for shared-object plans.
  std::optional<uint64_t> ObjectsBound;
  double Ms = 0;
};
} // namespace

static double ratio(const Row &R) {
  return R.Bound ? (double)R.P.Offsets.TotalSize / (double)R.Bound : 1.0;
}

/// The best lower bound any row proved (at least the live-bytes bound).
static uint64_t bestBound(ArrayRef<Row> Rows) {
  uint64_t B = 0;
  for (const Row &R : Rows)
    B = std::max({B, R.Bound, R.P.LowerBound});
  return B;
}

static uint64_t smallestTotal(ArrayRef<Row> Rows) {
  uint64_t S = UINT64_MAX;
  for (const Row &R : Rows)
    S = std::min(S, R.P.Offsets.TotalSize);
  return S;
}

/// Writes one plan as JSON, streamed (a million buffers would take
/// gigabytes as a json::Value). Keys in sorted order, as json::Value prints
/// them: the schema of PlanJSON.h plus the per-buffer fields of the pass's
/// report (PlanReport.cpp), so one reader handles both; ids are numbers when
/// the file's ids are. "lower_bound" is the live-bytes bound for every plan;
/// "certified_lower_bound" the best bound proven, "gap" the bytes above it;
/// shared-object plans add "objects_lower_bound".
static void writePlanJSON(json::OStream &J, const Row &R, const RecordSet &Set,
                          uint64_t Best, const LivePeak &Peak) {
  const Plan &P = R.P;
  uint64_t Raw = 0;
  for (const UsageRecord &Rec : Set.Records)
    Raw += Rec.Size;
  auto Array = [&](StringRef Key, const auto &Values) {
    J.attributeArray(Key, [&] {
      for (auto V : Values)
        J.value((uint64_t)V);
    });
  };
  // Ids are numbers when the file's ids are.
  auto Id = [&](size_t I) {
    int64_t Num;
    if (StringRef(Set.Ids[I]).getAsInteger(10, Num))
      J.value(Set.Ids[I]);
    else
      J.value(Num);
  };
  J.object([&] {
    J.attribute("alignment", static_cast<uint64_t>(Alignment));
    J.attribute("arena_size", P.Offsets.TotalSize);
    J.attributeArray("buffers", [&] {
      for (auto [I, Rec] : llvm::enumerate(Set.Records)) {
        J.object([&] {
          J.attribute("first_task", Rec.FirstTask);
          int64_t Num;
          if (StringRef(Set.Ids[I]).getAsInteger(10, Num))
            J.attribute("id", Set.Ids[I]);
          else
            J.attribute("id", Num);
          J.attribute("last_task", Rec.LastTask);
          J.attribute("offset", P.Offsets.Offsets[I]);
          J.attribute("size", Rec.Size);
        });
      }
    });
    J.attribute("bytes_without_planning", Raw);
    J.attribute("certified_lower_bound", Best);
    J.attribute("chosen", P.Chosen.empty() ? P.Strategy : P.Chosen);
    J.attribute("gap",
                P.Offsets.TotalSize - std::min(Best, P.Offsets.TotalSize));
    J.attribute("lower_bound", R.Bound);
    if (P.Objects) {
      Array("object_ids", P.Objects->ObjectIds);
      Array("object_sizes", P.Objects->ObjectSizes);
      J.attribute("objects_lower_bound", *R.ObjectsBound);
    }
    Array("offsets", P.Offsets.Offsets);
    J.attribute("optimal", P.Optimal);
    // Where the live (aligned) bytes peak: the buffers there make the bound.
    J.attributeObject("peak", [&] {
      J.attribute("bytes", Peak.Bytes);
      J.attributeArray("live", [&] {
        for (size_t I : Peak.Live)
          Id(I);
      });
      J.attribute("task", Peak.Task);
    });
    J.attribute("strategy", P.Strategy);
    J.attribute("total_size", P.Offsets.TotalSize);
  });
}

static std::vector<TimelineSection> timelines(ArrayRef<Row> Rows,
                                              const RecordSet &Set) {
  std::vector<TimelineSection> Sections;
  for (const Row &R : Rows) {
    TimelineSection S;
    S.Title = sys::path::filename(InputFile).str() + ": " + R.P.Strategy;
    S.Subtitle = std::string(R.P.Objects ? "shared objects" : "offsets") +
                 (R.P.Chosen.empty() || R.P.Chosen == R.P.Strategy
                      ? ""
                      : " (chose " + R.P.Chosen + ")") +
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

static std::string objectsBoundText(const Row &R) {
  return R.ObjectsBound ? std::to_string(*R.ObjectsBound) : "-";
}

static void printTable(ArrayRef<Row> Rows, raw_ostream &OS) {
  OS << format("%-26s %14s %14s %8s %10s %-7s %14s\n", "strategy", "total",
               "lower_bound", "ratio", "ms", "optimal", "objects_bound");
  for (const Row &R : Rows)
    OS << format("%-26s %14llu %14llu %8.4f %10.2f %-7s %14s\n",
                 R.P.Strategy.c_str(),
                 (unsigned long long)R.P.Offsets.TotalSize,
                 (unsigned long long)R.Bound, ratio(R), R.Ms,
                 R.P.Optimal ? "yes" : "no", objectsBoundText(R).c_str());
  // The best bound proven for these records, and how far the smallest plan
  // is from it: a gap of 0 proves that plan optimal.
  uint64_t Best = bestBound(Rows), Smallest = smallestTotal(Rows);
  if (Rows.empty())
    return;
  uint64_t Gap = Smallest - std::min(Best, Smallest);
  OS << "best lower bound " << Best << " bytes"
     << (Best > Rows.front().Bound ? " (proven by search, above live bytes)"
                                   : " (live bytes)")
     << "; smallest plan " << Smallest << " bytes, gap " << Gap << " bytes ("
     << format("%.2f%%", Best ? 100.0 * Gap / Best : 0.0) << ")"
     << (Gap == 0 ? ": optimal" : "") << "\n";
}

static void printCSV(ArrayRef<Row> Rows, raw_ostream &OS) {
  OS << "strategy,total_size,lower_bound,ratio,milliseconds,optimal,"
        "objects_lower_bound,certified_lower_bound\n";
  uint64_t Best = bestBound(Rows);
  for (const Row &R : Rows)
    OS << R.P.Strategy << "," << R.P.Offsets.TotalSize << "," << R.Bound << ","
       << format("%.6f", ratio(R)) << "," << format("%.3f", R.Ms) << ","
       << (R.P.Optimal ? "true" : "false") << ","
       << (R.ObjectsBound ? std::to_string(*R.ObjectsBound) : "") << "," << Best
       << "\n";
}

/// Why --capacity was not met, in words that are true: a plan is said to be
/// needed only when a lower bound proves it.
static std::string capacityMessage(ArrayRef<Row> Rows, uint64_t Capacity,
                                   double Budget) {
  uint64_t Best = bestBound(Rows), Smallest = smallestTotal(Rows);
  std::string Msg = "capacity " + std::to_string(Capacity) + " bytes not met: ";
  if (Best > Capacity && Smallest <= Best)
    return Msg + "the smallest plan needs " + std::to_string(Smallest) +
           " bytes";
  if (Best > Capacity)
    return Msg + "every plan needs at least " + std::to_string(Best) +
           " bytes (the smallest found needs " + std::to_string(Smallest) + ")";
  bool Searched = false;
  for (const Row &R : Rows)
    Searched |= R.P.Strategy == "auto" || R.P.Strategy == "exact";
  return Msg + "the smallest plan found needs " + std::to_string(Smallest) +
         " bytes; the lower bound is " + std::to_string(Best) +
         " bytes, so a plan that fits may exist" +
         (Searched ? " (the search stopped at its budget of " +
                         std::to_string((long long)Budget) +
                         " ms; try a larger --budget-ms)"
                   : " (try --strategy=auto or exact)");
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::SetVersionPrinter(memplan::printVersion);
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
  if (Capacity.getNumOccurrences()) {
    Opts.Capacity = Capacity;
    // With a capacity the search stops as soon as it is met: a longer
    // default budget costs only the sets that need it.
    if (!BudgetMs.getNumOccurrences())
      Opts.BudgetMs = kCapacityBudgetMs;
  }
  std::vector<Row> Rows;
  for (const std::string &Name : Names) {
    auto Start = std::chrono::steady_clock::now();
    auto P = planMemory(Name, Set->Records, Opts);
    double Ms = std::chrono::duration<double, std::milli>(
                    std::chrono::steady_clock::now() - Start)
                    .count();
    if (!P)
      return fail(2, "strategy '" + Name + "': " + toString(P.takeError()));
    Row R{std::move(*P), 0, std::nullopt, Ms};
    if (R.P.Objects)
      R.ObjectsBound = objectsLowerBound(*Aligned);
    Rows.push_back(std::move(R));
  }
  // One live-bytes bound for every row.
  uint64_t Live = liveBytesLowerBound(*Aligned);
  for (Row &R : Rows)
    R.Bound = Live;

  if (!SvgFile.empty() || !HtmlFile.empty()) {
    std::vector<TimelineSection> Sections = timelines(Rows, *Set);
    for (StringRef Path : {StringRef(SvgFile), StringRef(HtmlFile)})
      if (!Path.empty())
        if (Error E = writeTimelineFile(Path, Sections))
          return fail(2, toString(std::move(E)));
  }

  if (Format == "json") {
    uint64_t Best = bestBound(Rows);
    LivePeak Peak = livePeak(*Aligned);
    json::OStream J(outs(), 2);
    if (Rows.size() == 1)
      writePlanJSON(J, Rows[0], *Set, Best, Peak);
    else
      J.array([&] {
        for (const Row &R : Rows)
          writePlanJSON(J, R, *Set, Best, Peak);
      });
    outs() << "\n";
  } else if (Format == "csv") {
    printCSV(Rows, outs());
  } else {
    printTable(Rows, outs());
  }

  if (Opts.Capacity && smallestTotal(Rows) > *Opts.Capacity)
    return fail(1, capacityMessage(Rows, *Opts.Capacity, Opts.BudgetMs));
  return 0;
}
