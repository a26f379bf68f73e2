// Real networks from ../shared/models, both bufferization forms: `auto`
// reaches the live-bytes bound, and every strategy's plan passes the
// validator (an invalid plan fails the pass).
//
// REQUIRES: shared-data
// RUN: memplan-opt %shared/models/squeezenet1_1.mlir --one-shot-bufferize="bufferize-function-boundaries" --tensor-mem-plan=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=SQZ
// RUN: memplan-opt %shared/models/resnet18.mlir --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-deallocation-pipeline --tensor-mem-plan=remarks=true -o %t.r18.mlir 2>&1 | FileCheck %s --check-prefix=R18
// RUN: FileCheck %s --check-prefix=R18IR < %t.r18.mlir
//
// RUN: memplan-opt %shared/models/resnet18.mlir --one-shot-bufferize="bufferize-function-boundaries" -o %t.buf.mlir
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=strategy=naive -o /dev/null
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=strategy=equality -o /dev/null
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=strategy=greedy-in-order -o /dev/null
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=strategy=greedy-by-breadth -o /dev/null
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=strategy=greedy-by-size -o /dev/null
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=strategy=greedy-best -o /dev/null
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=strategy=min-cost-flow -o /dev/null
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=strategy=greedy-by-size-offsets -o /dev/null
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=strategy=greedy-by-breadth-offsets -o /dev/null
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=strategy=best-fit-size -o /dev/null
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=strategy=best-fit-area -o /dev/null
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan=strategy=first-fit -o /dev/null
// RUN: memplan-opt %t.buf.mlir --tensor-mem-plan="strategy=exact budget-ms=200" -o /dev/null

// squeezenet1_1: 61 allocs (shared/models/README.md), one returned.
// SQZ: remark: buffer not planned: returned
// SQZ: remark: tensor-mem-plan: 60 buffers planned, {{[0-9]+}} bytes without planning, arena [[N:[0-9]+]] bytes, lower bound [[N]], strategy auto

// resnet18 with deallocs: 58 allocs, 57 freed, the result returned.
// R18: remark: buffer not planned: returned
// R18: remark: tensor-mem-plan: 57 buffers planned, {{[0-9]+}} bytes without planning, arena [[M:[0-9]+]] bytes, lower bound [[M]], strategy auto
// One dealloc is left: the arena's (the returned buffer is the caller's).
// R18IR-COUNT-1: memref.dealloc
// R18IR-NOT: memref.dealloc
