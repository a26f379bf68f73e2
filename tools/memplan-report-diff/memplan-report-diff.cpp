//===- memplan-report-diff.cpp - two plan reports side by side ------------===//
//
//   memplan-report-diff A.json B.json [--html=page.html]
//
// Two reports of one program (tensor-mem-plan's or memplan-pipeline's
// report=, memplan-solve --format=json): the plain plan against the
// pipeline's, one strategy against another. Exit 0 when both were read and
// compared, 1 on an error (a missing file, bad JSON, another
// schema_version, reports of different programs). --html also writes the
// comparison and both plans' pictures, arena by arena (A above B), to a page.
//
//===----------------------------------------------------------------------===//

#include "ReportDiff.h"
#include "ReportFile.h"
#include "ReportModel.h"

#include "memplan/Core/OutputFile.h"
#include "memplan/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace memplan::diff;

static cl::opt<std::string> PathA(cl::Positional, cl::Required,
                                  cl::desc("<a.json>"));
static cl::opt<std::string> PathB(cl::Positional, cl::Required,
                                  cl::desc("<b.json>"));

static cl::opt<std::string>
    HtmlPath("html", cl::value_desc("page.html"),
             cl::desc("also write the comparison and the two plans' "
                      "timelines, arena by arena (A above B), to this page"));

/// The sections of one function's arenas, titled "A: @f" or "B: @f".
static std::vector<memplan::TimelineSection>
sectionsOf(const memplan::FunctionReport &F, StringRef Side) {
  std::vector<memplan::TimelineSection> S = memplan::timelineSections({F});
  for (memplan::TimelineSection &One : S)
    One.Title = (Side + ": " + One.Title).str();
  return S;
}

/// A's arenas each above B's of the same function (by name) and memory
/// space; what only one report has follows.
static Error writeHtml(const Report &RA, const Report &RB,
                       const std::string &Diff) {
  std::vector<memplan::FunctionReport> A = readReportModel(RA.Json);
  std::vector<memplan::FunctionReport> B = readReportModel(RB.Json);
  std::vector<memplan::TimelineSection> Sections;
  std::vector<bool> UsedB(B.size());
  for (const memplan::FunctionReport &FA : A) {
    std::vector<memplan::TimelineSection> SA = sectionsOf(FA, "A"), SB;
    for (auto [I, FB] : enumerate(B))
      if (!UsedB[I] && FB.Function == FA.Function) {
        UsedB[I] = true;
        SB = sectionsOf(FB, "B");
        break;
      }
    std::vector<bool> Taken(SB.size());
    for (memplan::TimelineSection &X : SA) {
      Sections.push_back(std::move(X));
      for (auto [J, Y] : enumerate(SB))
        if (!Taken[J] &&
            Y.Arena.MemorySpace == Sections.back().Arena.MemorySpace) {
          Taken[J] = true;
          Sections.push_back(Y);
          break;
        }
    }
    for (auto [J, Y] : enumerate(SB))
      if (!Taken[J])
        Sections.push_back(Y);
  }
  for (auto [I, FB] : enumerate(B))
    if (!UsedB[I])
      for (memplan::TimelineSection &Y : sectionsOf(FB, "B"))
        Sections.push_back(std::move(Y));
  return memplan::writeOutputFile(HtmlPath, [&](raw_ostream &OS) {
    memplan::renderTimelineHTML(Sections, OS, Diff);
  });
}

static int fail(Error E) {
  errs() << "memplan-report-diff: " << toString(std::move(E)) << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::SetVersionPrinter(memplan::printVersion);
  cl::ParseCommandLineOptions(
      argc, argv,
      "memplan-report-diff: two plan reports of one program, function by "
      "function, arena by arena, buffer by buffer\n");
  Expected<Report> A = readReport(PathA);
  if (!A)
    return fail(A.takeError());
  Expected<Report> B = readReport(PathB);
  if (!B)
    return fail(B.takeError());
  if (Error E = checkSameProgram(*A, *B))
    return fail(std::move(E));
  std::string Diff;
  raw_string_ostream DiffOS(Diff);
  printDiff(*A, *B, DiffOS);
  outs() << Diff;
  if (!HtmlPath.empty())
    if (Error E = writeHtml(*A, *B, Diff))
      return fail(std::move(E));
  return 0;
}
