// memplan-pipeline with deallocate=true hands memrefs that a later block of
// a CFG uses directly over as block arguments before the ownership-based
// deallocation runs (tensor-mem-live-ins-as-arguments). Without that, the
// deallocation crashed on this program (in
// DeallocationState::getMemrefsToRetain) once planning kept the CFG: the
// store into %x, a view of the arena, is no longer dead, so canonicalize
// no longer folds the branch into a select. Loop result %r is read in ^bb2
// directly and through %m. test/e2e/fuzz-seed903736-pipeline-dealloc-live-ins.mlir
// is the program where it freed %r before ^bb2 read it instead.
//
// RUN: memplan-opt %s --one-shot-bufferize %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="bufferize=false deallocate=true runtime=true remarks=true" 2>%t.remarks --one-shot-bufferize %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime.so > %t.planned
// RUN: diff %t.ref %t.planned
// The branch's buffer is planned, so the CFG stays.
// RUN: FileCheck %s --input-file=%t.remarks
// CHECK: tensor-mem-plan: {{[1-9][0-9]*}} buffers planned
module {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c7 = arith.constant 7 : i64
    %c9 = arith.constant 9 : i64
    %a = memref.alloc() : memref<4xi64>
    linalg.fill ins(%c7 : i64) outs(%a : memref<4xi64>)
    %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%it = %a) -> (memref<4xi64>) {
      %n = memref.alloc() : memref<4xi64>
      %w = arith.index_cast %i : index to i64
      linalg.fill ins(%w : i64) outs(%n : memref<4xi64>)
      scf.yield %n : memref<4xi64>
    }
    %v = memref.load %a[%c0] : memref<4xi64>
    %cond = arith.cmpi eq, %v, %c7 : i64
    cf.cond_br %cond, ^bb1, ^bb2(%a : memref<4xi64>)
  ^bb1:
    %x = memref.alloc() : memref<i64>
    memref.store %c9, %x[] : memref<i64>
    cf.br ^bb2(%r : memref<4xi64>)
  ^bb2(%m: memref<4xi64>):
    %big = memref.alloc() : memref<64xi64>
    linalg.fill ins(%c9 : i64) outs(%big : memref<64xi64>)
    %q = memref.load %r[%c1] : memref<4xi64>
    %s = memref.load %m[%c1] : memref<4xi64>
    %t = memref.load %big[%c1] : memref<64xi64>
    func.call @printI64(%q) : (i64) -> ()
    func.call @printNewline() : () -> ()
    func.call @printI64(%s) : (i64) -> ()
    func.call @printNewline() : () -> ()
    func.call @printI64(%t) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  }
}
