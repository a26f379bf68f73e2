//===- PlanReport.cpp - JSON report and timeline files of tensor-mem-plan -===//

#include "memplan/Transforms/PlanReport.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace memplan;
using llvm::json::Array;
using llvm::json::Object;

static llvm::json::Value arenaToJSON(const ArenaReport &A) {
  Array Buffers;
  for (const PlannedBufferReport &B : A.Buffers)
    Buffers.push_back(
        Object{{"id", static_cast<int64_t>(B.Id)},
               {"location", B.Location},
               {"op", B.Op},
               {"type", B.Type},
               {"size", static_cast<int64_t>(B.Size)},
               {"offset", static_cast<int64_t>(B.Offset)},
               {"first_task", static_cast<int64_t>(B.FirstTask)},
               {"last_task", static_cast<int64_t>(B.LastTask)},
               {"writer",
                Object{{"op", B.WriterOp}, {"location", B.WriterLocation}}}});
  std::vector<int64_t> Ids;
  for (const PlannedBufferReport &B : A.Buffers)
    Ids.push_back(static_cast<int64_t>(B.Id));
  return Object{
      {"memory_space", A.MemorySpace},
      {"strategy", A.Strategy},
      {"chosen", A.Chosen.empty() ? A.Strategy : A.Chosen},
      {"peak", peakToJSON(A.Peak, Ids)},
      {"alignment", static_cast<int64_t>(A.Alignment)},
      {"arena_size", static_cast<int64_t>(A.ArenaSize)},
      {"lower_bound", static_cast<int64_t>(A.LowerBound)},
      {"bytes_without_planning", static_cast<int64_t>(A.BytesWithoutPlanning)},
      {"optimal", A.Optimal},
      {"buffers", std::move(Buffers)}};
}

llvm::json::Value
memplan::reportToJSON(llvm::ArrayRef<FunctionReport> Functions) {
  Array Out;
  for (const FunctionReport &F : Functions) {
    Array Arenas, Unplanned;
    for (const ArenaReport &A : F.Arenas)
      Arenas.push_back(arenaToJSON(A));
    for (const UnplannedBufferReport &U : F.Unplanned)
      Unplanned.push_back(
          Object{{"location", U.Location}, {"op", U.Op}, {"reason", U.Reason}});
    Out.push_back(Object{{"function", F.Function},
                         {"location", F.Location},
                         {"num_tasks", static_cast<int64_t>(F.NumTasks)},
                         {"arenas", std::move(Arenas)},
                         {"unplanned", std::move(Unplanned)}});
  }
  return Object{{"functions", std::move(Out)}};
}

namespace {
/// Reports gathered per output file (report or picture) in this process.
struct ReportFiles {
  std::mutex Mutex;
  llvm::StringMap<std::vector<FunctionReport>> Files;
};
} // namespace

static ReportFiles &reportFiles() {
  static ReportFiles Files;
  return Files;
}

llvm::Error memplan::gatherForFile(
    llvm::StringRef Path, FunctionReport Function,
    llvm::function_ref<llvm::Error(llvm::ArrayRef<FunctionReport>)> Write) {
  ReportFiles &R = reportFiles();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  std::vector<FunctionReport> &All = R.Files[Path];
  // A function planned again (another pass run) replaces its old entry.
  llvm::erase_if(All, [&](const FunctionReport &F) {
    return F.Function == Function.Function && F.Location == Function.Location;
  });
  All.push_back(std::move(Function));
  // Nested under func.func the pass plans functions on several threads; the
  // file lists them by name whatever order they came in.
  llvm::stable_sort(All, [](const FunctionReport &A, const FunctionReport &B) {
    return A.Function < B.Function;
  });
  return Write(All);
}

llvm::Error memplan::appendToReportFile(llvm::StringRef Path,
                                        FunctionReport Function) {
  return gatherForFile(
      Path, std::move(Function),
      [&](llvm::ArrayRef<FunctionReport> All) -> llvm::Error {
        std::error_code EC;
        llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_Text);
        if (EC)
          return llvm::createStringError(EC, "cannot write '" + Path +
                                                 "': " + EC.message());
        OS << llvm::formatv("{0:2}", reportToJSON(All)) << "\n";
        return llvm::Error::success();
      });
}
