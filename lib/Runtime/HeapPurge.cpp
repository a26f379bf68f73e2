//===- HeapPurge.cpp - Giving a heap's free pages back to the system ------===//
//
// Purging (decommitting) the whole pages of free chunks and recommitting
// them on reuse: by age (a chunk free for the delay, checked every
// CheckEvery allocs and frees), when a heap would grow past the peak of
// committed bytes, under a frag cap (the highest pages first), and on
// request. The caller holds the heap's lock.
//
//===----------------------------------------------------------------------===//

#include "BFCHeap.h"
#include "Internal.h"

#include <algorithm>

using namespace memplan::rt;

//===-- Purging -----------------------------------------------------------===//

// The pages under an allocated chunk are counted reserved again (the system
// gives them back, zeroed, at the first touch).
void BFCHeap::recommit(Chunk &C) {
  C.MayBeGone = false;
  Region *R = regionFor(C.Ptr);
  if (!R->GoneBytes)
    return;
  uint64_t First = (C.Ptr - R->Base) / Page;
  uint64_t Last = (C.Ptr + C.Size - 1 - R->Base) / Page;
  // Each run of purged pages faults back in one call (Sub->prefault), not
  // a fault per page at the first touch: under a 1.10 cap the DNN trace
  // took 2-4 ns less per alloc+free pair (83 against 85-86 ns, 3 rounds).
  uint64_t Pages = 0, RunFirst = 0, RunPages = 0;
  auto EndRun = [&] {
    if (RunPages) {
      uint64_t T0 = CapSoft ? readClock() : 0;
      Sub->prefault(R->Base + RunFirst * Page, RunPages * Page);
      if (CapSoft)
        CapWindowCostNs += readClock() - T0;
    }
    RunPages = 0;
  };
  for (uint64_t P = First; P <= Last; ++P) {
    uint64_t &W = R->Gone[P / 64];
    if (!W) {
      EndRun();
      P |= 63; // skip the word
      continue;
    }
    uint64_t Bit = uint64_t(1) << (P % 64);
    if (W & Bit) {
      W &= ~Bit;
      ++Pages;
      if (!RunPages++)
        RunFirst = P;
    } else {
      EndRun();
    }
  }
  EndRun();
  if (!Pages)
    return;
  uint64_t Bytes = Pages * Page;
  R->GoneBytes -= Bytes;
  GoneBytes -= Bytes;
  // A window whose purges already cost too much need not wait for its end.
  if (CapSoft && CapWindowHeld && CapWindowCostNs >= CapEarlyNs &&
      capThrashing(readClock()))
    endCapWindow(true);
  // No makeRoom here: purging other chunks to pay for these pages traded
  // one refault for another (the random mix faulted 4x the pages glibc
  // does). Pages come back only when free for the delay, or when the heap
  // grows past the peak (extend); or here, with a cap (options.frag_cap),
  // which asks for that trade.
  if (FragCap)
    holdFragCap(Bytes, C.Size, None); // C is in use: not in a bin
  Stats.bytes_reserved += Bytes;
  Shared->tryReserve(Bytes); // no limit when purging: always succeeds
}

// Purge(O, Want) on every other heap O whose lock is free (try_lock: never
// waits, so two heaps that purge each other cannot deadlock) until Want
// bytes are purged; gives the bytes.
template <typename Fn> uint64_t BFCHeap::purgeOthers(uint64_t Want, Fn Purge) {
  uint64_t Got = 0;
  for (BFCHeap *O : Shared->Heaps)
    if (Got < Want && O != this && O->CanPurge && O->Mu.try_lock()) {
      Got += Purge(*O, Want - Got);
      O->Mu.unlock();
    }
  return Got;
}

