//===- ReportTimeline.cpp - The report as timeline sections ---------------===//
//
// One picture per arena, whether the report comes from the pass (buffers with
// ops and locations) or from a record file (buffers with ids).
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/Report.h"

#include "llvm/ADT/STLExtras.h"

using namespace memplan;

static std::string tasksText(const UsageRecord &R) {
  return "tasks [" + std::to_string(R.FirstTask) + ", " +
         std::to_string(R.LastTask) + "]";
}

/// Buffer I of the pass: where it is filled (the linalg op whose outs it
/// is, ...) is what a reader looks for, more than the alloc.
static TimelineBuffer bufferFromIR(const ArenaResult &A, size_t I) {
  llvm::ArrayRef<TaskOp> Ops = A.TaskOps;
  const BufferInfo &B = A.Buffers[I];
  TimelineBuffer TB;
  TB.Label = "#" + B.Id;
  TB.Id = TB.Label;
  bool HasWriter = !B.WriterOp.empty();
  TB.Op = HasWriter ? B.WriterOp : B.Op;
  TB.Location = HasWriter ? B.WriterLocation : B.Location;
  TB.Tooltip = TB.Label + " " + TB.Op + " " + B.Type + "\n" + TB.Location;
  if (TB.Location != B.Location)
    TB.Tooltip += "\nallocated at " + B.Location;
  TB.Tooltip += "\nsize " + formatBytes(A.Records[I].Size) + "\noffset " +
                std::to_string(A.offset(I)) +
                "\nfirst: " + describeTask(Ops, A.Records[I].FirstTask) +
                "\nlast: " + describeTask(Ops, A.Records[I].LastTask);
  return TB;
}

static TimelineBuffer bufferFromRecords(const ArenaResult &A, size_t I) {
  TimelineBuffer TB;
  TB.Label = A.Buffers[I].Id;
  TB.Tooltip = "id " + TB.Label + "\nsize " + formatBytes(A.Records[I].Size) +
               "\noffset " + std::to_string(A.offset(I)) + "\n" +
               tasksText(A.Records[I]);
  return TB;
}

static TimelineSection section(const FunctionReport &F, const ArenaResult &A) {
  TimelineSection S;
  std::string Chosen =
      A.Chosen == A.Requested ? "" : " (chose " + A.Chosen + ")";
  if (F.RecordFile) {
    S.Title = F.Function + ": " + A.Requested;
    S.Subtitle =
        std::string(A.Kind == StrategyKind::SharedObjects ? "shared objects"
                                                          : "offsets") +
        Chosen + ", alignment " + std::to_string(A.Alignment) +
        (A.Optimal ? ", proven optimal" : "");
  } else {
    S.Title = "@" + F.Function;
    if (!A.MemorySpace.empty())
      S.Title += " (memory space " + A.MemorySpace + ")";
    S.Subtitle = "strategy " + A.Requested + Chosen + ", alignment " +
                 std::to_string(A.Alignment) + ", " +
                 std::to_string(F.Unplanned.size()) +
                 (F.Unplanned.size() == 1 ? " buffer" : " buffers") +
                 " not planned; " + F.Location;
    // The arena is one part of what the function holds.
    const FootprintReport &P = F.Footprint;
    S.Subtitle += "; footprint of @" + F.Function + ": steady " +
                  formatBytes(P.Steady) + " (arenas " + formatBytes(P.Arenas) +
                  ", callees " + formatBytes(P.Callees) + ", hoisted " +
                  formatBytes(P.Hoisted) + "), first call " +
                  formatBytes(P.FirstCall);
    S.NumTasks = F.NumTasks;
  }
  S.Arena = A;
  S.Buffers.reserve(A.Records.size());
  for (size_t I = 0; I < A.Records.size(); ++I)
    S.Buffers.push_back(F.RecordFile ? bufferFromRecords(A, I)
                                     : bufferFromIR(A, I));
  // In-place pairs: the tooltips say which buffers share bytes.
  for (auto [I, Of] : llvm::enumerate(A.inplaceOf())) {
    if (!Of)
      continue;
    TimelineBuffer &Result = S.Buffers[I];
    TimelineBuffer &Operand = S.Buffers[*Of];
    Result.Tooltip += "\nin place: takes the bytes of " + Operand.Label;
    Operand.Tooltip += "\nin place: its bytes go on in " + Result.Label;
  }
  return S;
}

std::vector<TimelineSection>
memplan::timelineSections(llvm::ArrayRef<FunctionReport> Functions) {
  std::vector<TimelineSection> Sections;
  for (const FunctionReport &F : Functions)
    for (const ArenaResult &A : F.Arenas)
      Sections.push_back(section(F, A));
  return Sections;
}
