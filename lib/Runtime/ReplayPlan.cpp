//===- ReplayPlan.cpp - A heap's learned plan for repeated episodes -------===//
//
// Recording an episode, planning it, and when a plan is kept or dropped
// (ReplayPlan.h says what a plan is and why it is safe). The alloc path
// (take) is inline in the header.
//
//===----------------------------------------------------------------------===//

#include "ReplayPlan.h"

#include <algorithm>
#include <map>
#include <numeric>

using namespace memplan::rt;

void ReplayPlan::startEpisode(int64_t NextId) {
  InEpisode = true;
  FirstId = NextId;
  EpisodeLive = 0;
  Clock = 0;
  K = 0;
  Misses = 0;
  Replaying = Planned && Base;
  if (Replaying) {
    // A new generation: every block of the last episode is freed, and none
    // of this one is yet.
    if (++Gen >= (uint32_t(1) << 30)) {
      std::fill(State.begin(), State.end(), 0);
      Gen = 1;
    }
    return;
  }
  Recording = !Planned && !SkipEpisodes;
  if (SkipEpisodes && !Planned)
    --SkipEpisodes;
  clearRecords();
}

void ReplayPlan::clearRecords() {
  RecUnits.clear();
  RecStart.clear();
  RecEnd.clear();
  RecAlign.clear();
  RecPeak = RecLive = 0;
}

void ReplayPlan::noteAlloc(int64_t Id, uint64_t Rounded, uint64_t Align) {
  if (!InEpisode)
    startEpisode(Id);
  if (Id < FirstId)
    return;
  ++EpisodeLive;
  if (Recording) {
    RecLive += Rounded;
    RecPeak = std::max(RecPeak, RecLive);
    // The records must stay small next to the memory they save: a
    // sixteenth of the peak so far, with 16 KiB of slack while it grows.
    // Ids of an episode follow each other (else something else took one:
    // stop, rather than guess which block a free names).
    uint64_t Count = RecUnits.size() + 1;
    if (uint64_t(Id - FirstId) != RecUnits.size() || Count > MaxBlocks ||
        (Rounded >> Shift) > UINT32_MAX ||
        (!Always && Count * BytesPerBlock > RecPeak / 16 + (16 << 10)) ||
        Clock == UINT32_MAX) {
      // Not this episode: the blocks live now are outside the next one.
      Recording = false;
      clearRecords();
      InEpisode = false;
      backOff();
    } else {
      RecUnits.push_back(uint32_t(Rounded >> Shift));
      RecStart.push_back(Clock);
      RecEnd.push_back(UINT32_MAX);
      RecAlign.push_back(Align);
    }
  }
  ++Clock;
}

void ReplayPlan::backOff() {
  // 1, 3, 7, ... 63 episodes between attempts while they keep failing.
  Failures = std::min<uint32_t>(Failures + 1, 6);
  SkipEpisodes = (uint32_t(1) << Failures) - 1;
}

void ReplayPlan::endEpisode() {
  InEpisode = false;
  if (Planned) {
    // Kept while episodes follow it, a few blocks aside.
    Misses += N - std::min(K, N);
    if (tooManyMisses()) {
      dropPlan();
      backOff();
    } else {
      Failures = 0;
    }
    return;
  }
  if (!Recording)
    return;
  Recording = false;
  if (makePlan()) {
    Planned = true;
    ++PlansMade;
  } else {
    backOff();
  }
  clearRecords();
}

uint32_t ReplayPlan::skipTo(uint64_t Rounded, uint64_t Align) {
  uint32_t End = std::min(N, K + MaxSkip + 1), J = K + 1;
  while (J < End && !matches(J, Rounded, Align))
    ++J;
  if (J >= End)
    return UINT32_MAX;
  for (uint32_t B = K; B < J; ++B) {
    ++Misses;
    if (predsFreed(B))
      State[B] = freedNow();
  }
  return J;
}

char *ReplayPlan::miss() {
  ++Misses;
  dropIfAstray();
  return nullptr;
}

