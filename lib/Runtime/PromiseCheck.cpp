//===- PromiseCheck.cpp - A broken size promise stops the program ---------===//
//
// tensor-mem-plan plans a dynamic size at the bound the user promised
// (memplan.max, dim-bounds) and guards the view with `size <= bound`; when
// the guard fails, lowered code calls this. Writing past the planned bytes
// would corrupt memory silently, so the process ends, saying which promise
// broke and by how much.
//
//===----------------------------------------------------------------------===//

#include "memplan/Runtime/memplan_runtime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" void
_mlir_ciface_memplan_rt_broken_promise(memplan_rt_memref_i8 *What, int64_t Got,
                                       int64_t Bound) {
  const char *Text =
      What && What->aligned
          ? reinterpret_cast<const char *>(What->aligned + What->offset)
          : "a size bound";
  int Length = What ? static_cast<int>(What->sizes[0]) : 12;
  std::fprintf(stderr,
               "memplan_rt: fatal: broken size promise: %.*s, but the "
               "size is %lld (> %lld); the buffer was planned at the bound\n",
               Length, Text, static_cast<long long>(Got),
               static_cast<long long>(Bound));
  std::fflush(stderr);
  const char *Mode = std::getenv("MEMPLAN_RT_ON_OOM");
  if (Mode && !std::strcmp(Mode, "exit"))
    std::exit(MEMPLAN_RT_EXIT_STATUS);
  std::abort();
}
