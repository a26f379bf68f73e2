//===- RuntimeReport.cpp - tensor-mem-lower-runtime's part of the report --===//
//
// tensor-mem-plan writes the report before the runtime lowering runs; this
// reads it back and adds, per function, what the runtime serves: the buffers
// of the run-time arena, those served one by one, and those left alone.
//
//===----------------------------------------------------------------------===//

#include "RuntimeReport.h"

#include "memplan/Core/OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace memplan;

std::string lower_runtime::RuntimeSummary::planKind() const {
  if (!Arena.empty())
    return Plan.Symbolic ? "symbolic" : "run-time";
  return PerBuffer.empty() ? "none" : "per buffer";
}

LogicalResult
lower_runtime::writeRuntimeReport(ModuleOp M, StringRef Path,
                                  ArrayRef<RuntimeSummary> Summaries) {
  auto Fail = [&](const Twine &Msg) {
    M.emitError() << "tensor-mem-lower-runtime: " << Msg;
    return failure();
  };
  // Nothing to add: a report tensor-mem-plan wrote stays as it is (a large
  // one is not read back for nothing).
  if (Summaries.empty() && llvm::sys::fs::exists(Path))
    return success();
  llvm::json::Value Root =
      llvm::json::Object{{"functions", llvm::json::Array{}}};
  if (auto Buffer = llvm::MemoryBuffer::getFile(Path)) {
    llvm::Expected<llvm::json::Value> Parsed =
        llvm::json::parse((*Buffer)->getBuffer());
    if (!Parsed)
      return Fail("report '" + Path +
                  "' is not JSON: " + llvm::toString(Parsed.takeError()));
    Root = std::move(*Parsed);
  }
  llvm::json::Array *Functions =
      Root.getAsObject() ? Root.getAsObject()->getArray("functions") : nullptr;
  if (!Functions)
    return Fail("report '" + Path + "' has no \"functions\" array");
  for (const RuntimeSummary &S : Summaries) {
    // A handle: its methods are not const.
    FunctionOpInterface Fn = S.Fn;
    llvm::json::Object *F = nullptr;
    for (llvm::json::Value &V : *Functions)
      if (llvm::json::Object *O = V.getAsObject())
        if (O->getString("function") == Fn.getName())
          F = O;
    if (!F) {
      Functions->push_back(llvm::json::Object{{"function", Fn.getName().str()},
                                              {"location", locationOf(Fn)}});
      F = Functions->back().getAsObject();
    }
    auto Entries = [](const std::vector<std::pair<std::string, std::string>>
                          &List) {
      llvm::json::Array A;
      for (const auto &[Loc, Reason] : List)
        A.push_back(llvm::json::Object{{"location", Loc}, {"reason", Reason}});
      return A;
    };
    llvm::json::Array Arena;
    for (const std::string &Loc : S.Arena)
      Arena.push_back(llvm::json::Object{{"location", Loc}});
    llvm::json::Object Runtime{{"plan", S.planKind()},
                               {"run_time_arena", std::move(Arena)},
                               {"per_buffer", Entries(S.PerBuffer)},
                               {"left_alone", Entries(S.LeftAlone)}};
    if (!S.Arena.empty() && S.Plan.Symbolic) {
      Runtime["symbolic_orders"] = static_cast<int64_t>(S.Plan.Orders);
      Runtime["inplace_pairs"] = static_cast<int64_t>(S.Plan.InplacePairs);
    }
    if (!S.SharedArena.empty())
      Runtime["shared_arena"] = S.SharedArena;
    (*F)["runtime"] = std::move(Runtime);
    if (llvm::json::Array *Unplanned = F->getArray("unplanned"))
      for (llvm::json::Value &U : *Unplanned) {
        llvm::json::Object *O = U.getAsObject();
        std::optional<llvm::StringRef> Loc =
            O ? O->getString("location") : std::nullopt;
        if (!Loc)
          continue;
        if (llvm::is_contained(S.Arena, *Loc))
          (*O)["served_at_run_time"] = "run-time arena";
        else if (llvm::any_of(S.PerBuffer,
                              [&](const auto &P) { return P.first == *Loc; }))
          (*O)["served_at_run_time"] = "per buffer";
      }
  }
  if (llvm::Error E = writeOutputFile(Path, [&](llvm::raw_ostream &OS) {
        llvm::json::OStream J(OS, 2);
        J.value(Root);
        OS << "\n";
      }))
    return Fail(llvm::toString(std::move(E)));
  return success();
}
