//===- ThreadHome.h - Each thread's home heap and the numbers behind it ---===//
//
// Private to lib/Runtime (not installed). Threads are numbered as they first
// allocate, so concurrent threads start on different heaps; a thread's home
// heap is its number modulo the heaps, until it moves (BFCAllocator.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_RUNTIME_THREADHOME_H
#define MEMPLAN_LIB_RUNTIME_THREADHOME_H

#include <mutex>
#include <vector>

namespace memplan::rt {

/// Home numbers of ended threads, lowest last taken first: a new thread
/// takes the home (and the warm, committed memory) of one that ended. Fresh
/// numbers gave every short-lived thread a cold heap: a benchmark's worker
/// threads, new each run, faulted in a heap's worth of pages each time (2.5x
/// the page faults of TF-BFC on tensor-mix at 2 threads). Never destroyed:
/// threads may end during static destruction.
struct FreeHomes {
  std::mutex Lock;
  std::vector<unsigned> Numbers;
  unsigned Next = 0; // the first number never handed out
};
FreeHomes &freeHomes();

/// A thread's number and its home heap index (modulo the number of heaps).
/// A thread that moves home keeps its number, and gives the number back
/// when it ends: given back, the heap it moved to could name the home of a
/// live thread, and two new threads could take one number (a runtime test
/// found none of three live threads on the second of two heaps).
struct ThreadHome {
  unsigned Number;
  unsigned Index;
  unsigned Contended = 0; // allocations in a row that found home busy
  ThreadHome();
  ~ThreadHome();
  ThreadHome(const ThreadHome &) = delete;
  ThreadHome &operator=(const ThreadHome &) = delete;
};

} // namespace memplan::rt

#endif // MEMPLAN_LIB_RUNTIME_THREADHOME_H
