// Remarks of tensor-mem-plan: the summary is attached to the function's
// location only (the function itself is not printed under it), and the same
// numbers go through MLIR's remark engine to --remarks-output-file.
// REQUIRES: shared-data
// RUN: memplan-opt %s --tensor-mem-plan=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: memplan-opt %s --tensor-mem-plan --remarks-filter='memplan.*' --remark-format=yaml --remarks-output-file=%t.yaml -o /dev/null
// RUN: FileCheck %s --check-prefix=YAML --input-file=%t.yaml
// Without remarks=true and without the engine, nothing is printed.
// RUN: memplan-opt %s --tensor-mem-plan -o /dev/null 2>&1 | count 0
//
// A real net: resnet50 gave 1,614 lines when the summary printed the whole
// function; now a few (the summary, one unplanned buffer with its note).
// RUN: memplan-opt %shared/models/resnet50.mlir --one-shot-bufferize="bufferize-function-boundaries" --tensor-mem-plan=remarks=true -o /dev/null 2>%t.r50
// RUN: FileCheck %s --check-prefix=R50 --input-file=%t.r50
// RUN: %python -c "import sys; n = len(open(sys.argv[1]).readlines()); print('lines', 'few' if n <= 20 else n)" %t.r50 | FileCheck %s --check-prefix=LINES

// TEXT-NOT:   see current operation: func.func
// TEXT:       remarks.mlir:[[@LINE+31]]:1: remark: tensor-mem-plan: 2 buffers planned, 128 bytes without planning, arena 128 bytes, lower bound 128, strategy auto (chose greedy-by-size-offsets, peak at task 1 with 2 buffers live); footprint: steady 128 bytes (arenas 128, callees 0, hoisted 0), first call 128 bytes
// TEXT-NEXT:  func.func @two
// TEXT-NOT:   see current operation: func.func

// The summary comes after every function is planned: it carries the
// footprint (the arena here: nothing is called or hoisted).
// YAML:      --- !Missed
// YAML:      Name: BufferNotPlanned
// YAML:      Function: returns
// YAML:        - Reason: returned
// YAML:      --- !Passed
// YAML-NEXT: Pass: memplan.tensor-mem-plan
// YAML-NEXT: Name: ArenaPlanned
// YAML-NEXT: DebugLoc: { File: '{{.*}}remarks.mlir', Line: [[@LINE+18]],
// YAML:      Function: two
// YAML-NEXT: Args:
// YAML-NEXT:   - Remark: 'tensor-mem-plan: 2 buffers planned, 128 bytes without planning,
// YAML-NEXT:   - BuffersPlanned: '2'
// YAML-NEXT:   - BytesWithoutPlanning: '128'
// YAML-NEXT:   - ArenaBytes: '128'
// YAML-NEXT:   - LowerBound: '128'
// YAML-NEXT:   - Strategy: auto
// YAML-NEXT:   - Chosen: greedy-by-size-offsets
// YAML-NEXT:   - PeakTask: '1'
// YAML-NEXT:   - PeakBuffers: '2'
// YAML:        - FootprintSteady: '128'
// YAML-NEXT:   - FootprintFirstCall: '128'

// R50: remark: tensor-mem-plan: 105 buffers planned, {{.*}}, strategy auto (chose {{[a-z-]+}}, peak at task {{[0-9]+}} with {{[0-9]+}} buffers live)
// LINES: lines few

func.func @two(%out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  return
}

func.func @returns() -> memref<4xf32> {
  %r = memref.alloc() : memref<4xf32>
  return %r : memref<4xf32>
}