void ReplayPlan::dropIfAstray() {
  // Gone astray with none of its blocks live: the arena goes back to the
  // bins now, for the rest of the episode.
  if (Replaying && !PlannedLive && tooManyMisses()) {
    Replaying = false;
    dropPlan();
    backOff();
  }
}

uint32_t ReplayPlan::probe(uint32_t Off) const {
  uint32_t Mask = uint32_t(Table.size() - 1);
  uint32_t I = (Off * 0x9E3779B1u) & Mask;
  while (Table[I].Off != Off && Table[I].Off != UINT32_MAX)
    I = (I + 1) & Mask;
  return I;
}

uint32_t ReplayPlan::slotOf(const char *P) const {
  uint64_t Off = uint64_t(P - Base);
  if (Off & ((uint64_t(1) << Shift) - 1))
    return UINT32_MAX; // not at a rounding unit: inside a block
  uint32_t I = probe(uint32_t(Off >> Shift));
  return Table[I].Off == UINT32_MAX ? UINT32_MAX : I;
}

bool ReplayPlan::makePlan() {
  uint32_t Count = uint32_t(RecUnits.size());
  if (!Count)
    return false;
  // Greedy by size (TFLite GPU's offsets strategy): largest first, each at
  // the lowest offset, aligned, free of the placed blocks it meets in time.
  // Those are found through buckets of time as wide as the mean lifetime.
  std::vector<uint32_t> Order(Count);
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(), [&](uint32_t A, uint32_t B) {
    return RecUnits[A] > RecUnits[B];
  });
  uint64_t Life = 0;
  for (uint32_t I = 0; I < Count; ++I)
    Life += RecEnd[I] - RecStart[I];
  uint64_t Width = std::max<uint64_t>(Life / Count, 1);
  std::vector<std::vector<uint32_t>> Buckets(Clock / Width + 1);
  std::vector<uint32_t> Stamp(Count, UINT32_MAX), Off(Count);
  std::vector<std::pair<uint64_t, uint64_t>> Busy;
  uint64_t Work = 0, Budget = WorkBudget + 256 * uint64_t(Count), Bound = 0;
  uint64_t Entries = 0, MaxEntries = 16 * uint64_t(Count) + (1 << 16);
  for (uint32_t B : Order) {
    uint64_t Lo = RecStart[B] / Width, Hi = (RecEnd[B] - 1) / Width;
    if ((Entries += Hi - Lo + 1) > MaxEntries)
      return false;
    Busy.clear();
    for (uint64_t T = Lo; T <= Hi; ++T) {
      Work += Buckets[T].size() + 1;
      for (uint32_t J : Buckets[T])
        if (Stamp[J] != B && RecStart[J] < RecEnd[B] &&
            RecStart[B] < RecEnd[J]) {
          Stamp[J] = B;
          Busy.push_back({Off[J], uint64_t(Off[J]) + RecUnits[J]});
        }
    }
    if (Work > Budget)
      return false;
    std::sort(Busy.begin(), Busy.end());
    uint64_t AlignUnits = std::max<uint64_t>(RecAlign[B] >> Shift, 1);
    uint64_t At = 0;
    for (auto [Begin, End] : Busy) {
      if (Begin >= At + RecUnits[B])
        break;
      At = std::max(At, (End + AlignUnits - 1) / AlignUnits * AlignUnits);
    }
    if (At + RecUnits[B] > UINT32_MAX)
      return false;
    Off[B] = uint32_t(At);
    Bound = std::max(Bound, At + RecUnits[B]);
    for (uint64_t T = Lo; T <= Hi; ++T)
      Buckets[T].push_back(B);
  }
  Buckets = {};

  // The blocks planned earlier over each block's bytes, in alloc order: an
  // interval map of the last block planned over each byte. Each byte's
  // earlier blocks were checked freed when the next one over it was taken,
  // so the last one's check covers them (a freed block stays freed in its
  // episode).
  std::vector<uint32_t> NewPredBegin(Count + 1, 0), NewPreds;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> Owner; // lo -> (hi, block)
  std::fill(Stamp.begin(), Stamp.end(), UINT32_MAX);
  for (uint32_t B = 0; B < Count; ++B) {
    uint32_t Lo = Off[B], Hi = Off[B] + RecUnits[B];
    auto It = Owner.upper_bound(Lo);
    if (It != Owner.begin() && std::prev(It)->second.first > Lo)
      --It;
    std::vector<std::pair<uint32_t, std::pair<uint32_t, uint32_t>>> Keep;
    while (It != Owner.end() && It->first < Hi) {
      auto [ILo, Rest] = *It;
      auto [IHi, Block] = Rest;
      if (Stamp[Block] != B) {
        Stamp[Block] = B;
        NewPreds.push_back(Block);
      }
      if (ILo < Lo)
        Keep.push_back({ILo, {Lo, Block}});
      if (IHi > Hi)
        Keep.push_back({Hi, {IHi, Block}});
      It = Owner.erase(It);
      ++Work;
    }
    for (auto &E : Keep)
      Owner.insert(E);
    Owner.insert({Lo, {Hi, B}});
    NewPredBegin[B + 1] = uint32_t(NewPreds.size());
  }

  // Where each block's offset sits in the table of live blocks.
  std::vector<uint32_t> Distinct(Off);
  std::sort(Distinct.begin(), Distinct.end());
  Distinct.erase(std::unique(Distinct.begin(), Distinct.end()), Distinct.end());
  size_t TableSize = 4;
  while (TableSize < 2 * Distinct.size())
    TableSize *= 2;
  uint64_t Meta = uint64_t(Count) * 28 + NewPreds.size() * 4 + TableSize * 8;
  if (!Always && Meta > RecPeak / 16)
    return false;
  Table.assign(TableSize, Slot());
  for (uint32_t O : Distinct)
    Table[probe(O)].Off = O;
  TPos.resize(Count);
  for (uint32_t B = 0; B < Count; ++B)
    TPos[B] = probe(Off[B]);

  N = Count;
  Units = RecUnits;
  Offs = std::move(Off);
  PredBegin = std::move(NewPredBegin);
  Preds = std::move(NewPreds);
  State.assign(Count, 0);
  Req.assign(Count, 0);
  Gen = 1;
  ArenaBytes = Bound << Shift;
  ArenaAlign = *std::max_element(RecAlign.begin(), RecAlign.end());
  return true;
}

