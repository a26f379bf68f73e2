//===- TimelineSVG.cpp - One timeline section drawn in SVG ----------------===//

#include "TimelineRender.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>

using namespace memplan;
using namespace memplan::timeline;

void timeline::renderSection(const TimelineSection &S,
                             const SectionShape &Shape, double Y0, bool Html,
                             llvm::raw_ostream &OS, size_t Index) {
  const auto &Steps = Shape.Steps;
  const auto &PeakLive = Shape.PeakLive;
  uint64_t PeakTask = Shape.PeakTask, Tasks = Shape.Tasks, Top = Shape.Top;
  Scale Sc;
  Sc.Y0 = Y0;
  Sc.Tasks = static_cast<double>(Tasks);
  Sc.Bytes = static_cast<double>(Top) * 1.04;

  OS << "<g class=\"section\" data-buffers=\"" << S.Buffers.size() << "\">\n";
  if (Html)
    OS << "<clipPath id=\"clip" << Index << "\"><rect x=\"" << num(kLeft)
       << "\" y=\"" << num(Y0 + kTop) << "\" width=\"" << num(kPlotWidth)
       << "\" height=\"" << num(kPlotHeight) << "\"/></clipPath>\n";
  OS << "<text class=\"title\" x=\"" << num(kLeft) << "\" y=\"" << num(Y0 + 24)
     << "\">" << escape(S.Title) << "</text>\n";
  OS << "<text class=\"subtitle\" x=\"" << num(kLeft) << "\" y=\""
     << num(Y0 + 42) << "\">" << escape(S.Subtitle) << "</text>\n";
  // Plot frame and ticks.
  OS << "<rect class=\"frame\" x=\"" << num(kLeft) << "\" y=\""
     << num(Y0 + kTop) << "\" width=\"" << num(kPlotWidth) << "\" height=\""
     << num(kPlotHeight) << "\"/>\n";
  // Ticks: redrawn by the page's script on zoom.
  OS << "<g class=\"ticks\">\n";
  double XStep = tickStep(Sc.Tasks, 8);
  for (double T = 0; T <= Sc.Tasks; T += XStep)
    OS << "<text class=\"tick\" text-anchor=\"middle\" x=\"" << num(Sc.x(T))
       << "\" y=\"" << num(Y0 + kTop + kPlotHeight + 16) << "\">"
       << static_cast<uint64_t>(T) << "</text>\n";
  OS << "<text class=\"axis\" text-anchor=\"middle\" x=\""
     << num(kLeft + kPlotWidth / 2) << "\" y=\""
     << num(Y0 + kTop + kPlotHeight + 36) << "\">task</text>\n";
  // Byte ticks at 1-2-5 steps of the largest binary unit that fits.
  double Unit = 1;
  const char *UnitName = "B";
  for (auto [U, Name] : {std::pair{1024.0, "KiB"}, std::pair{1048576.0, "MiB"},
                         std::pair{1073741824.0, "GiB"}})
    if (Sc.Bytes >= 2 * U) {
      Unit = U;
      UnitName = Name;
    }
  double YStep = tickStep(Sc.Bytes / Unit, 6) * Unit;
  for (double V = 0; V <= Sc.Bytes; V += YStep) {
    OS << "<line class=\"grid\" x1=\"" << num(kLeft) << "\" x2=\""
       << num(kLeft + kPlotWidth) << "\" y1=\"" << num(Sc.y(V)) << "\" y2=\""
       << num(Sc.y(V)) << "\"/>\n";
    OS << "<text class=\"tick\" text-anchor=\"end\" x=\"" << num(kLeft - 6)
       << "\" y=\"" << num(Sc.y(V) + 4) << "\">" << llvm::format("%g", V / Unit)
       << " " << UnitName << "</text>\n";
  }
  OS << "</g>\n";
  OS << "<text class=\"axis\" transform=\"translate(16,"
     << num(Y0 + kTop + kPlotHeight / 2)
     << ") rotate(-90)\" text-anchor=\"middle\">offset</text>\n";

  // One rectangle per buffer; the class is what tests count.
  if (Html)
    OS << "<g class=\"plot\" clip-path=\"url(#clip" << Index << ")\">\n";
  const ArenaResult &A = S.Arena;
  for (auto [I, B] : llvm::enumerate(S.Buffers)) {
    const UsageRecord &R = A.Records[I];
    double X = Sc.x(R.FirstTask);
    double W = std::max(Sc.x(R.LastTask + 1) - X, 0.5);
    double Y = Sc.y(A.offset(I) + R.Size);
    double H = std::max(Sc.y(A.offset(I)) - Y, 0.5);
    double Hue = std::fmod(I * 137.508, 360.0);
    // A buffer that takes another's bytes in place is drawn dashed.
    OS << "<rect class=\"buffer" << (Shape.InplaceOf[I] ? " inplace" : "")
       << "\" x=\"" << num(X) << "\" y=\"" << num(Y) << "\" width=\"" << num(W)
       << "\" height=\"" << num(H) << "\" fill=\"hsl(" << num(Hue)
       << ",65%,62%)\" stroke=\"hsl(" << num(Hue) << ",60%,32%)\"";
    if (Html)
      OS << " data-i=\"" << I << "\" data-tip=\"" << escape(B.Tooltip)
         << "\"/>\n";
    else
      OS << "><title>" << escape(B.Tooltip) << "</title></rect>\n";
    // A label only where it is readable.
    if (!B.Label.empty() && W >= 7.0 * B.Label.size() + 4 && H >= 12)
      OS << "<text class=\"label\" data-i=\"" << I
         << "\" text-anchor=\"middle\" x=\"" << num(X + W / 2) << "\" y=\""
         << num(Y + H / 2 + 4) << "\">" << escape(B.Label) << "</text>\n";
  }

  // Live bytes: a step curve; no offset plan can go below its peak.
  OS << "<path class=\"live\" d=\"M" << num(Sc.x(0)) << "," << num(Sc.y(0));
  uint64_t Prev = 0;
  for (auto [Task, Live] : Steps) {
    OS << " L" << num(Sc.x(Task)) << "," << num(Sc.y(Prev)) << " L"
       << num(Sc.x(Task)) << "," << num(Sc.y(Live));
    Prev = Live;
  }
  OS << " L" << num(Sc.x(Tasks)) << "," << num(Sc.y(Prev)) << "\"/>\n";
  auto HLine = [&](const char *Class, uint64_t V) {
    OS << "<line class=\"" << Class << "\" x1=\"" << num(kLeft) << "\" x2=\""
       << num(kLeft + kPlotWidth) << "\" y1=\"" << num(Sc.y(V)) << "\" y2=\""
       << num(Sc.y(V)) << "\"/>\n";
  };
  HLine("bound", A.liveBound());
  HLine("arena", A.arenaSize());
  // The peak: a vertical line through the middle of its task.
  double PX = Sc.x(static_cast<double>(PeakTask) + 0.5);
  OS << "<line class=\"peak\" data-task=\"" << PeakTask << "\" x1=\"" << num(PX)
     << "\" x2=\"" << num(PX) << "\" y1=\"" << num(Y0 + kTop) << "\" y2=\""
     << num(Y0 + kTop + kPlotHeight) << "\"/>\n";
  if (Html)
    OS << "</g>\n";

  // Legend.
  double LY = Y0 + kTop + 8;
  auto Key = [&](const char *Class, llvm::StringRef Text) {
    OS << "<line class=\"" << Class << "\" x1=\"" << num(kLegendX) << "\" x2=\""
       << num(kLegendX + 24) << "\" y1=\"" << num(LY) << "\" y2=\"" << num(LY)
       << "\"/><text class=\"legend\" x=\"" << num(kLegendX + 30) << "\" y=\""
       << num(LY + 4) << "\">" << escape(Text) << "</text>\n";
    LY += 20;
  };
  auto Line = [&](llvm::StringRef Text) {
    OS << "<text class=\"legend\" x=\"" << num(kLegendX) << "\" y=\""
       << num(LY + 4) << "\">" << escape(Text) << "</text>\n";
    LY += 18;
  };
  Key("arena", "arena " + formatBytes(A.arenaSize()));
  Key("bound", "lower bound " + formatBytes(A.liveBound()));
  Key("live", "live bytes");
  Key("peak", "peak: task " + std::to_string(PeakTask) + ", " +
                  std::to_string(PeakLive.size()) + " live");
  if (const TaskOp *Op = findTaskOp(S.Arena.TaskOps, PeakTask))
    Line("peak op: " + Op->Op);
  size_t NumInplace = llvm::count_if(
      Shape.InplaceOf, [](std::optional<size_t> Of) { return Of.has_value(); });
  if (NumInplace)
    Line(std::to_string(NumInplace) + " in place (dashed): counted once");
  LY += 6;
  double Ratio = A.liveBound() ? static_cast<double>(A.arenaSize()) /
                                     static_cast<double>(A.liveBound())
                               : 1.0;
  std::string R;
  llvm::raw_string_ostream(R)
      << "arena / bound = " << llvm::format("%.4f", Ratio);
  Line(R);
  Line(std::to_string(S.Buffers.size()) +
       (S.Buffers.size() == 1 ? " buffer, " : " buffers, ") +
       std::to_string(Tasks) + (Tasks == 1 ? " task" : " tasks"));
  OS << "</g>\n";
}

