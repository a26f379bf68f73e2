//===- TimelineHTML.cpp - Timelines as an interactive HTML page -----------===//

#include "TimelineRender.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>

using namespace memplan;
using namespace memplan::timeline;

/// S as a JSON string that cannot end the <script> element holding it.
static void writeJSONString(llvm::StringRef S, llvm::raw_ostream &OS) {
  OS << '"';
  for (unsigned char C : S) {
    if (C == '"' || C == '\\')
      OS << '\\' << C;
    else if (C < 0x20 || C == '<')
      OS << llvm::format("\\u%04x", C);
    else
      OS << C;
  }
  OS << '"';
}

/// The data the page's script draws from: per buffer [first, last, offset,
/// size, index of the buffer it is in place of or -1], the live-bytes steps,
/// the peak, the report's peak that the self-test checks the buffers
/// against, and the report's ops at the tasks [task, op, location, result,
/// parent op, parent location].
static void renderSectionData(const TimelineSection &S,
                              const SectionShape &Shape,
                              llvm::raw_ostream &OS) {
  const ArenaResult &A = S.Arena;
  OS << "{\"tasks\":" << Shape.Tasks << ",\"top\":" << Shape.Top
     << ",\"arena\":" << A.arenaSize() << ",\"bound\":" << A.liveBound()
     << ",\"align\":" << A.Alignment << ",\"peak\":" << Shape.PeakTask
     << ",\"peakBytes\":" << Shape.PeakBytes << ",\"b\":[";
  for (auto [I, R] : llvm::enumerate(A.Records)) {
    std::optional<size_t> Of = Shape.InplaceOf[I];
    OS << (I ? "," : "") << "[" << R.FirstTask << "," << R.LastTask << ","
       << A.offset(I) << "," << R.Size << ","
       << (Of ? static_cast<int64_t>(*Of) : -1) << "]";
  }
  OS << "],\"steps\":[";
  for (auto [I, St] : llvm::enumerate(Shape.Steps))
    OS << (I ? "," : "") << "[" << St.first << "," << St.second << "]";
  OS << "]";
  OS << ",\"report\":{\"task\":" << A.Peak.Task << ",\"bytes\":" << A.Peak.Bytes
     << ",\"live\":[";
  for (auto [I, L] : llvm::enumerate(A.Peak.Live))
    OS << (I ? "," : "") << L;
  OS << "]},\"ops\":[";
  for (auto [I, T] : llvm::enumerate(S.Arena.TaskOps)) {
    OS << (I ? "," : "") << "[" << T.Task << ",";
    writeJSONString(T.Op, OS);
    OS << ",";
    writeJSONString(T.Location, OS);
    OS << ",";
    writeJSONString(T.Result, OS);
    OS << ",";
    writeJSONString(T.ParentOp, OS);
    OS << ",";
    writeJSONString(T.ParentLocation, OS);
    OS << "]";
  }
  OS << "]}";
}

/// The report's peak in one line, above the picture: the task and its op
/// (the page's self-test checks it against the buffers).
static void renderPeakLine(const TimelineSection &S, llvm::raw_ostream &OS) {
  const ArenaResult &A = S.Arena;
  OS << "<p class=\"peak-line\" data-task=\"" << A.Peak.Task
     << "\">peak: " << escape(describeTask(S.Arena.TaskOps, A.Peak.Task))
     << "; " << escape(formatBytes(A.liveBound())) << " live (aligned) in "
     << A.Peak.Live.size() << (A.Peak.Live.size() == 1 ? " buffer" : " buffers")
     << "</p>\n";
}

/// Which buffers share bytes in place, in words.
static void renderInplaceNote(const TimelineSection &S,
                              const SectionShape &Shape,
                              llvm::raw_ostream &OS) {
  std::string Pairs;
  for (auto [B, Of] : llvm::zip_equal(S.Buffers, Shape.InplaceOf))
    if (Of)
      Pairs += (Pairs.empty() ? "" : ", ") + B.Label + " takes the bytes of " +
               S.Buffers[*Of].Label;
  if (!Pairs.empty())
    OS << "<p class=\"inplace-note\">In place (dashed; same offset, the two "
          "meet at one task, counted once in the live bytes): "
       << escape(Pairs) << "</p>\n";
}

