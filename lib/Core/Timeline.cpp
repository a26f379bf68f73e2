//===- Timeline.cpp - A plan as a picture ---------------------------------===//

#include "memplan/Core/Timeline.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace memplan;

namespace {
// Layout of one section, in SVG user units.
constexpr double kWidth = 1000, kLeft = 90, kPlotWidth = 640, kTop = 56,
                 kPlotHeight = 400, kHeight = kTop + kPlotHeight + 64,
                 kLegendX = kLeft + kPlotWidth + 30;

/// Maps tasks and bytes of one section to SVG coordinates.
struct Scale {
  double Tasks = 1, Bytes = 1, Y0 = 0;
  double x(double Task) const { return kLeft + Task / Tasks * kPlotWidth; }
  double y(double Byte) const {
    return Y0 + kTop + kPlotHeight - Byte / Bytes * kPlotHeight;
  }
};
} // namespace

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

/// Text safe inside XML content and attribute values.
static std::string escape(llvm::StringRef S) {
  std::string Out;
  for (char C : S) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    case '\n':
      Out += "&#10;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

static std::string num(double V) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format("%.2f", V);
  return S;
}

/// A 1-2-5 step giving about Target ticks up to Max.
static double tickStep(double Max, int Target) {
  double Raw = Max / Target;
  if (Raw <= 1)
    return 1;
  double Pow = std::pow(10.0, std::floor(std::log10(Raw)));
  for (double M : {1.0, 2.0, 5.0, 10.0})
    if (M * Pow >= Raw)
      return M * Pow;
  return 10 * Pow;
}

static uint64_t alignUp(uint64_t V, uint64_t A) {
  return A <= 1 ? V : (V + A - 1) / A * A;
}

/// Live bytes as steps: (task where the value starts, value), in task order.
static std::vector<std::pair<uint64_t, uint64_t>>
liveBytesSteps(const TimelineSection &S) {
  std::map<uint64_t, int64_t> Delta;
  for (const TimelineBuffer &B : S.Buffers) {
    uint64_t Size = alignUp(B.Record.Size, S.Alignment);
    Delta[B.Record.FirstTask] += static_cast<int64_t>(Size);
    Delta[B.Record.LastTask + 1] -= static_cast<int64_t>(Size);
  }
  std::vector<std::pair<uint64_t, uint64_t>> Steps;
  int64_t Live = 0;
  for (auto [Task, D] : Delta) {
    Live += D;
    Steps.push_back({Task, static_cast<uint64_t>(Live)});
  }
  return Steps;
}

