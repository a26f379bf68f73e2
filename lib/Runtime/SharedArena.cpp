//===- SharedArena.cpp - One run-time arena kept across calls -------------===//
//
// Functions a module names in memplan.shared_arena never run at once (each
// checks a busy flag at entry). Their run-time arenas are then one block,
// kept in a slot of the program (a module global: pointer, bytes,
// alignment) across calls and grown when a call needs more, instead of one
// block allocated and freed per call. It is never freed, like a global.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "memplan/Runtime/memplan_runtime.h"

#include <cstdio>

extern "C" {

void _mlir_ciface_memplan_rt_shared_arena(memplan_rt_memref_i8 *Result,
                                          memplan_rt_memref_i64 *Slot,
                                          int64_t Bytes, int64_t Align) {
  if (!Result || !Slot || !Slot->aligned || Slot->sizes[0] < 3 ||
      Slot->strides[0] != 1) {
    std::fprintf(stderr, "memplan_rt: fatal: memplan_rt_shared_arena called "
                         "without a result or a 3-element slot\n");
    memplan::rt::endProcess();
  }
  // Bad sizes and alignments are reported (and end the program) as
  // memplan_rt_alloc reports them.
  if (Bytes < 0 || Align < 0)
    return _mlir_ciface_memplan_rt_alloc(Result, Bytes, Align);
  int64_t *S = Slot->aligned + Slot->offset;
  if (S[0] && Bytes <= S[1] && Align <= S[2]) {
    auto *P = reinterpret_cast<int8_t *>(static_cast<intptr_t>(S[0]));
    *Result = {P, P, 0, {S[1]}, {1}};
    return;
  }
  // Grow: nothing of the set runs, so the old block holds nothing live.
  int64_t Keep = Bytes > S[1] ? Bytes : S[1];
  int64_t KeepAlign = Align > S[2] ? Align : S[2];
  if (S[0]) {
    auto *Old = reinterpret_cast<int8_t *>(static_cast<intptr_t>(S[0]));
    memplan_rt_memref_i8 M = {Old, Old, 0, {S[1]}, {1}};
    _mlir_ciface_memplan_rt_free(&M);
    S[0] = S[1] = S[2] = 0;
  }
  _mlir_ciface_memplan_rt_alloc(Result, Keep, KeepAlign);
  S[0] = static_cast<int64_t>(reinterpret_cast<intptr_t>(Result->allocated));
  S[1] = Result->allocated ? Keep : 0;
  S[2] = Result->allocated ? KeepAlign : 0;
}

} // extern "C"
