// RUN: memplan-opt %s --split-input-file --verify-diagnostics --tensor-mem-plan -o /dev/null
//
// A memplan.* attribute the pass does not understand is an error at it,
// not ignored: memplan.persistent = false was taken as persistent (the
// buffer kept bytes of its own), and a memplan.max that is negative, not
// an integer or on a non-index argument promised nothing, silently.

func.func @persistent_false(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{memplan.persistent is a unit attribute: write it alone on the alloc; got false}}
  %a = memref.alloc() {memplan.persistent = false} : memref<16xf32>
  memref.store %x, %a[%c0] : memref<16xf32>
  %v = memref.load %a[%c0] : memref<16xf32>
  return %v : f32
}

// -----

// expected-error @+1 {{memplan.max is the largest value of an index argument, a non-negative integer (memplan.max = 16 : i64) on argument 0 of @max_negative; got -1 : i64}}
func.func @max_negative(%n: index {memplan.max = -1 : i64}) {
  %a = memref.alloc(%n) : memref<?xf32>
  return
}

// -----

// expected-error @+1 {{on argument 0 of @max_text; got "16"}}
func.func @max_text(%n: index {memplan.max = "16"}) {
  %a = memref.alloc(%n) : memref<?xf32>
  return
}

// -----

// expected-error @+1 {{on argument 1 of @max_not_index; got 16 : i64}}
func.func @max_not_index(%n: index, %f: f32 {memplan.max = 16 : i64}) {
  %a = memref.alloc(%n) : memref<?xf32>
  return
}

// -----

// expected-error @+1 {{memplan.shared_arena is an array of the functions that share one arena, as in [@prefill, @decode]; got "prefill"}}
module attributes {memplan.shared_arena = "prefill"} {
  func.func @prefill() {
    %a = memref.alloc() : memref<16xf32>
    return
  }
}

// -----

// The forms the pass takes: no error.
func.func @taken(%n: index {memplan.max = 16 : i64}, %f: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() {memplan.persistent} : memref<16xf32>
  memref.store %f, %a[%c0] : memref<16xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  memref.store %f, %b[%c0] : memref<?xf32>
  %v = memref.load %a[%c0] : memref<16xf32>
  %w = memref.load %b[%c0] : memref<?xf32>
  %s = arith.addf %v, %w : f32
  return %s : f32
}