/// The sortable "live at the peak" table of one section.
static void renderPeakTable(const TimelineSection &S, const SectionShape &Shape,
                            llvm::raw_ostream &OS) {
  const ArenaResult &Arena = S.Arena;
  uint64_t PeakTask = Shape.PeakTask;
  const std::vector<size_t> &PeakLive = Shape.PeakLive;
  // Largest first: what makes the peak.
  std::vector<size_t> Order = PeakLive;
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return Arena.Records[A].Size > Arena.Records[B].Size;
  });
  std::vector<std::vector<size_t>> TakenBy(S.Buffers.size());
  for (auto [J, Of] : llvm::enumerate(Shape.InplaceOf))
    if (Of)
      TakenBy[*Of].push_back(J);
  // Each in-place chain counts once, at its largest member's size.
  OS << "<details class=\"peak-box\" open><summary>Live at the peak ("
     << escape(describeTask(S.Arena.TaskOps, PeakTask))
     << "): " << PeakLive.size() << " buffers, "
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
    const UsageRecord &R = Arena.Records[I];
    Cell(R.Size, formatBytes(R.Size));
    Cell(Arena.offset(I), std::to_string(Arena.offset(I)));
    Cell(R.FirstTask, std::to_string(R.FirstTask));
    Cell(R.LastTask, std::to_string(R.LastTask));
    std::string Inplace;
    if (std::optional<size_t> Of = Shape.InplaceOf[I])
      Inplace += "takes the bytes of " + S.Buffers[*Of].Label + " ";
    for (size_t J : TakenBy[I])
      Inplace += "its bytes go on in " + S.Buffers[J].Label + " ";
    OS << "<td>" << escape(B.Op) << "</td><td>" << escape(B.Location)
       << "</td><td>" << escape(llvm::StringRef(Inplace).rtrim())
       << "</td></tr>\n";
  }
  OS << "</tbody></table></details>\n";
}

void memplan::renderTimelineHTML(llvm::ArrayRef<TimelineSection> Sections,
                                 llvm::raw_ostream &OS,
                                 llvm::StringRef Preamble) {
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
(hover for the op that fills it, its location, size, interval and the ops at
its first and last task). The
dashed purple line marks the peak of the live bytes. Wheel: zoom the tasks
(shift+wheel: the offsets); drag: pan. "spread" scales the offset axis so
small buffers stay visible beside big ones (its order is kept, not its
proportions).</p>
)";
  if (!Preamble.empty())
    OS << "<pre class=\"preamble\">" << escape(Preamble) << "</pre>\n";
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
    renderPeakLine(S, OS);
    OS << "<svg class=\"tl\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
       << num(kWidth) << "\" height=\"" << num(kHeight) << "\" viewBox=\"0 0 "
       << num(kWidth) << " " << num(kHeight) << "\">\n";
    SectionShape Shape = shapeOf(S);
    renderSection(S, Shape, 0, /*Html=*/true, OS, I);
    OS << "</svg>\n<script type=\"application/json\" class=\"data\">";
    renderSectionData(S, Shape, OS);
    OS << "</script>\n";
    renderInplaceNote(S, Shape, OS);
    renderPeakTable(S, Shape, OS);
    OS << "</div>\n";
  }
  OS << "<div id=\"tip\"></div>\n<script>\nvar PLOT = {L: " << num(kLeft)
     << ", W: " << num(kPlotWidth) << ", T: " << num(kTop)
     << ", H: " << num(kPlotHeight) << ", WIDTH: " << num(kWidth) << "};\n";
  OS << PageScript << "</script>\n</body></html>\n";
}
