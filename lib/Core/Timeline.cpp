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
// The legend column is wide enough for "lower bound 1023.99 MiB
// (1073731824 B)" at 12px.
constexpr double kWidth = 1120, kLeft = 90, kPlotWidth = 640, kTop = 56,
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

/// The first task where the live (aligned) bytes peak, and the buffers live
/// there.
static std::pair<uint64_t, std::vector<size_t>>
peakOf(const TimelineSection &S,
       llvm::ArrayRef<std::pair<uint64_t, uint64_t>> Steps) {
  uint64_t Task = 0, Max = 0;
  for (auto [T, Live] : Steps)
    if (Live > Max) {
      Max = Live;
      Task = T;
    }
  std::vector<size_t> Live;
  if (Max)
    for (auto [I, B] : llvm::enumerate(S.Buffers))
      if (B.Record.FirstTask <= Task && Task <= B.Record.LastTask)
        Live.push_back(I);
  return {Task, std::move(Live)};
}

/// JSON-safe text (inside a <script> too: no "</").
static std::string jsonString(llvm::StringRef S) {
  std::string Out = "\"";
  for (char C : S) {
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '<':
      Out += "\\u003c";
      break;
    case '&':
      Out += "\\u0026";
      break;
    default:
      if (static_cast<unsigned char>(C) < 0x20)
        Out += " ";
      else
        Out += C;
    }
  }
  return Out + "\"";
}

