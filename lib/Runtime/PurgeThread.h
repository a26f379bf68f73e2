//===- PurgeThread.h - The thread of the purge passes ----------*- C++ -*-===//
//
// Private to lib/Runtime (not installed). options.purge_thread: the heaps
// purge pages free for the delay on their own allocs and frees, so a program
// that frees its peak and then makes no call keeps those pages; this thread
// makes the same passes every eighth of the delay, whatever the program does.
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_RUNTIME_PURGETHREAD_H
#define MEMPLAN_LIB_RUNTIME_PURGETHREAD_H

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <vector>

namespace memplan::rt {

class BFCHeap;

class PurgeThread {
public:
  /// Starts the thread; null when it cannot start.
  static std::unique_ptr<PurgeThread> start(std::vector<BFCHeap *> Heaps,
                                            uint64_t PeriodNs);
  /// Stops the thread and waits for it (in a forked child, where it does
  /// not run, only forgets it).
  ~PurgeThread();
  PurgeThread(const PurgeThread &) = delete;
  PurgeThread &operator=(const PurgeThread &) = delete;

private:
  PurgeThread(std::vector<BFCHeap *> Heaps, uint64_t PeriodNs);
  static void *main(void *Self);
  void run();
  friend struct ForkGuard;

  std::vector<BFCHeap *> Heaps;
  uint64_t PeriodNs;
  pthread_t Thread{};
  /// 1: stop (the thread sleeps on it, a futex, between passes).
  std::atomic<uint32_t> Stop{0};
  /// Held over each pass. fork() takes it first (pthread_atfork), so the
  /// child never inherits a heap lock this thread held.
  std::mutex PassLock;
  /// Set in a forked child: the thread is not there.
  bool Forked = false;
};

} // namespace memplan::rt

#endif // MEMPLAN_LIB_RUNTIME_PURGETHREAD_H
