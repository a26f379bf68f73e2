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

void ReplayPlan::startEpisode(int64_t NextId, uint64_t Rounded,
                              uint64_t Align) {
  InEpisode = true;
  FirstId = NextId;
  EpisodeLive = 0;
  Clock = 0;
  K = 0;
  Misses = 0;
  ++Episodes;
  Prev = Cur;
  Cur = Base ? choose(Rounded, Align) : nullptr;
  Replaying = Cur != nullptr;
  if (Cur) {
    if (Prev && Prev->N)
      Prev->Next = unsigned(Cur - Plans);
    Cur->LastEpisode = Episodes;
    // A new generation: every block of the last episode is freed, and none
    // of this one is yet.
    if (++Cur->Gen >= (uint32_t(1) << 30)) {
      std::fill(Cur->State.begin(), Cur->State.end(), 0);
      Cur->Gen = 1;
    }
    Recording = false;
  } else {
    Recording = !SkipEpisodes && slotForNewPlan();
    if (SkipEpisodes)
      --SkipEpisodes;
  }
  clearRecords();
}

ReplayPlan::Plan *ReplayPlan::choose(uint64_t Rounded, uint64_t Align) {
  auto Fits = [&](const Plan *P) {
    return P && P->N && P->Bytes <= ArenaBytes &&
           !(uintptr_t(Base) & (P->Align - 1));
  };
  // The plan expected next: the one that followed the last episode's plan
  // before, else the last episode's own.
  Plan *Expected = Prev && Prev->Next < MaxPlans ? &Plans[Prev->Next] : Prev;
  if (Fits(Expected) && matches(*Expected, 0, Rounded, Align))
    return Expected;
  // Else the latest to start with this request.
  Plan *Best = nullptr;
  for (Plan &P : Plans)
    if (Fits(&P) && matches(P, 0, Rounded, Align) &&
        (!Best || P.LastEpisode > Best->LastEpisode))
      Best = &P;
  if (Best)
    return Best;
  // Else the expected one if one of its first blocks matches: the ones
  // before went to another heap (its lock was free when this one's was
  // not). Only that one: a later block of another kind's plan matching by
  // chance would make it miss and be dropped.
  if (Fits(Expected))
    for (uint32_t J = 1; J <= std::min(MaxSkip, Expected->N - 1); ++J)
      if (matches(*Expected, J, Rounded, Align))
        return Expected;
  return nullptr;
}

ReplayPlan::Plan *ReplayPlan::slotForNewPlan() {
  Plan *Oldest = nullptr;
  for (Plan &P : Plans) {
    if (!P.N)
      return &P;
    if (!Oldest || P.LastEpisode < Oldest->LastEpisode)
      Oldest = &P;
  }
  return Episodes - Oldest->LastEpisode >= 2 * MaxPlans ? Oldest : nullptr;
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
    startEpisode(Id, Rounded, Align);
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
  if (Cur && Replaying) {
    // Kept while episodes follow it, a few blocks aside.
    Misses += Cur->N - std::min(K, Cur->N);
    if (tooManyMisses()) {
      dropPlan(*Cur);
      backOff();
    } else {
      Failures = 0;
      Cur->Served = true;
    }
    return;
  }
  if (!Recording)
    return;
  Recording = false;
  if (makePlan())
    ++PlansMade;
  else
    backOff();
  clearRecords();
}

uint32_t ReplayPlan::skipTo(uint64_t Rounded, uint64_t Align) {
  Plan &P = *Cur;
  uint32_t End = std::min(P.N, K + MaxSkip + 1), J = K + 1;
  while (J < End && !matches(P, J, Rounded, Align))
    ++J;
  if (J >= End)
    return UINT32_MAX;
  for (uint32_t B = K; B < J; ++B) {
    ++Misses;
    if (predsFreed(P, B))
      P.State[B] = P.freedNow();
  }
  return J;
}

char *ReplayPlan::miss() {
  ++Misses;
  dropIfAstray();
  return nullptr;
}

void ReplayPlan::dropIfAstray() {
  // Gone astray with none of its blocks live: dropped now (its arena back
  // to the bins if no plan is left), for the rest of the episode.
  if (Replaying && !PlannedLive && tooManyMisses()) {
    Replaying = false;
    dropPlan(*Cur);
    backOff();
  }
}

uint32_t ReplayPlan::probe(const Plan &P, uint32_t Off) {
  uint32_t Mask = uint32_t(P.Table.size() - 1);
  uint32_t I = (Off * 0x9E3779B1u) & Mask;
  while (P.Table[I].Off != Off && P.Table[I].Off != UINT32_MAX)
    I = (I + 1) & Mask;
  return I;
}

