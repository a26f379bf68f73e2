//===- ReportModel.cpp - a report read back into the report model ---------===//

#include "ReportModel.h"
#include "ReportFile.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

using namespace llvm;

namespace memplan::diff {

/// Sizes up to 2^64 - 1 (those past 2^63 - 1 once read as 0).
static uint64_t number(const json::Object &O, StringRef Key) {
  const json::Value *V = O.get(Key);
  std::optional<uint64_t> U = V ? V->getAsUINT64() : std::nullopt;
  return U ? *U : 0;
}

static std::string text(const json::Object &O, StringRef Key) {
  std::optional<StringRef> V = O.getString(Key);
  return V ? V->str() : std::string();
}

/// Ids are numbers or strings (record files); the model keeps them as text
/// ("" for none).
static std::string idOrEmpty(const json::Value *V) {
  return V ? idText(*V).value_or("") : "";
}

static ArenaResult readArena(const json::Object &O) {
  ArenaResult A;
  A.Requested = text(O, "strategy");
  A.Chosen = text(O, "chosen");
  A.MemorySpace = text(O, "memory_space");
  A.Alignment = std::max<uint64_t>(number(O, "alignment"), 1);
  A.Offsets.TotalSize = number(O, "arena_size");
  A.CertifiedBound = number(O, "certified_lower_bound");
  A.BytesWithoutPlanning = number(O, "bytes_without_planning");
  A.Optimal = O.getBoolean("optimal").value_or(false);
  A.Kind = text(O, "kind") == "shared-objects" ? StrategyKind::SharedObjects
                                               : StrategyKind::Offsets;
  StringMap<size_t> Index;
  std::vector<std::string> InplaceOf;
  if (const json::Array *Buffers = O.getArray("buffers"))
    for (const json::Value &V : *Buffers) {
      const json::Object *B = V.getAsObject();
      if (!B)
        continue;
      A.Records.emplace_back(number(*B, "size"), number(*B, "first_task"),
                             number(*B, "last_task"));
      A.Offsets.Offsets.push_back(number(*B, "offset"));
      BufferInfo Info;
      Info.Id = idOrEmpty(B->get("id"));
      Info.Location = text(*B, "location");
      Info.Op = text(*B, "op");
      Info.Type = text(*B, "type");
      if (const json::Object *W = B->getObject("writer")) {
        Info.WriterOp = text(*W, "op");
        Info.WriterLocation = text(*W, "location");
      }
      Index[Info.Id] = A.Buffers.size();
      InplaceOf.push_back(idOrEmpty(B->get("inplace_of")));
      A.Buffers.push_back(std::move(Info));
    }
  for (auto [I, Of] : llvm::enumerate(InplaceOf))
    if (auto It = Index.find(Of); !Of.empty() && It != Index.end())
      A.InplacePairs.push_back({It->second, I});
  A.Peak.Bytes = number(O, "lower_bound");
  if (const json::Object *P = O.getObject("peak")) {
    A.Peak.Task = number(*P, "task");
    if (const json::Array *Live = P->getArray("live"))
      for (const json::Value &V : *Live)
        if (auto It = Index.find(idOrEmpty(&V)); It != Index.end())
          A.Peak.Live.push_back(It->second);
  }
  if (const json::Array *Ops = O.getArray("task_ops"))
    for (const json::Value &V : *Ops) {
      const json::Object *T = V.getAsObject();
      if (!T)
        continue;
      TaskOp Op;
      Op.Task = number(*T, "task");
      Op.Op = text(*T, "op");
      Op.Location = text(*T, "location");
      Op.Result = text(*T, "result");
      if (const json::Object *In = T->getObject("in")) {
        Op.ParentOp = text(*In, "op");
        Op.ParentLocation = text(*In, "location");
      }
      A.TaskOps.push_back(std::move(Op));
    }
  return A;
}

std::vector<FunctionReport> readReportModel(const json::Value &Report) {
  std::vector<FunctionReport> Functions;
  const json::Object *Top = Report.getAsObject();
  const json::Array *Fs = Top ? Top->getArray("functions") : nullptr;
  if (!Fs)
    return Functions;
  for (const json::Value &V : *Fs) {
    const json::Object *O = V.getAsObject();
    if (!O)
      continue;
    FunctionReport F;
    F.Function = text(*O, "function");
    F.Location = text(*O, "location");
    F.NumTasks = number(*O, "num_tasks");
    // Only the pass's report says whether a function is an entry.
    F.RecordFile = !O->get("entry");
    if (const json::Array *Arenas = O->getArray("arenas"))
      for (const json::Value &A : *Arenas)
        if (const json::Object *AO = A.getAsObject())
          F.Arenas.push_back(readArena(*AO));
    if (const json::Array *Unplanned = O->getArray("unplanned"))
      for (const json::Value &U : *Unplanned)
        if (const json::Object *UO = U.getAsObject())
          F.Unplanned.push_back(
              {text(*UO, "location"), text(*UO, "op"), text(*UO, "reason")});
    if (const json::Object *P = O->getObject("footprint")) {
      F.Footprint.Arenas = number(*P, "arenas");
      F.Footprint.Callees = number(*P, "callees");
      F.Footprint.Hoisted = number(*P, "hoisted");
      F.Footprint.Steady = number(*P, "steady");
      F.Footprint.FirstCall = number(*P, "first_call");
    }
    Functions.push_back(std::move(F));
  }
  return Functions;
}

} // namespace memplan::diff
