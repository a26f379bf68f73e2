//===- RecordFile.cpp - MiniMalloc CSV record files -----------------------===//

#include "memplan/Core/RecordFile.h"
#include "memplan/Core/Strategy.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MemoryBuffer.h"

#include <optional>

using namespace memplan;

static llvm::Error lineError(llvm::StringRef File, size_t Line,
                             const llvm::Twine &Msg) {
  return llvm::createStringError(File + ":" + llvm::Twine(Line) + ": " + Msg);
}

namespace {
/// What a header column holds. MiniMalloc's reader (converter.cc) takes the
/// columns in any order and by other names: an old file reads
/// `buffer,start,end,size` with `end` the upper bound, inclusive.
enum class Column { Id, Lower, Upper, Size, Alignment, Gaps, Offset };
constexpr size_t NumColumns = size_t(Column::Offset) + 1;

std::optional<Column> columnNamed(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<Column>>(Name)
      .Cases({"id", "buffer", "buffer_id"}, Column::Id)
      .Cases({"lower", "start", "begin"}, Column::Lower)
      .Cases({"upper", "end"}, Column::Upper)
      .Case("size", Column::Size)
      .Case("alignment", Column::Alignment)
      .Case("gaps", Column::Gaps)
      .Case("offset", Column::Offset)
      .Default(std::nullopt);
}

const char *KnownColumns =
    "id (or buffer, buffer_id), lower (or start, begin), upper (or end, "
    "inclusive), size, and optionally alignment, gaps, offset";
} // namespace

