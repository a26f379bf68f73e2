// The footprint: what a function holds while it runs, whole. Its arenas,
// the most one call it makes holds (each call's arenas while it runs), the
// hoisted globals it or a callee reads, and on the first call the init
// function's arenas (never live with an arena allocated after it).
// RUN: memplan-opt %s --tensor-mem-plan="report=%t.json remarks=true" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %python -c "import json, sys; [print(f['function'], 'entry' if f['entry'] else 'inner', *('%%s=%%s' %% kv for kv in sorted(f['footprint'].items()))) for f in json.load(open(sys.argv[1]))['functions']]" %t.json | FileCheck %s
// The arena of @forward_init is allocated after the init call.
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.mlir
// With across-calls, @block's arena is carved from its callers', but the
// init function keeps its own: in @forward_init's it would be held on every
// call (steady 1472, not 1216).
// RUN: memplan-opt %s --tensor-mem-plan="report=%t.across.json across-calls=true" -o %t.across.mlir
// RUN: %python -c "import json, sys; [print(f['function'], *('%%s=%%s' %% kv for kv in sorted(f['footprint'].items()))) for f in json.load(open(sys.argv[1]))['functions']]" %t.across.json | FileCheck %s --check-prefix=ACROSS
// RUN: FileCheck %s --check-prefix=ACROSS-IR --input-file=%t.across.mlir
// ACROSS: block arenas=0 callees=0
// ACROSS: forward_init arenas=192 callees=0 first_call=1280 hoisted=1024 not_counted=[] steady=1216
// ACROSS: init arenas=256 callees=0
// ACROSS-IR: func.func private @block({{.*}}memref<128xi8> {memplan.arena_alignment
// ACROSS-IR: func.func private @init() attributes {memplan.init} {
// ACROSS-IR-NEXT: memref.alloc() {alignment = 64 : i64} : memref<256xi8>

// @block: two 64-byte buffers live together, 128 bytes.
// CHECK: block inner arenas=128 callees=0 first_call=128 hoisted=0 not_counted=[] steady=128
// @forward: its own 64 bytes, and one @block call at a time.
// CHECK: forward entry arenas=64 callees=128 first_call=192 hoisted=0 not_counted=[] steady=192
// @forward_init: 64 + 128 as above, 1024 hoisted bytes (one global counted
// once though two functions read it); on the first call the init's 256
// bytes run before the arena: max(192, 256) + 1024.
// CHECK: forward_init entry arenas=64 callees=128 first_call=1280 hoisted=1024 not_counted=[] steady=1216
// CHECK: init inner arenas=256 callees=0 first_call=1280 hoisted=1024 not_counted=[] steady=1280
// CHECK: rec entry arenas=64 callees=0 first_call=64 hoisted=0 not_counted=['@ext (no body here)', 'recursive call to @rec'] steady=64

// REMARK-DAG: remark: tensor-mem-plan: 1 buffer planned, {{.*}}; footprint: steady 1216 bytes (arenas 64, callees 128, hoisted 1024), first call 1280 bytes

// IR-LABEL: func.func @forward_init
// IR: scf.if
// IR-NEXT: func.call @init()
// IR: }
// IR-NEXT: memref.alloc() {alignment = 64 : i64} : memref<64xi8>

memref.global "private" @hoisted : memref<256xf32> = uninitialized {memplan.hoisted}

func.func private @ext(memref<16xf32>)

func.func private @block(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

func.func @forward(%in: memref<16xf32>, %out: memref<16xf32>) {
  %t = memref.alloc() : memref<16xf32>
  func.call @block(%in, %out) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.copy %out, %t : memref<16xf32> to memref<16xf32>
  func.call @block(%in, %out) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.copy %t, %out : memref<16xf32> to memref<16xf32>
  return
}

func.func private @init() attributes {memplan.init} {
  %g = memref.get_global @hoisted : memref<256xf32>
  %a = memref.alloc() : memref<64xf32>
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%a : memref<64xf32>)
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<64xf32>
  memref.store %v, %g[%c0] : memref<256xf32>
  return
}

func.func @forward_init(%in: memref<16xf32>, %out: memref<16xf32>, %first: i1) {
  scf.if %first {
    func.call @init() : () -> ()
  }
  %g = memref.get_global @hoisted : memref<256xf32>
  %t = memref.alloc() : memref<16xf32>
  func.call @block(%in, %out) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.copy %out, %t : memref<16xf32> to memref<16xf32>
  %c0 = arith.constant 0 : index
  %w = memref.load %g[%c0] : memref<256xf32>
  memref.store %w, %t[%c0] : memref<16xf32>
  memref.copy %t, %out : memref<16xf32> to memref<16xf32>
  return
}

func.func @rec(%in: memref<16xf32>, %n: index) {
  %t = memref.alloc() : memref<16xf32>
  memref.copy %in, %t : memref<16xf32> to memref<16xf32>
  func.call @ext(%in) : (memref<16xf32>) -> ()
  memref.copy %t, %in : memref<16xf32> to memref<16xf32>
  func.call @rec(%in, %n) : (memref<16xf32>, index) -> ()
  return
}
