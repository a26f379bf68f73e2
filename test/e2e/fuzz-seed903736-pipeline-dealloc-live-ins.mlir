// Found by the differential fuzzer (fuzz/diff, memref family, seed 903736:
// gen.py --seed 903736 --features all; lines fuzz/diff/reduce.py could not
// remove are kept). With memplan-pipeline deallocate=true it printed other
// values than the unplanned program from its 5th line on: the
// ownership-based deallocation freed %r10, the result of a loop, at the end
// of the entry block, while ^bb118 still read it directly (not through a
// block argument). Upstream's buffer-deallocation-pipeline does the same
// to this CFG; without memplan canonicalize folds the branch away, since
// the store into %m128 is dead, but a planned %m128 is a view of the arena
// and keeps it. memplan-pipeline now hands such memrefs over as block
// arguments first (tensor-mem-live-ins-as-arguments).
//
// RUN: memplan-opt %s --one-shot-bufferize %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.ref
// RUN: memplan-opt %s --memplan-pipeline="bufferize=false deallocate=true runtime=true" --one-shot-bufferize %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime.so > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: memplan-opt %s --memplan-pipeline="bufferize=false deallocate=true runtime=true strategy=naive" --one-shot-bufferize %lower_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs,%memplan_lib/libmemplan_runtime.so > %t.naive
// RUN: diff %t.ref %t.naive
module {
  func.func private @printI64(i64)
  func.func private @printNewline()
  func.func @main() {
    %c86_i64 = arith.constant 86 : i64
    %c0_index = arith.constant 0 : index
    %c1_i1 = arith.constant true
    %c2_index = arith.constant 2 : index
    %c1_index = arith.constant 1 : index
    %c3_index = arith.constant 3 : index
    %c1000003_i64 = arith.constant 1000003 : i64
    %c4_index = arith.constant 4 : index
    %c2_i64 = arith.constant 2 : i64
    %c89_i64 = arith.constant 89 : i64
    %c5_index = arith.constant 5 : index
    %c31_i64 = arith.constant 31 : i64
    %c339_index = arith.constant 339 : index
    %c11_index = arith.constant 11 : index
    %c997_i64 = arith.constant 997 : i64
    %c92_i64 = arith.constant 92 : i64
    %c93_i64 = arith.constant 93 : i64
    %c487_index = arith.constant 487 : index
    %c95_i64 = arith.constant 95 : i64
    %c96_i64 = arith.constant 96 : i64
    %c97_i64 = arith.constant 97 : i64
    %c98_i64 = arith.constant 98 : i64
    %c99_i64 = arith.constant 99 : i64
    %c100_i64 = arith.constant 100 : i64
    %c101_i64 = arith.constant 101 : i64
    %c25_index = arith.constant 25 : index
    %c102_i64 = arith.constant 102 : i64
    %sink = memref.alloca() : memref<1xi64>
    memref.store %c86_i64, %sink[%c0_index] : memref<1xi64>
    %m1 = memref.alloc() {alignment = 16} : memref<3x5x5xi1>
    linalg.fill ins(%c1_i1 : i1) outs(%m1 : memref<3x5x5xi1>)
    %v2 = memref.load %m1[%c0_index, %c3_index, %c0_index] : memref<3x5x5xi1>
    %v3 = arith.extui %v2 : i1 to i64
    %v4 = memref.load %sink[%c0_index] : memref<1xi64>
    %v5 = arith.muli %v4, %c1000003_i64 : i64
    %v6 = arith.xori %v5, %v3 : i64
    memref.store %v6, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%v3) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %ucc7 = builtin.unrealized_conversion_cast %m1 : memref<3x5x5xi1> to memref<3x5x5xi1>
    %r10 = scf.for %i8 = %c0_index to %c3_index step %c1_index iter_args(%it9 = %ucc7) -> (memref<3x5x5xi1>) {
      %ucc12 = builtin.unrealized_conversion_cast %it9 : memref<3x5x5xi1> to memref<3x5x5xi1>
      %h21 = scf.for %i20 = %c0_index to %c3_index step %c1_index iter_args(%a22 = %c89_i64) -> (i64) {
        %h24 = scf.for %i23 = %c0_index to %c5_index step %c1_index iter_args(%a25 = %a22) -> (i64) {
          %h27 = scf.for %i26 = %c0_index to %c5_index step %c1_index iter_args(%a28 = %a25) -> (i64) {
            %v29 = memref.load %ucc12[%i20, %i23, %i26] : memref<3x5x5xi1>
            %v30 = arith.extui %v29 : i1 to i64
            %v31 = arith.muli %a28, %c31_i64 : i64
            %v32 = arith.addi %v31, %v30 : i64
            scf.yield %v32 : i64
          }
          scf.yield %h27 : i64
        }
        scf.yield %h24 : i64
      }
      %v33 = memref.load %sink[%c0_index] : memref<1xi64>
      %v34 = arith.muli %v33, %c1000003_i64 : i64
      %v35 = arith.xori %v34, %h21 : i64
      memref.store %v35, %sink[%c0_index] : memref<1xi64>
      func.call @printI64(%h21) : (i64) -> ()
      func.call @printNewline() : () -> ()
      %m36 = memref.alloc() : memref<3x5x5xi1>
      scf.for %i37 = %c0_index to %c3_index step %c1_index {
        scf.for %i38 = %c0_index to %c5_index step %c1_index {
          scf.for %i39 = %c0_index to %c5_index step %c1_index {
            %v40 = arith.subi %c4_index, %i39 : index
            %v41 = memref.load %it9[%i37, %i38, %v40] : memref<3x5x5xi1>
            %v42 = arith.muli %i37, %c11_index : index
            %v43 = arith.addi %c339_index, %v42 : index
            %v44 = arith.muli %i38, %c3_index : index
            %v45 = arith.addi %v43, %v44 : index
            %v46 = arith.muli %i39, %c11_index : index
            %v47 = arith.addi %v45, %v46 : index
            %v48 = arith.index_cast %v47 : index to i64
            %v49 = arith.remui %v48, %c997_i64 : i64
            %v50 = arith.trunci %v49 : i64 to i1
            %v51 = arith.ori %v41, %v50 : i1
            memref.store %v51, %m36[%i37, %i38, %i39] : memref<3x5x5xi1>
          }
        }
      }
      scf.yield %m36 : memref<3x5x5xi1>
    }
    %v52 = memref.load %r10[%c2_index, %c3_index, %c2_index] : memref<3x5x5xi1>
    %v53 = arith.extui %v52 : i1 to i64
    %v54 = arith.remui %v53, %c2_i64 : i64
    %v55 = arith.index_cast %v54 : i64 to index
    %v56 = arith.addi %v55, %c0_index : index
    %cond57 = arith.cmpi eq, %v56, %c0_index : index
    %if58 = scf.if %cond57 -> (memref<3x5x5xi1>) {
      %m59 = memref.alloc() : memref<4x1x4xf64>
      scf.for %i60 = %c0_index to %c4_index step %c1_index {
        scf.for %i61 = %c0_index to %c1_index step %c1_index {
          scf.for %i62 = %c0_index to %c4_index step %c1_index {
          }
        }
      }
      scf.for %i72 = %c0_index to %c2_index step %c1_index {
        %m74 = memref.alloc() : memref<3x5x5xi1>
        linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 4 - d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m1, %m1 : memref<3x5x5xi1>, memref<3x5x5xi1>) outs(%m74 : memref<3x5x5xi1>) {
        ^bb0(%p75: i1, %p76: i1, %p77: i1):
          %v78 = arith.andi %p75, %p76 : i1
          linalg.yield %v78 : i1
        }
        scf.for %i79 = %c0_index to %c3_index step %c1_index {
          scf.for %i80 = %c0_index to %c5_index step %c1_index {
            scf.for %i81 = %c0_index to %c5_index step %c1_index {
            }
          }
        }
        %h85 = scf.for %i84 = %c0_index to %c3_index step %c1_index iter_args(%a86 = %c92_i64) -> (i64) {
          %h88 = scf.for %i87 = %c0_index to %c5_index step %c1_index iter_args(%a89 = %a86) -> (i64) {
            %h91 = scf.for %i90 = %c0_index to %c5_index step %c1_index iter_args(%a92 = %a89) -> (i64) {
              %v93 = memref.load %m74[%i84, %i87, %i90] : memref<3x5x5xi1>
              %v94 = arith.extui %v93 : i1 to i64
              %v95 = arith.muli %a92, %c31_i64 : i64
              %v96 = arith.addi %v95, %v94 : i64
              scf.yield %v96 : i64
            }
            scf.yield %h91 : i64
          }
          scf.yield %h88 : i64
        }
        %v97 = memref.load %sink[%c0_index] : memref<1xi64>
        %v98 = arith.muli %v97, %c1000003_i64 : i64
        %v99 = arith.xori %v98, %h85 : i64
        memref.store %v99, %sink[%c0_index] : memref<1xi64>
        func.call @printI64(%h85) : (i64) -> ()
        func.call @printNewline() : () -> ()
      }
      %h101 = scf.for %i100 = %c0_index to %c4_index step %c1_index iter_args(%a102 = %c93_i64) -> (i64) {
        %h104 = scf.for %i103 = %c0_index to %c1_index step %c1_index iter_args(%a105 = %a102) -> (i64) {
          %h107 = scf.for %i106 = %c0_index to %c4_index step %c1_index iter_args(%a108 = %a105) -> (i64) {
            %v109 = memref.load %m59[%i100, %i103, %i106] : memref<4x1x4xf64>
            %v110 = arith.fptosi %v109 : f64 to i64
            %v111 = arith.muli %a108, %c31_i64 : i64
            %v112 = arith.addi %v111, %v110 : i64
            scf.yield %v112 : i64
          }
          scf.yield %h107 : i64
        }
        scf.yield %h104 : i64
      }
      %v113 = memref.load %sink[%c0_index] : memref<1xi64>
      %v114 = arith.muli %v113, %c1000003_i64 : i64
      %v115 = arith.xori %v114, %h101 : i64
      memref.store %v115, %sink[%c0_index] : memref<1xi64>
      func.call @printI64(%h101) : (i64) -> ()
      func.call @printNewline() : () -> ()
      scf.yield %r10 : memref<3x5x5xi1>
    } else {
      scf.yield %r10 : memref<3x5x5xi1>
    }
    %col117 = memref.collapse_shape %m1 [[0], [1, 2]] : memref<3x5x5xi1> into memref<3x25xi1>
    %v122 = memref.load %m1[%c0_index, %c0_index, %c0_index] : memref<3x5x5xi1>
    %v123 = arith.extui %v122 : i1 to i64
    %v124 = arith.remui %v123, %c2_i64 : i64
    %v125 = arith.index_cast %v124 : i64 to index
    %v126 = arith.addi %v125, %c0_index : index
    %cond127 = arith.cmpi eq, %v126, %c0_index : index
    cf.cond_br %cond127, ^bb120, ^bb121
  ^bb121:
    cf.br ^bb118(%ucc7 : memref<3x5x5xi1>)
  ^bb118(%cm119: memref<3x5x5xi1>):
    %h133 = scf.for %i132 = %c0_index to %c3_index step %c1_index iter_args(%a134 = %c95_i64) -> (i64) {
      %h136 = scf.for %i135 = %c0_index to %c5_index step %c1_index iter_args(%a137 = %a134) -> (i64) {
        %h139 = scf.for %i138 = %c0_index to %c5_index step %c1_index iter_args(%a140 = %a137) -> (i64) {
          %v141 = memref.load %r10[%i132, %i135, %i138] : memref<3x5x5xi1>
          %v142 = arith.extui %v141 : i1 to i64
          %v143 = arith.muli %a140, %c31_i64 : i64
          %v144 = arith.addi %v143, %v142 : i64
          scf.yield %v144 : i64
        }
        scf.yield %h139 : i64
      }
      scf.yield %h136 : i64
    }
    %v145 = memref.load %sink[%c0_index] : memref<1xi64>
    %v146 = arith.muli %v145, %c1000003_i64 : i64
    %v147 = arith.xori %v146, %h133 : i64
    memref.store %v147, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h133) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h149 = scf.for %i148 = %c0_index to %c3_index step %c1_index iter_args(%a150 = %c96_i64) -> (i64) {
      %h152 = scf.for %i151 = %c0_index to %c5_index step %c1_index iter_args(%a153 = %a150) -> (i64) {
        %h155 = scf.for %i154 = %c0_index to %c5_index step %c1_index iter_args(%a156 = %a153) -> (i64) {
          %v157 = memref.load %cm119[%i148, %i151, %i154] : memref<3x5x5xi1>
          %v158 = arith.extui %v157 : i1 to i64
          %v159 = arith.muli %a156, %c31_i64 : i64
          %v160 = arith.addi %v159, %v158 : i64
          scf.yield %v160 : i64
        }
        scf.yield %h155 : i64
      }
      scf.yield %h152 : i64
    }
    %v161 = memref.load %sink[%c0_index] : memref<1xi64>
    %v162 = arith.muli %v161, %c1000003_i64 : i64
    %v163 = arith.xori %v162, %h149 : i64
    memref.store %v163, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h149) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h165 = scf.for %i164 = %c0_index to %c3_index step %c1_index iter_args(%a166 = %c97_i64) -> (i64) {
      %h168 = scf.for %i167 = %c0_index to %c5_index step %c1_index iter_args(%a169 = %a166) -> (i64) {
        %h171 = scf.for %i170 = %c0_index to %c5_index step %c1_index iter_args(%a172 = %a169) -> (i64) {
          %v173 = memref.load %m1[%i164, %i167, %i170] : memref<3x5x5xi1>
          %v174 = arith.extui %v173 : i1 to i64
          %v175 = arith.muli %a172, %c31_i64 : i64
          %v176 = arith.addi %v175, %v174 : i64
          scf.yield %v176 : i64
        }
        scf.yield %h171 : i64
      }
      scf.yield %h168 : i64
    }
    %v177 = memref.load %sink[%c0_index] : memref<1xi64>
    %v178 = arith.muli %v177, %c1000003_i64 : i64
    %v179 = arith.xori %v178, %h165 : i64
    memref.store %v179, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h165) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h181 = scf.for %i180 = %c0_index to %c3_index step %c1_index iter_args(%a182 = %c98_i64) -> (i64) {
      %h184 = scf.for %i183 = %c0_index to %c5_index step %c1_index iter_args(%a185 = %a182) -> (i64) {
        %h187 = scf.for %i186 = %c0_index to %c5_index step %c1_index iter_args(%a188 = %a185) -> (i64) {
          %v189 = memref.load %ucc7[%i180, %i183, %i186] : memref<3x5x5xi1>
          %v190 = arith.extui %v189 : i1 to i64
          %v191 = arith.muli %a188, %c31_i64 : i64
          %v192 = arith.addi %v191, %v190 : i64
          scf.yield %v192 : i64
        }
        scf.yield %h187 : i64
      }
      scf.yield %h184 : i64
    }
    %v193 = memref.load %sink[%c0_index] : memref<1xi64>
    %v194 = arith.muli %v193, %c1000003_i64 : i64
    %v195 = arith.xori %v194, %h181 : i64
    memref.store %v195, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h181) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h197 = scf.for %i196 = %c0_index to %c3_index step %c1_index iter_args(%a198 = %c99_i64) -> (i64) {
      %h200 = scf.for %i199 = %c0_index to %c5_index step %c1_index iter_args(%a201 = %a198) -> (i64) {
        %h203 = scf.for %i202 = %c0_index to %c5_index step %c1_index iter_args(%a204 = %a201) -> (i64) {
          %v205 = memref.load %r10[%i196, %i199, %i202] : memref<3x5x5xi1>
          %v206 = arith.extui %v205 : i1 to i64
          %v207 = arith.muli %a204, %c31_i64 : i64
          %v208 = arith.addi %v207, %v206 : i64
          scf.yield %v208 : i64
        }
        scf.yield %h203 : i64
      }
      scf.yield %h200 : i64
    }
    %v209 = memref.load %sink[%c0_index] : memref<1xi64>
    %v210 = arith.muli %v209, %c1000003_i64 : i64
    %v211 = arith.xori %v210, %h197 : i64
    memref.store %v211, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h197) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h213 = scf.for %i212 = %c0_index to %c3_index step %c1_index iter_args(%a214 = %c100_i64) -> (i64) {
      %h216 = scf.for %i215 = %c0_index to %c5_index step %c1_index iter_args(%a217 = %a214) -> (i64) {
        %h219 = scf.for %i218 = %c0_index to %c5_index step %c1_index iter_args(%a220 = %a217) -> (i64) {
          %v221 = memref.load %if58[%i212, %i215, %i218] : memref<3x5x5xi1>
          %v222 = arith.extui %v221 : i1 to i64
          %v223 = arith.muli %a220, %c31_i64 : i64
          %v224 = arith.addi %v223, %v222 : i64
          scf.yield %v224 : i64
        }
        scf.yield %h219 : i64
      }
      scf.yield %h216 : i64
    }
    %v225 = memref.load %sink[%c0_index] : memref<1xi64>
    %v226 = arith.muli %v225, %c1000003_i64 : i64
    %v227 = arith.xori %v226, %h213 : i64
    memref.store %v227, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h213) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h229 = scf.for %i228 = %c0_index to %c3_index step %c1_index iter_args(%a230 = %c101_i64) -> (i64) {
      %h232 = scf.for %i231 = %c0_index to %c25_index step %c1_index iter_args(%a233 = %a230) -> (i64) {
        %v234 = memref.load %col117[%i228, %i231] : memref<3x25xi1>
        %v235 = arith.extui %v234 : i1 to i64
        %v236 = arith.muli %a233, %c31_i64 : i64
        %v237 = arith.addi %v236, %v235 : i64
        scf.yield %v237 : i64
      }
      scf.yield %h232 : i64
    }
    %v238 = memref.load %sink[%c0_index] : memref<1xi64>
    %v239 = arith.muli %v238, %c1000003_i64 : i64
    %v240 = arith.xori %v239, %h229 : i64
    memref.store %v240, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h229) : (i64) -> ()
    func.call @printNewline() : () -> ()
    %h242 = scf.for %i241 = %c0_index to %c3_index step %c1_index iter_args(%a243 = %c102_i64) -> (i64) {
      %h245 = scf.for %i244 = %c0_index to %c5_index step %c1_index iter_args(%a246 = %a243) -> (i64) {
        %h248 = scf.for %i247 = %c0_index to %c5_index step %c1_index iter_args(%a249 = %a246) -> (i64) {
          %v250 = memref.load %cm119[%i241, %i244, %i247] : memref<3x5x5xi1>
          %v251 = arith.extui %v250 : i1 to i64
          %v252 = arith.muli %a249, %c31_i64 : i64
          %v253 = arith.addi %v252, %v251 : i64
          scf.yield %v253 : i64
        }
        scf.yield %h248 : i64
      }
      scf.yield %h245 : i64
    }
    %v254 = memref.load %sink[%c0_index] : memref<1xi64>
    %v255 = arith.muli %v254, %c1000003_i64 : i64
    %v256 = arith.xori %v255, %h242 : i64
    memref.store %v256, %sink[%c0_index] : memref<1xi64>
    func.call @printI64(%h242) : (i64) -> ()
    func.call @printNewline() : () -> ()
    return
  ^bb120:
    %m128 = memref.alloc() : memref<i1>
    %v129 = arith.index_cast %c487_index : index to i64
    %v130 = arith.remui %v129, %c997_i64 : i64
    %v131 = arith.trunci %v130 : i64 to i1
    memref.store %v131, %m128[] : memref<i1>
    cf.br ^bb118(%r10 : memref<3x5x5xi1>)
  }
}
