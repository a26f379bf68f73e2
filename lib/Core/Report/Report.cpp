//===- Report.cpp - The report model and its JSON -------------------------===//

#include "memplan/Core/Report.h"
#include "memplan/Core/OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"

#include <algorithm>

using namespace memplan;

static llvm::StringRef kindName(StrategyKind Kind) {
  return Kind == StrategyKind::SharedObjects ? "shared-objects" : "offsets";
}

/// Ids are numbers when they are (record files with numeric ids, the pass).
/// A number where the id is one as it prints back ("7"), else its text:
/// "07" and "-0" once became 7 and 0, the same ids as "7" and "0".
static void writeId(llvm::json::OStream &J, llvm::StringRef Id) {
  int64_t Num;
  if (!Id.getAsInteger(10, Num) && std::to_string(Num) == Id)
    J.value(Num);
  else
    J.value(Id);
}

/// Buffer I of A; Of is the buffer it takes in place, if any.
static void writeBuffer(llvm::json::OStream &J, const ArenaResult &A, size_t I,
                        std::optional<size_t> Of) {
  const BufferInfo &B = A.Buffers[I];
  const UsageRecord &R = A.Records[I];
  J.object([&] {
    J.attribute("first_task", R.FirstTask);
    J.attributeBegin("id");
    writeId(J, B.Id);
    J.attributeEnd();
    if (Of) {
      J.attributeBegin("inplace_of");
      writeId(J, A.Buffers[*Of].Id);
      J.attributeEnd();
    }
    J.attribute("last_task", R.LastTask);
    if (!B.Location.empty())
      J.attribute("location", B.Location);
    J.attribute("offset", A.offset(I));
    if (!B.Op.empty())
      J.attribute("op", B.Op);
    J.attribute("size", R.Size);
    if (!B.Type.empty())
      J.attribute("type", B.Type);
    if (!B.WriterOp.empty())
      J.attributeObject("writer", [&] {
        J.attribute("location", B.WriterLocation);
        J.attribute("op", B.WriterOp);
      });
  });
}

static void writeArena(llvm::json::OStream &J, const ArenaResult &A) {
  auto Numbers = [&](llvm::StringRef Key, auto &&Values) {
    J.attributeArray(Key, [&] {
      for (uint64_t V : Values)
        J.value(V);
    });
  };
  assert(A.Buffers.size() == A.Records.size() && "one entry per record");
  J.object([&] {
    J.attribute("alignment", A.Alignment);
    J.attribute("arena_size", A.arenaSize());
    J.attributeArray("buffers", [&] {
      std::vector<std::optional<size_t>> Of = A.inplaceOf();
      for (size_t I = 0; I < A.Records.size(); ++I)
        writeBuffer(J, A, I, Of[I]);
    });
    J.attribute("bytes_without_planning", A.BytesWithoutPlanning);
    J.attribute("certified_lower_bound", A.CertifiedBound);
    J.attribute("chosen", A.Chosen);
    J.attribute("gap",
                A.arenaSize() - std::min(A.CertifiedBound, A.arenaSize()));
    J.attribute("kind", kindName(A.Kind));
    J.attribute("lower_bound", A.liveBound());
    J.attribute("memory_space", A.MemorySpace);
    if (A.Kind == StrategyKind::SharedObjects) {
      Numbers("object_ids",
              A.Objects ? A.Objects->ObjectIds : std::vector<size_t>());
      Numbers("object_sizes",
              A.Objects ? A.Objects->ObjectSizes : std::vector<uint64_t>());
      if (A.ObjectsLowerBound)
        J.attribute("objects_lower_bound", *A.ObjectsLowerBound);
    }
    J.attribute("optimal", A.Optimal);
    // Peak.Bytes is lower_bound: one name per fact.
    J.attributeObject("peak", [&] {
      J.attributeArray("live", [&] {
        for (size_t I : A.Peak.Live) {
          assert(I < A.Buffers.size() && "the peak indexes the buffers");
          writeId(J, A.Buffers[I].Id);
        }
      });
      J.attribute("task", A.Peak.Task);
    });
    if (A.Shared)
      J.attributeObject("shared", [&] {
        J.attribute("bytes", A.Shared->Bytes);
        J.attribute("global", A.Shared->Global);
        J.attribute("sized_by", A.Shared->SizedBy);
      });
    J.attribute("strategy", A.Requested);
    if (!A.TaskOps.empty())
      J.attributeArray("task_ops", [&] {
        for (const TaskOp &T : A.TaskOps)
          J.object([&] {
            if (!T.ParentOp.empty())
              J.attributeObject("in", [&] {
                J.attribute("location", T.ParentLocation);
                J.attribute("op", T.ParentOp);
              });
            J.attribute("location", T.Location);
            J.attribute("op", T.Op);
            if (!T.Result.empty())
              J.attribute("result", T.Result);
            J.attribute("task", T.Task);
          });
      });
  });
}

