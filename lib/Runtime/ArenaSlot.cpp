//===- ArenaSlot.cpp - memplan_rt_slot: a slot's own base pointer ---------===//
//
// The views of a run-time arena sit at offsets computed when the function
// runs, so LLVM sees one object read and written at distances it cannot
// compare, and its loop vectorizer gives up on every loop that touches two
// of them. Handed through a call it cannot see into, each slot is an object
// of its own, and the vectorizer checks two slots for overlap when the loop
// is entered, as it does for two mallocs.
//
//===----------------------------------------------------------------------===//

#include "memplan/Runtime/memplan_runtime.h"

extern "C" void _mlir_ciface_memplan_rt_slot(memplan_rt_memref_i8 *Result,
                                             memplan_rt_memref_i8 *Arena) {
  *Result = *Arena;
}
