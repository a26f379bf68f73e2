//===- memplan-solve.cpp - Plan a usage-record file -----------------------===//
//
// memplan-solve FILE.csv [--strategy=NAME|all] [--alignment=N]
//   [--capacity=BYTES] [--budget-ms=N] [--format=table|json|csv] [--list]
//   [--svg=FILE] [--html=FILE]
//
// Exit codes: 0 planned; 1 --capacity not met; 2 bad file or bad options;
// 3 the output could not be written.
//
// Every row is measured against the same live-bytes bound; shared-object
// strategies also show the objects bound (sum of positional maximums) in a
// column of their own. The table ends with the best lower bound proven for
// the records and the gap of the smallest plan to it.
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/LowerBound.h"
#include "memplan/Core/OutputFile.h"
#include "memplan/Core/RecordFile.h"
#include "memplan/Core/Report.h"
#include "memplan/Core/Strategy.h"
#include "memplan/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
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
enum class OutputFormat { Table, JSON, CSV };
static cl::opt<OutputFormat> Format(
    "format", cl::desc("Output format"), cl::init(OutputFormat::Table),
    cl::values(clEnumValN(OutputFormat::Table, "table", "a table per strategy"),
               clEnumValN(OutputFormat::JSON, "json",
                          "the report (the schema of tensor-mem-plan's)"),
               clEnumValN(OutputFormat::CSV, "csv", "one row per strategy")),
    cl::cat(SolveCat));
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
static cl::list<std::string> InplacePairsOpt(
    "inplace",
    cl::desc("In-place pairs: the result record takes the operand's bytes, "
             "their intervals meeting at one task (operand upper - 1 = "
             "result lower)"),
    cl::value_desc("operand-id:result-id,..."), cl::CommaSeparated,
    cl::cat(SolveCat));
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
    B = std::max({B, R.Bound, R.P.CertifiedBound});
  return B;
}

static uint64_t smallestTotal(ArrayRef<Row> Rows) {
  uint64_t S = UINT64_MAX;
  for (const Row &R : Rows)
    S = std::min(S, R.P.Offsets.TotalSize);
  return S;
}

/// The plans as one report (Report.h), the schema of the pass's: the file
/// is one "function" with an arena per strategy. Every arena shares the
/// best bound any plan proved for these records.
static FunctionReport report(ArrayRef<Row> Rows, const RecordSet &Set) {
  FunctionReport F;
  F.Function = sys::path::filename(InputFile).str();
  F.Location = InputFile;
  F.RecordFile = true;
  for (const UsageRecord &R : Set.Records)
    F.NumTasks = std::max(F.NumTasks, R.LastTask + 1);
  uint64_t Best = bestBound(Rows);
  for (const Row &R : Rows) {
    ArenaResult A = arenaResult(R.P, Set.Records);
    A.CertifiedBound = Best;
    for (auto [I, B] : llvm::enumerate(A.Buffers))
      B.Id = Set.Ids[I];
    F.Arenas.push_back(std::move(A));
  }
  return F;
}

static std::string objectsBoundText(const Row &R) {
  return R.ObjectsBound ? std::to_string(*R.ObjectsBound) : "-";
}

