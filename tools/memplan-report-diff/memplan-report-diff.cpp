//===- memplan-report-diff.cpp - two plan reports side by side ------------===//
//
//   memplan-report-diff A.json B.json
//
// Two reports of one program (tensor-mem-plan's or memplan-pipeline's
// report=, memplan-solve --format=json): the plain plan against the
// pipeline's, one strategy against another. Exit 0 when both were read and
// compared, 1 on an error (a missing file, bad JSON, another
// schema_version, reports of different programs).
//
//===----------------------------------------------------------------------===//

#include "ReportDiff.h"
#include "ReportFile.h"

#include "memplan/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace memplan::diff;

static cl::opt<std::string> PathA(cl::Positional, cl::Required,
                                  cl::desc("<a.json>"));
static cl::opt<std::string> PathB(cl::Positional, cl::Required,
                                  cl::desc("<b.json>"));

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
  printDiff(*A, *B, outs());
  return 0;
}
