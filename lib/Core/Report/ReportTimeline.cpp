//===- ReportTimeline.cpp - The report as timeline sections ---------------===//
//
// One picture per arena, whether the report comes from the pass (buffers with
// ops and locations) or from a record file (buffers with ids).
//
//===----------------------------------------------------------------------===//

#include "memplan/Core/Report.h"

#include "llvm/ADT/STLExtras.h"

#include <map>

using namespace memplan;

static std::string tasksText(const UsageRecord &R) {
  return "tasks [" + std::to_string(R.FirstTask) + ", " +
         std::to_string(R.LastTask) + "]";
}

/// A buffer of the pass: where it is filled (the linalg op whose outs it is,
/// ...) is what a reader looks for, more than the alloc.
static TimelineBuffer bufferFromIR(const BufferReport &B) {
  TimelineBuffer TB;
  TB.Record = B.Record;
  TB.Offset = B.Offset;
  TB.Label = "#" + B.Id;
  TB.Id = TB.Label;
  bool HasWriter = !B.WriterOp.empty();
  TB.Op = HasWriter ? B.WriterOp : B.Op;
  TB.Location = HasWriter ? B.WriterLocation : B.Location;
  TB.Tooltip = TB.Label + " " + TB.Op + " " + B.Type + "\n" + TB.Location;
  if (TB.Location != B.Location)
    TB.Tooltip += "\nallocated at " + B.Location;
  TB.Tooltip += "\nsize " + formatBytes(B.Record.Size) + "\noffset " +
                std::to_string(B.Offset) + "\n" + tasksText(B.Record);
  return TB;
}

static TimelineBuffer bufferFromRecords(const BufferReport &B) {
  TimelineBuffer TB;
  TB.Record = B.Record;
  TB.Offset = B.Offset;
  TB.Label = B.Id;
  TB.Tooltip = "id " + B.Id + "\nsize " + formatBytes(B.Record.Size) +
               "\noffset " + std::to_string(B.Offset) + "\n" +
               tasksText(B.Record);
  return TB;
}

static TimelineSection section(const FunctionReport &F, const ArenaReport &A) {
  TimelineSection S;
  std::string Chosen = A.Chosen.empty() || A.Chosen == A.Requested
                           ? ""
                           : " (chose " + A.Chosen + ")";
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
                 std::to_string(F.Unplanned.size()) + " buffers not planned; " +
                 F.Location;
    // The arena is one part of what the function holds.
    const FootprintReport &P = F.Footprint;
    S.Subtitle += "; footprint of @" + F.Function + ": steady " +
                  formatBytes(P.Steady) + " (arenas " + formatBytes(P.Arenas) +
                  ", callees " + formatBytes(P.Callees) + ", hoisted " +
                  formatBytes(P.Hoisted) + "), first call " +
                  formatBytes(P.FirstCall);
    S.NumTasks = F.NumTasks;
  }
  S.ArenaSize = A.ArenaSize;
  S.LowerBound = A.LiveBound;
  S.Alignment = A.Alignment;
  S.Buffers.reserve(A.Buffers.size());
  std::map<std::string, size_t> Index;
  for (auto [I, B] : llvm::enumerate(A.Buffers)) {
    S.Buffers.push_back(F.RecordFile ? bufferFromRecords(B) : bufferFromIR(B));
    Index.try_emplace(B.Id, I);
  }
  // In-place pairs: the curve counts each chain once, and the tooltips say
  // which buffers share bytes.
  for (auto [I, B] : llvm::enumerate(A.Buffers)) {
    auto It = Index.find(B.InplaceOf);
    if (B.InplaceOf.empty() || It == Index.end())
      continue;
    TimelineBuffer &Result = S.Buffers[I];
    TimelineBuffer &Operand = S.Buffers[It->second];
    Result.InplaceOf = It->second;
    Result.Tooltip += "\nin place: takes the bytes of " + Operand.Label;
    Operand.Tooltip += "\nin place: its bytes go on in " + Result.Label;
  }
  TimelinePeak Peak;
  Peak.Task = A.Peak.Task;
  Peak.Bytes = A.Peak.Bytes;
  Peak.Live = A.Peak.Live;
  Peak.Op = A.PeakOp;
  Peak.Location = A.PeakLocation;
  S.ReportedPeak = std::move(Peak);
  return S;
}

std::vector<TimelineSection>
memplan::timelineSections(llvm::ArrayRef<FunctionReport> Functions) {
  std::vector<TimelineSection> Sections;
  for (const FunctionReport &F : Functions)
    for (const ArenaReport &A : F.Arenas)
      Sections.push_back(section(F, A));
  return Sections;
}