static void renderSection(const TimelineSection &S, double Y0, bool Html,
                          llvm::raw_ostream &OS) {
  auto Steps = liveBytesSteps(S);
  Scale Sc;
  Sc.Y0 = Y0;
  uint64_t Tasks = std::max<uint64_t>(S.NumTasks, 1), Top = 1, Peak = 0;
  for (const TimelineBuffer &B : S.Buffers) {
    Tasks = std::max(Tasks, B.Record.LastTask + 1);
    Top = std::max(Top, B.Offset + B.Record.Size);
  }
  for (auto [Task, Live] : Steps)
    Peak = std::max(Peak, Live);
  Top = std::max({Top, S.ArenaSize, S.LowerBound, Peak});
  Sc.Tasks = static_cast<double>(Tasks);
  Sc.Bytes = static_cast<double>(Top) * 1.04;

  OS << "<g class=\"section\" data-buffers=\"" << S.Buffers.size() << "\">\n";
  OS << "<text class=\"title\" x=\"" << kLeft << "\" y=\"" << num(Y0 + 24)
     << "\">" << escape(S.Title) << "</text>\n";
  OS << "<text class=\"subtitle\" x=\"" << kLeft << "\" y=\"" << num(Y0 + 42)
     << "\">" << escape(S.Subtitle) << "</text>\n";
  // Plot frame and ticks.
  OS << "<rect class=\"frame\" x=\"" << kLeft << "\" y=\"" << num(Y0 + kTop)
     << "\" width=\"" << kPlotWidth << "\" height=\"" << kPlotHeight
     << "\"/>\n";
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
    OS << "<line class=\"grid\" x1=\"" << kLeft << "\" x2=\""
       << kLeft + kPlotWidth << "\" y1=\"" << num(Sc.y(V)) << "\" y2=\""
       << num(Sc.y(V)) << "\"/>\n";
    OS << "<text class=\"tick\" text-anchor=\"end\" x=\"" << kLeft - 6
       << "\" y=\"" << num(Sc.y(V) + 4) << "\">" << llvm::format("%g", V / Unit)
       << " " << UnitName << "</text>\n";
  }
  OS << "<text class=\"axis\" transform=\"translate(16,"
     << num(Y0 + kTop + kPlotHeight / 2)
     << ") rotate(-90)\" text-anchor=\"middle\">offset</text>\n";

  // One rectangle per buffer; the class is what tests count.
  for (auto [I, B] : llvm::enumerate(S.Buffers)) {
    double X = Sc.x(B.Record.FirstTask);
    double W = std::max(Sc.x(B.Record.LastTask + 1) - X, 0.5);
    double Y = Sc.y(B.Offset + B.Record.Size);
    double H = std::max(Sc.y(B.Offset) - Y, 0.5);
    double Hue = std::fmod(I * 137.508, 360.0);
    OS << "<rect class=\"buffer\" x=\"" << num(X) << "\" y=\"" << num(Y)
       << "\" width=\"" << num(W) << "\" height=\"" << num(H)
       << "\" fill=\"hsl(" << num(Hue) << ",65%,62%)\" stroke=\"hsl("
       << num(Hue) << ",60%,32%)\"";
    if (Html)
      OS << " data-tip=\"" << escape(B.Tooltip) << "\"/>\n";
    else
      OS << "><title>" << escape(B.Tooltip) << "</title></rect>\n";
    // A label only where it is readable.
    if (!B.Label.empty() && W >= 7.0 * B.Label.size() + 4 && H >= 12)
      OS << "<text class=\"label\" text-anchor=\"middle\" x=\""
         << num(X + W / 2) << "\" y=\"" << num(Y + H / 2 + 4) << "\">"
         << escape(B.Label) << "</text>\n";
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
    OS << "<line class=\"" << Class << "\" x1=\"" << kLeft << "\" x2=\""
       << kLeft + kPlotWidth << "\" y1=\"" << num(Sc.y(V)) << "\" y2=\""
       << num(Sc.y(V)) << "\"/>\n";
  };
  HLine("bound", S.LowerBound);
  HLine("arena", S.ArenaSize);

  // Legend.
  double LY = Y0 + kTop + 8;
  auto Key = [&](const char *Class, llvm::StringRef Text) {
    OS << "<line class=\"" << Class << "\" x1=\"" << kLegendX << "\" x2=\""
       << kLegendX + 24 << "\" y1=\"" << num(LY) << "\" y2=\"" << num(LY)
       << "\"/><text class=\"legend\" x=\"" << kLegendX + 30 << "\" y=\""
       << num(LY + 4) << "\">" << escape(Text) << "</text>\n";
    LY += 20;
  };
  auto Line = [&](llvm::StringRef Text) {
    OS << "<text class=\"legend\" x=\"" << kLegendX << "\" y=\"" << num(LY + 4)
       << "\">" << escape(Text) << "</text>\n";
    LY += 18;
  };
  Key("arena", "arena " + formatBytes(S.ArenaSize));
  Key("bound", "lower bound " + formatBytes(S.LowerBound));
  Key("live", "live bytes");
  LY += 6;
  double Ratio = S.LowerBound ? static_cast<double>(S.ArenaSize) /
                                    static_cast<double>(S.LowerBound)
                              : 1.0;
  std::string R;
  llvm::raw_string_ostream(R)
      << "arena / bound = " << llvm::format("%.4f", Ratio);
  Line(R);
  Line(std::to_string(S.Buffers.size()) + " buffers, " + std::to_string(Tasks) +
       " tasks");
  OS << "</g>\n";
}

