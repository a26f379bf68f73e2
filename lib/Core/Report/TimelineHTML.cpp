//===- TimelineHTML.cpp - Timelines as an interactive HTML page -----------===//

#include "TimelineRender.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace memplan;
using namespace memplan::timeline;

/// The data the page's script draws from: per buffer [first, last, offset,
/// size, index of the buffer it is in place of or -1], the live-bytes steps,
/// the peak, and the report's peak that the self-test checks the buffers
/// against.
static void renderSectionData(const TimelineSection &S,
                              const SectionShape &Shape,
                              llvm::raw_ostream &OS) {
  OS << "{\"tasks\":" << Shape.Tasks << ",\"top\":" << Shape.Top
     << ",\"arena\":" << S.ArenaSize << ",\"bound\":" << S.LowerBound
     << ",\"align\":" << S.Alignment << ",\"peak\":" << Shape.PeakTask
     << ",\"peakBytes\":" << Shape.PeakBytes << ",\"b\":[";
  for (auto [I, B] : llvm::enumerate(S.Buffers))
    OS << (I ? "," : "") << "[" << B.Record.FirstTask << ","
       << B.Record.LastTask << "," << B.Offset << "," << B.Record.Size << ","
       << (B.InplaceOf ? static_cast<int64_t>(*B.InplaceOf) : -1) << "]";
  OS << "],\"steps\":[";
  for (auto [I, St] : llvm::enumerate(Shape.Steps))
    OS << (I ? "," : "") << "[" << St.first << "," << St.second << "]";
  OS << "]";
  if (const std::optional<TimelinePeak> &P = S.ReportedPeak) {
    OS << ",\"report\":{\"task\":" << P->Task << ",\"bytes\":" << P->Bytes
       << ",\"live\":[";
    for (auto [I, L] : llvm::enumerate(P->Live))
      OS << (I ? "," : "") << L;
    OS << "]}";
  }
  OS << "}";
}

/// Which buffers share bytes in place, in words.
static void renderInplaceNote(const TimelineSection &S, llvm::raw_ostream &OS) {
  std::string Pairs;
  for (const TimelineBuffer &B : S.Buffers)
    if (B.InplaceOf && *B.InplaceOf < S.Buffers.size())
      Pairs += (Pairs.empty() ? "" : ", ") + B.Label + " takes the bytes of " +
               S.Buffers[*B.InplaceOf].Label;
  if (!Pairs.empty())
    OS << "<p class=\"inplace-note\">In place (dashed; same offset, the two "
          "meet at one task, counted once in the live bytes): "
       << escape(Pairs) << "</p>\n";
}

/// The sortable "live at the peak" table of one section.
static void renderPeakTable(const TimelineSection &S, const SectionShape &Shape,
                            llvm::raw_ostream &OS) {
  uint64_t PeakTask = Shape.PeakTask;
  const std::vector<size_t> &PeakLive = Shape.PeakLive;
  // Largest first: what makes the peak.
  std::vector<size_t> Order = PeakLive;
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return S.Buffers[A].Record.Size > S.Buffers[B].Record.Size;
  });
  std::vector<std::vector<size_t>> TakenBy(S.Buffers.size());
  for (auto [J, B] : llvm::enumerate(S.Buffers))
    if (B.InplaceOf && *B.InplaceOf < S.Buffers.size())
      TakenBy[*B.InplaceOf].push_back(J);
  // Each in-place chain counts once, at its largest member's size.
  std::string At;
  if (S.ReportedPeak && !S.ReportedPeak->Op.empty())
    At = ": " + S.ReportedPeak->Op + " at " + S.ReportedPeak->Location;
  OS << "<details class=\"peak-box\" open><summary>Live at the peak (task "
     << PeakTask << escape(At) << "): " << PeakLive.size() << " buffers, "
     << escape(formatBytes(Shape.PeakBytes))
     << " aligned; click a column to sort, a row to find the buffer"
     << "</summary>\n<table class=\"peak-table\"><thead><tr>"
     << "<th data-k=\"n\">buffer</th><th data-k=\"n\">size</th>"
     << "<th data-k=\"n\">offset</th><th data-k=\"n\">first</th>"
     << "<th data-k=\"n\">last</th><th data-k=\"s\">op</th>"
     << "<th data-k=\"s\">location</th><th data-k=\"s\">in place</th>"
     << "</tr></thead><tbody>\n";
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
    std::string Inplace;
    if (B.InplaceOf)
      Inplace += "takes the bytes of " + S.Buffers[*B.InplaceOf].Label + " ";
    for (size_t J : TakenBy[I])
      Inplace += "its bytes go on in " + S.Buffers[J].Label + " ";
    OS << "<td>" << escape(B.Op) << "</td><td>" << escape(B.Location)
       << "</td><td>" << escape(llvm::StringRef(Inplace).rtrim())
       << "</td></tr>\n";
  }
  OS << "</tbody></table></details>\n";
}

void memplan::renderTimelineHTML(llvm::ArrayRef<TimelineSection> Sections,
                                 llvm::raw_ostream &OS) {
  size_t NumBuffers = 0;
  for (const TimelineSection &S : Sections)
    NumBuffers += S.Buffers.size();
  OS << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
     << "<title>memplan timeline</title>\n<style>" << Style
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
    SectionShape Shape = shapeOf(S);
    renderSection(S, Shape, 0, /*Html=*/true, OS, I);
    OS << "</svg>\n<script type=\"application/json\" class=\"data\">";
    renderSectionData(S, Shape, OS);
    OS << "</script>\n";
    renderInplaceNote(S, OS);
    renderPeakTable(S, Shape, OS);
    OS << "</div>\n";
  }
  OS << "<div id=\"tip\"></div>\n<script>\nvar PLOT = {L: " << num(kLeft)
     << ", W: " << num(kPlotWidth) << ", T: " << num(kTop)
     << ", H: " << num(kPlotHeight) << ", WIDTH: " << num(kWidth) << "};\n";
  OS << PageScript << "</script>\n</body></html>\n";
}
