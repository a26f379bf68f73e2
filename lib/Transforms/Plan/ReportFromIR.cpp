//===- ReportFromIR.cpp - What the IR says about planned buffers ----------===//
//
// The report names each buffer by its alloc and by the op that computes it
// (the linalg op whose outs it is), and the peak by its op, which is what a
// reader looks for; the analysis knows both (its tasks and writers).
//
//===----------------------------------------------------------------------===//

#include "TensorMemPlanInternal.h"

using namespace mlir;
using namespace memplan;

std::string memplan::locationOf(Operation *Op) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  Op->getLoc().print(OS);
  return S;
}

void memplan::describeBuffers(ArenaResult &Arena, FunctionOpInterface Fn,
                              const BufferUsageAnalysis &Analysis,
                              const ArenaGroup &Group, bool WithWriters) {
  assert(Arena.Buffers.size() == Group.Buffers.size() &&
         "one report entry per planned buffer");
  if (WithWriters)
    if (Operation *Peak = Analysis.tasks().opAt(Arena.Peak.Task)) {
      Arena.PeakOp = Peak->getName().getStringRef().str();
      Arena.PeakLocation = locationOf(Peak);
    }
  for (auto [B, Buffer] : llvm::zip_equal(Arena.Buffers, Group.Buffers)) {
    memref::AllocOp Alloc = Buffer->Alloc;
    B.Location = locationOf(Alloc);
    B.Op = Alloc->getName().getStringRef().str();
    llvm::raw_string_ostream(B.Type) << Alloc.getType();
    // A dynamic alloc is planned at its bound: its size is that bound.
    if (!Alloc.getType().hasStaticShape())
      B.Type += " (planned at its bound, " +
                std::to_string(Buffer->Record.Size) + " bytes)";
    if (!WithWriters)
      continue;
    Operation *Writer = Analysis.writerOf(Alloc);
    B.WriterOp = Writer->getName().getStringRef().str();
    B.WriterLocation = locationOf(Writer);
  }
}
