// Found by the differential fuzzer (fuzz/diff, seed 100151, memplan-pipeline
// with strategy=greedy-by-size alignment=16): a view of the arena used in a
// later block of a CFG, not through a block argument (%m8 in ^bb35), was
// taken over by the ownership-based deallocation that runs after planning and
// freed through its base buffer: a double free. Fixed by 1defa0e: such
// buffers are left alone when the deallocation runs after planning.
//
// Reduced from the 352-line finding by fuzz/diff/reduce.py, keeping: the
// unplanned program prints the same under two MALLOC_PERTURB_ values;
// memplan-pipeline prints that too, plans a buffer, remarks "used in another
// block of a CFG" and no "forwarded through control flow" (the rule of
// 9e487fb); the same passes with deallocation-runs-after=false (planning as
// before the fix; not rebuilt at 1defa0e^) do not.
//
// RUN: memplan-opt %s --one-shot-bufferize %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="bufferize=false strategy=greedy-by-size alignment=16 remarks=true" 2>%t.remarks --one-shot-bufferize %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime.so > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.planned
// RUN: FileCheck %s --input-file=%t.remarks
// Without the rule (the pipeline's passes, deallocation-runs-after=false):
// RUN: memplan-opt %s "--tensor-mem-plan=across-calls=true inplace=true deallocation-runs-after=false strategy=greedy-by-size alignment=16" --expand-realloc=emit-deallocs=false --canonicalize --tensor-mem-live-ins-as-arguments --ownership-based-buffer-deallocation --canonicalize --buffer-deallocation-simplification --bufferization-lower-deallocations --cse --canonicalize --tensor-mem-lower-runtime=alignment=16 --one-shot-bufferize %lower_to_llvm | not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime.so
//
// What the unplanned program printed (from its run):
// OUT: 2144952
// CHECK: buffer not planned: used in another block of a CFG
// CHECK: tensor-mem-plan: {{[1-9][0-9]*}} buffers planned
module {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c997_i64 = arith.constant 997 : i64
    %c890_index = arith.constant 890 : index
    %c3_index = arith.constant 3 : index
    %c31_i64 = arith.constant 31 : i64
    %c2_i64 = arith.constant 2 : i64
    %c63_i32 = arith.constant 63 : i32
    %c72_i64 = arith.constant 72 : i64
    %m1 = memref.alloc() : memref<1xi32>
    %m8 = memref.alloc() : memref<1xi1>
    scf.for %i9 = %c0_index to %c1_index step %c1_index {
      %v10 = arith.muli %i9, %c3_index : index
      %v11 = arith.addi %c890_index, %v10 : index
      %v12 = arith.index_cast %v11 : index to i64
      %v13 = arith.remui %v12, %c997_i64 : i64
      %v14 = arith.trunci %v13 : i64 to i1
      memref.store %v14, %m8[%i9] : memref<1xi1>
    }
    %cast24 = memref.cast %m1 : memref<1xi32> to memref<?xi32>
    %v39 = memref.load %m8[%c0_index] : memref<1xi1>
    %v40 = arith.extui %v39 : i1 to i64
    %v41 = arith.remui %v40, %c2_i64 : i64
    %v42 = arith.index_cast %v41 : i64 to index
    %v43 = arith.addi %v42, %c0_index : index
    %cond44 = arith.cmpi eq, %v43, %c0_index : index
    cf.cond_br %cond44, ^bb37, ^bb38
  ^bb35(%cm36: memref<1xi1>):
    %tt126 = bufferization.to_tensor %m8 restrict : memref<1xi1> to tensor<1xi1>
    %m141 = memref.alloc() {alignment = 256} : memref<i32>
    linalg.fill ins(%c63_i32 : i32) outs(%m141 : memref<i32>)
    %ex221 = tensor.extract %tt126[%c0_index] : tensor<1xi1>
    %v222 = arith.extui %ex221 : i1 to i64
    %v223 = arith.muli %c72_i64, %c31_i64 : i64
    %v224 = arith.addi %v223, %v222 : i64
    %ex225 = tensor.extract %tt126[%c0_index] : tensor<1xi1>
    %v226 = arith.extui %ex225 : i1 to i64
    %v227 = arith.muli %v224, %c31_i64 : i64
    %v228 = arith.addi %v227, %v226 : i64
    %ex229 = tensor.extract %tt126[%c0_index] : tensor<1xi1>
    %v230 = arith.extui %ex229 : i1 to i64
    %v231 = arith.muli %v228, %c31_i64 : i64
    %v232 = arith.addi %v231, %v230 : i64
    func.call @printI64(%v232) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  ^bb38:
    func.call @printNewline() : () -> ()
    cf.br ^bb35(%m8 : memref<1xi1>)
  ^bb37:
    cf.br ^bb35(%m8 : memref<1xi1>)
  }
}
