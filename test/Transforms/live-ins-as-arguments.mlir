// tensor-mem-live-ins-as-arguments hands a memref that a later block of a
// CFG uses directly over as a block argument, passed by every predecessor,
// and again through blocks that only pass it on; values of one block, of
// nested regions and non-memrefs stay as they are.
// test/e2e/dealloc-live-ins.mlir runs programs that need it.
//
// RUN: memplan-opt %s --tensor-mem-live-ins-as-arguments -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// Once handed over, no memref is used outside its block: running the pass
// again changes nothing.
// RUN: memplan-opt %t.mlir --tensor-mem-live-ins-as-arguments | diff %t.mlir -

// CHECK-LABEL: func.func @join
// CHECK: %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK: cf.cond_br %{{.*}}, ^[[B1:bb[0-9]+]](%[[A]] : memref<4xf32>), ^[[B2:bb[0-9]+]](%[[A]], %[[A]] : memref<4xf32>, memref<4xf32>)
// CHECK: ^[[B1]](%[[A1:.*]]: memref<4xf32>):
// CHECK: cf.br ^[[B2]](%[[A1]], %[[A1]] : memref<4xf32>, memref<4xf32>)
// CHECK: ^[[B2]](%[[M:.*]]: memref<4xf32>, %[[A2:.*]]: memref<4xf32>):
// CHECK: memref.load %[[A2]]
// CHECK: memref.load %[[M]]
func.func @join(%c: i1, %i: index) -> f32 {
  %a = memref.alloc() : memref<4xf32>
  cf.cond_br %c, ^bb1, ^bb2(%a : memref<4xf32>)
^bb1:
  cf.br ^bb2(%a : memref<4xf32>)
^bb2(%m: memref<4xf32>):
  %x = memref.load %a[%i] : memref<4xf32>
  %y = memref.load %m[%i] : memref<4xf32>
  %s = arith.addf %x, %y : f32
  memref.dealloc %a : memref<4xf32>
  return %s : f32
}

// A use inside an op nested in the later block counts; a loop back edge
// passes the block's own argument.
// CHECK-LABEL: func.func @loop
// CHECK: cf.br ^[[H:bb[0-9]+]](%{{.*}}, %[[A:.*]] : index, memref<4xf32>)
// CHECK: ^[[H]](%[[I:.*]]: index, %[[AH:.*]]: memref<4xf32>):
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[AH]]
// CHECK: cf.cond_br %{{.*}}, ^[[H]](%{{.*}}, %[[AH]] : index, memref<4xf32>), ^[[X:bb[0-9]+]](%[[AH]] : memref<4xf32>)
// CHECK: ^[[X]](%[[AX:.*]]: memref<4xf32>):
// CHECK-NEXT: memref.dealloc %[[AX]]
func.func @loop(%n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xf32>
  cf.br ^head(%c0 : index)
^head(%i: index):
  %more = arith.cmpi slt, %i, %n : index
  scf.if %more {
    memref.store %v, %a[%c0] : memref<4xf32>
  }
  %next = arith.addi %i, %c1 : index
  cf.cond_br %more, ^head(%next : index), ^exit
^exit:
  memref.dealloc %a : memref<4xf32>
  return
}

// One block, nested regions and index values are left alone.
// CHECK-LABEL: func.func @one_block
// CHECK-NOT: ^bb
// CHECK: return
func.func @one_block(%c: i1, %i: index) -> f32 {
  %a = memref.alloc() : memref<4xf32>
  %r = scf.if %c -> f32 {
    %x = memref.load %a[%i] : memref<4xf32>
    scf.yield %x : f32
  } else {
    %z = arith.constant 0.0 : f32
    scf.yield %z : f32
  }
  memref.dealloc %a : memref<4xf32>
  return %r : f32
}
