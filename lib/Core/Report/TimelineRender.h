//===- TimelineRender.h - What the timeline renderers share -----*- C++ -*-===//
//
// Private to lib/Core: the layout, the escaping and the live-bytes steps that
// the SVG and the HTML renderers of Timeline.h both use.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_CORE_TIMELINERENDER_H
#define MEMPLAN_LIB_CORE_TIMELINERENDER_H

#include "memplan/Core/Timeline.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace memplan::timeline {

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

/// Text safe inside XML content and attribute values.
std::string escape(llvm::StringRef S);

/// V with two decimals, as every coordinate is written.
std::string num(double V);

/// A 1-2-5 step giving about Target ticks up to Max.
double tickStep(double Max, int Target);

/// V rounded up to a multiple of A (0 and 1: V).
uint64_t alignUp(uint64_t V, uint64_t A);

/// What every part of a section's picture is drawn from, computed once per
/// section: the live (aligned) bytes as steps (task where the value starts,
/// value) in task order, the first task where they peak, their bytes there
/// and the buffers live there, the tasks on the x axis and the top of the y
/// axis. A chain of in-place buffers counts once, as one record spanning the
/// chain at its largest member's size (the planner's model): PeakLive names
/// its largest member live at the peak, Chain[I] the first buffer of
/// buffer I's chain and InplaceOf[I] the buffer whose bytes I takes.
struct SectionShape {
  std::vector<std::optional<size_t>> InplaceOf;
  std::vector<std::pair<uint64_t, uint64_t>> Steps;
  uint64_t PeakTask = 0;
  uint64_t PeakBytes = 0;
  std::vector<size_t> PeakLive;
  std::vector<size_t> Chain;
  uint64_t Tasks = 1;
  uint64_t Top = 1;
};

SectionShape shapeOf(const TimelineSection &S);

/// The CSS of the pictures, in the SVG file and in the HTML page.
extern const char *const Style;

/// One section's <g>: frame, ticks, buffers, live-bytes curve, bound, arena,
/// peak and legend, Y0 units down. Html adds the clip path and the data-*
/// attributes the page's script reads (Index names the clip path).
void renderSection(const TimelineSection &S, const SectionShape &Shape,
                   double Y0, bool Html, llvm::raw_ostream &OS,
                   size_t Index = 0);

/// The HTML page's script: tooltips, zoom, pan, the y scale and the table.
extern const char *const PageScript;

} // namespace memplan::timeline

#endif // MEMPLAN_LIB_CORE_TIMELINERENDER_H
