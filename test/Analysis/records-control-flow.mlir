// RUN: memplan-opt %s --test-memplan-usage-records -verify-diagnostics -split-input-file -o /dev/null

// Tasks number the function's ops in program order (pre-order, from 0); an
// op with regions spans its nested ops, including implicit terminators.

// %a is used inside the loop, so it lives until the loop ends (task 7) and
// then until the copy (8). %t dies within each iteration.
func.func @loop(%n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{record: 16 bytes, tasks [2, 8]}}
  %a = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %n step %c1 {
    // expected-remark @below {{record: 32 bytes, tasks [4, 6]}}
    %t = memref.alloc() : memref<8xf32>
    %v = memref.load %a[%c0] : memref<4xf32>
    memref.store %v, %t[%c0] : memref<8xf32>
  }
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// The init buffer flows through the iter_arg to the loop result (used at 7);
// the buffer allocated in the body reaches the next iteration through the
// iter_arg while its alloc runs again: one offset cannot serve both.
func.func @carried(%n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{record: 16 bytes, tasks [2, 7]}}
  %init = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %init) -> memref<4xf32> {
    // expected-remark @below {{unplanned: carried across iterations of its loop}}
    %new = memref.alloc() : memref<4xf32>
    memref.copy %x, %new : memref<4xf32> to memref<4xf32>
    scf.yield %new : memref<4xf32>
  }
  memref.copy %r, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// The buffer chosen by scf.if lives until the last use of the result (6),
// whichever branch was taken.
func.func @choose(%c: i1, %out: memref<4xf32>) {
  // expected-remark @below {{record: 16 bytes, tasks [0, 6]}}
  %a = memref.alloc() : memref<4xf32>
  // expected-remark @below {{record: 16 bytes, tasks [1, 6]}}
  %b = memref.alloc() : memref<4xf32>
  %s = scf.if %c -> memref<4xf32> {
    scf.yield %a : memref<4xf32>
  } else {
    scf.yield %b : memref<4xf32>
  }
  // expected-remark @below {{record: 16 bytes, tasks [5, 7]}}
  %d = memref.alloc() : memref<4xf32>
  memref.copy %s, %d : memref<4xf32> to memref<4xf32>
  memref.copy %d, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Same through arith.select, then a view of the result (copy at task 5).
func.func @select(%c: i1, %out: memref<4xf32>) {
  // expected-remark @below {{record: 16 bytes, tasks [0, 5]}}
  %a = memref.alloc() : memref<4xf32>
  // expected-remark @below {{record: 16 bytes, tasks [1, 5]}}
  %b = memref.alloc() : memref<4xf32>
  %s = arith.select %c, %a, %b : memref<4xf32>
  // expected-remark @below {{record: 16 bytes, tasks [3, 5]}}
  %d = memref.alloc() : memref<2x2xf32>
  %e = memref.expand_shape %s [[0, 1]] output_shape [2, 2] : memref<4xf32> into memref<2x2xf32>
  memref.copy %e, %d : memref<2x2xf32> to memref<2x2xf32>
  return
}

// -----

// Views of every kind are the same buffer: the copy at task 8 reads %a.
func.func @views(%out: memref<2x8xf32>) {
  // expected-remark @below {{record: 64 bytes, tasks [0, 8]}}
  %a = memref.alloc() : memref<16xf32>
  %e = memref.expand_shape %a [[0, 1]] output_shape [2, 8] : memref<16xf32> into memref<2x8xf32>
  %c = memref.collapse_shape %e [[0, 1]] : memref<2x8xf32> into memref<16xf32>
  %k = memref.cast %c : memref<16xf32> to memref<?xf32>
  %r = memref.reinterpret_cast %k to offset: [0], sizes: [2, 8], strides: [8, 1] : memref<?xf32> to memref<2x8xf32>
  %t = memref.transpose %r (i, j) -> (j, i) : memref<2x8xf32> to memref<8x2xf32, strided<[1, 8]>>
  %base, %off, %size, %stride = memref.extract_strided_metadata %a : memref<16xf32> -> memref<f32>, index, index, index
  %sv = memref.subview %r[0, 0][2, 8][1, 1] : memref<2x8xf32> to memref<2x8xf32, strided<[8, 1]>>
  memref.copy %sv, %out : memref<2x8xf32, strided<[8, 1]>> to memref<2x8xf32>
  return
}

// -----

// A CFG: %a is live out of the entry block and into ^bb1 until its last use
// there (task 3); ^bb2's buffer never meets it.
func.func @branches(%c: i1, %out: memref<4xf32>) {
  // expected-remark @below {{record: 16 bytes, tasks [0, 3]}}
  %a = memref.alloc() : memref<4xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  // expected-remark @below {{record: 16 bytes, tasks [2, 4]}}
  %b = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  memref.copy %b, %out : memref<4xf32> to memref<4xf32>
  cf.br ^bb3
^bb2:
  // expected-remark @below {{record: 16 bytes, tasks [6, 7]}}
  %d = memref.alloc() : memref<4xf32>
  memref.copy %d, %out : memref<4xf32> to memref<4xf32>
  cf.br ^bb3
^bb3:
  return
}

// -----

// A CFG loop: %a is live around the back edge, so over the whole loop block
// (tasks 2-9); %t dies inside each trip.
func.func @cfg_loop(%n: index, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{record: 16 bytes, tasks [2, 9]}}
  %a = memref.alloc() : memref<4xf32>
  cf.br ^head(%c0 : index)
^head(%i: index):
  // expected-remark @below {{record: 32 bytes, tasks [4, 6]}}
  %t = memref.alloc() : memref<8xf32>
  %v = memref.load %a[%c0] : memref<4xf32>
  memref.store %v, %t[%c0] : memref<8xf32>
  %next = arith.addi %i, %c1 : index
  %done = arith.cmpi sge, %next, %n : index
  cf.cond_br %done, ^exit, ^head(%next : index)
^exit:
  // expected-remark @below {{record: 16 bytes, tasks [10, 11]}}
  %z = memref.alloc() : memref<4xf32>
  memref.copy %z, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// A CFG loop that hands this trip's buffer to the next one.
func.func @cfg_carried(%n: index, %init: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^head(%c0, %init : index, memref<4xf32>)
^head(%i: index, %buf: memref<4xf32>):
  // expected-remark @below {{unplanned: carried across iterations of a control-flow loop}}
  %t = memref.alloc() : memref<4xf32>
  memref.copy %buf, %t : memref<4xf32> to memref<4xf32>
  %next = arith.addi %i, %c1 : index
  %done = arith.cmpi sge, %next, %n : index
  cf.cond_br %done, ^exit, ^head(%next, %t : index, memref<4xf32>)
^exit:
  memref.copy %buf, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Parallel iterations run at once, and regions of unknown ops may too.
func.func @parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // expected-remark @below {{unplanned: inside a parallel loop ('scf.parallel')}}
    %t = memref.alloc() : memref<4xf32>
    scf.reduce
  }
  return
}
