//===- Timeline.h - A plan as a picture -------------------------*- C++ -*-===//
//
// Draws plans as timelines: x = task, y = offset in the arena, one rectangle
// per buffer, the live-bytes curve and the lower bound as lines, a marker at
// the task where the live bytes peak, and a legend with the arena size and
// its ratio to the bound. Output is a standalone SVG or a self-contained HTML
// page (inline SVG, no external resources) with hover tooltips, zoom and pan
// (wheel, drag, buttons), a y scale that spreads small buffers apart, and a
// sortable table of the buffers live at the peak. Pure C++: the pass and
// memplan-solve both use it.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_CORE_TIMELINE_H
#define MEMPLAN_CORE_TIMELINE_H

#include "memplan/Core/ArenaResult.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace memplan {

/// The entry of Ops (sorted by task) for Task, or null.
const TaskOp *findTaskOp(llvm::ArrayRef<TaskOp> Ops, uint64_t Task);

/// "task 5, %3 = memref.alloc at loc(...)": Task and the op of Ops (sorted
/// by task) numbered so, as a line of IR reads, then " in linalg.generic
/// at loc(...)" for a nested op; "task 5" without one.
std::string describeTask(llvm::ArrayRef<TaskOp> Ops, uint64_t Task);

/// What a picture adds to one buffer of its arena: words.
struct TimelineBuffer {
  /// Short text drawn inside the rectangle when it fits (e.g. "#3").
  std::string Label;
  /// Hover text; lines separated by '\n'.
  std::string Tooltip;
  /// Columns of the HTML page's "live at the peak" table (optional): the
  /// buffer's id (Label when empty), the op that fills it and its location.
  std::string Id;
  std::string Op;
  std::string Location;
};

/// One arena: one picture. The arena's result gives the records, offsets,
/// bounds, alignment, in-place pairs (a chain of them counts once in the
/// live-bytes curve, as the planner counts it) and the peak, which the page
/// checks its own curve against.
struct TimelineSection {
  std::string Title;
  /// A line under the title (strategy, function location, ...).
  std::string Subtitle;
  /// Tasks drawn on the x axis; at least one past the last task of a record.
  uint64_t NumTasks = 0;
  ArenaResult Arena;
  /// One per record of Arena.
  std::vector<TimelineBuffer> Buffers;
};

enum class TimelineFormat { SVG, HTML };

/// The format a path's extension asks for (.svg, .html or .htm).
llvm::Expected<TimelineFormat> timelineFormatForPath(llvm::StringRef Path);

/// Every section stacked in one <svg> document.
void renderTimelineSVG(llvm::ArrayRef<TimelineSection> Sections,
                       llvm::raw_ostream &OS);

/// An HTML page with one inline <svg> per section and hover tooltips;
/// Preamble (plain text, e.g. a comparison) goes above the pictures.
void renderTimelineHTML(llvm::ArrayRef<TimelineSection> Sections,
                        llvm::raw_ostream &OS, llvm::StringRef Preamble = "");

/// Writes Path in the format of its extension.
llvm::Error writeTimelineFile(llvm::StringRef Path,
                              llvm::ArrayRef<TimelineSection> Sections);

/// "1.50 MiB (1572864 bytes)"-style text for legends and tooltips.
std::string formatBytes(uint64_t Bytes);

} // namespace memplan

#endif // MEMPLAN_CORE_TIMELINE_H
