//===- EnvOptionsTest.cpp - MEMPLAN_RT_* variables, read or refused -------===//
//
// memplan_rt_options_from_env: every value it takes is one memplan_rt_create
// accepts, and every other value keeps the default with a warning that names
// the variable, the value and what it expects.
//
//===----------------------------------------------------------------------===//

#include "memplan/Runtime/memplan_runtime.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <functional>
#include <string>

namespace {

using Field = std::function<uint64_t(const memplan_rt_options &)>;

const Field Limit = [](const memplan_rt_options &O) { return O.memory_limit; };
const Field Rounding = [](const memplan_rt_options &O) { return O.rounding; };
const Field Cache = [](const memplan_rt_options &O) { return O.thread_cache; };
const Field Delay = [](const memplan_rt_options &O) {
  return O.purge_delay_ms;
};
const Field Arenas = [](const memplan_rt_options &O) {
  return uint64_t(O.arenas);
};
const Field Growth = [](const memplan_rt_options &O) {
  return uint64_t(O.allow_growth);
};

/// The options read with \p Var=\p Value (and only it) set; \p Err gets
/// what was printed.
memplan_rt_options readWith(const char *Var, const char *Value,
                            std::string &Err) {
  setenv(Var, Value, 1);
  memplan_rt_options O;
  testing::internal::CaptureStderr();
  memplan_rt_options_from_env(&O);
  Err = testing::internal::GetCapturedStderr();
  unsetenv(Var);
  return O;
}

memplan_rt_options defaults() {
  memplan_rt_options O;
  memplan_rt_options_from_env(&O); // no MEMPLAN_RT_* set in these tests
  return O;
}

TEST(RuntimeEnvOptions, ReadsByteCountsWithUnits) {
  struct Case {
    const char *Var, *Value;
    const Field &Get;
    uint64_t Want;
  } Cases[] = {
      {"MEMPLAN_RT_LIMIT", "4096", Limit, 4096},
      {"MEMPLAN_RT_LIMIT", "64K", Limit, 64 * 1024},
      {"MEMPLAN_RT_LIMIT", "16MB", Limit, 16 * 1024 * 1024},
      {"MEMPLAN_RT_LIMIT", "2g", Limit, uint64_t(2) * 1024 * 1024 * 1024},
      // The largest count a G unit can scale: (2^64 - 1) >> 30.
      {"MEMPLAN_RT_LIMIT", "17179869183G", Limit,
       uint64_t(17179869183) * 1024 * 1024 * 1024},
      {"MEMPLAN_RT_LIMIT", "18446744073709551615", Limit, ~uint64_t(0)},
      {"MEMPLAN_RT_THREAD_CACHE", "256K", Cache, 256 * 1024},
      {"MEMPLAN_RT_ROUNDING", "16", Rounding, 16},
      {"MEMPLAN_RT_ROUNDING", "64K", Rounding, 65536},
      {"MEMPLAN_RT_PURGE_DELAY_MS", "0", Delay, 0},
      {"MEMPLAN_RT_ARENAS", "64", Arenas, 64},
  };
  for (const Case &C : Cases) {
    std::string Err;
    memplan_rt_options O = readWith(C.Var, C.Value, Err);
    EXPECT_EQ(C.Get(O), C.Want) << C.Var << "=" << C.Value;
    EXPECT_EQ(Err, "") << C.Var << "=" << C.Value;
  }
}

// Each of these was once taken: strtoull read "-1" as 2^64 - 1 (a limit of
// none, a delay of forever), a unit wrapped past 2^64 ("17179869184G" is a
// limit of 0, none), and a rounding or growth memplan_rt_create refuses left
// the process without an allocator.
TEST(RuntimeEnvOptions, RefusesWhatWouldWrapOrBeRefusedLater) {
  struct Case {
    const char *Var, *Value;
    const Field &Get;
    const char *Why;
  } Cases[] = {
      {"MEMPLAN_RT_LIMIT", "-1", Limit, "up to 2^64 - 1"},
      {"MEMPLAN_RT_LIMIT", "17179869184G", Limit, "up to 2^64 - 1"},
      {"MEMPLAN_RT_LIMIT", "18446744073709551616", Limit, "up to 2^64 - 1"},
      {"MEMPLAN_RT_LIMIT", " 5", Limit, "up to 2^64 - 1"},
      {"MEMPLAN_RT_LIMIT", "0x10", Limit, "up to 2^64 - 1"},
      {"MEMPLAN_RT_LIMIT", "5T", Limit, "up to 2^64 - 1"},
      {"MEMPLAN_RT_THREAD_CACHE", "-256K", Cache, "up to 2^64 - 1"},
      {"MEMPLAN_RT_ROUNDING", "-256", Rounding, "a power of two from 16"},
      {"MEMPLAN_RT_ROUNDING", "100", Rounding, "a power of two from 16"},
      {"MEMPLAN_RT_ROUNDING", "8", Rounding, "a power of two from 16"},
      {"MEMPLAN_RT_ROUNDING", "128K", Rounding, "a power of two from 16"},
      {"MEMPLAN_RT_PURGE_DELAY_MS", "-1", Delay, "milliseconds, 0 or more"},
      {"MEMPLAN_RT_PURGE_DELAY_MS", "1e3", Delay, "milliseconds, 0 or more"},
      {"MEMPLAN_RT_ARENAS", "-1", Arenas, "0 to 64"},
      {"MEMPLAN_RT_ARENAS", "1K", Arenas, "0 to 64"},
      {"MEMPLAN_RT_GROWTH", "0", Growth, "needs MEMPLAN_RT_LIMIT"},
      {"MEMPLAN_RT_GROWTH", "off", Growth, "needs MEMPLAN_RT_LIMIT"},
      {"MEMPLAN_RT_GROWTH", "2", Growth, "0 or 1, off or on; on it is"},
      {"MEMPLAN_RT_LIMIT", "1K", Limit, "under a page"},
      {"MEMPLAN_RT_LIMIT", "4095", Limit, "under a page"},
  };
  memplan_rt_options D = defaults();
  for (const Case &C : Cases) {
    std::string Err;
    memplan_rt_options O = readWith(C.Var, C.Value, Err);
    EXPECT_EQ(C.Get(O), C.Get(D)) << C.Var << "=" << C.Value;
    std::string Head =
        std::string("memplan_rt: ignoring ") + C.Var + "=" + C.Value + " (";
    EXPECT_EQ(Err.rfind(Head, 0), 0u) << Err;
    EXPECT_NE(Err.find(C.Why), std::string::npos) << Err;
    // Whatever was read, the allocator can be made from it.
    memplan_rt_status S = MEMPLAN_RT_BAD_OPTIONS;
    memplan_rt_allocator *A = memplan_rt_create(&O, &S);
    EXPECT_NE(A, nullptr) << C.Var << "=" << C.Value;
    EXPECT_EQ(S, MEMPLAN_RT_OK);
    if (A)
      memplan_rt_destroy(A);
  }
}

// On/off variables take 0/1, off/on, no/yes, false/true in any case; any
// other value keeps the default, with a warning (MEMPLAN_RT_CACHE=off once
// left the size cache on, silently: any value but 0 was on).
TEST(RuntimeEnvOptions, SwitchesTakeOnAndOffWordsAndWarnOnOthers) {
  const Field SizeCache = [](const memplan_rt_options &O) {
    return uint64_t(O.cache);
  };
  const Field Trace = [](const memplan_rt_options &O) {
    return uint64_t(O.trace);
  };
  struct Case {
    const char *Var;
    const Field &Get;
    uint64_t Default;
  } Cases[] = {{"MEMPLAN_RT_CACHE", SizeCache, 1},
               {"MEMPLAN_RT_TRACE", Trace, 0}};
  for (const Case &C : Cases) {
    ASSERT_EQ(C.Get(defaults()), C.Default) << C.Var;
    std::string Err;
    for (const char *Off : {"0", "off", "OFF", "no", "false"}) {
      EXPECT_EQ(C.Get(readWith(C.Var, Off, Err)), 0u) << C.Var << "=" << Off;
      EXPECT_EQ(Err, "") << C.Var << "=" << Off;
    }
    for (const char *On : {"1", "on", "Yes", "true"}) {
      EXPECT_EQ(C.Get(readWith(C.Var, On, Err)), 1u) << C.Var << "=" << On;
      EXPECT_EQ(Err, "") << C.Var << "=" << On;
    }
    for (const char *Bad : {"2", "disable", "offf"}) {
      EXPECT_EQ(C.Get(readWith(C.Var, Bad, Err)), C.Default)
          << C.Var << "=" << Bad;
      EXPECT_EQ(Err, std::string("memplan_rt: ignoring ") + C.Var + "=" + Bad +
                         " (0 or 1, off or on; " + (C.Default ? "on" : "off") +
                         " it is)\n");
    }
  }
  // Read at exit, warned of when the options are read.
  std::string Err;
  readWith("MEMPLAN_RT_STATS", "yes please", Err);
  EXPECT_NE(Err.find("ignoring MEMPLAN_RT_STATS=yes please"), std::string::npos)
      << Err;
}

// On by default for lowered code; 2 (always) plans every episode.
TEST(RuntimeEnvOptions, ReplayTakesOnOffAndAlways) {
  const Field Replay = [](const memplan_rt_options &O) {
    return uint64_t(O.replay);
  };
  EXPECT_EQ(Replay(defaults()), 1u);
  std::string Err;
  for (auto [Value, Want] : {std::pair<const char *, uint64_t>{"0", 0},
                             {"off", 0},
                             {"1", 1},
                             {"yes", 1},
                             {"2", 2},
                             {"Always", 2}}) {
    EXPECT_EQ(Replay(readWith("MEMPLAN_RT_REPLAY", Value, Err)), Want) << Value;
    EXPECT_EQ(Err, "") << Value;
  }
  EXPECT_EQ(Replay(readWith("MEMPLAN_RT_REPLAY", "3", Err)), 1u);
  EXPECT_EQ(Err, "memplan_rt: ignoring MEMPLAN_RT_REPLAY=3 (0 or 1, off or "
                 "on, or 2 (always); on it is)\n");
}

// No growth with a limit is a fixed arena of that size, and taken.
TEST(RuntimeEnvOptions, NoGrowthWithALimitIsTaken) {
  setenv("MEMPLAN_RT_LIMIT", "1M", 1);
  std::string Err;
  memplan_rt_options O = readWith("MEMPLAN_RT_GROWTH", "0", Err);
  unsetenv("MEMPLAN_RT_LIMIT");
  EXPECT_EQ(O.allow_growth, 0);
  EXPECT_EQ(O.memory_limit, 1u << 20);
  EXPECT_EQ(Err, "");
  memplan_rt_status S = MEMPLAN_RT_BAD_OPTIONS;
  memplan_rt_allocator *A = memplan_rt_create(&O, &S);
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(S, MEMPLAN_RT_OK);
  memplan_rt_destroy(A);
}

// Variables read only at exit or at a fatal error are checked when the
// options are read: a typo there (MEMPLAN_RT_DUMP=jsn) printed nothing.
TEST(RuntimeEnvOptions, WarnsOnDumpAndOnOomValuesItWouldIgnore) {
  std::string Err;
  readWith("MEMPLAN_RT_DUMP", "jsn", Err);
  EXPECT_EQ(Err, "memplan_rt: ignoring MEMPLAN_RT_DUMP=jsn (text or json)\n");
  readWith("MEMPLAN_RT_ON_OOM", "quit", Err);
  EXPECT_EQ(Err, "memplan_rt: ignoring MEMPLAN_RT_ON_OOM=quit (abort or exit; "
                 "abort it is)\n");
  for (const char *Good : {"text", "json"}) {
    readWith("MEMPLAN_RT_DUMP", Good, Err);
    EXPECT_EQ(Err, "") << Good;
  }
  for (const char *Good : {"abort", "exit"}) {
    readWith("MEMPLAN_RT_ON_OOM", Good, Err);
    EXPECT_EQ(Err, "") << Good;
  }
}

} // namespace
