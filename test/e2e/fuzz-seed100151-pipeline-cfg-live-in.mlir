// Found by the differential fuzzer (fuzz/diff, seed 100151, memplan-pipeline
// with strategy=greedy-by-size alignment=16): views of the arena used in a
// later block of a CFG (not through a block argument) were taken over by the
// ownership-based deallocation that runs after planning, and freed through
// their base buffers: a double free. Such buffers are now left alone when
// the deallocation runs after planning.
//
// RUN: memplan-opt %s --one-shot-bufferize %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="bufferize=false strategy=greedy-by-size alignment=16 remarks=true" 2>%t.remarks --one-shot-bufferize %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime.so > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: FileCheck %s --input-file=%t.remarks
// CHECK: buffer not planned: used in another block of a CFG
// CHECK: tensor-mem-plan: {{[1-9][0-9]*}} buffers planned
module {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c49_i64 = arith.constant 49 : i64
    %c0_index = arith.constant 0 : index
    %c1_index = arith.constant 1 : index
    %c853_index = arith.constant 853 : index
    %c13_index = arith.constant 13 : index
    %c997_i64 = arith.constant 997 : i64
    %c890_index = arith.constant 890 : index
    %c3_index = arith.constant 3 : index
    %c927_index = arith.constant 927 : index
    %c53_i64 = arith.constant 53 : i64
    %c31_i64 = arith.constant 31 : i64
    %c1000003_i64 = arith.constant 1000003 : i64
    %c2_i64 = arith.constant 2 : i64
    %c5_i64 = arith.constant 5 : i64
    %c0_i1 = arith.constant false
    %c5_index = arith.constant 5 : index
    %c4_index = arith.constant 4 : index
    %c41_index = arith.constant 41 : index
    %c78_index = arith.constant 78 : index
    %c11_index = arith.constant 11 : index
    %c0_i32 = arith.constant 0 : i32
    %c57_i64 = arith.constant 57 : i64
    %c58_i64 = arith.constant 58 : i64
    %c2_index = arith.constant 2 : index
    %c59_i64 = arith.constant 59 : i64
    %c60_i64 = arith.constant 60 : i64
    %c61_i64 = arith.constant 61 : i64
    %c62_i64 = arith.constant 62 : i64
    %c3_i32 = arith.constant 3 : i32
    %c5_i32 = arith.constant 5 : i32
    %c63_i32 = arith.constant 63 : i32
    %c64_i64 = arith.constant 64 : i64
    %c65_i64 = arith.constant 65 : i64
    %c66_i64 = arith.constant 66 : i64
    %c67_i64 = arith.constant 67 : i64
    %c68_i64 = arith.constant 68 : i64
    %c69_i64 = arith.constant 69 : i64
    %c70_i64 = arith.constant 70 : i64
    %c71_i64 = arith.constant 71 : i64
    %c72_i64 = arith.constant 72 : i64
    %sink = memref.alloca() : memref<1xi64>
    memref.store %c49_i64, %sink[%c0_index] : memref<1xi64>
    %m1 = memref.alloc() : memref<1xi32>
    scf.for %i2 = %c0_index to %c1_index step %c1_index {
      %v3 = arith.muli %i2, %c13_index : index
      %v4 = arith.addi %c853_index, %v3 : index
      %v5 = arith.index_cast %v4 : index to i64
      %v6 = arith.remui %v5, %c997_i64 : i64
      %v7 = arith.trunci %v6 : i64 to i32
      memref.store %v7, %m1[%i2] : memref<1xi32>
    }
    %m8 = memref.alloc() : memref<1xi1>
    scf.for %i9 = %c0_index to %c1_index step %c1_index {
      %v10 = arith.muli %i9, %c3_index : index
      %v11 = arith.addi %c890_index, %v10 : index
      %v12 = arith.index_cast %v11 : index to i64
      %v13 = arith.remui %v12, %c997_i64 : i64
      %v14 = arith.trunci %v13 : i64 to i1
      memref.store %v14, %m8[%i9] : memref<1xi1>
    }
    %m15 = memref.alloc() {alignment = 128} : memref<1xi32>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (0 - d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m1, %m1 : memref<1xi32>, memref<1xi32>) outs(%m15 : memref<1xi32>) {
    ^bb0(%p16: i32, %p17: i32, %p18: i32):
      %v19 = arith.muli %p16, %p17 : i32
      linalg.yield %v19 : i32
    }
    %m20 = memref.alloc() : memref<i32>
    %v21 = arith.index_cast %c927_index : index to i64
    %v22 = arith.remui %v21, %c997_i64 : i64
    %v23 = arith.trunci %v22 : i64 to i32
    memref.store %v23, %m20[] : memref<i32>
    %cast24 = memref.cast %m1 : memref<1xi32> to memref<?xi32>
    %h26 = scf.for %i25 = %c0_index to %c1_index step %c1_index iter_args(%a27 = %c53_i64) -> (i64) {
      %v28 = memref.load %m8[%i25] : memref<1xi1>
      %v29 = arith.extui %v28 : i1 to i64
      %v30 = arith.muli %a27, %c31_i64 : i64
      %v31 = arith.addi %v30, %v29 : i64
      scf.yield %v31 : i64
    }
    %v32 = memref.load %sink[%c0_index] : memref<1xi64>
    %v33 = arith.muli %v32, %c1000003_i64 : i64
    %v34 = arith.xori %v33, %h26 : i64
    memref.store %v34, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h26) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %v39 = memref.load %m8[%c0_index] : memref<1xi1>
    %v40 = arith.extui %v39 : i1 to i64
    %v41 = arith.remui %v40, %c2_i64 : i64
    %v42 = arith.index_cast %v41 : i64 to index
    %v43 = arith.addi %v42, %c0_index : index
    %cond44 = arith.cmpi eq, %v43, %c0_index : index
    cf.cond_br %cond44, ^bb37, ^bb38
  ^bb35(%cm36: memref<1xi1>):
    %h100 = scf.for %i99 = %c0_index to %c1_index step %c1_index iter_args(%a101 = %c59_i64) -> (i64) {
      %v102 = memref.load %m1[%i99] : memref<1xi32>
      %v103 = arith.extsi %v102 : i32 to i64
      %v104 = arith.muli %a101, %c31_i64 : i64
      %v105 = arith.addi %v104, %v103 : i64
      scf.yield %v105 : i64
    }
    %v106 = memref.load %sink[%c0_index] : memref<1xi64>
    %v107 = arith.muli %v106, %c1000003_i64 : i64
    %v108 = arith.xori %v107, %h100 : i64
    memref.store %v108, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h100) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h110 = scf.for %i109 = %c0_index to %c1_index step %c1_index iter_args(%a111 = %c60_i64) -> (i64) {
      %v112 = memref.load %cm36[%i109] : memref<1xi1>
      %v113 = arith.extui %v112 : i1 to i64
      %v114 = arith.muli %a111, %c31_i64 : i64
      %v115 = arith.addi %v114, %v113 : i64
      scf.yield %v115 : i64
    }
    %v116 = memref.load %sink[%c0_index] : memref<1xi64>
    %v117 = arith.muli %v116, %c1000003_i64 : i64
    %v118 = arith.xori %v117, %h110 : i64
    memref.store %v118, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h110) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %v119 = memref.load %m20[] : memref<i32>
    %v120 = arith.extsi %v119 : i32 to i64
    %v121 = arith.muli %c61_i64, %c31_i64 : i64
    %v122 = arith.addi %v121, %v120 : i64
    %v123 = memref.load %sink[%c0_index] : memref<1xi64>
    %v124 = arith.muli %v123, %c1000003_i64 : i64
    %v125 = arith.xori %v124, %v122 : i64
    memref.store %v125, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%v122) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %tt126 = bufferization.to_tensor %m8 restrict : memref<1xi1> to tensor<1xi1>
    %h128 = scf.for %i127 = %c0_index to %c1_index step %c1_index iter_args(%a129 = %c62_i64) -> (i64) {
      %v130 = memref.load %m1[%i127] : memref<1xi32>
      %v131 = arith.extsi %v130 : i32 to i64
      %v132 = arith.muli %a129, %c31_i64 : i64
      %v133 = arith.addi %v132, %v131 : i64
      scf.yield %v133 : i64
    }
    %v134 = memref.load %sink[%c0_index] : memref<1xi64>
    %v135 = arith.muli %v134, %c1000003_i64 : i64
    %v136 = arith.xori %v135, %h128 : i64
    memref.store %v136, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h128) : (i64) -> ()
    func.call @printNewline() : () -> ()
    scf.for %i137 = %c0_index to %c1_index step %c1_index {
      %v138 = memref.load %m15[%i137] : memref<1xi32>
      %v140 = arith.muli %v138, %c3_i32 : i32
      %v139 = arith.addi %v140, %c5_i32 : i32
      memref.store %v139, %m15[%i137] : memref<1xi32>
    }
    %m141 = memref.alloc() {alignment = 256} : memref<i32>
    linalg.fill ins(%c63_i32 : i32) outs(%m141 : memref<i32>)
    %v142 = memref.load %m8[%c0_index] : memref<1xi1>
    %v143 = arith.extui %v142 : i1 to i64
    %v144 = arith.remui %v143, %c2_i64 : i64
    %v145 = arith.index_cast %v144 : i64 to index
    %v146 = arith.addi %v145, %c0_index : index
    %cond147 = arith.cmpi eq, %v146, %c0_index : index
    %sel148 = arith.select %cond147, %m20, %m141 : memref<i32>
    %h150 = scf.for %i149 = %c0_index to %c1_index step %c1_index iter_args(%a151 = %c64_i64) -> (i64) {
      %v152 = memref.load %m1[%i149] : memref<1xi32>
      %v153 = arith.extsi %v152 : i32 to i64
      %v154 = arith.muli %a151, %c31_i64 : i64
      %v155 = arith.addi %v154, %v153 : i64
      scf.yield %v155 : i64
    }
    %v156 = memref.load %sink[%c0_index] : memref<1xi64>
    %v157 = arith.muli %v156, %c1000003_i64 : i64
    %v158 = arith.xori %v157, %h150 : i64
    memref.store %v158, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h150) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h160 = scf.for %i159 = %c0_index to %c1_index step %c1_index iter_args(%a161 = %c65_i64) -> (i64) {
      %v162 = memref.load %m8[%i159] : memref<1xi1>
      %v163 = arith.extui %v162 : i1 to i64
      %v164 = arith.muli %a161, %c31_i64 : i64
      %v165 = arith.addi %v164, %v163 : i64
      scf.yield %v165 : i64
    }
    %v166 = memref.load %sink[%c0_index] : memref<1xi64>
    %v167 = arith.muli %v166, %c1000003_i64 : i64
    %v168 = arith.xori %v167, %h160 : i64
    memref.store %v168, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h160) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h170 = scf.for %i169 = %c0_index to %c1_index step %c1_index iter_args(%a171 = %c66_i64) -> (i64) {
      %v172 = memref.load %m15[%i169] : memref<1xi32>
      %v173 = arith.extsi %v172 : i32 to i64
      %v174 = arith.muli %a171, %c31_i64 : i64
      %v175 = arith.addi %v174, %v173 : i64
      scf.yield %v175 : i64
    }
    %v176 = memref.load %sink[%c0_index] : memref<1xi64>
    %v177 = arith.muli %v176, %c1000003_i64 : i64
    %v178 = arith.xori %v177, %h170 : i64
    memref.store %v178, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h170) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %v179 = memref.load %m20[] : memref<i32>
    %v180 = arith.extsi %v179 : i32 to i64
    %v181 = arith.muli %c67_i64, %c31_i64 : i64
    %v182 = arith.addi %v181, %v180 : i64
    %v183 = memref.load %sink[%c0_index] : memref<1xi64>
    %v184 = arith.muli %v183, %c1000003_i64 : i64
    %v185 = arith.xori %v184, %v182 : i64
    memref.store %v185, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%v182) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %d186 = memref.dim %cast24, %c0_index : memref<?xi32>
    %h188 = scf.for %i187 = %c0_index to %d186 step %c1_index iter_args(%a189 = %c68_i64) -> (i64) {
      %v190 = memref.load %cast24[%i187] : memref<?xi32>
      %v191 = arith.extsi %v190 : i32 to i64
      %v192 = arith.muli %a189, %c31_i64 : i64
      %v193 = arith.addi %v192, %v191 : i64
      scf.yield %v193 : i64
    }
    %v194 = memref.load %sink[%c0_index] : memref<1xi64>
    %v195 = arith.muli %v194, %c1000003_i64 : i64
    %v196 = arith.xori %v195, %h188 : i64
    memref.store %v196, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h188) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h198 = scf.for %i197 = %c0_index to %c1_index step %c1_index iter_args(%a199 = %c69_i64) -> (i64) {
      %v200 = memref.load %cm36[%i197] : memref<1xi1>
      %v201 = arith.extui %v200 : i1 to i64
      %v202 = arith.muli %a199, %c31_i64 : i64
      %v203 = arith.addi %v202, %v201 : i64
      scf.yield %v203 : i64
    }
    %v204 = memref.load %sink[%c0_index] : memref<1xi64>
    %v205 = arith.muli %v204, %c1000003_i64 : i64
    %v206 = arith.xori %v205, %h198 : i64
    memref.store %v206, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h198) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %v207 = memref.load %m141[] : memref<i32>
    %v208 = arith.extsi %v207 : i32 to i64
    %v209 = arith.muli %c70_i64, %c31_i64 : i64
    %v210 = arith.addi %v209, %v208 : i64
    %v211 = memref.load %sink[%c0_index] : memref<1xi64>
    %v212 = arith.muli %v211, %c1000003_i64 : i64
    %v213 = arith.xori %v212, %v210 : i64
    memref.store %v213, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%v210) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %v214 = memref.load %sel148[] : memref<i32>
    %v215 = arith.extsi %v214 : i32 to i64
    %v216 = arith.muli %c71_i64, %c31_i64 : i64
    %v217 = arith.addi %v216, %v215 : i64
    %v218 = memref.load %sink[%c0_index] : memref<1xi64>
    %v219 = arith.muli %v218, %c1000003_i64 : i64
    %v220 = arith.xori %v219, %v217 : i64
    memref.store %v220, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%v217) : (i64) -> ()
    func.call @printNewline() : () -> ()
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
    %v233 = memref.load %sink[%c0_index] : memref<1xi64>
    %v234 = arith.muli %v233, %c1000003_i64 : i64
    %v235 = arith.xori %v234, %v232 : i64
    memref.store %v235, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%v232) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  ^bb38:
    %v45 = memref.load %m8[%c0_index] : memref<1xi1>
    %v46 = arith.extui %v45 : i1 to i64
    %v47 = arith.remui %v46, %c5_i64 : i64
    %v48 = arith.index_cast %v47 : i64 to index
    %v49 = arith.addi %v48, %c1_index : index
    %m50 = memref.alloc(%v49) {alignment = 64} : memref<?x4xi1>
    linalg.fill ins(%c0_i1 : i1) outs(%m50 : memref<?x4xi1>)
    %m51 = memref.alloc() : memref<5x4xi32>
    scf.for %i52 = %c0_index to %c5_index step %c1_index {
      scf.for %i53 = %c0_index to %c4_index step %c1_index {
        %v54 = arith.muli %i52, %c5_index : index
        %v55 = arith.addi %c41_index, %v54 : index
        %v56 = arith.muli %i53, %c13_index : index
        %v57 = arith.addi %v55, %v56 : index
        %v58 = arith.index_cast %v57 : index to i64
        %v59 = arith.remui %v58, %c997_i64 : i64
        %v60 = arith.trunci %v59 : i64 to i32
        memref.store %v60, %m51[%i52, %i53] : memref<5x4xi32>
      }
    }
    %m61 = memref.alloc() {alignment = 16} : memref<4x2xi32>
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%m61 : memref<4x2xi32>) {
    ^bb0(%o62: i32):
      %x63 = linalg.index 0 : index
      %x64 = linalg.index 1 : index
      %v65 = arith.muli %x63, %c11_index : index
      %v66 = arith.addi %c78_index, %v65 : index
      %v67 = arith.muli %x64, %c13_index : index
      %v68 = arith.addi %v66, %v67 : index
      %v69 = arith.index_cast %v68 : index to i64
      %v70 = arith.remui %v69, %c997_i64 : i64
      %v71 = arith.trunci %v70 : i64 to i32
      linalg.yield %v71 : i32
    }
    %m72 = memref.alloc() : memref<5x2xi32>
    linalg.fill ins(%c0_i32 : i32) outs(%m72 : memref<5x2xi32>)
    linalg.matmul ins(%m51, %m61 : memref<5x4xi32>, memref<4x2xi32>) outs(%m72 : memref<5x2xi32>)
    %h74 = scf.for %i73 = %c0_index to %c5_index step %c1_index iter_args(%a75 = %c57_i64) -> (i64) {
      %h77 = scf.for %i76 = %c0_index to %c4_index step %c1_index iter_args(%a78 = %a75) -> (i64) {
        %v79 = memref.load %m51[%i73, %i76] : memref<5x4xi32>
        %v80 = arith.extsi %v79 : i32 to i64
        %v81 = arith.muli %a78, %c31_i64 : i64
        %v82 = arith.addi %v81, %v80 : i64
        scf.yield %v82 : i64
      }
      scf.yield %h77 : i64
    }
    %v83 = memref.load %sink[%c0_index] : memref<1xi64>
    %v84 = arith.muli %v83, %c1000003_i64 : i64
    %v85 = arith.xori %v84, %h74 : i64
    memref.store %v85, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h74) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h87 = scf.for %i86 = %c0_index to %c5_index step %c1_index iter_args(%a88 = %c58_i64) -> (i64) {
      %h90 = scf.for %i89 = %c0_index to %c2_index step %c1_index iter_args(%a91 = %a88) -> (i64) {
        %v92 = memref.load %m72[%i86, %i89] : memref<5x2xi32>
        %v93 = arith.extsi %v92 : i32 to i64
        %v94 = arith.muli %a91, %c31_i64 : i64
        %v95 = arith.addi %v94, %v93 : i64
        scf.yield %v95 : i64
      }
      scf.yield %h90 : i64
    }
    %v96 = memref.load %sink[%c0_index] : memref<1xi64>
    %v97 = arith.muli %v96, %c1000003_i64 : i64
    %v98 = arith.xori %v97, %h87 : i64
    memref.store %v98, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h87) : (i64) -> ()
    func.call @printNewline() : () -> ()
    cf.br ^bb35(%m8 : memref<1xi1>)
  ^bb37:
    cf.br ^bb35(%m8 : memref<1xi1>)
  }
}
