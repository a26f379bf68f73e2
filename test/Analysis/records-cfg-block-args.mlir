// RUN: memplan-opt %s --test-memplan-usage-records -verify-diagnostics -split-input-file -o /dev/null
// RUN: memplan-opt %s -split-input-file --test-memplan-liveness-invariant -o /dev/null

// A buffer that reaches a block only through a block argument is live from
// that block's start, wherever the block is laid out. Each of these
// miscompiled before (13 of 14 strategies).

// Natural loop: %n1, made in the body, reaches the header through %x and
// is read there after %t is made, so %n1's record covers the header.
func.func @natural_loop(%n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  // expected-remark @below {{record: 16 bytes, tasks [3, 7]}}
  %a = memref.alloc() : memref<4xf32>
  cf.br ^header(%c0, %a : index, memref<4xf32>)
^header(%i: index, %x: memref<4xf32>):
  // expected-remark @below {{record: 16 bytes, tasks [5, 8]}}
  %t = memref.alloc() : memref<4xf32>
  memref.store %f, %t[%c0] : memref<4xf32>
  %v = memref.load %x[%c0] : memref<4xf32>
  %w = memref.load %t[%c0] : memref<4xf32>
  %cond = arith.cmpi slt, %i, %n : index
  cf.cond_br %cond, ^body, ^exit
^body:
  // expected-remark @below {{record: 16 bytes, tasks [5, 14]}}
  %n1 = memref.alloc() : memref<4xf32>
  memref.store %v, %n1[%c0] : memref<4xf32>
  %i1 = arith.addi %i, %c1 : index
  cf.br ^header(%i1, %n1 : index, memref<4xf32>)
^exit:
  memref.store %v, %out[%c0] : memref<4xf32>
  return
}

// -----

// The merge block comes first in the text; %a and %b reach it through %m.
func.func @merge_first(%c: i1, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  cf.br ^start
^merge(%m: memref<4xf32>):
  // expected-remark @below {{record: 16 bytes, tasks [3, 6]}}
  %t = memref.alloc() : memref<4xf32>
  memref.store %f, %t[%c0] : memref<4xf32>
  %v = memref.load %m[%c0] : memref<4xf32>
  %w = memref.load %t[%c0] : memref<4xf32>
  memref.store %v, %out[%c0] : memref<4xf32>
  return
^start:
  // expected-remark @below {{record: 16 bytes, tasks [3, 12]}}
  %a = memref.alloc() : memref<4xf32>
  memref.store %f, %a[%c0] : memref<4xf32>
  cf.cond_br %c, ^left, ^right
^left:
  cf.br ^merge(%a : memref<4xf32>)
^right:
  // expected-remark @below {{record: 16 bytes, tasks [3, 15]}}
  %b = memref.alloc() : memref<4xf32>
  memref.store %f, %b[%c0] : memref<4xf32>
  cf.br ^merge(%b : memref<4xf32>)
}

// -----

// scf.while after --convert-scf-to-cf: the init buffer travels through the
// header's block argument around the back edge.
func.func @while_as_cfg(%arg0: index, %arg1: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.000000e+00 : f32
  // expected-remark @below {{record: 16 bytes, tasks [3, 14]}}
  %alloc = memref.alloc() : memref<4xf32>
  memref.store %cst, %alloc[%c0] : memref<4xf32>
  cf.br ^bb1(%c0, %alloc : index, memref<4xf32>)
^bb1(%0: index, %1: memref<4xf32>):
  // expected-remark @below {{record: 16 bytes, tasks [6, 9]}}
  %alloc_0 = memref.alloc() : memref<4xf32>
  %2 = memref.load %1[%c0] : memref<4xf32>
  memref.store %2, %alloc_0[%c0] : memref<4xf32>
  %3 = memref.load %alloc_0[%c0] : memref<4xf32>
  memref.store %3, %arg1[%c0] : memref<4xf32>
  %4 = arith.cmpi slt, %0, %arg0 : index
  cf.cond_br %4, ^bb2(%0, %1 : index, memref<4xf32>), ^bb3
^bb2(%5: index, %6: memref<4xf32>):
  %7 = arith.addi %5, %c1 : index
  cf.br ^bb1(%7, %6 : index, memref<4xf32>)
^bb3:
  return
}

// -----

// A buffer made in the loop and still live when the loop makes it again.
func.func @carried_by_block_argument(%n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{record: 16 bytes, tasks [2, 9]}}
  %a = memref.alloc() : memref<4xf32>
  cf.br ^header(%c0, %a : index, memref<4xf32>)
^header(%i: index, %x: memref<4xf32>):
  // expected-remark @below {{unplanned: carried across iterations of a control-flow loop}}
  %t = memref.alloc() : memref<4xf32>
  memref.copy %x, %t : memref<4xf32> to memref<4xf32>
  %cond = arith.cmpi slt, %i, %n : index
  %i1 = arith.addi %i, %c1 : index
  cf.cond_br %cond, ^header(%i1, %t : index, memref<4xf32>), ^exit
^exit:
  memref.copy %x, %out : memref<4xf32> to memref<4xf32>
  return
}
