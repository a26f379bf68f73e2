// Found by the differential fuzzer (fuzz/diff shapes family, seed 1, scene
// `global`; fuzz/diff/repros/shapes-seed1-schedule-global-read-past-write.mlir):
// tensor-mem-schedule moved elementwise ops reading the mutable global @g1
// (bufferization.to_tensor of memref.get_global) below the func.call
// @writer1 and the memref.store that write it after them in the input: the
// planned program printed -2841386682356866798. Fixed by fe21044.
//
// RUN: memplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="strategy=best-fit-area alignment=8 runtime=true" 2>/dev/null --convert-bufferization-to-memref %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: memplan-opt %s --memplan-pipeline="deallocate=false runtime=true" 2>/dev/null %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime%shlibext > %t.nodealloc
// RUN: diff %t.ref %t.nodealloc
// RUN: FileCheck %s --input-file=%t.planned
// CHECK: -3037973883548186427
module {
  func.func private @printI64(i64)
  func.func private @printNewline()
  memref.global "private" @g1 : memref<16xi32> = dense<23>
  func.func private @writer1(%v: i32) {
    %g1 = memref.get_global @g1 : memref<16xi32>
    %m2 = memref.alloca() : memref<16xi32>
    linalg.fill ins(%v : i32) outs(%m2 : memref<16xi32>)
    memref.copy %m2, %g1 : memref<16xi32> to memref<16xi32>
    return
  }
  func.func private @glob2(%x: tensor<16xi32>, %k: i32) -> i64 {
    %c347_index = arith.constant 347 : index
    %c7_index = arith.constant 7 : index
    %c1_i32 = arith.constant 1 : i32
    %c32_index = arith.constant 32 : index
    %c45_i64 = arith.constant 45 : i64
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c31_i64 = arith.constant 31 : i64
    %c9_i32 = arith.constant 9 : i32
    %c626_index = arith.constant 626 : index
    %c3_index = arith.constant 3 : index
    %c64_index = arith.constant 64 : index
    %c97_i64 = arith.constant 97 : i64
    %c2_i32 = arith.constant 2 : i32
    %c13_index = arith.constant 13 : index
    %c833_index = arith.constant 833 : index
    %c13_i64 = arith.constant 13 : i64
    %c3_i32 = arith.constant 3 : i32
    %c4_index = arith.constant 4 : index
    %c16_index = arith.constant 16 : index
    %c21_i64 = arith.constant 21 : i64
    %c68_i64 = arith.constant 68 : i64
    %c62_i64 = arith.constant 62 : i64
    %c37_i64 = arith.constant 37 : i64
    %c1000003_i64 = arith.constant 1000003 : i64
    %g1 = memref.get_global @g1 : memref<16xi32>
    %gt2 = bufferization.to_tensor %g1 restrict : memref<16xi32> to tensor<16xi32>
    %em3 = tensor.empty() : tensor<16xi32>
    %t4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], fz.n = 1 : i64, fz.r = 1 : i64} ins(%gt2, %x : tensor<16xi32>, tensor<16xi32>) outs(%em3 : tensor<16xi32>) {
    ^bb0(%a5: i32, %a6: i32, %o7: i32):
      %e8 = arith.xori %a5, %a6 : i32
      linalg.yield %e8 : i32
    } -> tensor<16xi32>
    %em9 = tensor.empty() : tensor<32xi32>
    %t10 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], fz.n = 2 : i64} outs(%em9 : tensor<32xi32>) {
    ^bb0(%o11: i32):
      %x12 = linalg.index 0 : index
      %x13 = arith.muli %x12, %c7_index : index
      %x14 = arith.addi %c347_index, %x13 : index
      %x15 = arith.index_cast %x14 : index to i32
      linalg.yield %x15 : i32
    } -> tensor<32xi32>
    %em16 = tensor.empty() : tensor<32xi32>
    %t17 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], fz.n = 3 : i64} ins(%t10 : tensor<32xi32>) outs(%em16 : tensor<32xi32>) {
    ^bb0(%a18: i32, %o19: i32):
      linalg.yield %a18 : i32
    } -> tensor<32xi32>
    %em20 = tensor.empty() : tensor<32xi32>
    %t21 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], fz.n = 4 : i64} ins(%t17 : tensor<32xi32>) outs(%em20 : tensor<32xi32>) {
    ^bb0(%a22: i32, %o23: i32):
      %e24 = arith.subi %a22, %c1_i32 : i32
      linalg.yield %e24 : i32
    } -> tensor<32xi32>
    %h27 = scf.for %i25 = %c0_index to %c32_index step %c1_index iter_args(%h26 = %c45_i64) -> (i64) {
      %l28 = tensor.extract %t21[%i25] : tensor<32xi32>
      %l29 = arith.extsi %l28 : i32 to i64
      %l30 = arith.muli %h26, %c31_i64 : i64
      %l31 = arith.addi %l30, %l29 : i64
      scf.yield %l31 : i64
    }
    %wv32 = arith.addi %k, %c1_i32 : i32
    func.call @writer1(%wv32) {fz.n = 5 : i64, fz.w = 1 : i64} : (i32) -> ()
    %g33 = memref.get_global @g1 : memref<16xi32>
    %gt34 = bufferization.to_tensor %g33 restrict : memref<16xi32> to tensor<16xi32>
    %em35 = tensor.empty() : tensor<16xi32>
    %t36 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], fz.n = 6 : i64, fz.r = 6 : i64} ins(%gt34, %x : tensor<16xi32>, tensor<16xi32>) outs(%em35 : tensor<16xi32>) {
    ^bb0(%a37: i32, %a38: i32, %o39: i32):
      %e40 = arith.subi %a37, %a38 : i32
      %e41 = arith.xori %e40, %c9_i32 : i32
      linalg.yield %e41 : i32
    } -> tensor<16xi32>
    %em42 = tensor.empty() : tensor<64xi32>
    %t43 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], fz.n = 7 : i64} outs(%em42 : tensor<64xi32>) {
    ^bb0(%o44: i32):
      %x45 = linalg.index 0 : index
      %x46 = arith.muli %x45, %c3_index : index
      %x47 = arith.addi %c626_index, %x46 : index
      %x48 = arith.index_cast %x47 : index to i32
      linalg.yield %x48 : i32
    } -> tensor<64xi32>
    %em49 = tensor.empty() : tensor<64xi32>
    %t50 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], fz.n = 8 : i64} ins(%t43 : tensor<64xi32>) outs(%em49 : tensor<64xi32>) {
    ^bb0(%a51: i32, %o52: i32):
      linalg.yield %a51 : i32
    } -> tensor<64xi32>
    %h55 = scf.for %i53 = %c0_index to %c64_index step %c1_index iter_args(%h54 = %c97_i64) -> (i64) {
      %l56 = tensor.extract %t50[%i53] : tensor<64xi32>
      %l57 = arith.extsi %l56 : i32 to i64
      %l58 = arith.muli %h54, %c31_i64 : i64
      %l59 = arith.addi %l58, %l57 : i64
      scf.yield %l59 : i64
    }
    %wv60 = arith.addi %k, %c2_i32 : i32
    %g61 = memref.get_global @g1 : memref<16xi32>
    memref.store %wv60, %g61[%c13_index] {fz.n = 9 : i64, fz.w = 1 : i64} : memref<16xi32>
    %g62 = memref.get_global @g1 : memref<16xi32>
    %gt63 = bufferization.to_tensor %g62 restrict : memref<16xi32> to tensor<16xi32>
    %em64 = tensor.empty() : tensor<16xi32>
    %t65 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], fz.n = 10 : i64, fz.r = 10 : i64} ins(%gt63 : tensor<16xi32>) outs(%em64 : tensor<16xi32>) {
    ^bb0(%a66: i32, %o67: i32):
      %e68 = arith.xori %a66, %c1_i32 : i32
      linalg.yield %e68 : i32
    } -> tensor<16xi32>
    %em69 = tensor.empty() : tensor<64xi32>
    %t70 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], fz.n = 11 : i64} outs(%em69 : tensor<64xi32>) {
    ^bb0(%o71: i32):
      %x72 = linalg.index 0 : index
      %x73 = arith.muli %x72, %c3_index : index
      %x74 = arith.addi %c833_index, %x73 : index
      %x75 = arith.index_cast %x74 : index to i32
      linalg.yield %x75 : i32
    } -> tensor<64xi32>
    %em76 = tensor.empty() : tensor<64xi32>
    %t77 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], fz.n = 12 : i64} ins(%t70 : tensor<64xi32>) outs(%em76 : tensor<64xi32>) {
    ^bb0(%a78: i32, %o79: i32):
      linalg.yield %a78 : i32
    } -> tensor<64xi32>
    %h82 = scf.for %i80 = %c0_index to %c64_index step %c1_index iter_args(%h81 = %c13_i64) -> (i64) {
      %l83 = tensor.extract %t77[%i80] : tensor<64xi32>
      %l84 = arith.extsi %l83 : i32 to i64
      %l85 = arith.muli %h81, %c31_i64 : i64
      %l86 = arith.addi %l85, %l84 : i64
      scf.yield %l86 : i64
    }
    %wv87 = arith.addi %k, %c3_i32 : i32
    %g88 = memref.get_global @g1 : memref<16xi32>
    memref.store %wv87, %g88[%c4_index] {fz.n = 13 : i64, fz.w = 1 : i64} : memref<16xi32>
    %g89 = memref.get_global @g1 : memref<16xi32>
    %gt90 = bufferization.to_tensor %g89 restrict : memref<16xi32> to tensor<16xi32>
    %em91 = tensor.empty() : tensor<16xi32>
    %t92 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], fz.n = 14 : i64} ins(%gt90, %t4 : tensor<16xi32>, tensor<16xi32>) outs(%em91 : tensor<16xi32>) {
    ^bb0(%a93: i32, %a94: i32, %o95: i32):
      %e96 = arith.subi %a93, %a94 : i32
      %e97 = arith.muli %e96, %c3_i32 : i32
      linalg.yield %e97 : i32
    } -> tensor<16xi32>
    %h100 = scf.for %i98 = %c0_index to %c16_index step %c1_index iter_args(%h99 = %c21_i64) -> (i64) {
      %l101 = tensor.extract %t4[%i98] : tensor<16xi32>
      %l102 = arith.extsi %l101 : i32 to i64
      %l103 = arith.muli %h99, %c31_i64 : i64
      %l104 = arith.addi %l103, %l102 : i64
      scf.yield %l104 : i64
    }
    %h107 = scf.for %i105 = %c0_index to %c16_index step %c1_index iter_args(%h106 = %c68_i64) -> (i64) {
      %l108 = tensor.extract %t36[%i105] : tensor<16xi32>
      %l109 = arith.extsi %l108 : i32 to i64
      %l110 = arith.muli %h106, %c31_i64 : i64
      %l111 = arith.addi %l110, %l109 : i64
      scf.yield %l111 : i64
    }
    %h114 = scf.for %i112 = %c0_index to %c16_index step %c1_index iter_args(%h113 = %c62_i64) -> (i64) {
      %l115 = tensor.extract %t65[%i112] : tensor<16xi32>
      %l116 = arith.extsi %l115 : i32 to i64
      %l117 = arith.muli %h113, %c31_i64 : i64
      %l118 = arith.addi %l117, %l116 : i64
      scf.yield %l118 : i64
    }
    %h121 = scf.for %i119 = %c0_index to %c16_index step %c1_index iter_args(%h120 = %c37_i64) -> (i64) {
      %l122 = tensor.extract %t92[%i119] : tensor<16xi32>
      %l123 = arith.extsi %l122 : i32 to i64
      %l124 = arith.muli %h120, %c31_i64 : i64
      %l125 = arith.addi %l124, %l123 : i64
      scf.yield %l125 : i64
    }
    %c126 = arith.muli %h27, %c1000003_i64 : i64
    %c127 = arith.xori %c126, %h55 : i64
    %c128 = arith.muli %c127, %c1000003_i64 : i64
    %c129 = arith.xori %c128, %h82 : i64
    %c130 = arith.muli %c129, %c1000003_i64 : i64
    %c131 = arith.xori %c130, %h100 : i64
    %c132 = arith.muli %c131, %c1000003_i64 : i64
    %c133 = arith.xori %c132, %h107 : i64
    %c134 = arith.muli %c133, %c1000003_i64 : i64
    %c135 = arith.xori %c134, %h114 : i64
    %c136 = arith.muli %c135, %c1000003_i64 : i64
    %c137 = arith.xori %c136, %h121 : i64
    return %c137 : i64
  }
  func.func @main() {
    %c357_index = arith.constant 357 : index
    %c11_index = arith.constant 11 : index
    %c30_i32 = arith.constant 30 : i32
    %c10_index = arith.constant 10 : index
    %c200_index = arith.constant 200 : index
    %c292_index = arith.constant 292 : index
    %c2_index = arith.constant 2 : index
    %c1_index = arith.constant 1 : index
    %c0_index = arith.constant 0 : index
    %c56_i64 = arith.constant 56 : i64
    %c31_i64 = arith.constant 31 : i64
    %c2000_i32 = arith.constant 2000 : i32
    %c64_i64 = arith.constant 64 : i64
    %c93_i64 = arith.constant 93 : i64
    %c2001_i32 = arith.constant 2001 : i32
    %c23_i64 = arith.constant 23 : i64
    %c10_i64 = arith.constant 10 : i64
    %c77_i32 = arith.constant 77 : i32
    %c26_i64 = arith.constant 26 : i64
    %c946_index = arith.constant 946 : index
    %c7_index = arith.constant 7 : index
    %c88_i32 = arith.constant 88 : i32
    %c74_i32 = arith.constant 74 : i32
    %em1 = tensor.empty() : tensor<16xi32>
    %t2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], fz.n = 15 : i64} outs(%em1 : tensor<16xi32>) {
    ^bb0(%o3: i32):
      %x4 = linalg.index 0 : index
      %x5 = arith.muli %x4, %c11_index : index
      %x6 = arith.addi %c357_index, %x5 : index
      %x7 = arith.index_cast %x6 : index to i32
      linalg.yield %x7 : i32
    } -> tensor<16xi32>
    %r8 = func.call @glob2(%t2, %c30_i32) : (tensor<16xi32>, i32) -> i64
    func.call @printI64(%r8) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  }
}
