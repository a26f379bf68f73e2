//===- ReportDiff.h - two plans of one program side by side -----*- C++ -*-===//

#ifndef MEMPLAN_TOOLS_REPORTDIFF_H
#define MEMPLAN_TOOLS_REPORTDIFF_H

#include "ReportFile.h"

#include "llvm/Support/raw_ostream.h"

namespace memplan::diff {

/// Why A and B are not two plans of one program: no function in common, or
/// functions of different source files.
llvm::Error checkSameProgram(const Report &A, const Report &B);

/// Function by function, arena by arena: arena bytes, footprint, peak,
/// and each buffer (matched by location, op and type) whose size, offset,
/// live range or in-place partner differs, or that only one plan has.
void printDiff(const Report &A, const Report &B, llvm::raw_ostream &OS);

} // namespace memplan::diff

#endif // MEMPLAN_TOOLS_REPORTDIFF_H
