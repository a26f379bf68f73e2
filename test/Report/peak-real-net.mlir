// On real networks, each arena's report says which strategy `auto` chose,
// where the live bytes peak (the live buffers' aligned sizes sum to the
// lower bound) and which op fills each buffer (mostly linalg ops, not the
// allocs that one-shot-bufferize made of tensor.empty).
// REQUIRES: shared-data
// RUN: memplan-opt %shared/models/resnet18.mlir --one-shot-bufferize="bufferize-function-boundaries" --tensor-mem-plan="report=%t.raw.json" -o /dev/null
// RUN: %python %S/Inputs/check_peak.py %t.raw.json | FileCheck %s
// RUN: memplan-opt %shared/models/resnet18.mlir --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-plan="report=%t.dealloc.json" -o /dev/null
// RUN: %python %S/Inputs/check_peak.py %t.dealloc.json | FileCheck %s
// RUN: memplan-opt %shared/models/densenet201.mlir --one-shot-bufferize="bufferize-function-boundaries" --tensor-mem-plan="report=%t.dn.json" -o /dev/null
// RUN: %python %S/Inputs/check_peak.py %t.dn.json | FileCheck %s
// CHECK: forward: chosen {{[a-z-]+}}, peak sums to bound yes, linalg writers {{[1-9][0-9]*}}, alloc writers {{[0-9]}}{{$}}
