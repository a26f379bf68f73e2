//===- ReplayPlan.h - A heap's learned plan for repeated episodes -*- C++
//-*-===//
//
// Private to lib/Runtime. A program that calls the same function over and
// over (a model's inference, each call's dynamic buffers freed by its end)
// asks a heap for the same blocks in the same order each time. The heap
// records such an episode (from a first alloc until every block allocated
// since is freed again), plans its blocks offline, as TFLite re-plans its
// arena per input shape (greedy by size, lowest offset free in time), and
// serves the next episodes from one arena chunk at the planned offsets: a
// compare and a few loads per alloc, no bins, and the arena near the
// episode's peak in use. Episodes of a few kinds that take turns (a model's
// methods, the calls of a loop body: the same trace with all freed 2 or 3
// times in it) keep a plan each, chosen by the episode's first request,
// all in the one arena.
//
// Never wrong: a planned block is handed out only when the request matches
// the recorded one (rounded size, alignment at its address) and every block
// planned earlier in the episode over any of its bytes is freed already
// (checked, not assumed: frees may come late). Anything else goes to the
// bins; a plan that misses too much of an episode is dropped and relearnt
// later (backing off while episodes keep changing). Records cost about 40
// bytes per block of an episode, so an episode is planned only when they,
// and all the plans' arrays, stay within a sixteenth of its peak in use (a
// synthetic trace of 100k tiny tensors is not).
//
//===----------------------------------------------------------------------===//

#ifndef MEMPLAN_LIB_RUNTIME_REPLAYPLAN_H
#define MEMPLAN_LIB_RUNTIME_REPLAYPLAN_H

#include "memplan/Runtime/memplan_runtime.h"

#include <cstdint>
#include <vector>

namespace memplan::rt {

class ReplayPlan {
public:
  /// \p RoundShift: log2 of the heap's rounding (sizes and offsets are kept
  /// in rounding units). \p Always: every episode is planned, whatever its
  /// records cost next to its peak (options.replay = 2: tests, fuzzers).
  ReplayPlan(unsigned RoundShift, bool Always)
      : Shift(RoundShift), Always(Always) {}

  /// A block of the plan for this request, or null (the heap serves it and
  /// calls noteAlloc). An alloc outside an episode starts one, under the
  /// plan it starts (\p NextId: the id the heap's next block would get).
  /// When the plans want their arena first (needsArena), the heap gives it
  /// with setArena.
  char *take(uint64_t Rounded, uint64_t Align, uint64_t Bytes, int64_t NextId) {
    if (!InEpisode)
      startEpisode(NextId, Rounded, Align);
    if (!Replaying)
      return nullptr;
    Plan &P = *Cur;
    uint32_t J = K;
    if (J >= P.N || !matches(P, J, Rounded, Align)) {
      J = skipTo(Rounded, Align);
      if (J == UINT32_MAX)
        return miss(); // not in the plan: the bins', and on with the plan
    }
    K = J + 1;
    if (!predsFreed(P, J))
      return miss(); // J stays unfreed: the blocks over its bytes wait too
    P.State[J] = P.liveNow();
    P.Table[P.TPos[J]].Live = J;
    P.Req[J] = Bytes;
    ++EpisodeLive;
    ++PlannedLive;
    LiveBytes += Rounded;
    LiveRequested += Bytes;
    ++Replayed;
    return Base + (uint64_t(P.Offs[J]) << Shift);
  }
  /// The heap served block \p Id (of \p Rounded bytes at \p Align).
  void noteAlloc(int64_t Id, uint64_t Rounded, uint64_t Align);
  /// Whether \p P lies in the plans' arena (then only give may free it).
  bool owns(const void *P) const {
    return P >= Base && static_cast<const char *>(P) < Base + ArenaBytes;
  }
  /// Frees the planned block at \p P: MEMPLAN_RT_OK with its rounded and
  /// requested bytes, or why it is not a live planned block.
  memplan_rt_status give(const char *P, uint64_t &Rounded, uint64_t &Requested);
  /// The heap could not serve the request take() was given: an episode it
  /// began holds no block, and none would end it.
  void noteFailure() {
    if (InEpisode && !EpisodeLive)
      InEpisode = Recording = Replaying = false;
  }
  /// Out of room: drops the plans when none of their blocks is live, so the
  /// heap can free their arena (takeDroppedArena). False if it cannot.
  bool dropForRoom() {
    if (!Base || PlannedLive)
      return false;
    Replaying = false;
    dropAll();
    backOff();
    return true;
  }
  /// The heap freed block \p Id.
  void noteFree(int64_t Id) {
    if (InEpisode && Id >= FirstId) {
      if (Recording && uint64_t(Id - FirstId) < RecUnits.size()) {
        RecEnd[Id - FirstId] = Clock;
        RecLive -= uint64_t(RecUnits[Id - FirstId]) << Shift;
      }
      ++Clock;
      if (!--EpisodeLive)
        endEpisode();
    }
  }
  bool inEpisode() const { return InEpisode; }
  /// The bytes of the live planned block at \p P, or 0.
  uint64_t liveSize(const char *P) const;

