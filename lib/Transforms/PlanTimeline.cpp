//===- PlanTimeline.cpp - Timeline picture files of tensor-mem-plan -------===//

#include "memplan/Transforms/PlanReport.h"

using namespace memplan;

// Placeholder until the timeline renderer lands (issue 7).
llvm::Error memplan::appendToTimelineFile(llvm::StringRef Path,
                                          FunctionReport) {
  return llvm::createStringError("timeline pictures are not available yet (" +
                                 Path + ")");
}
