//===- HeapMutex.h - The runtime's lock -------------------------*- C++ -*-===//
//
// Private to lib/Runtime (not installed): the lock of each heap and of the
// run-time plan cache, and whether the process has a single thread.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_RUNTIME_HEAPMUTEX_H
#define MEMPLAN_LIB_RUNTIME_HEAPMUTEX_H

#include <atomic>
#include <cstdint>
#include <ctime>

#if defined(__has_include)
#if __has_include(<sys/single_threaded.h>)
#include <sys/single_threaded.h>
#define MEMPLAN_RT_HAVE_SINGLE_THREADED 1
#endif
#endif

namespace memplan::rt {

/// True while the process has never started a second thread (glibc 2.32+
/// keeps the flag, and clears it for good at the first pthread_create; a
/// forked child keeps the parent's value). Elsewhere always false.
inline bool singleThreaded() {
#ifdef MEMPLAN_RT_HAVE_SINGLE_THREADED
  return __libc_single_threaded;
#else
  return false;
#endif
}

/// Sleeps while \p Word holds \p Expected, at most \p Bound (null: no bound),
/// until futexWake; returns at once if it holds another value.
void futexWait(std::atomic<uint32_t> &Word, uint32_t Expected,
               const timespec *Bound);
/// Wakes one thread sleeping in futexWait on \p Word.
void futexWake(std::atomic<uint32_t> &Word);

/// The runtime's lock (each heap's, and the run-time plan cache's): one
/// compare-and-swap takes it, inline (std::mutex calls
/// into libpthread for each: 13% more instructions in a DNN trace replay,
/// callgrind), and a release store gives it back unless a thread waits. A
/// thread that must wait marks the lock contended and sleeps on a futex (no
/// spinning); the unlock that finds the mark clears it with an exchange and
/// wakes one sleeper. The store is a plain move on x86, where the exchange
/// on every unlock was a locked instruction: 2-5 ns of the 52-56 ns per
/// alloc+free pair of a DNN or MiniMalloc trace replay with nothing written,
/// on a 2.6 GHz Xeon. The store may overwrite a mark set after the unlock
/// read the lock, and that sleeper then misses its wake: every sleep is
/// bounded by SleepNs, after which the waiter tries again (0.13% of the
/// sleeps of 2 threads replaying the DNN trace on one heap). Mutual
/// exclusion never rests on the wake.
///
/// While the process has one thread (singleThreaded()), try_lock is a plain
/// load and store, as glibc's malloc skips its arena lock then: the locked
/// compare-and-swap waits for the program's pending stores to reach the
/// cache (a tensor just written), which took 16% of a random-mix replay's
/// samples (perf; 8% of its time, 3-4% of the DNN trace's, in
/// bench/runtime's single-threaded runs). The one thread the runtime starts
/// (options.purge_thread) starts at the end of memplan_rt_create, whose
/// thread holds no lock of the runtime then; no other can start inside it.
/// So a lock taken this way is released before another thread exists, or
/// by its own thread after, and the release store orders it.
class HeapMutex {
public:
  bool try_lock() {
    if (singleThreaded()) {
      if (State.load(std::memory_order_relaxed))
        return false;
      State.store(1, std::memory_order_relaxed);
      return true;
    }
    uint32_t Free = 0;
    return State.load(std::memory_order_relaxed) == 0 &&
           State.compare_exchange_strong(Free, 1, std::memory_order_acquire,
                                         std::memory_order_relaxed);
  }
  void lock() {
    if (!try_lock())
      lockSlow();
  }
  void unlock() {
    if (State.load(std::memory_order_relaxed) == 1)
      State.store(0, std::memory_order_release);
    else if (State.exchange(0, std::memory_order_release) == 2)
      wake();
  }
  /// The longest a waiter sleeps before it looks at the lock again.
  static constexpr long SleepNs = 100'000;

private:
  void lockSlow();
  void wake();
  /// 0 free, 1 taken, 2 taken and a thread may sleep on it.
  std::atomic<uint32_t> State{0};
};

} // namespace memplan::rt

#endif // MEMPLAN_LIB_RUNTIME_HEAPMUTEX_H