  /// Plans are made and their arena not given yet; its size and alignment.
  bool needsArena() const { return Held && !Base; }
  /// A plan's first block has \p Rounded bytes.
  bool startsWith(uint64_t Rounded) const {
    for (const Plan &P : Plans)
      if (P.N && P.Units[0] == (Rounded >> Shift))
        return true;
    return false;
  }
  uint64_t arenaBytes() const { return ArenaBytes; }
  uint64_t arenaAlign() const { return ArenaAlign; }
  /// The heap's chunk for the arena (null: none was had; no replay then).
  void setArena(char *P);
  /// The arena chunk the heap should free now (plans were dropped), or
  /// null; it is forgotten here.
  char *takeDroppedArena() {
    char *P = Dropped;
    Dropped = nullptr;
    return P;
  }
  /// Drops the plans when no episode is under way, so that their arena goes
  /// back to the bins: a program that stopped calling keeps no arena.
  void dropIfIdle() {
    if (!InEpisode)
      dropAll();
  }

  /// Planned blocks live now: their rounded and requested bytes (the arena
  /// chunk itself is not counted in use).
  uint64_t liveBytes() const { return LiveBytes; }
  uint64_t liveRequested() const { return LiveRequested; }
  /// The arena chunk (null when none is held).
  const char *arena() const { return Base; }
  /// Allocs served from plans, and plans made, since the heap began.
  uint64_t replayed() const { return Replayed; }
  uint64_t plansMade() const { return PlansMade; }

private:
  /// Records are dropped when they would pass this many per episode.
  static constexpr uint64_t MaxBlocks = uint64_t(1) << 20;
  /// Per recorded block: the records and, planned, the plan's arrays.
  static constexpr uint64_t BytesPerBlock = 40;
  /// Planning may look at this many placed blocks in all (tens of ms),
  /// and 256 per block more; its buckets may hold 16 entries per block.
  static constexpr uint64_t WorkBudget = uint64_t(1) << 25;
  /// Plans kept per heap: episodes of a few kinds that take turns (a
  /// model's methods, a loop body's calls) each keep theirs. A plan is
  /// replaced only when it served none of the last 2 x MaxPlans episodes.
  static constexpr unsigned MaxPlans = 4;

  /// Open addressing by offset: the block live at each planned offset.
  struct Slot {
    uint32_t Off = UINT32_MAX;
    uint32_t Live = UINT32_MAX;
  };
  /// One kind of episode, planned: per block its size and offset in units,
  /// where its offset's entry is in Table, and the blocks planned earlier
  /// over its bytes (Preds[PredBegin[K]..PredBegin[K+1])). N == 0: none.
  struct Plan {
    uint32_t N = 0;
    std::vector<uint32_t> Units, Offs, TPos, PredBegin, Preds;
    /// Per block: liveNow() while live in this episode, freedNow() once
    /// freed (so nothing is cleared between episodes).
    std::vector<uint32_t> State;
    std::vector<uint64_t> Req;
    std::vector<Slot> Table;
    uint32_t Gen = 1;
    /// Its arena bytes and alignment; the peak in use it was recorded at,
    /// and what its arrays cost.
    uint64_t Bytes = 0, Align = 1, Peak = 0, Meta = 0;
    /// The last episode it was chosen for; the plan chosen after it then.
    uint64_t LastEpisode = 0;
    unsigned Next = MaxPlans;
    /// It served an episode to the end (dropped unserved: a failure).
    bool Served = false;
    uint32_t liveNow() const { return Gen * 2; }
    uint32_t freedNow() const { return Gen * 2 + 1; }
  };