llvm::Expected<RecordSet> memplan::parseRecordsCSV(llvm::StringRef Text,
                                                   llvm::StringRef FileName) {
  RecordSet Set;
  llvm::StringMap<size_t> LineOfId;
  size_t LineNo = 0;
  // The field each column is in, once the header is read.
  std::optional<size_t> FieldOf[NumColumns];
  size_t NumFields = 0;
  // The upper column is named end: the last task, inclusive.
  bool SawHeader = false, GapsIgnored = false, Inclusive = false;
  llvm::StringRef Header;
  // A UTF-8 byte order mark (spreadsheets write one) is rejected like any
  // other header, but named: quoted, it is invisible and the header looked
  // right.
  if (Text.starts_with("\xEF\xBB\xBF"))
    return lineError(FileName, 1,
                     "expected the header 'id,lower,upper,size', got a UTF-8 "
                     "byte order mark (bytes EF BB BF) before it: save the "
                     "file without one");
  while (!Text.empty()) {
    llvm::StringRef Line;
    std::tie(Line, Text) = Text.split('\n');
    ++LineNo;
    Line = Line.rtrim("\r");
    if (Line.trim().empty())
      continue;
    llvm::SmallVector<llvm::StringRef, 8> Fields;
    Line.split(Fields, ',');
    for (llvm::StringRef &F : Fields)
      F = F.trim();
    if (!SawHeader) {
      auto HeaderError = [&](const llvm::Twine &Why) {
        return lineError(FileName, LineNo,
                         "expected the header 'id,lower,upper,size', got '" +
                             Line + "': " + Why);
      };
      for (size_t I = 0; I < Fields.size(); ++I) {
        std::optional<Column> C = columnNamed(Fields[I]);
        if (!C)
          return HeaderError("column '" + Fields[I] + "' is none of " +
                             KnownColumns);
        std::optional<size_t> &Slot = FieldOf[size_t(*C)];
        if (Slot)
          return lineError(FileName, LineNo,
                           "column '" + Fields[I] + "' repeats column " +
                               llvm::Twine(*Slot + 1) + " of the header");
        Slot = I;
        if (*C == Column::Upper)
          Inclusive = Fields[I] == "end";
      }
      for (auto [C, Name] :
           {std::pair(Column::Id, "id"), std::pair(Column::Lower, "lower"),
            std::pair(Column::Size, "size"),
            std::pair(Column::Upper, "upper (or end)")})
        if (!FieldOf[size_t(C)])
          return HeaderError(llvm::Twine("no ") + Name + " column");
      if (FieldOf[size_t(Column::Offset)])
        Set.Notes.push_back("column 'offset' ignored: the offsets are planned "
                            "anew");
      SawHeader = true;
      Header = Line;
      NumFields = Fields.size();
      continue;
    }
    if (Fields.size() != NumFields)
      return lineError(FileName, LineNo,
                       "expected " + llvm::Twine(NumFields) + " fields '" +
                           Header + "', got " + llvm::Twine(Fields.size()));
    auto Field = [&](Column C) { return Fields[*FieldOf[size_t(C)]]; };
    llvm::StringRef Id = Field(Column::Id);
    if (Id.empty())
      return lineError(FileName, LineNo, "missing id");
    auto Integer = [&](Column C, const char *Name, uint64_t &V) -> llvm::Error {
      if (Field(C).getAsInteger(10, V))
        return lineError(FileName, LineNo,
                         llvm::Twine(Name) + " '" + Field(C) +
                             "' is not an integer in [0, 2^64)");
      return llvm::Error::success();
    };
    uint64_t Lower = 0, Upper = 0, Size = 0;
    if (llvm::Error E = Integer(Column::Lower, "lower", Lower))
      return std::move(E);
    if (llvm::Error E =
            Integer(Column::Upper, Inclusive ? "end" : "upper", Upper))
      return std::move(E);
    if (llvm::Error E = Integer(Column::Size, "size", Size))
      return std::move(E);
    if (Inclusive) {
      // end is the last task: [lower, end] is [lower, end + 1).
      if (Upper < Lower)
        return lineError(FileName, LineNo,
                         "end (" + llvm::Twine(Upper) +
                             ") must not be below lower (" +
                             llvm::Twine(Lower) +
                             "): the interval [lower, end] is inclusive");
      if (Upper == UINT64_MAX)
        return lineError(FileName, LineNo,
                         "end " + llvm::Twine(Upper) +
                             " is past the last task (2^64 - 2)");
      ++Upper;
    }
    if (Lower >= Upper)
      return lineError(FileName, LineNo,
                       "lower (" + llvm::Twine(Lower) +
                           ") must be below upper (" + llvm::Twine(Upper) +
                           "): the interval [lower, upper) is half-open");
    if (Size == 0)
      return lineError(FileName, LineNo, "size must be positive");
    if (FieldOf[size_t(Column::Alignment)]) {
      uint64_t Align = 0;
      if (llvm::Error E = Integer(Column::Alignment, "alignment", Align))
        return std::move(E);
      // One arena alignment serves them all (the largest); a power of two
      // divides every larger one.
      if (llvm::Error E = checkAlignment(Align))
        return lineError(FileName, LineNo, llvm::toString(std::move(E)));
      Set.Alignments.push_back(Align);
    }
    if (FieldOf[size_t(Column::Gaps)] && !Field(Column::Gaps).empty())
      GapsIgnored = true;
    auto Inserted = LineOfId.try_emplace(Id, LineNo);
    if (!Inserted.second)
      return lineError(FileName, LineNo,
                       "duplicate id '" + Id + "' (first on line " +
                           llvm::Twine(Inserted.first->second) + ")");
    Set.Records.emplace_back(Size, Lower, Upper - 1);
    Set.Ids.push_back(Id.str());
    Set.Lines.push_back(LineNo);
  }
  if (!SawHeader)
    return lineError(FileName, 1,
                     "empty file; expected the header 'id,lower,upper,size'");
  if (Set.Records.empty())
    return lineError(FileName, LineNo, "no records after the header");
  // Live through its gaps is a superset of its lifetime: sound, not tight.
  if (GapsIgnored)
    Set.Notes.push_back("column 'gaps' ignored: each buffer is planned as "
                        "live over its whole [lower, upper)");
  return Set;
}

uint64_t memplan::largestAlignment(const RecordSet &Set) {
  uint64_t Max = 1;
  for (uint64_t A : Set.Alignments)
    Max = std::max(Max, A);
  return Max;
}

llvm::Expected<RecordSet> memplan::readRecordsCSV(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFileOrSTDIN(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(),
                                   Path + ": " + Buffer.getError().message());
  return parseRecordsCSV((*Buffer)->getBuffer(), Path);
}

void memplan::writeRecordsCSV(const RecordSet &Set, llvm::raw_ostream &OS) {
  bool Aligned =
      Set.Alignments.size() == Set.Records.size() && !Set.Alignments.empty();
  OS << (Aligned ? "id,lower,upper,size,alignment\n" : "id,lower,upper,size\n");
  for (size_t I = 0; I < Set.Records.size(); ++I) {
    const UsageRecord &R = Set.Records[I];
    if (I < Set.Ids.size())
      OS << Set.Ids[I];
    else
      OS << I;
    OS << ',' << R.FirstTask << ',' << R.LastTask + 1 << ',' << R.Size;
    if (Aligned)
      OS << ',' << Set.Alignments[I];
    OS << '\n';
  }
}