static void printTable(ArrayRef<Row> Rows, raw_ostream &OS) {
  OS << format("%-26s %14s %14s %8s %10s %-7s %14s\n", "strategy", "total",
               "lower_bound", "ratio", "ms", "optimal", "objects_bound");
  for (const Row &R : Rows)
    OS << format("%-26s %14llu %14llu %8.4f %10.2f %-7s %14s\n",
                 R.P.Requested.c_str(),
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
  OS << "strategy,arena_size,lower_bound,ratio,milliseconds,optimal,"
        "objects_lower_bound,certified_lower_bound\n";
  uint64_t Best = bestBound(Rows);
  for (const Row &R : Rows)
    OS << R.P.Requested << "," << R.P.Offsets.TotalSize << "," << R.Bound << ","
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
    Searched |= R.P.Requested == "auto" || R.P.Requested == "exact";
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
  if (Error E = checkAlignment(Alignment))
    return fail(2, toString(std::move(E)));
  if (std::isnan(BudgetMs))
    return fail(2, "--budget-ms=nan is not a number of milliseconds (inf: "
                   "no limit)");
  if (BudgetMs < 0)
    return fail(2, "--budget-ms=" + formatv("{0}", BudgetMs.getValue()).str() +
                       " is negative");
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
  for (const std::string &Note : Set->Notes)
    WithColor::note(errs(), "memplan-solve")
        << InputFile << ": " << Note << "\n";
  // One alignment for all: the largest of the file's and --alignment
  // (powers of two, so it is a multiple of each).
  uint64_t Align = Alignment;
  if (uint64_t FileAlign = largestAlignment(*Set); FileAlign > Align) {
    Align = FileAlign;
    WithColor::note(errs(), "memplan-solve")
        << InputFile << ": every offset and size aligned to " << Align
        << " bytes, the largest of the alignment column\n";
  }

  StrategyOptions Opts;
  for (StringRef Pair : InplacePairsOpt) {
    auto [Operand, Result] = Pair.split(':');
    auto IndexOf = [&](StringRef Id) -> std::optional<size_t> {
      auto It = llvm::find(Set->Ids, Id);
      if (It == Set->Ids.end())
        return std::nullopt;
      return It - Set->Ids.begin();
    };
    std::optional<size_t> O = IndexOf(Operand), R = IndexOf(Result);
    if (!O || !R)
      return fail(2, "--inplace=" + Pair + ": no record with id '" +
                         (O ? Result : Operand) + "' in " + InputFile);
    Opts.InplacePairs.push_back({*O, *R});
  }
  // Sizes that overflow once aligned, or that no plan can hold together,
  // are the file's fault, whatever the strategy: say so first.
  // Records named as the file names them: "record 'b1' (line 3)".
  auto Name = [&](size_t I) {
    return "record '" + Set->Ids[I] + "' (line " +
           std::to_string(Set->Lines[I]) + ")";
  };
  if (Error E = checkRecords(Set->Records, Align, Opts.InplacePairs, Name))
    return fail(2, InputFile + ": " + toString(std::move(E)));
  Opts.Alignment = Align;
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
    if (!P) {
      bool Refused = false;
      std::string Msg;
      handleAllErrors(P.takeError(), [&](const ErrorInfoBase &E) {
        std::error_code C = E.convertToErrorCode();
        Refused |= C == std::make_error_code(std::errc::not_supported) ||
                   C == std::make_error_code(std::errc::value_too_large);
        Msg += (Msg.empty() ? "" : "\n") + E.message();
      });
      // Errors that name the strategy need no prefix.
      if (!StringRef(Msg).starts_with(Name + ":") &&
          !StringRef(Msg).starts_with("strategy '" + Name + "'"))
        Msg = "strategy '" + Name + "': " + Msg;
      // With all, a strategy that does not take the set (min-cost-flow's
      // size limit, an arena past 2^64) leaves the others' rows; any other
      // error is a failure.
      if (Names.size() == 1 || !Refused)
        return fail(2, Msg);
      WithColor::warning(errs(), "memplan-solve") << "skipped: " << Msg << "\n";
      continue;
    }
    // planMemory computed both bounds: every row has the same live-bytes
    // bound, shared-object rows also their own kind's.
    Row R{std::move(*P), 0, std::nullopt, Ms};
    R.Bound = R.P.Peak.Bytes;
    R.ObjectsBound = R.P.ObjectsLowerBound;
    Rows.push_back(std::move(R));
  }
  if (Rows.empty())
    return fail(2, "no strategy planned " + InputFile);

  if (!SvgFile.empty() || !HtmlFile.empty() || Format == OutputFormat::JSON) {
    FunctionReport Report = report(Rows, *Set);
    for (StringRef Path : {StringRef(SvgFile), StringRef(HtmlFile)})
      if (!Path.empty())
        if (Error E = writeTimelineFile(Path, timelineSections({Report})))
          return fail(3, toString(std::move(E))); // as for stdout: exit 3
    if (Format == OutputFormat::JSON)
      writeReportJSON({Report}, outs());
  }
  // The pictures are files of their own: the rows still print (--svg once
  // left stdout empty).
  if (Format == OutputFormat::CSV)
    printCSV(Rows, outs());
  else if (Format != OutputFormat::JSON)
    printTable(Rows, outs());
  // A write that failed (a full disk) is exit 3, not the fatal "IO failure"
  // at exit with 1, the code of an unmet capacity.
  if (Error E = checkWritten(outs(), "the output"))
    return fail(3, toString(std::move(E)));

  if (Opts.Capacity && smallestTotal(Rows) > *Opts.Capacity)
    return fail(1, capacityMessage(Rows, *Opts.Capacity, Opts.BudgetMs));
  return 0;
}