// The cap holds for the allocator, not for each heap: a heap within the
// cap of its own peak may sit next to another's idle hole, twice the peak
// in use over both (RuntimePurge.FragCapHoldsOverAllHeaps). That peak is
// seen here only: the heaps' bytes in use now (the block being placed
// counted), less those the thread caches hold (free to the program: with
// them counted, a DNN-shaped trace reached 1.15x its peak under a 1.10
// cap); without thread caches, at least this heap's own peak. A lower
// bound, so the cap holds at least as tightly as it says.
void BFCHeap::holdFragCap(uint64_t Bytes, uint64_t InUse, Handle Keep) {
  if (CapSoft && Shared->capPaused()) {
    CapWindowHeld = false; // this window says nothing of the cap's cost
    return;
  }
  uint64_t Now = InUse;
  for (BFCHeap *H : Shared->Heaps)
    Now += H == this ? Stats.bytes_in_use
                     : H->InUseShared.load(std::memory_order_relaxed);
  if (Shared->ThreadCached)
    Now -= std::min(Now, Shared->ThreadCached());
  else
    Now = std::max(Now, Stats.peak_bytes_in_use);
  double Cap = double(SharedCounters::raise(Shared->PeakInUse, Now)) * FragCap;
  uint64_t After = Shared->Reserved.load(std::memory_order_relaxed) + Bytes;
  if (double(After) <= Cap)
    return;
  uint64_t Want = After - static_cast<uint64_t>(Cap);
  uint64_t Got = purgeTopLocked(Want, Keep);
  if (Got < Want)
    purgeOthers(Want - Got, [](BFCHeap &O, uint64_t W) {
      return O.purgeTopLocked(W, None);
    });
}

// A soft cap's window ends after CapWindow allocs of this heap, costly when
// its purges and the faults that brought purged pages back took more than a
// quarter of its time; or early, \p Thrashing: a millisecond of them, three
// quarters of the time so far, or 4 ms, a quarter (a DNN-shaped trace had
// bursts of 1.3 ms in 3.8; a hard cap on Glow's nets spends 98% of its time
// there, on tensor-mix less, though 9x slower: its window would have lasted
// 460 ms; to wait for 4 ms, twice per fresh allocator, made Glow's nets
// 1.2-2x slower in run.sh's short replays). Pages reused under a pause were
// purged before it: only windows the cap held all through count. Costly pauses
// the cap for every heap, twice as long as the last pause; a window within the
// budget halves the next pause.
void BFCHeap::endCapWindow(bool Thrashing) {
  // A window in which the peak in use rose by more than a sixteenth is the
  // program's warm-up (the DNN trace's first replay refaulted 1 page in 28
  // allocs while its peak grew, 1 in 160 after): unless thrashing, it says
  // nothing either.
  uint64_t Peak = Shared->PeakInUse.load(std::memory_order_relaxed);
  bool Held = CapWindowHeld && !Shared->capPaused() &&
              (Thrashing || Peak - CapWindowPeak <= CapWindowPeak / 16);
  CapWindowPeak = Peak;
  uint64_t Now = readClock();
  bool Costly = Thrashing || capCostly(Now);
  CapWindowLeft = CapWindow;
  CapWindowCostNs = 0;
  CapWindowStartNs = Now;
  uint64_t Seq = Shared->CapWindows.fetch_add(1, std::memory_order_relaxed) + 1;
  if (Held) {
    uint64_t Pause = Shared->CapPause.load(std::memory_order_relaxed);
    if (Costly) {
      Shared->CapResumeAt.store(Seq + Pause, std::memory_order_relaxed);
      Shared->CapPause.store(std::min(2 * Pause, CapMaxPause),
                             std::memory_order_relaxed);
      Shared->CapPauses.fetch_add(1, std::memory_order_relaxed);
    } else {
      Shared->CapPause.store(std::max(Pause / 2, CapMinPause),
                             std::memory_order_relaxed);
    }
  }
  bool WasPaused = !CapWindowHeld;
  CapWindowHeld = !Shared->capPaused();
  // Back from a pause: nothing else would take the committed bytes down to
  // the cap until the heap grows or reuses a purged page.
  if (WasPaused && CapWindowHeld)
    holdFragCap(0, 0, None);
}

