// RUN: memplan-opt %s --test-memplan-usage-records -verify-diagnostics -split-input-file -o /dev/null
// RUN: memplan-opt %s -split-input-file --tensor-mem-plan | FileCheck %s

// A dynamic size with a constant upper bound is planned at the bound in the
// static arena and viewed at its size.

// The tile of a tiled loop: affine.min(64, n - i) rows of f32, at most
// 64 * 4 = 256 bytes (ValueBoundsOpInterface).
// CHECK-LABEL: func.func @tiled
// CHECK:         %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<256xi8>
// CHECK:         %[[SZ:.*]] = affine.min
// CHECK:         memref.view %[[ARENA]][%{{.*}}][%[[SZ]]] : memref<256xi8> to memref<?xf32>
#min = affine_map<(d0)[s0] -> (64, s0 - d0)>
func.func @tiled(%n: index, %in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %n step %c64 {
    %sz = affine.min #min(%i)[%n]
    // expected-remark @below {{record: 256 bytes, tasks [4, 8]}}
    %t = memref.alloc(%sz) : memref<?xf32>
    %src = memref.subview %in[%i] [%sz] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    memref.copy %src, %t : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32>
    %dst = memref.subview %out[%i] [%sz] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    memref.copy %t, %dst : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    memref.dealloc %t : memref<?xf32>
  }
  return
}

// -----

// arith.minui with a constant: at most 16 x 4 f32 = 256 bytes.
func.func @minui(%a: index, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %m = arith.minui %a, %c16 : index
  // expected-remark @below {{record: 256 bytes, tasks [3, 4]}}
  %t = memref.alloc(%m) : memref<?x4xf32>
  %v = memref.load %t[%c0, %c0] : memref<?x4xf32>
  memref.store %v, %out[] : memref<f32>
  return
}

// -----

// A bound the user gives on an index argument (memplan.max = 100: 400
// bytes); an argument without one stays dynamic.
func.func @user_bound(%a: index {memplan.max = 100 : i64}, %b: index, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  // expected-remark @below {{record: 400 bytes, tasks [1, 3]}}
  %t = memref.alloc(%a) : memref<?xf32>
  // expected-remark @below {{unplanned: dynamic shape}}
  %u = memref.alloc(%b) : memref<?xf32>
  %v = memref.load %t[%c0] : memref<?xf32>
  %w = memref.load %u[%c0] : memref<?xf32>
  memref.store %v, %out[] : memref<f32>
  return
}

// -----

// dim-bounds=N bounds what comes from the arguments: an index argument, a
// dim of a memref argument, and a size computed from them (n + 1 <= 33,
// through ValueBounds): 32 + 32 + 33 floats, 388 bytes.
// RUN: memplan-opt %s -split-input-file --tensor-mem-plan="dim-bounds=32 remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIMB
// (without the option, the -verify-diagnostics run above: all dynamic).
// DIMB-NOT: remark: buffer not planned: dynamic shape
// DIMB: remark: tensor-mem-plan: 3 buffers planned, 388 bytes without planning
func.func @dim_bounds(%n: index, %m: memref<?xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark @below {{unplanned: dynamic shape}}
  %a = memref.alloc(%n) : memref<?xf32>
  %d = memref.dim %m, %c0 : memref<?xf32>
  // expected-remark @below {{unplanned: dynamic shape}}
  %b = memref.alloc(%d) : memref<?xf32>
  %n1 = arith.addi %n, %c1 : index
  // expected-remark @below {{unplanned: dynamic shape}}
  %c = memref.alloc(%n1) : memref<?xf32>
  %v = memref.load %a[%c0] : memref<?xf32>
  %w = memref.load %b[%c0] : memref<?xf32>
  %x = memref.load %c[%c0] : memref<?xf32>
  memref.store %v, %out[] : memref<f32>
  return
}