void memplan::writeReportJSON(llvm::ArrayRef<FunctionReport> Functions,
                              llvm::raw_ostream &OS) {
  llvm::json::OStream J(OS, 2);
  J.object([&] {
    J.attributeArray("functions", [&] {
      for (const FunctionReport &F : Functions)
        J.object([&] {
          J.attributeArray("arenas", [&] {
            for (const ArenaResult &A : F.Arenas)
              writeArena(J, A);
          });
          if (!F.RecordFile) {
            J.attribute("entry", F.Entry);
            const FootprintReport &P = F.Footprint;
            J.attributeObject("footprint", [&] {
              J.attribute("arenas", P.Arenas);
              J.attribute("callees", P.Callees);
              J.attribute("first_call", P.FirstCall);
              J.attribute("hoisted", P.Hoisted);
              J.attributeArray("not_counted", [&] {
                for (const std::string &N : P.NotCounted)
                  J.value(N);
              });
              J.attribute("steady", P.Steady);
            });
          }
          J.attribute("function", F.Function);
          J.attribute("location", F.Location);
          J.attribute("num_tasks", F.NumTasks);
          J.attributeArray("unplanned", [&] {
            for (const UnplannedBufferReport &U : F.Unplanned)
              J.object([&] {
                J.attribute("location", U.Location);
                J.attribute("op", U.Op);
                J.attribute("reason", U.Reason);
              });
          });
          if (!F.RecordFile)
            J.attributeObject("weights", [&] {
              J.attributeArray("buffers", [&] {
                for (const GlobalBufferReport &G : F.Weights.Buffers)
                  J.object([&] {
                    J.attribute("bytes", G.Bytes);
                    J.attribute("kind", G.Kind);
                    J.attribute("name", G.Name);
                  });
              });
              J.attribute("bytes", F.Weights.Bytes);
            });
        });
    });
    J.attribute("schema_version", kReportSchemaVersion);
  });
  OS << "\n";
}

llvm::Error memplan::writeReportFile(llvm::StringRef Path,
                                     llvm::ArrayRef<FunctionReport> Functions) {
  return writeOutputFile(
      Path, [&](llvm::raw_ostream &OS) { writeReportJSON(Functions, OS); });
}

/// Whether Path can be written, found without leaving a trace: an existing
/// file is opened for appending, a new one created and removed.
llvm::Error memplan::checkWritable(llvm::StringRef Path) {
  bool Existed = llvm::sys::fs::exists(Path);
  int FD;
  std::error_code EC = llvm::sys::fs::openFileForWrite(
      Path, FD,
      Existed ? llvm::sys::fs::CD_OpenExisting : llvm::sys::fs::CD_CreateNew,
      llvm::sys::fs::OF_Append);
  if (EC)
    return llvm::createStringError(EC, "cannot write '" + Path +
                                           "': " + EC.message());
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  if (!Existed)
    llvm::sys::fs::remove(Path);
  return llvm::Error::success();
}
