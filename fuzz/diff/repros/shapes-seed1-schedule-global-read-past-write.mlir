// Found by fuzz/diff (shapes family), seed 1, strategy=best-fit-area alignment=8,
// mode pipeline (memplan-pipeline runtime=true), with the build of 9b21954
// (before the schedule fix). Scene `global` cut out of the program.
// Symptom: tensor-mem-schedule moved the linalg.generic ops reading the
// mutable global @g1 (bufferization.to_tensor of memref.get_global; fz.r = 6
// and 10) below the func.call @writer1 and the memref.store that follow them
// in the input (fz.w, fz.n = 5, 9, 13): the planned program printed
// -2841386682356866798 where the unplanned one prints -3037973883548186427.
//
// Reduced (237 -> 127 lines) by reduce.py --shapes and by hand, as
// test/e2e/fuzz-shapes-seed1-schedule-global-write.mlir, against a memplan-opt
// with fe21044's ordering switched off (not 9b21954 itself): only the
// memref.store is left as the writer; the unplanned program prints
// 7774619330322563367, the one scheduled without the ordering
// -7476983310913305281 (fz.r = 6 and 10 below the store).
module {
  func.func private @printI64(i64)
  func.func private @printNewline()
  memref.global "private" @g1 : memref<16xi32> = dense<23>
  func.func private @glob2(%x: tensor<16xi32>, %k: i32) -> i64 {
    %c1_i32 = arith.constant 1 : i32
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c31_i64 = arith.constant 31 : i64
    %c9_i32 = arith.constant 9 : i32
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
    %g33 = memref.get_global @g1 : memref<16xi32>
    %gt34 = bufferization.to_tensor %g33 restrict : memref<16xi32> to tensor<16xi32>
    %em35 = tensor.empty() : tensor<16xi32>
    %t36 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], fz.n = 6 : i64, fz.r = 6 : i64} ins(%gt34, %x : tensor<16xi32>, tensor<16xi32>) outs(%em35 : tensor<16xi32>) {
    ^bb0(%a37: i32, %a38: i32, %o39: i32):
      %e40 = arith.subi %a37, %a38 : i32
      %e41 = arith.xori %e40, %c9_i32 : i32
      linalg.yield %e41 : i32
    } -> tensor<16xi32>
    %g62 = memref.get_global @g1 : memref<16xi32>
    %gt63 = bufferization.to_tensor %g62 restrict : memref<16xi32> to tensor<16xi32>
    %em64 = tensor.empty() : tensor<16xi32>
    %t65 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], fz.n = 10 : i64, fz.r = 10 : i64} ins(%gt63 : tensor<16xi32>) outs(%em64 : tensor<16xi32>) {
    ^bb0(%a66: i32, %o67: i32):
      %e68 = arith.xori %a66, %c1_i32 : i32
      linalg.yield %e68 : i32
    } -> tensor<16xi32>
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
    %c130 = arith.muli %h100, %c1000003_i64 : i64
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
