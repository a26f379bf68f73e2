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

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace memplan::diff {

/// Reads a report (already checked by readReport) into the report model:
/// each arena's records, offsets, alignment, in-place pairs, peak and
/// buffers.
std::vector<FunctionReport> readReportModel(const llvm::json::Value &Report);

} // namespace memplan::diff

#endif // MEMPLAN_TOOLS_REPORTMODEL_H
