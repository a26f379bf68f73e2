// Execution: an async.execute that reads a buffer and is never awaited,
// beside a second one on the same buffer that is awaited (found by probing
// with hand-written programs). The wait joins the second's work only; the
// first may read %a until the end. Once the wait was taken as the join,
// %b got %a's bytes, and the first execute (held back by a flag until %b is
// filled) printed 2 where the unplanned program prints 1; the same through
// a callee, whose argument was taken as not kept. Now %a is left alone.
//
// RUN: memplan-opt %s %lower_async | mlir-runner -O0 -e main -entry-point-result=void -shared-libs=%runner_libs,%llvm_lib/libmlir_async_runtime.so > %t.ref
// RUN: FileCheck %s --input-file=%t.ref
// RUN: memplan-opt %s --tensor-mem-plan %lower_async | mlir-runner -O0 -e main -entry-point-result=void -shared-libs=%runner_libs,%llvm_lib/libmlir_async_runtime.so > %t.planned
// RUN: diff %t.ref %t.planned
// RUN: memplan-opt %s --tensor-mem-plan="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// The executes print after %b is filled: 2 (%b), then 1 (%a), twice.
// CHECK: 2
// CHECK-NEXT: 1
// CHECK-NEXT: 2
// CHECK-NEXT: 1
// REMARK: buffer not planned: used asynchronously by 'async.execute' and not awaited in its block
// REMARK: buffer not planned: passed to a call ('func.call')

memref.global "private" @go : memref<1xi32> = dense<0>
memref.global "private" @done : memref<1xi32> = dense<0>
func.func private @printF32(f32)
func.func private @printNewline()
func.func private @spin(%g: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  scf.while : () -> () {
    %v = memref.atomic_rmw addi %z, %g[%c0] : (i32, memref<1xi32>) -> i32
    %c = arith.cmpi eq, %v, %z : i32
    scf.condition(%c)
  } do {
    scf.yield
  }
  return
}
func.func private @signal(%g: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %v = memref.atomic_rmw assign %one, %g[%c0] : (i32, memref<1xi32>) -> i32
  return
}
memref.global "private" @go2 : memref<1xi32> = dense<0>
memref.global "private" @done2 : memref<1xi32> = dense<0>
func.func @inline_execute() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1.0 : f32
  %c2 = arith.constant 2.0 : f32
  %go = memref.get_global @go : memref<1xi32>
  %done = memref.get_global @done : memref<1xi32>
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%c1 : f32) outs(%a : memref<16xf32>)
  %t = async.execute {
    func.call @spin(%go) : (memref<1xi32>) -> ()
    %v = memref.load %a[%c0] : memref<16xf32>
    func.call @printF32(%v) : (f32) -> ()
    func.call @printNewline() : () -> ()
    func.call @signal(%done) : (memref<1xi32>) -> ()
    async.yield
  }
  %t2 = async.execute {
    %v = memref.load %a[%c0] : memref<16xf32>
    async.yield
  }
  async.await %t2 : !async.token
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%c2 : f32) outs(%b : memref<16xf32>)
  %v3 = memref.load %b[%c0] : memref<16xf32>
  call @printF32(%v3) : (f32) -> ()
  call @printNewline() : () -> ()
  call @signal(%go) : (memref<1xi32>) -> ()
  call @spin(%done) : (memref<1xi32>) -> ()
  return
}
func.func private @bg(%m: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %go = memref.get_global @go2 : memref<1xi32>
  %done = memref.get_global @done2 : memref<1xi32>
  %t = async.execute {
    func.call @spin(%go) : (memref<1xi32>) -> ()
    %v = memref.load %m[%c0] : memref<16xf32>
    func.call @printF32(%v) : (f32) -> ()
    func.call @printNewline() : () -> ()
    func.call @signal(%done) : (memref<1xi32>) -> ()
    async.yield
  }
  %t2 = async.execute {
    %v2 = memref.load %m[%c0] : memref<16xf32>
    async.yield
  }
  async.await %t2 : !async.token
  return
}
func.func @through_callee() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1.0 : f32
  %c2 = arith.constant 2.0 : f32
  %go = memref.get_global @go2 : memref<1xi32>
  %done = memref.get_global @done2 : memref<1xi32>
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%c1 : f32) outs(%a : memref<16xf32>)
  call @bg(%a) : (memref<16xf32>) -> ()
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%c2 : f32) outs(%b : memref<16xf32>)
  %v3 = memref.load %b[%c0] : memref<16xf32>
  call @printF32(%v3) : (f32) -> ()
  call @printNewline() : () -> ()
  call @signal(%go) : (memref<1xi32>) -> ()
  call @spin(%done) : (memref<1xi32>) -> ()
  return
}
func.func @main() {
  call @inline_execute() : () -> ()
  call @through_callee() : () -> ()
  return
}
