// Unregistered ops: a use whose effects are unknown, a region whose
// semantics are unknown, a buffer captured by an unknown op's region. Each
// buffer stays a plain alloc with a remark naming the op.
// RUN: memplan-opt %s --tensor-mem-plan=remarks=true -allow-unregistered-dialect -verify-diagnostics -split-input-file | FileCheck %s
// The runtime lowering leaves them alone too (it used to crash declaring
// its functions in 'foo.region', taken for a symbol table).
// RUN: memplan-opt %s --tensor-mem-lower-runtime=all=true -allow-unregistered-dialect -split-input-file | FileCheck %s --check-prefix=RT
// RT-LABEL: func.func @unknown_region
// RT: "foo.region"
// RT-NEXT: memref.alloc() : memref<4xf32>

// CHECK-LABEL: func.func @unknown_use
// CHECK: memref.alloc() : memref<4xf32>
func.func @unknown_use() {
  // expected-remark @below {{buffer not planned: used by 'foo.bar', whose memory effects are unknown}}
  %a = memref.alloc() : memref<4xf32>
  // expected-note @below {{because of this op}}
  "foo.bar"(%a) : (memref<4xf32>) -> ()
  return
}

// -----

// CHECK-LABEL: func.func @unknown_region
// CHECK: memref.alloc() : memref<4xf32>
func.func @unknown_region() {
  // expected-note @below {{because of this op}}
  "foo.region"() ({
    // expected-remark @below {{buffer not planned: inside a region of unknown semantics ('foo.region')}}
    %a = memref.alloc() : memref<4xf32>
    "foo.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// A buffer used inside the region of an unknown op: the region may run at
// any time (asynchronously, after the function returned), so it was wrong to
// plan it (it used to be planned).
// CHECK-LABEL: func.func @captured
// CHECK: memref.alloc() : memref<4xf32>
func.func @captured() {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.0 : f32
  // expected-remark @below {{buffer not planned: captured by the region of 'foo.region', whose semantics are unknown}}
  %a = memref.alloc() : memref<4xf32>
  "foo.region"() ({
    // expected-note @below {{because of this op}}
    memref.store %cst, %a[%c0] : memref<4xf32>
    "foo.yield"() : () -> ()
  }) : () -> ()
  return
}
