//===- ReportFromIR.cpp - What the IR says about planned buffers ----------===//
//
// The report names each buffer by its alloc and by the op that computes it
// (the linalg op whose outs it is), and every task number it uses by its op,
// which is what a reader looks for; the analysis knows both (its tasks and
// writers).
//
//===----------------------------------------------------------------------===//

#include "TensorMemPlanInternal.h"

#include "mlir/IR/AsmState.h"

using namespace mlir;
using namespace memplan;

std::string memplan::locationOf(Operation *Op) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  Op->getLoc().print(OS);
  return S;
}

/// The op at every task Arena names (each record's first and last task, the
/// peak), as the IR of Fn prints it.
static void describeTasks(ArenaResult &Arena, FunctionOpInterface Fn,
                          const BufferUsageAnalysis &Analysis) {
  std::vector<uint64_t> Tasks{Arena.Peak.Task};
  for (const UsageRecord &R : Arena.Records) {
    Tasks.push_back(R.FirstTask);
    Tasks.push_back(R.LastTask);
  }
  llvm::sort(Tasks);
  Tasks.erase(llvm::unique(Tasks), Tasks.end());
  if (Tasks.empty())
    return;
  // Values numbered as the function prints on its own, which is how the
  // module prints it too (a function is isolated from above).
  AsmState State(Fn);
  for (uint64_t Task : Tasks) {
    Operation *Op = Analysis.tasks().opAt(Task);
    if (!Op)
      continue;
    TaskOp T;
    T.Task = Task;
    T.Op = Op->getName().getStringRef().str();
    T.Location = locationOf(Op);
    // A task inside a region (a buffer live to the end of a linalg.generic
    // ends at its yield): the op holding it is what a reader finds.
    if (Operation *Parent = Op->getParentOp();
        Parent && Parent != Fn.getOperation()) {
      T.ParentOp = Parent->getName().getStringRef().str();
      T.ParentLocation = locationOf(Parent);
    }
    llvm::raw_string_ostream OS(T.Result);
    llvm::interleaveComma(Op->getResults(), OS,
                          [&](Value V) { V.printAsOperand(OS, State); });
    Arena.TaskOps.push_back(std::move(T));
  }
}

void memplan::describeBuffers(ArenaResult &Arena, FunctionOpInterface Fn,
                              const BufferUsageAnalysis &Analysis,
                              const ArenaGroup &Group, bool WithWriters) {
  assert(Arena.Buffers.size() == Group.Buffers.size() &&
         "one report entry per planned buffer");
  if (WithWriters)
    describeTasks(Arena, Fn, Analysis);
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
