// Found by the differential fuzzer (fuzz/diff, seed 96, memplan-pipeline with
// strategy=min-cost-flow, at 8fc5c4d): planned views of the arena flowed
// through cf block arguments (%m70 into ^bb60 as %cm61); the ownership-based
// deallocation, run after planning, freed them through their base buffers,
// each of which is the arena at another aligned address: a double free in
// free(). Fixed by 9e487fb: with deallocation-runs-after (memplan-pipeline
// sets it) such buffers are left alone.
//
// Reduced from the 214-line finding by fuzz/diff/reduce.py, keeping: the
// unplanned program prints the same under two MALLOC_PERTURB_ values;
// memplan-pipeline prints that too, plans a buffer and remarks "forwarded
// through control flow"; the same passes with deallocation-runs-after=false
// (planning as before 9e487fb; not rebuilt at 8fc5c4d) do not. %m1 and %m24,
// also left alone ("used in another block"), fall under the same guard.
//
// RUN: memplan-opt %s --one-shot-bufferize %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="bufferize=false strategy=min-cost-flow remarks=true" 2>%t.remarks --one-shot-bufferize %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime.so > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t.planned
// RUN: FileCheck %s --input-file=%t.remarks
// Without the rule (the pipeline's passes, deallocation-runs-after=false):
// RUN: memplan-opt %s "--tensor-mem-plan=across-calls=true inplace=true deallocation-runs-after=false strategy=min-cost-flow" --expand-realloc=emit-deallocs=false --canonicalize --tensor-mem-live-ins-as-arguments --ownership-based-buffer-deallocation --canonicalize --buffer-deallocation-simplification --bufferization-lower-deallocations --cse --canonicalize --tensor-mem-lower-runtime=alignment=64 --one-shot-bufferize %lower_to_llvm | not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime.so
//
// What the unplanned program printed (from its run):
// OUT: 3013917966
// OUT-NEXT: -5728502565934962505
// CHECK: buffer not planned: forwarded through control flow
// CHECK: tensor-mem-plan: {{[1-9][0-9]*}} {{buffers?}} planned
module {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c0_index = arith.constant 0 : index
    %c6_index = arith.constant 6 : index
    %c4_index = arith.constant 4 : index
    %c1_index = arith.constant 1 : index
    %c997_i64 = arith.constant 997 : i64
    %c31_i64 = arith.constant 31 : i64
    %c5_index = arith.constant 5 : index
    %c746_index = arith.constant 746 : index
    %c7_index = arith.constant 7 : index
    %c2_i64 = arith.constant 2 : i64
    %c820_index = arith.constant 820 : index
    %c106_i64 = arith.constant 106 : i64
    %c107_i64 = arith.constant 107 : i64
    %m1 = memref.alloc() : memref<6x4xf32>
    %m24 = memref.alloc() {alignment = 8} : memref<5xi8>
    scf.for %i25 = %c0_index to %c5_index step %c1_index {
      %v26 = arith.muli %i25, %c7_index : index
      %v27 = arith.addi %c746_index, %v26 : index
      %v28 = arith.index_cast %v27 : index to i64
      %v29 = arith.remui %v28, %c997_i64 : i64
      %v30 = arith.trunci %v29 : i64 to i8
      memref.store %v30, %m24[%i25] : memref<5xi8>
    }
    cf.br ^bb31(%m24 : memref<5xi8>)
  ^bb62:
    cf.br ^bb60(%m1 : memref<6x4xf32>)
  ^bb63:
    %m70 = memref.alloc() : memref<6x4xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%m70 : memref<6x4xf32>) {
    ^bb0(%o71: f32):
      %x72 = linalg.index 0 : index
      %x73 = linalg.index 1 : index
      %v74 = arith.muli %x72, %c7_index : index
      %v75 = arith.addi %c820_index, %v74 : index
      %v76 = arith.muli %x73, %c1_index : index
      %v77 = arith.addi %v75, %v76 : index
      %v78 = arith.index_cast %v77 : index to i64
      %v79 = arith.remui %v78, %c997_i64 : i64
      %v80 = arith.sitofp %v79 : i64 to f32
      linalg.yield %v80 : f32
    }
    cf.br ^bb60(%m70 : memref<6x4xf32>)
  ^bb31(%cm32: memref<5xi8>):
    %v64 = memref.load %m24[%c1_index] : memref<5xi8>
    %v65 = arith.extsi %v64 : i8 to i64
    %v66 = arith.remui %v65, %c2_i64 : i64
    %v67 = arith.index_cast %v66 : i64 to index
    %v68 = arith.addi %v67, %c0_index : index
    %cond69 = arith.cmpi eq, %v68, %c0_index : index
    cf.cond_br %cond69, ^bb62, ^bb63
  ^bb33:
    %m45 = memref.alloc() : memref<4x5xf32>
    cf.br ^bb31(%m24 : memref<5xi8>)
  ^bb60(%cm61: memref<6x4xf32>):
    %h109 = scf.for %i108 = %c0_index to %c5_index step %c1_index iter_args(%a110 = %c106_i64) -> (i64) {
      %v111 = memref.load %cm32[%i108] : memref<5xi8>
      %v112 = arith.extsi %v111 : i8 to i64
      %v113 = arith.muli %a110, %c31_i64 : i64
      %v114 = arith.addi %v113, %v112 : i64
      scf.yield %v114 : i64
    }
    func.call @printI64(%h109) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h119 = scf.for %i118 = %c0_index to %c6_index step %c1_index iter_args(%a120 = %c107_i64) -> (i64) {
      %h122 = scf.for %i121 = %c0_index to %c4_index step %c1_index iter_args(%a123 = %a120) -> (i64) {
        %v124 = memref.load %cm61[%i118, %i121] : memref<6x4xf32>
        %v125 = arith.fptosi %v124 : f32 to i64
        %v126 = arith.muli %a123, %c31_i64 : i64
        %v127 = arith.addi %v126, %v125 : i64
        scf.yield %v127 : i64
      }
      scf.yield %h122 : i64
    }
    func.call @printI64(%h119) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  }
}
