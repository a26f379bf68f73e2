// A tiled loop whose tile is memref.alloc(affine.min(64, n - i)): planned in
// the static arena at its bound (256 bytes), viewed at its size; the output
// equals the unplanned one for n = 100 (a full tile and a 36-row one), 64
// (one full tile) and 7 (one short tile). out[i] = 2 * in[i] + 1 with
// in[i] = i: the sum over n rows is n(n - 1) + n = n^2: 10000, 4096, 49.
//
// RUN: memplan-opt %s %lower_vector_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.ref
// RUN: memplan-opt %s --tensor-mem-plan=remarks=true 2>%t.remarks %lower_vector_to_llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%runner_libs > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: FileCheck %s --input-file=%t.planned
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// CHECK: 10000
// CHECK-NEXT: 4096
// CHECK-NEXT: 49
// RUN: memplan-opt %s --tensor-mem-plan="report=%t.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json
// REPORT: "type": "memref<?xf32> (planned at its bound, 256 bytes)"
// REMARK: tensor-mem-plan: 2 buffers planned
#min = affine_map<(d0)[s0] -> (64, s0 - d0)>
func.func @tiled(%n: index, %in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %n step %c64 {
    %sz = affine.min #min(%i)[%n]
    %t = memref.alloc(%sz) : memref<?xf32>
    %u = memref.alloc(%sz) : memref<?xf32>
    scf.for %j = %c0 to %sz step %c1 {
      %k = arith.addi %i, %j : index
      %v = memref.load %in[%k] : memref<?xf32>
      %d = arith.mulf %v, %two : f32
      memref.store %d, %t[%j] : memref<?xf32>
    }
    scf.for %j = %c0 to %sz step %c1 {
      %v = memref.load %t[%j] : memref<?xf32>
      %p = arith.addf %v, %one : f32
      memref.store %p, %u[%j] : memref<?xf32>
    }
    %dst = memref.subview %out[%i] [%sz] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    memref.copy %u, %dst : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    memref.dealloc %t : memref<?xf32>
    memref.dealloc %u : memref<?xf32>
  }
  return
}
func.func @run(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %in = memref.alloc(%n) : memref<?xf32>
  %out = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %in[%i] : memref<?xf32>
  }
  call @tiled(%n, %in, %out) : (index, memref<?xf32>, memref<?xf32>) -> ()
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %out[%i] : memref<?xf32>
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  }
  vector.print %s : f32
  memref.dealloc %in : memref<?xf32>
  memref.dealloc %out : memref<?xf32>
  return
}
func.func @main() {
  %n100 = arith.constant 100 : index
  %n64 = arith.constant 64 : index
  %n7 = arith.constant 7 : index
  call @run(%n100) : (index) -> ()
  call @run(%n64) : (index) -> ()
  call @run(%n7) : (index) -> ()
  return
}