void ReplayPlan::setArena(char *P) {
  // Dropped while the heap took the chunk (an idle pass): the chunk goes
  // straight back, and no plan uses it (one made later, of another size,
  // would have been replayed over it).
  if (!Planned) {
    Dropped = P;
    return;
  }
  if (!P) {
    dropPlan();
    backOff();
    return;
  }
  Base = P;
}

void ReplayPlan::dropPlan() {
  Planned = false;
  Dropped = Base;
  Base = nullptr;
  ArenaBytes = 0;
  N = 0;
  for (std::vector<uint32_t> *V :
       {&Units, &Offs, &TPos, &PredBegin, &Preds, &State})
    std::vector<uint32_t>().swap(*V);
  std::vector<uint64_t>().swap(Req);
  std::vector<Slot>().swap(Table);
}

memplan_rt_status ReplayPlan::give(const char *P, uint64_t &Rounded,
                                   uint64_t &Requested) {
  uint32_t S = slotOf(P);
  if (S == UINT32_MAX)
    return MEMPLAN_RT_FOREIGN_POINTER; // inside a block, not at its start
  uint32_t B = Table[S].Live;
  if (B == UINT32_MAX || State[B] != liveNow())
    return MEMPLAN_RT_DOUBLE_FREE;
  Table[S].Live = UINT32_MAX;
  State[B] = freedNow();
  --PlannedLive;
  Rounded = uint64_t(Units[B]) << Shift;
  Requested = Req[B];
  LiveBytes -= Rounded;
  LiveRequested -= Requested;
  ++Clock;
  if (!--EpisodeLive)
    endEpisode();
  else
    dropIfAstray();
  return MEMPLAN_RT_OK;
}

uint64_t ReplayPlan::liveSize(const char *P) const {
  uint32_t S = slotOf(P);
  if (S == UINT32_MAX || Table[S].Live == UINT32_MAX)
    return 0;
  return uint64_t(Units[Table[S].Live]) << Shift;
}