uint32_t ReplayPlan::slotOf(const char *P) const {
  if (!Cur || !Cur->N)
    return UINT32_MAX;
  uint64_t Off = uint64_t(P - Base);
  if (Off & ((uint64_t(1) << Shift) - 1))
    return UINT32_MAX; // not at a rounding unit: inside a block
  uint32_t I = probe(*Cur, uint32_t(Off >> Shift));
  return Cur->Table[I].Off == UINT32_MAX ? UINT32_MAX : I;
}

bool ReplayPlan::makePlan() {
  uint32_t Count = uint32_t(RecUnits.size());
  Plan *Into = slotForNewPlan();
  if (!Count || !Into)
    return false;
  // Two orders, the smaller arena kept: greedy by size (TFLite GPU's
  // offsets strategy, largest first) and first fit in alloc order (what the
  // bins did, without their size classes: on MiniMalloc's sets 1.11-1.25x
  // the peak where by size needs 1.33-1.40x). Each block goes at the lowest
  // offset, aligned, free of the placed blocks it meets in time, found
  // through buckets of time as wide as the mean lifetime.
  uint64_t Life = 0, Entries = 0;
  for (uint32_t I = 0; I < Count; ++I)
    Life += RecEnd[I] - RecStart[I];
  uint64_t Width = std::max<uint64_t>(Life / Count, 1);
  for (uint32_t I = 0; I < Count; ++I)
    Entries += (RecEnd[I] - 1) / Width - RecStart[I] / Width + 1;
  if (Entries > 16 * uint64_t(Count) + (1 << 16))
    return false;
  std::vector<uint32_t> Stamp(Count), Off, BySize(Count), InOrder(Count);
  std::vector<std::pair<uint64_t, uint64_t>> Busy;
  uint64_t Work = 0, Budget = WorkBudget + 512 * uint64_t(Count), Bound = 0;
  // The arena \p Order needs in units, its offsets in \p At; 0 when it
  // runs past the work budget or 32 bits.
  auto Place = [&](const std::vector<uint32_t> &Order,
                   std::vector<uint32_t> &At) -> uint64_t {
    std::vector<std::vector<uint32_t>> Buckets(Clock / Width + 1);
    std::fill(Stamp.begin(), Stamp.end(), UINT32_MAX);
    At.assign(Count, 0);
    uint64_t Top = 0;
    for (uint32_t B : Order) {
      uint64_t Lo = RecStart[B] / Width, Hi = (RecEnd[B] - 1) / Width;
      Busy.clear();
      for (uint64_t T = Lo; T <= Hi; ++T) {
        Work += Buckets[T].size() + 1;
        for (uint32_t J : Buckets[T])
          if (Stamp[J] != B && RecStart[J] < RecEnd[B] &&
              RecStart[B] < RecEnd[J]) {
            Stamp[J] = B;
            Busy.push_back({At[J], uint64_t(At[J]) + RecUnits[J]});
          }
      }
      if (Work > Budget)
        return 0;
      std::sort(Busy.begin(), Busy.end());
      uint64_t AlignUnits = std::max<uint64_t>(RecAlign[B] >> Shift, 1);
      uint64_t O = 0;
      for (auto [Begin, End] : Busy) {
        if (Begin >= O + RecUnits[B])
          break;
        O = std::max(O, (End + AlignUnits - 1) / AlignUnits * AlignUnits);
      }
      if (O + RecUnits[B] > UINT32_MAX)
        return 0;
      At[B] = uint32_t(O);
      Top = std::max(Top, O + RecUnits[B]);
      for (uint64_t T = Lo; T <= Hi; ++T)
        Buckets[T].push_back(B);
    }
    return Top;
  };
  std::iota(BySize.begin(), BySize.end(), 0);
  std::iota(InOrder.begin(), InOrder.end(), 0);
  std::stable_sort(BySize.begin(), BySize.end(), [&](uint32_t A, uint32_t B) {
    return RecUnits[A] > RecUnits[B];
  });
  std::vector<uint32_t> Other;
  Bound = Place(BySize, Off);
  if (!Bound)
    return false;
  if (uint64_t B = Place(InOrder, Other); B && B < Bound) {
    Bound = B;
    Off.swap(Other);
  }
  std::vector<uint32_t>().swap(Other);

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
  // All the plans' arrays within a sixteenth of the largest peak (the one
  // replaced not counted).
  uint64_t Meta = uint64_t(Count) * 28 + NewPreds.size() * 4 + TableSize * 8;
  uint64_t AllMeta = Meta, Peak = RecPeak;
  for (const Plan &P : Plans)
    if (P.N && &P != Into) {
      AllMeta += P.Meta;
      Peak = std::max(Peak, P.Peak);
    }
  if (!Always && (Meta > RecPeak / 16 || AllMeta > Peak / 16))
    return false;
  if (Into->N) {
    // Replaced: a plan that never served an episode to its end says the
    // episodes do not repeat (wait longer before recording again).
    if (!Into->Served)
      backOff();
    dropPlan(*Into, /*Resize=*/false);
  }
  Plan &P = *Into;
  P.Table.assign(TableSize, Slot());
  for (uint32_t O : Distinct)
    P.Table[probe(P, O)].Off = O;
  P.TPos.resize(Count);
  for (uint32_t B = 0; B < Count; ++B)
    P.TPos[B] = probe(P, Off[B]);

  P.N = Count;
  P.Units = RecUnits;
  P.Offs = std::move(Off);
  P.PredBegin = std::move(NewPredBegin);
  P.Preds = std::move(NewPreds);
  P.State.assign(Count, 0);
  P.Req.assign(Count, 0);
  P.Gen = 1;
  P.Bytes = Bound << Shift;
  P.Align = *std::max_element(RecAlign.begin(), RecAlign.end());
  P.Peak = RecPeak;
  P.Meta = Meta;
  P.LastEpisode = Episodes;
  P.Next = MaxPlans;
  P.Served = false;
  ++Held;
  if (Prev && Prev->N)
    Prev->Next = unsigned(&P - Plans);
  Cur = &P;
  sizeArena();
  return true;
}

