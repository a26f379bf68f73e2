//===- PromiseCheck.cpp - A broken size promise stops the program ---------===//
//
// tensor-mem-plan plans a dynamic size at the bound the user promised
// (memplan.max, dim-bounds) and guards the view with `size <= bound`; when
// the guard fails, lowered code calls this. Writing past the planned bytes
// would corrupt memory silently, so the process ends, saying which promise
// broke and by how much.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "memplan/Runtime/memplan_runtime.h"

#include <cstdio>

static int textLength(const memplan_rt_memref_i8 *What, int Default) {
  return What && What->aligned ? static_cast<int>(What->sizes[0]) : Default;
}

static const char *text(const memplan_rt_memref_i8 *What, const char *Default) {
  return What && What->aligned
             ? reinterpret_cast<const char *>(What->aligned + What->offset)
             : Default;
}

extern "C" void
_mlir_ciface_memplan_rt_broken_promise(memplan_rt_memref_i8 *What, int64_t Got,
                                       int64_t Bound) {
  std::fprintf(stderr,
               "memplan_rt: fatal: broken size promise: %.*s, but the size is "
               "%lld (> %lld); the buffer was planned at the bound\n",
               textLength(What, 12), text(What, "a size bound"),
               static_cast<long long>(Got), static_cast<long long>(Bound));
  memplan::rt::endProcess();
}

/// Functions of memplan.shared_arena ran at once: the second would write
/// the first's buffers (tensor-mem-plan, SharedArena.cpp).
extern "C" void
_mlir_ciface_memplan_rt_broken_exclusion(memplan_rt_memref_i8 *What) {
  std::fprintf(stderr, "memplan_rt: fatal: broken promise: %.*s\n",
               textLength(What, 38),
               text(What, "functions sharing an arena ran at once"));
  memplan::rt::endProcess();
}
