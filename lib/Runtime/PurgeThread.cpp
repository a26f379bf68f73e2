//===- PurgeThread.cpp - A thread that makes the heaps' purge passes ------===//
//
// The thread sleeps on a futex for a period (an eighth of the purge delay),
// then makes each heap's pass under the heap's lock, as the heap's own calls
// would. fork() waits for a pass to end (pthread_atfork), and the child
// forgets the thread, which it does not have.
//
//===----------------------------------------------------------------------===//

#include "PurgeThread.h"
#include "BFCHeap.h"

#include <algorithm>
#include <ctime>
#include <new>

using namespace memplan::rt;

namespace memplan::rt {
/// The purge threads that run, for fork's handlers; never destroyed (a
/// handler may run at any time, exit included).
struct ForkGuard {
  std::mutex Lock;
  std::vector<PurgeThread *> Threads;

  static ForkGuard &get() {
    static ForkGuard *G = [] {
      auto *New = new ForkGuard;
      pthread_atfork(prepare, parent, child);
      return New;
    }();
    return *G;
  }
  static void prepare() {
    ForkGuard &G = get();
    G.Lock.lock();
    for (PurgeThread *T : G.Threads)
      T->PassLock.lock();
  }
  static void parent() {
    ForkGuard &G = get();
    for (PurgeThread *T : G.Threads)
      T->PassLock.unlock();
    G.Lock.unlock();
  }
  static void child() {
    ForkGuard &G = get();
    for (PurgeThread *T : G.Threads) {
      T->PassLock.unlock();
      T->Forked = true;
    }
    G.Threads.clear();
    G.Lock.unlock();
  }
};
} // namespace memplan::rt

PurgeThread::PurgeThread(std::vector<BFCHeap *> Heaps, uint64_t PeriodNs)
    : Heaps(std::move(Heaps)), PeriodNs(std::max<uint64_t>(PeriodNs, 1)) {}

std::unique_ptr<PurgeThread> PurgeThread::start(std::vector<BFCHeap *> Heaps,
                                                uint64_t PeriodNs) {
  std::unique_ptr<PurgeThread> T(new (std::nothrow)
                                     PurgeThread(std::move(Heaps), PeriodNs));
  if (!T)
    return nullptr;
  ForkGuard &G = ForkGuard::get();
  std::lock_guard<std::mutex> L(G.Lock);
  if (pthread_create(&T->Thread, nullptr, main, T.get()) != 0)
    return nullptr;
  G.Threads.push_back(T.get());
  return T;
}

PurgeThread::~PurgeThread() {
  ForkGuard &G = ForkGuard::get();
  {
    std::lock_guard<std::mutex> L(G.Lock);
    if (Forked)
      return;
    G.Threads.erase(std::remove(G.Threads.begin(), G.Threads.end(), this),
                    G.Threads.end());
  }
  Stop.store(1, std::memory_order_release);
  futexWake(Stop);
  pthread_join(Thread, nullptr);
}

void *PurgeThread::main(void *Self) {
  static_cast<PurgeThread *>(Self)->run();
  return nullptr;
}

void PurgeThread::run() {
  while (!Stop.load(std::memory_order_acquire)) {
    timespec Period{static_cast<time_t>(PeriodNs / 1000000000),
                    static_cast<long>(PeriodNs % 1000000000)};
    // Returns at the period's end, on the destructor's wake, or at once if
    // Stop is already 1.
    futexWait(Stop, 0, &Period);
    if (Stop.load(std::memory_order_acquire))
      break;
    std::lock_guard<std::mutex> P(PassLock);
    for (BFCHeap *H : Heaps) {
      std::lock_guard<HeapMutex> L(H->Mu);
      H->agePassLocked();
    }
  }
}
