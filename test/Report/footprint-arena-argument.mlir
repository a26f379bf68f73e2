// With arena=argument every function takes its arena from its caller, and
// @outer's arena holds the one it passes to @inner: @outer's footprint is
// its arena alone (before, @inner's 128 bytes were added again as a
// callee's). Called by the user, @inner is paid for by the user.
// RUN: memplan-opt %s --tensor-mem-plan="arena=argument report=%t.json" -o %t.mlir
// RUN: %python -c "import json, sys; [print(f['function'], *('%%s=%%s' %% kv for kv in sorted(f['footprint'].items()))) for f in json.load(open(sys.argv[1]))['functions']]" %t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.mlir

// @inner: 128 bytes; @outer: its 64 bytes live across the call, beside
// @inner's 128.
// CHECK: inner arenas=128 callees=0 first_call=128 hoisted=0 not_counted=[] steady=128
// CHECK: outer arenas=192 callees=0 first_call=192 hoisted=0 not_counted=[] steady=192
// IR-LABEL: func.func @outer
// IR-SAME: memref<192xi8>
// IR: call @inner({{.*}}) : (memref<16xf32>, memref<128xi8>) -> ()

func.func @inner(%in: memref<16xf32>) {
  %t = memref.alloc() : memref<32xf32>
  %s = memref.subview %t[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
  memref.copy %in, %s : memref<16xf32> to memref<16xf32, strided<[1]>>
  memref.copy %s, %in : memref<16xf32, strided<[1]>> to memref<16xf32>
  return
}

func.func @outer(%in: memref<16xf32>) {
  %t = memref.alloc() : memref<16xf32>
  memref.copy %in, %t : memref<16xf32> to memref<16xf32>
  func.call @inner(%in) : (memref<16xf32>) -> ()
  memref.copy %t, %in : memref<16xf32> to memref<16xf32>
  return
}
