// RUN: memplan-opt %s --split-input-file --verify-diagnostics --tensor-mem-plan -o /dev/null
//
// The pass calls the runtime's checks by name (a broken size promise, a
// broken exclusion of a shared arena). A symbol of the program by one of
// those names with another type is an error at it, before anything is
// planned: the pass once called the program's function with the runtime's
// operands and wrote IR that did not verify. A declaration of the right
// type is taken as it is.

// expected-error @+1 {{'memplan_rt_broken_promise' is the runtime's check, called as '(memref<?xi8>, i64, i64) -> ()', but is declared here with type '(i32) -> i32'}}
func.func @memplan_rt_broken_promise(%x: i32) -> i32 {
  return %x : i32
}
func.func @f(%n: index {memplan.max = 8 : i64}) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc(%n) : memref<?xf32>
  %x = memref.load %a[%c0] : memref<?xf32>
  return %x : f32
}

// -----

module attributes {memplan.shared_arena = [@prefill, @decode]} {
  // expected-error @+1 {{'memplan_rt_broken_exclusion' is the runtime's check, called as '(memref<?xi8>) -> ()', but is declared here with type '(f64) -> f64'}}
  func.func @memplan_rt_broken_exclusion(%x: f64) -> f64 {
    return %x : f64
  }
  func.func @prefill(%x: f32) -> f32 {
    %a = memref.alloc() : memref<64xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<64xf32>)
    %c0 = arith.constant 0 : index
    %u = memref.load %a[%c0] : memref<64xf32>
    return %u : f32
  }
  func.func @decode(%x: f32) -> f32 {
    %a = memref.alloc() : memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
    %c0 = arith.constant 0 : index
    %u = memref.load %a[%c0] : memref<16xf32>
    return %u : f32
  }
}

// -----

// expected-error @+1 {{'memplan_rt_broken_promise' is the runtime's check, called as '(memref<?xi8>, i64, i64) -> ()', but is a 'memref.global' here}}
memref.global "private" @memplan_rt_broken_promise : memref<4xi8> = dense<0>

// -----

// The runtime's own declaration: no error.
func.func private @memplan_rt_broken_promise(memref<?xi8>, i64, i64) attributes {llvm.emit_c_interface}
func.func @g(%n: index {memplan.max = 8 : i64}) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc(%n) : memref<?xf32>
  %x = memref.load %a[%c0] : memref<?xf32>
  return %x : f32
}