// The highest free pages first, and no more than asked: best fit places
// blocks low (the lowest address of the best size), so pages purged at the
// top are the least likely to be wanted again. Under a 1.10 cap, the DNN
// trace took 126 ns per alloc+free pair in run.sh's memplan-cap column when
// the oldest free chunks went whole, 86 now (84 without a cap); simulated,
// the old way refaulted 2.5x the pages per replay in 16x the madvise calls.
uint64_t BFCHeap::purgeTopLocked(uint64_t Want, Handle Keep) {
  std::vector<Handle> Free =
      purgeableChunks([&](Handle H) { return H != Keep; });
  std::sort(Free.begin(), Free.end(),
            [&](Handle X, Handle Y) { return Chunks[X].Ptr > Chunks[Y].Ptr; });
  return purgeInTurn(Free, Want);
}

// The last chunk only in part, from its top (purgeChunk keeps the rest
// purgeable): a growth 1 MiB past the peak purged a whole idle 2 MiB chunk
// (RuntimePurge.PeakPurgesOldestFirstOrAllWhenEager).
uint64_t BFCHeap::purgeInTurn(const std::vector<Handle> &Order, uint64_t Want) {
  uint64_t Bytes = 0;
  for (size_t I = 0; I < Order.size() && Bytes < Want; ++I) {
    Chunk &C = Chunks[Order[I]];
    Bytes += purgeChunk(*regionFor(C.Ptr), C, Want - Bytes);
  }
  return Bytes;
}

// Growing the heap by Bytes would raise the peak of bytes reserved (committed):
// first give free pages back, here and in every heap whose lock is free
// (try_lock: never waits), so that the peak follows what is in use over all
// heaps. Eager (no delay): every free page. With a delay: the oldest free
// chunks first, only as many bytes as would pass the peak, so pages freed
// lately (likely reused soon) stay. Below the peak nothing is purged here: a
// program that repeats itself pays no system calls once warm.
void BFCHeap::makeRoom(uint64_t Bytes, Handle Keep) {
  uint64_t Reserved = Shared->Reserved.load(std::memory_order_relaxed);
  uint64_t Peak = Shared->PeakReserved.load(std::memory_order_relaxed);
  if (!CanPurge || Reserved + Bytes <= Peak)
    return;
  // Hysteresis: while this heap's free committed bytes are under 1/32 of
  // its bytes in use (or 64 KiB), the peak may rise instead; once it has, a
  // repeating program stays under it and never purges again.
  uint64_t FreeCommitted = Stats.bytes_reserved - Stats.bytes_in_use;
  if (FreeCommitted < std::max<uint64_t>(Stats.bytes_in_use / 32, 64 << 10))
    return;
  Shared->askThreadCachesBack();
  if (DelayNs) {
    uint64_t Want = Reserved + Bytes - Peak;
    uint64_t Got = purgeOldestLocked(Want, Keep, false);
    if (Got < Want)
      purgeOthers(Want - Got, [](BFCHeap &O, uint64_t W) {
        return O.purgeOldestLocked(W, None, false);
      });
    return;
  }
  // Cached chunks are free memory too: merge them back first.
  flushCacheLocked();
  purgeLocked(Keep);
  purgeOthers(UINT64_MAX, [](BFCHeap &O, uint64_t) {
    O.flushCacheLocked();
    return O.purgeLocked();
  });
}

uint64_t BFCHeap::purgeChunk(Region &R, Chunk &C, uint64_t Want) {
  uint64_t Lo = alignUp(C.Ptr - R.Base, Page);
  uint64_t Hi = alignDown(C.Ptr + C.Size - R.Base, Page);
  if (Hi <= Lo || Hi - Lo < PurgeMin)
    return 0;
  auto IsGone = [&](uint64_t P) { return R.Gone[P / 64] >> (P % 64) & 1; };
  // From the top down, until Want bytes of committed pages are counted.
  uint64_t Pages = 0, First = Hi / Page;
  while (First > Lo / Page && Pages * Page < Want)
    Pages += !IsGone(--First);
  if (!Pages) {
    C.Purgeable = false; // every whole page is gone already
    return 0;
  }
  uint64_t T0 = CapSoft ? readClock() : 0;
  bool Gone = Sub->decommit(R.Base + First * Page, Hi - First * Page);
  if (CapSoft)
    CapWindowCostNs += readClock() - T0;
  if (!Gone)
    return 0;
  C.MayBeGone = true;
  // Whole pages below First may still be purged later.
  C.Purgeable = First * Page - Lo >= PurgeMin;
  for (uint64_t P = First; P < Hi / Page; ++P)
    R.Gone[P / 64] |= uint64_t(1) << (P % 64);
  uint64_t Bytes = Pages * Page;
  R.GoneBytes += Bytes;
  GoneBytes += Bytes;
  Stats.bytes_reserved -= Bytes;
  Stats.bytes_purged += Bytes;
  Shared->unreserve(Bytes);
  return Bytes;
}