static const char *kStyle = R"(
  .title { font: bold 16px sans-serif; }
  .subtitle, .legend { font: 12px sans-serif; }
  .tick { font: 10px sans-serif; fill: #444; }
  .axis { font: 12px sans-serif; fill: #222; }
  .label { font: 10px monospace; fill: #111; pointer-events: none; }
  .frame { fill: #fbfbfb; stroke: #888; }
  .grid { stroke: #e4e4e4; }
  .buffer { stroke-width: 0.6; fill-opacity: 0.85; }
  .buffer:hover, .buffer.hl { fill-opacity: 1; stroke: #000; stroke-width: 1.5; }
  .live { fill: none; stroke: #d62728; stroke-width: 1.5; }
  .bound { stroke: #1f77b4; stroke-width: 1.5; stroke-dasharray: 6 3; }
  .arena { stroke: #000; stroke-width: 1.5; }
)";

static void renderSVG(llvm::ArrayRef<TimelineSection> Sections, bool Html,
                      llvm::raw_ostream &OS) {
  double Height = kHeight * std::max<size_t>(Sections.size(), 1);
  OS << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth
     << "\" height=\"" << Height << "\" viewBox=\"0 0 " << kWidth << " "
     << Height << "\">\n";
  if (!Html)
    OS << "<style>" << kStyle << "</style>\n"
       << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  for (auto [I, S] : llvm::enumerate(Sections))
    renderSection(S, static_cast<double>(I) * kHeight, Html, OS);
  OS << "</svg>\n";
}

void memplan::renderTimelineSVG(llvm::ArrayRef<TimelineSection> Sections,
                                llvm::raw_ostream &OS) {
  OS << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  renderSVG(Sections, /*Html=*/false, OS);
}

void memplan::renderTimelineHTML(llvm::ArrayRef<TimelineSection> Sections,
                                 llvm::raw_ostream &OS) {
  size_t NumBuffers = 0;
  for (const TimelineSection &S : Sections)
    NumBuffers += S.Buffers.size();
  OS << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
     << "<title>memplan timeline</title>\n<style>" << kStyle
     << "  body { font-family: sans-serif; margin: 16px; }\n"
     << "  #tip { position: absolute; display: none; white-space: pre;"
     << " background: #ffffe8; border: 1px solid #999; padding: 4px 6px;"
     << " font: 12px monospace; pointer-events: none; }\n</style></head>\n"
     << "<body>\n<h1>memplan timeline</h1>\n"
     << "<p>x: task (op number), y: offset in the arena; one rectangle per "
        "buffer (hover for its location, size and interval).</p>\n"
     << "<p id=\"status\" data-expected=\"" << NumBuffers << "\"></p>\n";
  renderSVG(Sections, /*Html=*/true, OS);
  // Tooltips, and a count of what the browser drew for tests to read.
  OS << R"(<div id="tip"></div>
<script>
(function () {
  var tip = document.getElementById('tip');
  var rects = document.querySelectorAll('rect.buffer');
  rects.forEach(function (r) {
    r.addEventListener('mousemove', function (e) {
      tip.textContent = r.getAttribute('data-tip');
      tip.style.display = 'block';
      tip.style.left = (e.pageX + 14) + 'px';
      tip.style.top = (e.pageY + 14) + 'px';
      r.classList.add('hl');
    });
    r.addEventListener('mouseleave', function () {
      tip.style.display = 'none';
      r.classList.remove('hl');
    });
  });
  var s = document.getElementById('status');
  s.setAttribute('data-drawn', rects.length);
  s.textContent = rects.length + ' buffers drawn';
})();
</script>
</body></html>
)";
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
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC)
    return llvm::createStringError(EC, "cannot write '" + Path +
                                           "': " + EC.message());
  if (*Format == TimelineFormat::SVG)
    renderTimelineSVG(Sections, OS);
  else
    renderTimelineHTML(Sections, OS);
  return llvm::Error::success();
}
