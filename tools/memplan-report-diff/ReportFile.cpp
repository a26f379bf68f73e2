//===- ReportFile.cpp - a plan report read back from its JSON -------------===//

#include "ReportFile.h"

#include "memplan/Core/Report.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace memplan::diff {

/// An entry of an arena's task_ops: the op a task number names.
struct TaskOpEntry {
  int64_t Task = 0;
  std::string Op, Location;
};

static bool fromJSON(const json::Value &V, TaskOpEntry &T, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("task", T.Task) && O.map("op", T.Op) &&
         O.map("location", T.Location);
}

std::optional<std::string> idText(const json::Value &V) {
  if (std::optional<int64_t> N = V.getAsInteger())
    return std::to_string(*N);
  if (std::optional<StringRef> S = V.getAsString())
    return S->str();
  return std::nullopt;
}

/// An id read through idText.
struct IdText {
  std::string Text;
};
static bool fromJSON(const json::Value &V, IdText &Id, json::Path P) {
  std::optional<std::string> T = idText(V);
  if (!T) {
    P.report("expected an integer or a string");
    return false;
  }
  Id.Text = std::move(*T);
  return true;
}

// The keys a comparison needs; the others (bounds, kinds, weights, ...) are
// read by the tools that draw one report.
static bool fromJSON(const json::Value &V, Buffer &B, json::Path P) {
  json::ObjectMapper O(V, P);
  IdText Id;
  std::optional<IdText> Of;
  if (!O || !O.map("id", Id) || !O.map("size", B.Size) ||
      !O.map("offset", B.Offset) || !O.map("first_task", B.FirstTask) ||
      !O.map("last_task", B.LastTask) ||
      !O.mapOptional("location", B.Location) || !O.mapOptional("op", B.Op) ||
      !O.mapOptional("type", B.Type) || !O.mapOptional("inplace_of", Of))
    return false;
  B.Id = std::move(Id.Text);
  if (Of)
    B.InplaceOf = std::move(Of->Text);
  return true;
}

static bool fromJSON(const json::Value &V, Arena &A, json::Path P) {
  json::ObjectMapper O(V, P);
  if (!O || !O.map("arena_size", A.ArenaSize) ||
      !O.map("lower_bound", A.LowerBound) || !O.map("buffers", A.Buffers) ||
      !O.mapOptional("memory_space", A.MemorySpace) ||
      !O.mapOptional("strategy", A.Strategy) ||
      !O.mapOptional("chosen", A.Chosen))
    return false;
  const json::Object *Peak = V.getAsObject()->getObject("peak");
  if (!Peak)
    return true;
  json::ObjectMapper PO(*V.getAsObject()->get("peak"), P.field("peak"));
  if (!PO.map("task", A.PeakTask))
    return false;
  std::vector<TaskOpEntry> Ops;
  if (!O.mapOptional("task_ops", Ops))
    return false;
  for (const TaskOpEntry &T : Ops)
    if (T.Task == A.PeakTask)
      A.PeakOp = T.Op + " at " + shortLocation(T.Location);
  return true;
}

static bool fromJSON(const json::Value &V, Function &F, json::Path P) {
  json::ObjectMapper O(V, P);
  if (!O || !O.map("function", F.Name) || !O.map("arenas", F.Arenas) ||
      !O.mapOptional("location", F.Location))
    return false;
  const json::Object &Obj = *V.getAsObject();
  if (const json::Array *U = Obj.getArray("unplanned"))
    F.NumUnplanned = U->size();
  if (const json::Value *Foot = Obj.get("footprint")) {
    json::ObjectMapper FO(*Foot, P.field("footprint"));
    if (!FO || !FO.mapOptional("steady", F.Steady) ||
        !FO.mapOptional("first_call", F.FirstCall))
      return false;
  }
  return true;
}

static Error fail(const std::string &Path, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           Path + ": error: " + Message);
}

Expected<Report> readReport(const std::string &Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> File = MemoryBuffer::getFile(Path);
  if (!File)
    return fail(Path, "cannot read: " + File.getError().message());
  Expected<json::Value> Parsed = json::parse((*File)->getBuffer());
  if (!Parsed)
    return fail(Path, "not JSON: " + toString(Parsed.takeError()));
  const json::Object *Top = Parsed->getAsObject();
  if (!Top)
    return fail(Path, "not a memplan report (the top is not an object)");
  std::optional<int64_t> Version = Top->getInteger("schema_version");
  if (!Version)
    return fail(Path, "not a memplan report (no schema_version)");
  if (*Version != kReportSchemaVersion)
    return fail(Path, "schema_version " + Twine(*Version) +
                          ", but this tool reads schema_version " +
                          Twine(kReportSchemaVersion));
  Report R;
  R.Path = Path;
  json::Path::Root Root("report");
  const json::Value *Functions = Top->get("functions");
  if (!Functions)
    return fail(Path, "not a memplan report (no functions)");
  if (!fromJSON(*Functions, R.Functions, json::Path(Root).field("functions"))) {
    std::string Context;
    raw_string_ostream OS(Context);
    Root.printErrorContext(*Parsed, OS);
    return fail(Path, toString(Root.getError()) + "\n" + Context);
  }
  R.Json = std::move(*Parsed);
  return R;
}

std::string sourceFile(const std::string &Location) {
  StringRef L(Location);
  size_t Start = L.find('"');
  if (Start == StringRef::npos)
    return "";
  size_t End = L.find('"', Start + 1);
  if (End == StringRef::npos)
    return "";
  return L.slice(Start + 1, End).str();
}

std::string shortLocation(const std::string &Location) {
  std::string File = sourceFile(Location);
  if (File.empty())
    return Location;
  StringRef Rest = StringRef(Location)
                       .drop_front(Location.find('"') + 1)
                       .drop_front(File.size() + 1);
  Rest.consume_back(")");
  return (sys::path::filename(File) + Rest).str();
}

} // namespace memplan::diff
