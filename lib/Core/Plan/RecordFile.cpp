//===- RecordFile.cpp - MiniMalloc CSV record files -----------------------===//

#include "memplan/Core/RecordFile.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace memplan;

static llvm::Error lineError(llvm::StringRef File, size_t Line,
                             const llvm::Twine &Msg) {
  return llvm::createStringError(File + ":" + llvm::Twine(Line) + ": " + Msg);
}

llvm::Expected<RecordSet> memplan::parseRecordsCSV(llvm::StringRef Text,
                                                   llvm::StringRef FileName) {
  RecordSet Set;
  llvm::StringMap<size_t> LineOfId;
  size_t LineNo = 0;
  bool SawHeader = false;
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
    llvm::SmallVector<llvm::StringRef, 4> Fields;
    Line.split(Fields, ',');
    for (llvm::StringRef &F : Fields)
      F = F.trim();
    if (!SawHeader) {
      if (Fields.size() != 4 || Fields[0] != "id" || Fields[1] != "lower" ||
          Fields[2] != "upper" || Fields[3] != "size")
        return lineError(FileName, LineNo,
                         "expected the header 'id,lower,upper,size', got '" +
                             Line + "'");
      SawHeader = true;
      continue;
    }
    if (Fields.size() != 4)
      return lineError(FileName, LineNo,
                       "expected 4 fields 'id,lower,upper,size', got " +
                           llvm::Twine(Fields.size()));
    if (Fields[0].empty())
      return lineError(FileName, LineNo, "missing id");
    uint64_t Values[3];
    static const char *Names[] = {"lower", "upper", "size"};
    for (int K = 0; K < 3; ++K)
      if (Fields[K + 1].getAsInteger(10, Values[K]))
        return lineError(FileName, LineNo,
                         llvm::Twine(Names[K]) + " '" + Fields[K + 1] +
                             "' is not an integer in [0, 2^64)");
    auto [Lower, Upper, Size] = std::tuple(Values[0], Values[1], Values[2]);
    if (Lower >= Upper)
      return lineError(FileName, LineNo,
                       "lower (" + llvm::Twine(Lower) +
                           ") must be below upper (" + llvm::Twine(Upper) +
                           "): the interval [lower, upper) is half-open");
    if (Size == 0)
      return lineError(FileName, LineNo, "size must be positive");
    auto Inserted = LineOfId.try_emplace(Fields[0], LineNo);
    if (!Inserted.second)
      return lineError(FileName, LineNo,
                       "duplicate id '" + Fields[0] + "' (first on line " +
                           llvm::Twine(Inserted.first->second) + ")");
    Set.Records.emplace_back(Size, Lower, Upper - 1);
    Set.Ids.push_back(Fields[0].str());
  }
  if (!SawHeader)
    return lineError(FileName, 1,
                     "empty file; expected the header 'id,lower,upper,size'");
  if (Set.Records.empty())
    return lineError(FileName, LineNo, "no records after the header");
  return Set;
}

llvm::Expected<RecordSet> memplan::readRecordsCSV(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFileOrSTDIN(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(),
                                   Path + ": " + Buffer.getError().message());
  return parseRecordsCSV((*Buffer)->getBuffer(), Path);
}

void memplan::writeRecordsCSV(const RecordSet &Set, llvm::raw_ostream &OS) {
  OS << "id,lower,upper,size\n";
  for (size_t I = 0; I < Set.Records.size(); ++I) {
    const UsageRecord &R = Set.Records[I];
    if (I < Set.Ids.size())
      OS << Set.Ids[I];
    else
      OS << I;
    OS << ',' << R.FirstTask << ',' << R.LastTask + 1 << ',' << R.Size << '\n';
  }
}