  void startEpisode(int64_t NextId, uint64_t Rounded, uint64_t Align);
  /// The plan for an episode whose first request this is, or null: the one
  /// expected (that followed the last episode's plan before, else that one)
  /// if its first block matches, else the latest whose first block does,
  /// else the expected one if one of its first blocks does.
  Plan *choose(uint64_t Rounded, uint64_t Align);
  void endEpisode();
  /// After a failed episode: wait longer before recording again.
  void backOff();
  bool matches(const Plan &P, uint32_t J, uint64_t Rounded,
               uint64_t Align) const {
    return P.Units[J] == (Rounded >> Shift) &&
           !((uintptr_t(Base) + (uint64_t(P.Offs[J]) << Shift)) & (Align - 1));
  }
  static bool predsFreed(const Plan &P, uint32_t J) {
    for (uint32_t I = P.PredBegin[J], E = P.PredBegin[J + 1]; I < E; ++I)
      if (P.State[P.Preds[I]] != P.freedNow())
        return false;
    return true;
  }
  /// The first of the next MaxSkip blocks that matches, the ones before it
  /// taken as allocated and freed at once (a block of the episode went to
  /// another heap, whose lock was free when this one's was not); each only
  /// if the blocks planned before it over its bytes are freed (else it
  /// stays unfreed, as a late block would). UINT32_MAX if none matches.
  uint32_t skipTo(uint64_t Rounded, uint64_t Align);
  char *miss();
  /// Drops the plan at once when it missed too much and none of its
  /// blocks is live.
  void dropIfAstray();
  bool tooManyMisses() const { return uint64_t(Misses) * 4 > Cur->N; }
  /// Plans the recorded episode into a free slot, or over a plan idle for
  /// 2 x MaxPlans episodes; false when there is none, or it does not pay
  /// (the plans' arrays past a sixteenth of the largest peak) or takes too
  /// long.
  bool makePlan();
  /// Drops \p P; unless \p Resize is false (a plan takes its slot), the
  /// arena goes back when no plan is left or the ones left need less of it
  /// (no planned block is live then).
  void dropPlan(Plan &P, bool Resize = true);
  void dropAll();
  /// The arena the plans held need: the largest, the most aligned; a held
  /// chunk that is not that goes back (no planned block is live then).
  void sizeArena();
  void clearRecords();
  /// A slot for a new plan: a free one, else the plan longest idle past
  /// 2 x MaxPlans episodes; null if none.
  Plan *slotForNewPlan();

  unsigned Shift;
  bool Always;
  // The episode under way: its first normal block's id, the blocks of it
  // still live, the events so far (allocs and frees: the clock of the
  // records), and the episodes begun.
  bool InEpisode = false;
  int64_t FirstId = 0;
  uint64_t EpisodeLive = 0;
  uint32_t Clock = 0;
  uint64_t Episodes = 0;
  // Recording: per block of the episode, in alloc order.
  bool Recording = false;
  uint64_t RecPeak = 0, RecLive = 0;
  std::vector<uint32_t> RecUnits, RecStart, RecEnd;
  std::vector<uint64_t> RecAlign;
  // Episodes to let pass before recording again, and plans that failed in a
  // row.
  uint32_t SkipEpisodes = 0, Failures = 0;

  Plan Plans[MaxPlans];
  unsigned Held = 0;
  /// The plan of this episode (or of the last one, until the next begins:
  /// frees of planned blocks look it up), and of the one before.
  Plan *Cur = nullptr, *Prev = nullptr;
  /// Off's entry in \p P's Table, or the empty one where it would go.
  static uint32_t probe(const Plan &P, uint32_t Off);
  /// The entry of Cur's table the planned offset \p P is at, or UINT32_MAX.
  uint32_t slotOf(const char *P) const;
  /// One chunk for all plans: episodes never overlap in time (one begins
  /// once every block of the last is freed).
  char *Base = nullptr, *Dropped = nullptr;
  uint64_t ArenaBytes = 0, ArenaAlign = 1;
  // This episode's replay: the next block, whether it is replayed, the
  // planned blocks live, and the requests the plan did not serve and
  // planned blocks skipped (more than a quarter of the plan: it is
  // dropped, at once if none of its blocks is live).
  static constexpr uint32_t MaxSkip = 8;
  uint32_t K = 0, Misses = 0;
  uint64_t PlannedLive = 0;
  bool Replaying = false;

  uint64_t LiveBytes = 0, LiveRequested = 0;
  uint64_t Replayed = 0, PlansMade = 0;
};

} // namespace memplan::rt

#endif // MEMPLAN_LIB_RUNTIME_REPLAYPLAN_H
