// memplan-pipeline with and without hoist-constants on real networks: the
// transposed classifier weight leaves the arena, which then holds
// activations only (it sits at their live bound), and the report lists the
// weight under "weights".
//
// resnet18: the 512x1000 transpose of the classifier weight only feeds the
// matmul, which now reads the 1000x512 weight through the transposed map
// (hoist-constants=memory, the default): 512 * 1000 * 4 = 2048000 bytes
// never exist, the weight stays the one constant it was, and the arena,
// 2048000 + 6080 bytes before, drops to the activations' bound.
// RUN: memplan-opt %shared/models/resnet18.mlir --memplan-pipeline="hoist-constants=false report=%t.r18.off.json" -o /dev/null
// RUN: memplan-opt %shared/models/resnet18.mlir --memplan-pipeline="report=%t.r18.on.json remarks=true" -o /dev/null 2> %t.r18.remarks
// RUN: %python %S/Inputs/check_weights.py %t.r18.off.json %t.r18.on.json "memref<512x1000xf32>" | FileCheck %s --check-prefix=R18
// RUN: FileCheck %s --check-prefix=R18REMARK < %t.r18.remarks
// R18: off: weight in arena yes
// R18-NEXT: on: weight in arena no
// R18-NEXT: on arena < off arena
// R18-NEXT: on arena at bound yes
// R18-NEXT: weights: constant 2048000{{$}}
// R18-NEXT: weights bytes sum ok yes
// R18REMARK: remark: tensor-mem-hoist-constants: 1 permuted constants read through a map (2048000 bytes never materialized)
//
// resnet50_224: elided weights (no data to fold), but the 2048x1000
// transpose is read through as well: no global, no copy (it was hoisted into
// an 8192000-byte global before). Its arena peaks at activations
// elsewhere, so the arena stays and the footprint drops by the copy.
// RUN: memplan-opt %shared/models/resnet50_224.mlir --memplan-pipeline="hoist-constants=false report=%t.r50.off.json" -o /dev/null
// RUN: memplan-opt %shared/models/resnet50_224.mlir --memplan-pipeline="report=%t.r50.on.json remarks=true" -o /dev/null 2> %t.r50.remarks
// RUN: %python %S/Inputs/check_weights.py %t.r50.off.json %t.r50.on.json "memref<2048x1000xf32>" | FileCheck %s --check-prefix=R50
// RUN: FileCheck %s --check-prefix=R50REMARK < %t.r50.remarks
// R50: off: weight in arena yes
// R50-NEXT: on: weight in arena no
// R50-NEXT: on arena == off arena
// R50-NEXT: on arena at bound yes
// R50-NEXT: weights: constant 8192000{{$}}
// R50REMARK: remark: tensor-mem-hoist-constants: 1 permuted constants read through a map (8192000 bytes never materialized)
// R50REMARK-NOT: hoisted into
