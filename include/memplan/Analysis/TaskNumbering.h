//===- TaskNumbering.h - Ops numbered in program order ----------*- C++ -*-===//
//
// The tasks of usage records: a function's ops numbered in program order;
// an op with regions spans the numbers of its nested ops.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_ANALYSIS_TASKNUMBERING_H
#define MEMPLAN_ANALYSIS_TASKNUMBERING_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace memplan {

/// Task numbers: an op's own number, and the last number inside its regions.
class TaskNumbering {
public:
  explicit TaskNumbering(mlir::Operation *Root) {
    for (mlir::Region &R : Root->getRegions())
      for (mlir::Block &B : R)
        for (mlir::Operation &Op : B)
          number(&Op);
  }
  uint64_t start(mlir::Operation *Op) const { return Spans.lookup(Op).first; }
  uint64_t end(mlir::Operation *Op) const { return Spans.lookup(Op).second; }
  bool contains(mlir::Operation *Op) const { return Spans.contains(Op); }
  uint64_t size() const { return Next; }
  /// The op numbered Task, or null past the last one. Valid while the IR
  /// it numbered is: a pass asks before it rewrites.
  mlir::Operation *opAt(uint64_t Task) const {
    return Task < Ops.size() ? Ops[Task] : nullptr;
  }

private:
  void number(mlir::Operation *Op) {
    uint64_t Start = Next++;
    Ops.push_back(Op);
    for (mlir::Region &R : Op->getRegions())
      for (mlir::Block &B : R)
        for (mlir::Operation &Nested : B)
          number(&Nested);
    Spans[Op] = {Start, Next - 1};
  }
  llvm::DenseMap<mlir::Operation *, std::pair<uint64_t, uint64_t>> Spans;
  std::vector<mlir::Operation *> Ops;
  uint64_t Next = 0;
};

} // namespace memplan

#endif // MEMPLAN_ANALYSIS_TASKNUMBERING_H
