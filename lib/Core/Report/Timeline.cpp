//===- Timeline.cpp - A plan as a picture: shared helpers and files -------===//
//
// What both renderers use (escaping, ticks, live-bytes steps, the peak) and
// writing a timeline file; the SVG drawing is in TimelineSVG.cpp, the HTML
// page in TimelineHTML.cpp and its script in TimelineScript.cpp.
//
//===----------------------------------------------------------------------===//

#include "TimelineRender.h"
#include "memplan/Core/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <map>

using namespace memplan;
using namespace memplan::timeline;

std::string memplan::formatBytes(uint64_t Bytes) {
  const char *Units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (Bytes < 1024)
    return std::to_string(Bytes) + " B";
  double V = static_cast<double>(Bytes);
  int U = -1;
  while (V >= 1024 && U < 3) {
    V /= 1024;
    ++U;
  }
  std::string S;
  llvm::raw_string_ostream(S)
      << llvm::format("%.2f ", V) << Units[U] << " (" << Bytes << " B)";
  return S;
}

const TaskOp *memplan::findTaskOp(llvm::ArrayRef<TaskOp> Ops, uint64_t Task) {
  const TaskOp *It = llvm::partition_point(
      Ops, [&](const TaskOp &T) { return T.Task < Task; });
  return It != Ops.end() && It->Task == Task ? It : nullptr;
}

std::string memplan::describeTask(llvm::ArrayRef<TaskOp> Ops, uint64_t Task) {
  std::string S = "task " + std::to_string(Task);
  const TaskOp *Op = findTaskOp(Ops, Task);
  if (Op)
    S += ", " + (Op->Result.empty() ? "" : Op->Result + " = ") + Op->Op +
         " at " + Op->Location;
  if (Op && !Op->ParentOp.empty())
    S += " in " + Op->ParentOp + " at " + Op->ParentLocation;
  return S;
}

std::string timeline::escape(llvm::StringRef S) {
  // printHTMLEscaped leaves newlines as they are; an attribute value (the
  // HTML page's data-tip) needs them as a character reference.
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::SmallVector<llvm::StringRef> Lines;
  S.split(Lines, '\n');
  for (auto [I, Line] : llvm::enumerate(Lines)) {
    if (I)
      OS << "&#10;";
    llvm::printHTMLEscaped(Line, OS);
  }
  return Out;
}

std::string timeline::num(double V) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format("%.2f", V);
  return S;
}

double timeline::tickStep(double Max, int Target) {
  double Raw = Max / Target;
  if (Raw <= 1)
    return 1;
  double Pow = std::pow(10.0, std::floor(std::log10(Raw)));
  for (double M : {1.0, 2.0, 5.0, 10.0})
    if (M * Pow >= Raw)
      return M * Pow;
  return 10 * Pow;
}

uint64_t timeline::alignUp(uint64_t V, uint64_t A) {
  return A <= 1 ? V : llvm::alignTo(V, A);
}

timeline::SectionShape timeline::shapeOf(const TimelineSection &S) {
  SectionShape Shape;
  const ArenaResult &A = S.Arena;
  size_t N = A.Records.size();
  Shape.InplaceOf = A.inplaceOf();
  // Chains of in-place buffers; a link out of range or closing a cycle
  // (not from a valid plan) is ignored.
  Shape.Chain.resize(N);
  for (size_t I = 0; I < N; ++I) {
    size_t Root = I;
    for (size_t Steps = 0; Steps < N; ++Steps) {
      std::optional<size_t> Of = Shape.InplaceOf[Root];
      if (!Of || *Of >= N || *Of == I)
        break;
      Root = *Of;
    }
    Shape.Chain[I] = Root;
  }
  struct Span {
    uint64_t First = UINT64_MAX, Last = 0, Size = 0;
  };
  std::map<size_t, Span> Chains;
  for (auto [I, R] : llvm::enumerate(A.Records)) {
    Span &C = Chains[Shape.Chain[I]];
    C.First = std::min(C.First, R.FirstTask);
    C.Last = std::max(C.Last, R.LastTask);
    C.Size = std::max(C.Size, alignUp(R.Size, A.Alignment));
  }
  std::map<uint64_t, int64_t> Delta;
  for (const auto &[Root, C] : Chains) {
    Delta[C.First] += static_cast<int64_t>(C.Size);
    Delta[C.Last + 1] -= static_cast<int64_t>(C.Size);
  }
  int64_t Live = 0;
  uint64_t Max = 0;
  for (auto [Task, D] : Delta) {
    Live += D;
    Shape.Steps.push_back({Task, static_cast<uint64_t>(Live)});
    if (static_cast<uint64_t>(Live) > Max) {
      Max = static_cast<uint64_t>(Live);
      Shape.PeakTask = Task;
    }
  }
  Shape.PeakBytes = Max;
  if (Max) {
    // Per chain, its largest member live at the peak (the first of equals,
    // aligned sizes), as the report names it.
    std::map<size_t, size_t> Member;
    for (auto [I, R] : llvm::enumerate(A.Records)) {
      if (R.FirstTask > Shape.PeakTask || Shape.PeakTask > R.LastTask)
        continue;
      auto [It, New] = Member.try_emplace(Shape.Chain[I], I);
      if (!New && alignUp(A.Records[It->second].Size, A.Alignment) <
                      alignUp(R.Size, A.Alignment))
        It->second = I;
    }
    for (auto [Root, I] : Member)
      Shape.PeakLive.push_back(I);
    llvm::sort(Shape.PeakLive);
  }
  Shape.Tasks = std::max<uint64_t>(S.NumTasks, 1);
  for (auto [I, R] : llvm::enumerate(A.Records)) {
    Shape.Tasks = std::max(Shape.Tasks, R.LastTask + 1);
    Shape.Top = std::max(Shape.Top, A.offset(I) + R.Size);
  }
  Shape.Top = std::max({Shape.Top, A.arenaSize(), A.liveBound(), Max});
  return Shape;
}

llvm::Expected<TimelineFormat>
memplan::timelineFormatForPath(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  if (Ext.equals_insensitive(".svg"))
    return TimelineFormat::SVG;
  if (Ext.equals_insensitive(".html") || Ext.equals_insensitive(".htm"))
    return TimelineFormat::HTML;
  return llvm::createStringError("timeline file '" + Path +
                                 "' must end in .svg or .html");
}

llvm::Error
memplan::writeTimelineFile(llvm::StringRef Path,
                           llvm::ArrayRef<TimelineSection> Sections) {
  llvm::Expected<TimelineFormat> Format = timelineFormatForPath(Path);
  if (!Format)
    return Format.takeError();
  return writeOutputFile(Path, [&](llvm::raw_ostream &OS) {
    if (*Format == TimelineFormat::SVG)
      renderTimelineSVG(Sections, OS);
    else
      renderTimelineHTML(Sections, OS);
  });
}
