//===- HeapMutex.cpp - Waiting for the runtime's lock ---------------------===//
//
// The slow path of HeapMutex: a thread that finds the lock taken marks it
// contended and sleeps on a futex, bounded, until it gets it.
//
//===----------------------------------------------------------------------===//

#include "HeapMutex.h"

#include <ctime>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace memplan::rt;

void HeapMutex::lockSlow() {
  // Mark the lock contended, then sleep until it is free; whoever takes it
  // this way keeps the mark, so its unlock wakes the next sleeper.
  while (State.exchange(2, std::memory_order_acquire) != 0) {
    timespec Bound{0, SleepNs};
    futexWait(State, 2, &Bound);
  }
}

void HeapMutex::wake() { futexWake(State); }

void memplan::rt::futexWait(std::atomic<uint32_t> &Word, uint32_t Expected,
                            const timespec *Bound) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&Word), FUTEX_WAIT_PRIVATE,
          Expected, Bound, nullptr, 0);
}

void memplan::rt::futexWake(std::atomic<uint32_t> &Word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&Word), FUTEX_WAKE_PRIVATE, 1,
          nullptr, nullptr, 0);
}
