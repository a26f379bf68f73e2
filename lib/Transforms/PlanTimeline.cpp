//===- PlanTimeline.cpp - Timeline picture files of tensor-mem-plan -------===//
//
// Turns the pass's FunctionReports into Core timeline sections, one per
// function and arena, and rewrites the picture file with all of them.
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/Timeline.h"
#include "memplan/Transforms/PlanReport.h"

using namespace memplan;

static std::vector<TimelineSection> sectionsOf(const FunctionReport &F) {
  std::vector<TimelineSection> Sections;
  for (const ArenaReport &A : F.Arenas) {
    TimelineSection S;
    S.Title = "@" + F.Function;
    if (!A.MemorySpace.empty())
      S.Title += " (memory space " + A.MemorySpace + ")";
    std::string Chosen = A.Chosen.empty() || A.Chosen == A.Strategy
                             ? ""
                             : " (chose " + A.Chosen + ")";
    S.Subtitle = "strategy " + A.Strategy + Chosen + ", alignment " +
                 std::to_string(A.Alignment) + ", " +
                 std::to_string(F.Unplanned.size()) + " buffers not planned; " +
                 F.Location;
    S.ArenaSize = A.ArenaSize;
    S.LowerBound = A.LowerBound;
    S.Alignment = A.Alignment;
    S.NumTasks = F.NumTasks;
    for (const PlannedBufferReport &B : A.Buffers) {
      TimelineBuffer TB;
      TB.Record = UsageRecord(B.Size, B.FirstTask, B.LastTask);
      TB.Offset = B.Offset;
      TB.Label = "#" + std::to_string(B.Id);
      TB.Id = TB.Label;
      // Where the buffer is filled (the linalg op whose outs it is, ...):
      // what a reader looks for, more than the alloc.
      bool HasWriter = !B.WriterOp.empty();
      TB.Op = HasWriter ? B.WriterOp : B.Op;
      TB.Location = HasWriter ? B.WriterLocation : B.Location;
      TB.Tooltip = "#" + std::to_string(B.Id) + " " + TB.Op + " " + B.Type +
                   "\n" + TB.Location;
      if (TB.Location != B.Location)
        TB.Tooltip += "\nallocated at " + B.Location;
      TB.Tooltip += "\nsize " + formatBytes(B.Size) + "\noffset " +
                    std::to_string(B.Offset) + "\ntasks [" +
                    std::to_string(B.FirstTask) + ", " +
                    std::to_string(B.LastTask) + "]";
      S.Buffers.push_back(std::move(TB));
    }
    Sections.push_back(std::move(S));
  }
  return Sections;
}

llvm::Error memplan::appendToTimelineFile(llvm::StringRef Path,
                                          FunctionReport Function) {
  if (llvm::Expected<TimelineFormat> Format = timelineFormatForPath(Path);
      !Format)
    return Format.takeError();
  return gatherForFile(Path, std::move(Function),
                       [&](llvm::ArrayRef<FunctionReport> All) {
                         std::vector<TimelineSection> Sections;
                         for (const FunctionReport &F : All)
                           for (TimelineSection &S : sectionsOf(F))
                             Sections.push_back(std::move(S));
                         return writeTimelineFile(Path, Sections);
                       });
}