uint64_t BFCHeap::purgeLocked(Handle Keep) {
  // An idle plan's arena chunk is free memory to the program.
  if (Replay)
    dropIdlePlan();
  return purgeOldestLocked(UINT64_MAX, Keep, true);
}

uint64_t BFCHeap::purgeOldestLocked(uint64_t Want, Handle Keep, bool AnyAge) {
  // Idle: freed before the last pass but one, so free for a whole pass
  // interval (an eighth of the delay) at least. An age in allocs and frees
  // (once 1024) let one thread's growth purge what another heap's thread
  // cycles through, and with 2 threads the random mix and tensor-mix purged
  // and faulted back 130-210 MB per five replays.
  std::vector<Handle> Idle = purgeableChunks([&](Handle H) {
    return H != Keep && (AnyAge || passesSince(Chunks[H]) >= 2);
  });
  // Oldest first (free for the most passes); ties in bin order.
  if (Want != UINT64_MAX)
    std::stable_sort(Idle.begin(), Idle.end(), [&](Handle X, Handle Y) {
      return passesSince(Chunks[X]) > passesSince(Chunks[Y]);
    });
  return purgeInTurn(Idle, Want);
}

// Every CheckEvery allocs and frees: the pages of chunks free for the delay
// go back. Reading the clock on every call would cost more than the call.
void BFCHeap::tick() {
  EventsToCheck = CheckEvery;
  uint64_t Now = readClock();
  if (!passLocked(Now))
    return;
  // A heap nobody calls any more (its thread ended or went quiet) would
  // keep its free pages for ever: the heaps that run make its passes, when
  // its lock is free (try_lock: never waits).
  for (BFCHeap *O : Shared->Heaps)
    if (O != this && O->DelayNs && O->Mu.try_lock()) {
      O->passLocked(Now);
      O->Mu.unlock();
    }
}

bool BFCHeap::passLocked(uint64_t Now) {
  // A full walk over the bins, every eighth of the delay.
  if (Now < NextPass)
    return false;
  NextPass = Now + std::max<uint64_t>(DelayNs / 8, 1);
  ++PassSeq;
  PassTimes[PassSeq % 16] = Now;
  // Chunks waiting in the size cache go to the bins to age like the rest
  // (an idle cache would hold its bytes for ever), and so do those of the
  // thread caches, at their threads' next calls.
  flushCacheLocked();
  Shared->askThreadCachesBack();
  // A plan that served nothing for a whole pass interval gives its arena
  // chunk back, to age and be purged like any free chunk.
  if (Replay) {
    if (Replay->replayed() == ReplayedAtPass)
      dropIdlePlan();
    ReplayedAtPass = Replay->replayed();
  }
  purgeAged(Now);
  return true;
}

uint64_t BFCHeap::purgeAged(uint64_t Now) {
  // Freed before pass After = FreeSince + 1: surely free since that pass's
  // time. Passes 16 back are more than the delay ago. (2^32 is a multiple of
  // 16, so the wrapped count indexes PassTimes right.)
  std::vector<Handle> Aged = purgeableChunks([&](Handle H) {
    uint32_t Since = passesSince(Chunks[H]);
    uint32_t After = Chunks[H].FreeSince + 1;
    return Since >= 1 &&
           (Since - 1 >= 16 || PassTimes[After % 16] + DelayNs <= Now);
  });
  uint64_t Bytes = 0;
  for (Handle H : Aged) {
    Bytes += purgeChunk(*regionFor(Chunks[H].Ptr), Chunks[H]);
    Chunks[H].Purgeable = false;
  }
  return Bytes;
}