const char *const timeline::Style = R"(
  .title { font: bold 16px sans-serif; }
  .subtitle, .legend { font: 12px sans-serif; }
  .tick { font: 10px sans-serif; fill: #444; }
  .axis { font: 12px sans-serif; fill: #222; }
  .label { font: 10px monospace; fill: #111; pointer-events: none; }
  .frame { fill: #fbfbfb; stroke: #888; }
  .grid { stroke: #e4e4e4; }
  .buffer { stroke-width: 0.6; fill-opacity: 0.85; }
  .buffer.inplace { stroke-dasharray: 3 2; stroke-width: 1.2; }
  .buffer:hover, .buffer.hl { fill-opacity: 1; stroke: #000; stroke-width: 1.5; }
  .live { fill: none; stroke: #d62728; stroke-width: 1.2; }
  .bound { stroke: #1f77b4; stroke-width: 1.5; stroke-dasharray: 6 3; }
  .arena { stroke: #000; stroke-width: 1.5; }
  .peak { stroke: #6a0dad; stroke-width: 2.5; stroke-dasharray: 6 3; }
)";

static void renderSVG(llvm::ArrayRef<TimelineSection> Sections, bool Html,
                      llvm::raw_ostream &OS) {
  double Height = kHeight * std::max<size_t>(Sections.size(), 1);
  OS << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(kWidth)
     << "\" height=\"" << num(Height) << "\" viewBox=\"0 0 " << num(kWidth)
     << " " << num(Height) << "\">\n";
  if (!Html)
    OS << "<style>" << Style << "</style>\n"
       << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  for (auto [I, S] : llvm::enumerate(Sections))
    renderSection(S, shapeOf(S), static_cast<double>(I) * kHeight, Html, OS);
  OS << "</svg>\n";
}

void memplan::renderTimelineSVG(llvm::ArrayRef<TimelineSection> Sections,
                                llvm::raw_ostream &OS) {
  OS << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  renderSVG(Sections, /*Html=*/false, OS);
}
