// The cost of check-promises: @step plans two buffers of n floats at the
// promised bound (memplan.max = 64) and sums n values through them; @main
// times CALLS calls and prints nanoseconds per call. run.sh builds it with
// check-promises=true and =false and prints the ratio.
func.func private @rtclock() -> f64
func.func private @printF64(f64)
func.func private @printNewline()

func.func @step(%n: index {memplan.max = 64 : i64}, %x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %x, %a[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%i] : memref<?xf32>
    memref.store %v, %b[%i] : memref<?xf32>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> f32 {
    %v = memref.load %b[%i] : memref<?xf32>
    %r = arith.addf %acc, %v : f32
    scf.yield %r : f32
  }
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return %s : f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %calls = arith.constant 2000000 : index
  %n = arith.constant 8 : index
  %x0 = arith.constant 0.0 : f32
  %small = arith.constant 1.0e-9 : f32
  %t0 = func.call @rtclock() : () -> f64
  %r = scf.for %i = %c0 to %calls step %c1 iter_args(%x = %x0) -> f32 {
    %y = func.call @step(%n, %x) : (index, f32) -> f32
    %z = arith.mulf %y, %small : f32
    scf.yield %z : f32
  }
  %t1 = func.call @rtclock() : () -> f64
  %dt = arith.subf %t1, %t0 : f64
  %ns = arith.constant 1.0e9 : f64
  %k = arith.constant 2000000.0 : f64
  %per = arith.divf %dt, %k : f64
  %pns = arith.mulf %per, %ns : f64
  func.call @printF64(%pns) : (f64) -> ()
  func.call @printNewline() : () -> ()
  %rd = arith.extf %r : f32 to f64
  func.call @printF64(%rd) : (f64) -> ()
  func.call @printNewline() : () -> ()
  return
}