void ReplayPlan::setArena(char *P) {
  // Dropped while the heap took the chunk (an idle pass): the chunk goes
  // straight back, and no plan uses it (one made later, of another size,
  // would have been replayed over it).
  if (!Held) {
    Dropped = P;
    return;
  }
  if (!P) {
    dropAll();
    backOff();
    return;
  }
  Base = P;
}

void ReplayPlan::sizeArena() {
  uint64_t Bytes = 0, Align = 1;
  for (const Plan &P : Plans)
    if (P.N) {
      Bytes = std::max(Bytes, P.Bytes);
      Align = std::max(Align, P.Align);
    }
  if (Base && (Bytes != ArenaBytes || (uintptr_t(Base) & (Align - 1)))) {
    // Another size (a larger plan came, or the largest went) or a larger
    // alignment: the chunk goes back, and one as needed is taken at the
    // next episode a plan starts.
    Dropped = Base;
    Base = nullptr;
  }
  if (!Base) {
    ArenaBytes = Bytes;
    ArenaAlign = Align;
  }
}

void ReplayPlan::dropPlan(Plan &P, bool Resize) {
  if (!P.N)
    return;
  --Held;
  P.N = 0;
  P.Bytes = P.Peak = P.Meta = 0;
  P.Align = 1;
  P.Next = MaxPlans;
  for (std::vector<uint32_t> *V :
       {&P.Units, &P.Offs, &P.TPos, &P.PredBegin, &P.Preds, &P.State})
    std::vector<uint32_t>().swap(*V);
  std::vector<uint64_t>().swap(P.Req);
  std::vector<Slot>().swap(P.Table);
  if (Cur == &P)
    Cur = nullptr;
  if (Prev == &P)
    Prev = nullptr;
  if (Resize)
    sizeArena();
}

void ReplayPlan::dropAll() {
  for (Plan &P : Plans)
    dropPlan(P);
}

memplan_rt_status ReplayPlan::give(const char *P, uint64_t &Rounded,
                                   uint64_t &Requested) {
  uint32_t S = slotOf(P);
  if (S == UINT32_MAX)
    return MEMPLAN_RT_FOREIGN_POINTER; // inside a block, not at its start
  Plan &Pl = *Cur;
  uint32_t B = Pl.Table[S].Live;
  if (B == UINT32_MAX || Pl.State[B] != Pl.liveNow())
    return MEMPLAN_RT_DOUBLE_FREE;
  Pl.Table[S].Live = UINT32_MAX;
  Pl.State[B] = Pl.freedNow();
  --PlannedLive;
  Rounded = uint64_t(Pl.Units[B]) << Shift;
  Requested = Pl.Req[B];
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
  if (S == UINT32_MAX || Cur->Table[S].Live == UINT32_MAX)
    return 0;
  return uint64_t(Cur->Units[Cur->Table[S].Live]) << Shift;
}
