// memplan-pipeline with and without hoist-constants on real networks: the
// transposed classifier weight leaves the arena, which then holds
// activations only (it sits at their live bound), and the report lists the
// weight under "weights".
//
// resnet18: splat weights, so the 512x1000 transpose folds to a constant
// (512 * 1000 * 4 = 2048000 bytes) and the arena, 2048000 + 6080 bytes
// before, drops to the activations' bound.
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
// R18REMARK: resnet18.mlir:540:{{[0-9]+}}: remark: tensor-mem-hoist-constants: folded: 2048000 bytes
//
// resnet50_224: elided weights, so the 2048x1000 transpose is hoisted into a
// global (2048 * 1000 * 4 = 8192000 bytes) filled on the first call. Its
// arena peaks at activations elsewhere, so the size stays.
// RUN: memplan-opt %shared/models/resnet50_224.mlir --memplan-pipeline="hoist-constants=false report=%t.r50.off.json" -o /dev/null
// RUN: memplan-opt %shared/models/resnet50_224.mlir --memplan-pipeline="report=%t.r50.on.json remarks=true" -o /dev/null 2> %t.r50.remarks
// RUN: %python %S/Inputs/check_weights.py %t.r50.off.json %t.r50.on.json "memref<2048x1000xf32>" | FileCheck %s --check-prefix=R50
// RUN: FileCheck %s --check-prefix=R50REMARK < %t.r50.remarks
// R50: off: weight in arena yes
// R50-NEXT: on: weight in arena no
// R50-NEXT: on arena == off arena
// R50-NEXT: on arena at bound yes
// R50-NEXT: weights: hoisted 8192000{{$}}
// R50REMARK: remark: tensor-mem-hoist-constants: hoisted into @__memplan_hoisted_forward: 8192000 bytes