static void renderSection(const TimelineSection &S, double Y0, bool Html,
                          llvm::raw_ostream &OS, size_t Index = 0) {
  auto Steps = liveBytesSteps(S);
  auto [PeakTask, PeakLive] = peakOf(S, Steps);
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
  HLine("bound", S.LowerBound);
  HLine("arena", S.ArenaSize);
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
  Key("arena", "arena " + formatBytes(S.ArenaSize));
  Key("bound", "lower bound " + formatBytes(S.LowerBound));
  Key("live", "live bytes");
  Key("peak", "peak: task " + std::to_string(PeakTask) + ", " +
                  std::to_string(PeakLive.size()) + " live");
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

/// The data the page's script draws from: per buffer [first, last, offset,
/// size], the live-bytes steps and the peak.
static void renderSectionData(const TimelineSection &S, llvm::raw_ostream &OS) {
  auto Steps = liveBytesSteps(S);
  auto [PeakTask, PeakLive] = peakOf(S, Steps);
  uint64_t Tasks = std::max<uint64_t>(S.NumTasks, 1), Top = 1, Peak = 0;
  for (const TimelineBuffer &B : S.Buffers) {
    Tasks = std::max(Tasks, B.Record.LastTask + 1);
    Top = std::max(Top, B.Offset + B.Record.Size);
  }
  for (auto [Task, Live] : Steps)
    Peak = std::max(Peak, Live);
  Top = std::max({Top, S.ArenaSize, S.LowerBound, Peak});
  OS << "{\"tasks\":" << Tasks << ",\"top\":" << Top
     << ",\"arena\":" << S.ArenaSize << ",\"bound\":" << S.LowerBound
     << ",\"peak\":" << PeakTask << ",\"b\":[";
  for (auto [I, B] : llvm::enumerate(S.Buffers))
    OS << (I ? "," : "") << "[" << B.Record.FirstTask << ","
       << B.Record.LastTask << "," << B.Offset << "," << B.Record.Size << "]";
  OS << "],\"steps\":[";
  for (auto [I, St] : llvm::enumerate(Steps))
    OS << (I ? "," : "") << "[" << St.first << "," << St.second << "]";
  OS << "]}";
}

/// The sortable "live at the peak" table of one section.
static void renderPeakTable(const TimelineSection &S, llvm::raw_ostream &OS) {
  auto Steps = liveBytesSteps(S);
  auto [PeakTask, PeakLive] = peakOf(S, Steps);
  // Largest first: what makes the peak.
  std::vector<size_t> Order = PeakLive;
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return S.Buffers[A].Record.Size > S.Buffers[B].Record.Size;
  });
  uint64_t Sum = 0;
  for (size_t I : PeakLive)
    Sum += alignUp(S.Buffers[I].Record.Size, S.Alignment);
  OS << "<details class=\"peak-box\" open><summary>Live at the peak (task "
     << PeakTask << "): " << PeakLive.size() << " buffers, "
     << escape(formatBytes(Sum))
     << " aligned; click a column to sort, a row to find the buffer"
     << "</summary>\n<table class=\"peak-table\"><thead><tr>"
     << "<th data-k=\"n\">buffer</th><th data-k=\"n\">size</th>"
     << "<th data-k=\"n\">offset</th><th data-k=\"n\">first</th>"
     << "<th data-k=\"n\">last</th><th data-k=\"s\">op</th>"
     << "<th data-k=\"s\">location</th></tr></thead><tbody>\n";
  for (size_t I : Order) {
    const TimelineBuffer &B = S.Buffers[I];
    std::string Id = B.Id.empty() ? B.Label : B.Id;
    if (Id.empty())
      Id = std::to_string(I);
    auto Cell = [&](uint64_t V, llvm::StringRef Text) {
      OS << "<td data-v=\"" << V << "\">" << escape(Text) << "</td>";
    };
    OS << "<tr data-i=\"" << I << "\">";
    // Ids sort by their number when they have one ("#12" -> 12).
    uint64_t IdNum = I;
    llvm::StringRef Digits = llvm::StringRef(Id).ltrim("#");
    if (Digits.getAsInteger(10, IdNum))
      IdNum = I;
    Cell(IdNum, Id);
    Cell(B.Record.Size, formatBytes(B.Record.Size));
    Cell(B.Offset, std::to_string(B.Offset));
    Cell(B.Record.FirstTask, std::to_string(B.Record.FirstTask));
    Cell(B.Record.LastTask, std::to_string(B.Record.LastTask));
    OS << "<td>" << escape(B.Op) << "</td><td>" << escape(B.Location)
       << "</td></tr>\n";
  }
  OS << "</tbody></table></details>\n";
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
     << R"(  body { font-family: sans-serif; margin: 16px; }
  #tip { position: absolute; display: none; white-space: pre;
    background: #ffffe8; border: 1px solid #999; padding: 4px 6px;
    font: 12px monospace; pointer-events: none; z-index: 2; }
  .sec { margin-bottom: 28px; }
  .tools { font-size: 13px; margin: 4px 0; }
  .tools button { font-size: 12px; margin-right: 2px; }
  .tools .view { color: #555; margin-left: 8px; font: 12px monospace; }
  svg.tl { display: block; cursor: grab; user-select: none; }
  svg.tl.drag { cursor: grabbing; }
  .buffer.sel { stroke: #000; stroke-width: 2.5; fill-opacity: 1; }
  .peak-table { border-collapse: collapse; font-size: 12px; margin-top: 6px; }
  .peak-table th, .peak-table td { border: 1px solid #ccc; padding: 2px 6px;
    text-align: left; }
  .peak-table th { background: #eee; cursor: pointer; white-space: nowrap; }
  .peak-table th.asc::after { content: " \25B2"; }
  .peak-table th.desc::after { content: " \25BC"; }
  .peak-table tbody tr:hover { background: #ffffd8; cursor: pointer; }
  .peak-table td:nth-child(7) { font-family: monospace; }
  details.peak-box summary { cursor: pointer; font-size: 13px; }
</style></head>
<body>
<h1>memplan timeline</h1>
<p>x: task (op number), y: offset in the arena; one rectangle per buffer
(hover for the op that fills it, its location, size and interval). The
dashed purple line marks the peak of the live bytes. Wheel: zoom the tasks
(shift+wheel: the offsets); drag: pan. "spread" scales the offset axis so
small buffers stay visible beside big ones (its order is kept, not its
proportions).</p>
)";
  OS << "<p id=\"status\" data-expected=\"" << NumBuffers << "\"></p>\n"
     << "<p id=\"selftest\"></p>\n";
  for (auto [I, S] : llvm::enumerate(Sections)) {
    OS << "<div class=\"sec\" id=\"sec" << I << "\">\n<div class=\"tools\">"
       << "<button data-a=\"xin\" title=\"zoom in on the tasks\">zoom "
          "in</button>"
       << "<button data-a=\"xout\" title=\"zoom out on the tasks\">zoom "
          "out</button>"
       << "<button data-a=\"yin\" title=\"zoom in on the offsets\">y+</button>"
       << "<button data-a=\"yout\" title=\"zoom out on the "
          "offsets\">y&#8722;</button>"
       << "<button data-a=\"peak\" title=\"zoom to the tasks around the "
          "peak\">peak</button>"
       << "<button data-a=\"reset\">reset</button> y scale: "
       << "<select data-a=\"mode\"><option value=\"linear\">linear</option>"
       << "<option value=\"spread\">spread (small buffers visible)</option>"
       << "</select><span class=\"view\"></span></div>\n";
    OS << "<svg class=\"tl\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
       << num(kWidth) << "\" height=\"" << num(kHeight) << "\" viewBox=\"0 0 "
       << num(kWidth) << " " << num(kHeight) << "\">\n";
    renderSection(S, 0, /*Html=*/true, OS, I);
    OS << "</svg>\n<script type=\"application/json\" class=\"data\">";
    renderSectionData(S, OS);
    OS << "</script>\n";
    renderPeakTable(S, OS);
    OS << "</div>\n";
  }
  OS << "<div id=\"tip\"></div>\n<script>\nvar PLOT = {L: " << num(kLeft)
     << ", W: " << num(kPlotWidth) << ", T: " << num(kTop)
     << ", H: " << num(kPlotHeight) << ", WIDTH: " << num(kWidth) << "};\n";
  OS << R"JS((function () {
  var NS = 'http://www.w3.org/2000/svg';
  var tip = document.getElementById('tip');
  var L = PLOT.L, W = PLOT.W, T = PLOT.T, H = PLOT.H;
  function bytesText(v, digits) {
    if (digits > 6) return Math.round(v) + ' B';
    var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;
    while (Math.abs(v) >= 1024 && i < 4) { v /= 1024; ++i; }
    return (i ? v.toFixed(digits) : Math.round(v)) + ' ' + u[i];
  }
  function niceStep(span, n) {
    var raw = span / n;
    if (raw <= 1) return 1;
    var p = Math.pow(10, Math.floor(Math.log10(raw)));
    var ms = [1, 2, 5, 10];
    for (var i = 0; i < ms.length; ++i) if (ms[i] * p >= raw) return ms[i] * p;
    return 10 * p;
  }
  function el(tag, attrs, text) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function Section(box) {
    var d = JSON.parse(box.querySelector('script.data').textContent);
    var svg = box.querySelector('svg');
    var rects = svg.querySelectorAll('rect.buffer');
    var labels = {};
    svg.querySelectorAll('text.label').forEach(function (t) {
      labels[t.getAttribute('data-i')] = t;
    });
    var live = svg.querySelector('path.live');
    var bound = svg.querySelector('line.bound');
    var arena = svg.querySelector('line.arena');
    var peak = svg.querySelector('line.peak');
    var ticks = svg.querySelector('g.ticks');
    var view = box.querySelector('.view');
    var ymax = d.top * 1.04;
    // The spread scale: between consecutive buffer edges, a height that grows
    // with the square root of the gap, so a 1000x smaller buffer is ~30x
    // thinner rather than 1000x. Monotone: no two buffers overlap on it.
    var edges = [0, ymax];
    d.b.forEach(function (b) { edges.push(b[2], b[2] + b[3]); });
    edges.sort(function (a, b) { return a - b; });
    var E = [], C = [0];
    edges.forEach(function (e) { if (!E.length || e > E[E.length - 1]) E.push(e); });
    for (var i = 1; i < E.length; ++i) C.push(C[i - 1] + Math.sqrt(E[i] - E[i - 1]));
    var total = C[C.length - 1] || 1;
    var st = { t0: 0, t1: d.tasks, u0: 0, u1: 1, mode: 'linear' };
    function find(a, v) { // last index with a[i] <= v
      var lo = 0, hi = a.length - 1;
      while (lo < hi) { var m = (lo + hi + 1) >> 1; if (a[m] <= v) lo = m; else hi = m - 1; }
      return lo;
    }
    function u(byte) {
      if (st.mode === 'linear') return byte / ymax;
      if (byte >= E[E.length - 1]) return 1;
      var i = find(E, byte), g = E[i + 1] - E[i];
      return (C[i] + (g ? (byte - E[i]) / g * (C[i + 1] - C[i]) : 0)) / total;
    }
    function uinv(v) {
      if (st.mode === 'linear') return v * ymax;
      var c = v * total;
      if (c >= total) return E[E.length - 1];
      var i = find(C, c), g = C[i + 1] - C[i];
      return E[i] + (g ? (c - C[i]) / g * (E[i + 1] - E[i]) : 0);
    }
    function X(t) { return L + (t - st.t0) / (st.t1 - st.t0) * W; }
    function Y(byte) { return T + H - (u(byte) - st.u0) / (st.u1 - st.u0) * H; }
    function clampView() {
      var span = Math.min(Math.max(st.t1 - st.t0, 1), d.tasks);
      st.t0 = Math.min(Math.max(st.t0, 0), d.tasks - span); st.t1 = st.t0 + span;
      var us = Math.min(Math.max(st.u1 - st.u0, 1e-9), 1);
      st.u0 = Math.min(Math.max(st.u0, 0), 1 - us); st.u1 = st.u0 + us;
    }
    function draw() {
      clampView();
      for (var i = 0; i < rects.length; ++i) {
        var b = d.b[i], x = X(b[0]), w = Math.max(X(b[1] + 1) - x, 0.5);
        var yt = Y(b[2] + b[3]), yb = Y(b[2]), h = yb - yt;
        // Every buffer at least a pixel high, growing up from its offset.
        if (h < 1) { h = 1; yt = yb - 1; }
        var r = rects[i];
        r.setAttribute('x', x.toFixed(2)); r.setAttribute('width', w.toFixed(2));
        r.setAttribute('y', yt.toFixed(2)); r.setAttribute('height', h.toFixed(2));
        var lab = labels[i];
        if (lab) {
          var fits = w >= 7 * lab.textContent.length + 4 && h >= 12;
          lab.style.display = fits ? '' : 'none';
          lab.setAttribute('x', (x + w / 2).toFixed(2));
          lab.setAttribute('y', (yt + h / 2 + 4).toFixed(2));
        }
      }
      var p = 'M' + X(0) + ',' + Y(0), prev = 0;
      d.steps.forEach(function (s) {
        p += ' L' + X(s[0]).toFixed(2) + ',' + Y(prev).toFixed(2) +
             ' L' + X(s[0]).toFixed(2) + ',' + Y(s[1]).toFixed(2);
        prev = s[1];
      });
      p += ' L' + X(d.tasks).toFixed(2) + ',' + Y(prev).toFixed(2);
      live.setAttribute('d', p);
      [[bound, d.bound], [arena, d.arena]].forEach(function (lb) {
        lb[0].setAttribute('y1', Y(lb[1])); lb[0].setAttribute('y2', Y(lb[1]));
      });
      var px = X(d.peak + 0.5);
      peak.setAttribute('x1', px); peak.setAttribute('x2', px);
      while (ticks.firstChild) ticks.removeChild(ticks.firstChild);
      var xs = niceStep(st.t1 - st.t0, 8);
      for (var t = Math.ceil(st.t0 / xs) * xs; t <= st.t1; t += xs)
        ticks.appendChild(el('text', { 'class': 'tick', 'text-anchor': 'middle',
          x: X(t).toFixed(2), y: T + H + 16 }, String(t)));
      // Offset ticks at even heights; as many digits as tell them apart.
      var vals = [], texts;
      for (var k = 0; k <= 6; ++k) vals.push(uinv(st.u0 + (st.u1 - st.u0) * k / 6));
      for (var dg = 2; dg <= 8; dg += 2) {
        texts = vals.map(function (v) { return bytesText(v, dg); });
        if (texts.every(function (t, j) { return !j || t !== texts[j - 1]; })) break;
      }
      for (var k = 0; k <= 6; ++k) {
        var yy = T + H - k / 6 * H;
        ticks.appendChild(el('line', { 'class': 'grid', x1: L, x2: L + W, y1: yy, y2: yy }));
        ticks.appendChild(el('text', { 'class': 'tick', 'text-anchor': 'end',
          x: L - 6, y: yy + 4 }, texts[k]));
      }
      var zoomed = st.t0 > 0 || st.t1 < d.tasks || st.u0 > 0 || st.u1 < 1;
      view.textContent = 'tasks ' + Math.floor(st.t0) + '-' + Math.ceil(st.t1) +
        (zoomed ? ', zoomed' : '') + (st.mode === 'spread' ? ', spread' : '');
      box.setAttribute('data-span', (st.t1 - st.t0).toFixed(3));
      box.setAttribute('data-mode', st.mode);
    }
    var pending = false;
    function redraw() {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; draw(); });
    }
    function zoomX(f, at) {
      if (at === undefined) at = (st.t0 + st.t1) / 2;
      st.t0 = at - (at - st.t0) * f; st.t1 = at + (st.t1 - at) * f;
    }
    function zoomY(f, at) {
      if (at === undefined) at = (st.u0 + st.u1) / 2;
      st.u0 = at - (at - st.u0) * f; st.u1 = at + (st.u1 - at) * f;
    }
    function plotPoint(e) {
      var r = svg.getBoundingClientRect(), k = PLOT.WIDTH / r.width;
      var px = (e.clientX - r.left) * k, py = (e.clientY - r.top) * k;
      return { x: px, y: py, t: st.t0 + (px - L) / W * (st.t1 - st.t0),
               u: st.u0 + (T + H - py) / H * (st.u1 - st.u0) };
    }
    svg.addEventListener('wheel', function (e) {
      var q = plotPoint(e);
      if (q.x < L || q.x > L + W || q.y < T || q.y > T + H) return;
      e.preventDefault();
      var f = e.deltaY < 0 ? 0.8 : 1.25;
      if (e.shiftKey) zoomY(f, q.u); else zoomX(f, q.t);
      draw();
    }, { passive: false });
    var drag = null;
    svg.addEventListener('mousedown', function (e) {
      drag = { p: plotPoint(e), st: { t0: st.t0, t1: st.t1, u0: st.u0, u1: st.u1 } };
      svg.classList.add('drag');
      e.preventDefault();
    });
    window.addEventListener('mousemove', function (e) {
      if (!drag) return;
      var q = plotPoint(e), s0 = drag.st;
      var dt = (q.x - drag.p.x) / W * (s0.t1 - s0.t0);
      var du = (q.y - drag.p.y) / H * (s0.u1 - s0.u0);
      st.t0 = s0.t0 - dt; st.t1 = s0.t1 - dt; st.u0 = s0.u0 + du; st.u1 = s0.u1 + du;
      redraw();
    });
    window.addEventListener('mouseup', function () {
      drag = null; svg.classList.remove('drag');
    });
    svg.addEventListener('mousemove', function (e) {
      var r = e.target;
      if (drag || !r.classList || !r.classList.contains('buffer')) {
        tip.style.display = 'none';
        return;
      }
      tip.textContent = r.getAttribute('data-tip');
      tip.style.display = 'block';
      tip.style.left = (e.pageX + 14) + 'px';
      tip.style.top = (e.pageY + 14) + 'px';
    });
    svg.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
    var sel = box.querySelector('select[data-a="mode"]');
    function setMode(m) { st.mode = m; sel.value = m; st.u0 = 0; st.u1 = 1; draw(); }
    box.querySelectorAll('.tools button').forEach(function (b) {
      b.addEventListener('click', function () {
        var a = b.getAttribute('data-a');
        if (a === 'xin') zoomX(0.5);
        else if (a === 'xout') zoomX(2);
        else if (a === 'yin') zoomY(0.5);
        else if (a === 'yout') zoomY(2);
        else if (a === 'reset') { st.t0 = 0; st.t1 = d.tasks; st.u0 = 0; st.u1 = 1; }
        else if (a === 'peak') {
          var span = Math.max(Math.min(d.tasks / 8, 200), 10);
          st.t0 = d.peak + 0.5 - span / 2; st.t1 = st.t0 + span;
        }
        draw();
      });
    });
    sel.addEventListener('change', function () { setMode(sel.value); });
    // The table: sort on a header click, find the buffer on a row click.
    var table = box.querySelector('table.peak-table');
    function sortBy(th) {
      var col = Array.prototype.indexOf.call(th.parentNode.children, th);
      var asc = !th.classList.contains('asc');
      th.parentNode.querySelectorAll('th').forEach(function (h) {
        h.classList.remove('asc', 'desc');
      });
      th.classList.add(asc ? 'asc' : 'desc');
      var num = th.getAttribute('data-k') === 'n';
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[col], y = b.cells[col], c;
        if (num) c = Number(x.getAttribute('data-v')) - Number(y.getAttribute('data-v'));
        else c = x.textContent < y.textContent ? -1 : x.textContent > y.textContent ? 1 : 0;
        return asc ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    }
    if (table) {
      table.querySelectorAll('th').forEach(function (th) {
        th.addEventListener('click', function () { sortBy(th); });
      });
      table.tBodies[0].addEventListener('click', function (e) {
        var tr = e.target.closest('tr');
        if (!tr) return;
        svg.querySelectorAll('rect.sel').forEach(function (r) { r.classList.remove('sel'); });
        var r = rects[Number(tr.getAttribute('data-i'))];
        r.classList.add('sel');
        svg.scrollIntoView({ block: 'nearest' });
      });
      table.tBodies[0].addEventListener('mouseover', function (e) {
        var tr = e.target.closest('tr');
        svg.querySelectorAll('rect.hl').forEach(function (r) { r.classList.remove('hl'); });
        if (tr) rects[Number(tr.getAttribute('data-i'))].classList.add('hl');
      });
    }
    // Buffers thinner than a pixel on the linear scale: with many of them,
    // start on the spread scale.
    var thin = 0;
    d.b.forEach(function (b) { if (b[3] / ymax * H < 1) ++thin; });
    if (thin > 8 && thin * 5 > d.b.length) st.mode = 'spread';
    sel.value = st.mode;
    draw();
    return { box: box, svg: svg, rects: rects, table: table, st: st, d: d,
             draw: draw, setMode: setMode, sortBy: sortBy };
  }
  var t0 = performance.now();
  var sections = [];
  document.querySelectorAll('div.sec').forEach(function (b) { sections.push(Section(b)); });
  var ms = performance.now() - t0;
  var rects = document.querySelectorAll('rect.buffer');
  var s = document.getElementById('status');
  s.setAttribute('data-drawn', rects.length);
  s.setAttribute('data-ms', Math.round(ms));
  s.textContent = rects.length + ' buffers drawn';
  // file://page.html#selftest: the page exercises its own controls (what a
  // headless browser test reads back from the DOM).
  if (location.hash !== '#selftest') return;
  var out = [];
  sections.forEach(function (S, n) {
    var r = [];
    var pk = S.svg.querySelector('line.peak');
    var px = Number(pk.getAttribute('x1'));
    r.push('peak ' + (px >= L && px <= L + W ? 'ok' : 'bad'));
    // Nothing of the legend or the titles past the picture's right edge.
    var right = 0;
    S.svg.querySelectorAll('text.legend, text.title').forEach(function (t) {
      var bb = t.getBBox();
      right = Math.max(right, bb.x + bb.width);
    });
    r.push('legend ' + (right <= PLOT.WIDTH ? 'ok' : 'bad'));
    var rows = S.table ? S.table.tBodies[0].rows.length : 0;
    r.push('rows ' + rows);
    if (rows > 1) {
      var th = S.table.querySelectorAll('th')[1];
      function sizes() {
        return Array.prototype.map.call(S.table.tBodies[0].rows, function (tr) {
          return Number(tr.cells[1].getAttribute('data-v'));
        });
      }
      function sorted(a, dir) {
        for (var i = 1; i < a.length; ++i) if (dir * (a[i] - a[i - 1]) < 0) return false;
        return true;
      }
      th.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      var up = sorted(sizes(), 1);
      th.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      var down = sorted(sizes(), -1);
      r.push('sort ' + (up && down ? 'ok' : 'bad'));
    }
    var box = S.svg.getBoundingClientRect();
    var span0 = S.st.t1 - S.st.t0;
    S.svg.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, bubbles: true,
      cancelable: true, clientX: box.left + (L + W / 2) * box.width / PLOT.WIDTH,
      clientY: box.top + (T + H / 2) * box.width / PLOT.WIDTH }));
    var zoomed = S.st.t1 - S.st.t0 < span0;
    S.box.querySelector('button[data-a="reset"]').click();
    var reset = S.st.t1 - S.st.t0 === S.d.tasks;
    r.push('zoom ' + (zoomed && reset ? 'ok' : 'bad'));
    var mode = S.st.mode;
    S.setMode('spread');
    var minH = Infinity;
    S.rects.forEach(function (e) { minH = Math.min(minH, Number(e.getAttribute('height'))); });
    r.push('spread min height ' + (minH >= 1 ? 'ok' : 'bad'));
    S.setMode(mode);
    out.push('section ' + n + ': ' + r.join(', '));
  });
  var t = document.getElementById('selftest');
  t.textContent = out.join('; ');
  t.setAttribute('data-result', out.join('; '));
})();
)JS"
     << "</script>\n</body></html>\n";
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
