//===- ReportModel.h - a report read back into the report model -*- C++ -*-===//
//
// For the HTML page of memplan-report-diff: a report file read back into the
// model it was written from (Report.h), so that the pictures are drawn by
// the same code as the pass's and memplan-solve's.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_TOOLS_REPORTMODEL_H
#define MEMPLAN_TOOLS_REPORTMODEL_H

#include "memplan/Core/Report.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace memplan::diff {

/// Reads Path (already checked by readReport) into the report model: each
/// arena's records, offsets, alignment, in-place pairs, peak and buffers.
/// An error names Path.
llvm::Expected<std::vector<FunctionReport>>
readReportModel(const std::string &Path);

} // namespace memplan::diff

#endif // MEMPLAN_TOOLS_REPORTMODEL_H
