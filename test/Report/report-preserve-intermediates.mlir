// With preserve-intermediates (and memplan.persistent) a buffer is live at
// every task of its function: the report says 0 .. num_tasks - 1. It once
// wrote num_tasks as the last task, one past the last op (no task_ops entry).
// RUN: memplan-opt %s --tensor-mem-plan="preserve-intermediates=true report=%t.json" -o /dev/null
// RUN: %python -c "import json, sys; f = json.load(open(sys.argv[1]))['functions'][0]; print('tasks', f['num_tasks'], *sorted({(b['first_task'], b['last_task']) for a in f['arenas'] for b in a['buffers']}))" %t.json | FileCheck %s
// Six ops, tasks 0 to 5:
// CHECK: tasks 6 (0, 5)

func.func @f(%out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %out, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  memref.copy %b, %out : memref<4xf32> to memref<4xf32>
  return
}
