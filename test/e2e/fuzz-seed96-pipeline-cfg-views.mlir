// Found by the differential fuzzer (fuzz/diff, seed 96, memplan-pipeline
// with strategy=min-cost-flow): planned views of the arena flowed through
// cf block arguments; the ownership-based deallocation, run after planning,
// freed them through their base buffers, each of which is the arena at
// another aligned address: a double free in free(). Now such buffers are
// left alone when deallocation runs after planning.
//
// RUN: memplan-opt %s --one-shot-bufferize %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="bufferize=false strategy=min-cost-flow remarks=true" 2>%t.remarks --one-shot-bufferize %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime.so > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: FileCheck %s --input-file=%t.remarks
// CHECK: buffer not planned: forwarded through control flow
// CHECK: tensor-mem-plan: {{[1-9][0-9]*}} buffers planned
module {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c98_i64 = arith.constant 98 : i64
    %c0_index = arith.constant 0 : index
    %c6_index = arith.constant 6 : index
    %c4_index = arith.constant 4 : index
    %c1_index = arith.constant 1 : index
    %c672_index = arith.constant 672 : index
    %c13_index = arith.constant 13 : index
    %c997_i64 = arith.constant 997 : i64
    %c100_i64 = arith.constant 100 : i64
    %c31_i64 = arith.constant 31 : i64
    %c1000003_i64 = arith.constant 1000003 : i64
    %c5_index = arith.constant 5 : index
    %c746_index = arith.constant 746 : index
    %c7_index = arith.constant 7 : index
    %c2_i64 = arith.constant 2 : i64
    %c1_f32 = arith.constant 1.0 : f32
    %c783_index = arith.constant 783 : index
    %c11_index = arith.constant 11 : index
    %c820_index = arith.constant 820 : index
    %c24_index = arith.constant 24 : index
    %c3_f32 = arith.constant 3.0 : f32
    %c104_i64 = arith.constant 104 : i64
    %c105_i64 = arith.constant 105 : i64
    %c106_i64 = arith.constant 106 : i64
    %c107_i64 = arith.constant 107 : i64
    %c108_i64 = arith.constant 108 : i64
    %sink = memref.alloca() : memref<1xi64>
    memref.store %c98_i64, %sink[%c0_index] : memref<1xi64>
    %m1 = memref.alloc() : memref<6x4xf32>
    scf.for %i2 = %c0_index to %c6_index step %c1_index {
      scf.for %i3 = %c0_index to %c4_index step %c1_index {
        %v4 = arith.muli %i2, %c13_index : index
        %v5 = arith.addi %c672_index, %v4 : index
        %v6 = arith.muli %i3, %c1_index : index
        %v7 = arith.addi %v5, %v6 : index
        %v8 = arith.index_cast %v7 : index to i64
        %v9 = arith.remui %v8, %c997_i64 : i64
        %v10 = arith.sitofp %v9 : i64 to f32
        memref.store %v10, %m1[%i2, %i3] : memref<6x4xf32>
      }
    }
    %h12 = scf.for %i11 = %c0_index to %c6_index step %c1_index iter_args(%a13 = %c100_i64) -> (i64) {
      %h15 = scf.for %i14 = %c0_index to %c4_index step %c1_index iter_args(%a16 = %a13) -> (i64) {
        %v17 = memref.load %m1[%i11, %i14] : memref<6x4xf32>
        %v18 = arith.fptosi %v17 : f32 to i64
        %v19 = arith.muli %a16, %c31_i64 : i64
        %v20 = arith.addi %v19, %v18 : i64
        scf.yield %v20 : i64
      }
      scf.yield %h15 : i64
    }
    %v21 = memref.load %sink[%c0_index] : memref<1xi64>
    %v22 = arith.muli %v21, %c1000003_i64 : i64
    %v23 = arith.xori %v22, %h12 : i64
    memref.store %v23, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h12) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %m24 = memref.alloc() {alignment = 8} : memref<5xi8>
    scf.for %i25 = %c0_index to %c5_index step %c1_index {
      %v26 = arith.muli %i25, %c7_index : index
      %v27 = arith.addi %c746_index, %v26 : index
      %v28 = arith.index_cast %v27 : index to i64
      %v29 = arith.remui %v28, %c997_i64 : i64
      %v30 = arith.trunci %v29 : i64 to i8
      memref.store %v30, %m24[%i25] : memref<5xi8>
    }
    %v35 = memref.load %m24[%c4_index] : memref<5xi8>
    %v36 = arith.extsi %v35 : i8 to i64
    %v37 = arith.remui %v36, %c2_i64 : i64
    %v38 = arith.index_cast %v37 : i64 to index
    %v39 = arith.addi %v38, %c0_index : index
    %cond40 = arith.cmpi eq, %v39, %c0_index : index
    cf.cond_br %cond40, ^bb33, ^bb34
  ^bb34:
    %m55 = memref.alloc() : memref<6x4xf32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 3 - d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m1, %m1 : memref<6x4xf32>, memref<6x4xf32>) outs(%m55 : memref<6x4xf32>) {
    ^bb0(%p56: f32, %p57: f32, %p58: f32):
      %v59 = arith.subf %p56, %p57 : f32
      linalg.yield %v59 : f32
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
    scf.for %i41 = %c0_index to %c6_index step %c1_index {
      scf.for %i42 = %c0_index to %c4_index step %c1_index {
        %v43 = memref.load %m1[%i41, %i42] : memref<6x4xf32>
        %v44 = arith.addf %v43, %c1_f32 : f32
        memref.store %v44, %m1[%i41, %i42] : memref<6x4xf32>
      }
    }
    %m45 = memref.alloc() : memref<4x5xf32>
    scf.for %i46 = %c0_index to %c4_index step %c1_index {
      scf.for %i47 = %c0_index to %c5_index step %c1_index {
        %v48 = arith.muli %i46, %c1_index : index
        %v49 = arith.addi %c783_index, %v48 : index
        %v50 = arith.muli %i47, %c11_index : index
        %v51 = arith.addi %v49, %v50 : index
        %v52 = arith.index_cast %v51 : index to i64
        %v53 = arith.remui %v52, %c997_i64 : i64
        %v54 = arith.sitofp %v53 : i64 to f32
        memref.store %v54, %m45[%i46, %i47] : memref<4x5xf32>
      }
    }
    cf.br ^bb31(%m24 : memref<5xi8>)
  ^bb60(%cm61: memref<6x4xf32>):
    %col81 = memref.collapse_shape %m1 [[0, 1]] : memref<6x4xf32> into memref<24xf32>
    scf.for %i82 = %c0_index to %c24_index step %c1_index {
      %v83 = memref.load %col81[%i82] : memref<24xf32>
      %v84 = arith.addf %v83, %c3_f32 : f32
      memref.store %v84, %col81[%i82] : memref<24xf32>
    }
    %h86 = scf.for %i85 = %c0_index to %c6_index step %c1_index iter_args(%a87 = %c104_i64) -> (i64) {
      %h89 = scf.for %i88 = %c0_index to %c4_index step %c1_index iter_args(%a90 = %a87) -> (i64) {
        %v91 = memref.load %m1[%i85, %i88] : memref<6x4xf32>
        %v92 = arith.fptosi %v91 : f32 to i64
        %v93 = arith.muli %a90, %c31_i64 : i64
        %v94 = arith.addi %v93, %v92 : i64
        scf.yield %v94 : i64
      }
      scf.yield %h89 : i64
    }
    %v95 = memref.load %sink[%c0_index] : memref<1xi64>
    %v96 = arith.muli %v95, %c1000003_i64 : i64
    %v97 = arith.xori %v96, %h86 : i64
    memref.store %v97, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h86) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h99 = scf.for %i98 = %c0_index to %c5_index step %c1_index iter_args(%a100 = %c105_i64) -> (i64) {
      %v101 = memref.load %m24[%i98] : memref<5xi8>
      %v102 = arith.extsi %v101 : i8 to i64
      %v103 = arith.muli %a100, %c31_i64 : i64
      %v104 = arith.addi %v103, %v102 : i64
      scf.yield %v104 : i64
    }
    %v105 = memref.load %sink[%c0_index] : memref<1xi64>
    %v106 = arith.muli %v105, %c1000003_i64 : i64
    %v107 = arith.xori %v106, %h99 : i64
    memref.store %v107, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h99) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h109 = scf.for %i108 = %c0_index to %c5_index step %c1_index iter_args(%a110 = %c106_i64) -> (i64) {
      %v111 = memref.load %cm32[%i108] : memref<5xi8>
      %v112 = arith.extsi %v111 : i8 to i64
      %v113 = arith.muli %a110, %c31_i64 : i64
      %v114 = arith.addi %v113, %v112 : i64
      scf.yield %v114 : i64
    }
    %v115 = memref.load %sink[%c0_index] : memref<1xi64>
    %v116 = arith.muli %v115, %c1000003_i64 : i64
    %v117 = arith.xori %v116, %h109 : i64
    memref.store %v117, %sink[%c0_index] : memref<1xi64>
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
    %v128 = memref.load %sink[%c0_index] : memref<1xi64>
    %v129 = arith.muli %v128, %c1000003_i64 : i64
    %v130 = arith.xori %v129, %h119 : i64
    memref.store %v130, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h119) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h132 = scf.for %i131 = %c0_index to %c24_index step %c1_index iter_args(%a133 = %c108_i64) -> (i64) {
      %v134 = memref.load %col81[%i131] : memref<24xf32>
      %v135 = arith.fptosi %v134 : f32 to i64
      %v136 = arith.muli %a133, %c31_i64 : i64
      %v137 = arith.addi %v136, %v135 : i64
      scf.yield %v137 : i64
    }
    %v138 = memref.load %sink[%c0_index] : memref<1xi64>
    %v139 = arith.muli %v138, %c1000003_i64 : i64
    %v140 = arith.xori %v139, %h132 : i64
    memref.store %v140, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h132) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  }
}
