#!/usr/bin/env bash
# Replays the record sets, a 100k-record DNN-shaped trace and synthetic mixes
# against the memplan runtime, TF's BFC algorithm (TFBFC.h), glibc malloc,
# jemalloc and mimalloc, then prints per trace family: ns per alloc+free pair
# with 1 and 2 threads (median of REPS rounds, then the geomean over the
# family's traces), frag = peak reserved / peak live bytes, the peak RSS
# above the start (medians over the family), side by side; then each goal of
# issue 23 with its measured value; and the per-trace table with BY_TRACE=1.
# Usage: bench/runtime/run.sh BUILD_DIR [extra google-benchmark flags]
# Env: REPS (5 rounds), MIN_TIME (0.05 s per round), MEMPLAN_BENCH_TRACES
# (keep traces whose name contains it), BY_TRACE=1, TC (the memplan-tc
# column: memplan with MEMPLAN_RT_THREAD_CACHE=$TC, default 1M; 0: no
# column), CAP (the memplan-cap column: MEMPLAN_RT_FRAG_CAP=$CAP, default
# 1.10, hard; 0: no column), TCCAP (the memplan-tc-cap column: thread caches
# of $TCCAP under the same cap, default 256K; 0: no column),
# MEMPLAN_BENCH_TOUCH=lines (write every cache line of
# a block, not a byte per page: 64x slower; TraceReplay.cpp's touch() says
# why) or none (write nothing: the allocators' own time).
set -euo pipefail
BUILD=${1:-build}
shift || true
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
# Round robin: each round runs every allocator once (one repetition), so a
# change in the machine's load (others' builds) falls on all columns alike;
# run one binary after the other, as this script once did, and memplan ran
# alone under a load average of 4, then BFC under 2.5: 1.23x BFC's time on
# the DNN trace where the same binaries, interleaved a minute later, gave
# 0.5-0.8x.
all=()
for a in memplan tfbfc glibc jemalloc mimalloc; do
  if [ -x "$BUILD/bin/memplan-bench-runtime-$a" ]; then
    all+=("$a")
  else
    echo "runtime bench: $BUILD/bin/memplan-bench-runtime-$a missing (install" \
         "libjemalloc-dev/libmimalloc-dev: scripts/install-deps.sh --bench), skipping $a" >&2
  fi
done
# memplan-tc: the same binary with thread caches on (off by default);
# memplan-cap: with MEMPLAN_RT_FRAG_CAP (off by default), what holding frag
# under a cap costs in time.
TC=${TC:-1M}
if [ "$TC" != 0 ] && [ -x "$BUILD/bin/memplan-bench-runtime-memplan" ]; then
  all+=(memplan-tc)
fi
CAP=${CAP:-1.10}
if [ "$CAP" != 0 ] && [ -x "$BUILD/bin/memplan-bench-runtime-memplan" ]; then
  all+=(memplan-cap)
fi
# memplan-nocap: the defaults without their soft 1.10 frag cap
# (MEMPLAN_RT_FRAG_CAP=0): what the cap holds, and what it costs.
if [ -x "$BUILD/bin/memplan-bench-runtime-memplan" ]; then
  all+=(memplan-nocap)
fi
# memplan-tc-cap: both, compact and faster than the cap alone where blocks
# are reused at their sizes (the DNN trace).
# memplan-noreplay: the defaults without the learned plans of repeated
# episodes (MEMPLAN_RT_REPLAY=0), what they give.
if [ -x "$BUILD/bin/memplan-bench-runtime-memplan" ]; then
  all+=(memplan-noreplay)
fi
TCCAP=${TCCAP:-256K}
if [ "$CAP" != 0 ] && [ "$TCCAP" != 0 ] && [ -x "$BUILD/bin/memplan-bench-runtime-memplan" ]; then
  all+=(memplan-tc-cap)
fi
declare -A failed=()
for ((r = 1; r <= ${REPS:-5}; r++)); do
  for a in "${all[@]}"; do
    [ -n "${failed[$a]:-}" ] && continue
    # A binary that fails leaves its column empty, and says so. (mimalloc
    # once crashed in the random mix: the bench asked mi_malloc, not
    # mi_malloc_aligned, for 16-byte alignment of blocks under 16 bytes.)
    bin=$a envs=()
    [ "$a" = memplan-tc ] && bin=memplan envs=(MEMPLAN_RT_THREAD_CACHE="$TC")
    [ "$a" = memplan-cap ] && bin=memplan envs=(MEMPLAN_RT_FRAG_CAP="$CAP" MEMPLAN_RT_FRAG_CAP_SOFT=0)
    [ "$a" = memplan-tc-cap ] && bin=memplan envs=(MEMPLAN_RT_FRAG_CAP="$CAP" MEMPLAN_RT_FRAG_CAP_SOFT=0 MEMPLAN_RT_THREAD_CACHE="$TCCAP")
    [ "$a" = memplan-nocap ] && bin=memplan envs=(MEMPLAN_RT_FRAG_CAP=0)
    [ "$a" = memplan-noreplay ] && bin=memplan envs=(MEMPLAN_RT_REPLAY=0)
    # 1 thread in a process that never starts a second, as a
    # single-threaded program: glibc's malloc and memplan's heap lock skip
    # their atomics there (once all ran in one process, only the traces
    # before the first 2-thread run got that).
    for th in 1 2; do
      [ -n "${failed[$a]:-}" ] && continue
      if ! env "${envs[@]}" MEMPLAN_BENCH_THREADS=$th "$BUILD/bin/memplan-bench-runtime-$bin" \
          --benchmark_min_time="${MIN_TIME:-0.05}" \
          --benchmark_repetitions=1 --benchmark_format=json \
          --benchmark_out="$OUT/$a.$r.t$th.json" --benchmark_out_format=json "$@" \
          >/dev/null 2>&1; then
        echo "runtime bench: $a failed (exit $?)" >&2
        failed[$a]=1
        rm -f "$OUT/$a".*.json
      fi
    done
  done
done
ran=()
for a in "${all[@]}"; do
  [ -z "${failed[$a]:-}" ] && ran+=("$a")
done
BY_TRACE=${BY_TRACE:-0} python3 - "$OUT" "${ran[@]}" <<'PY'
import json, math, os, statistics, sys
out, allocs = sys.argv[1], sys.argv[2:]
import glob
rows = {}  # trace -> alloc -> {t1, t2, f1, f2, r1, r2}: medians over the rounds
for a in allocs:
    seen = {}  # (trace, key) -> the value of each round
    for f in sorted(glob.glob(f"{out}/{a}.*.json")):
        try:
            runs = json.load(open(f))["benchmarks"]
        except (OSError, ValueError):
            runs = []  # no trace left for this allocator
        for b in runs:
            if b.get("run_type") == "aggregate":
                continue
            name = b.get("run_name", b["name"]).split("/", 1)[1]
            trace, _, threads = name.rpartition("/real_time/threads:")
            add = lambda k, v: seen.setdefault((trace, k + threads), []).append(v)
            add("t", b["ns_per_pair"])
            if b["reserved_ratio"] > 0:  # 0: the allocator reports nothing
                add("f", b["reserved_ratio"])
            add("r", b.get("peak_rss", 0) / 2**20)
            add("p", b.get("faults_per_replay", 0))
    for (trace, k), vs in seen.items():
        rows.setdefault(trace, {}).setdefault(a, {})[k] = statistics.median(vs)

def gmean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")

def med(xs):
    xs = [x for x in xs if x and x > 0]
    return statistics.median(xs) if xs else float("nan")

def medz(xs):
    # A count where 0 is a value (no faults), not a missing one.
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else float("nan")

fams = {}  # the record sets by directory; each synthetic mix on its own
for t in rows:
    d, _, n = t.partition("/")
    fams.setdefault(n if d == "synthetic" else d, []).append(t)
print("ns per alloc+free pair: median of the rounds, geomean over the family's"
      " traces; frag: peak reserved / peak live, RSS: peak RSS above the start"
      " (MiB), medians over the family. glibc, jemalloc and mimalloc count what"
      " they held before the replay as nothing, so their frag may be under 1"
      " (nan: no growth); compare RSS. faults: the page faults of one timed"
      " replay (the process's; purged pages written again fault back)")
print(f"{'family':12}{'n':>4} {'allocator':14}{'ns 1t':>9}{'ns 2t':>9}{'frag 1t':>9}{'frag 2t':>9}"
      f"{'RSS 1t':>9}{'RSS 2t':>9}{'faults 1t':>11}{'faults 2t':>11}")
for f in sorted(fams):
    ts = fams[f]
    for a in allocs:
        g = lambda k: [rows[t].get(a, {}).get(k) for t in ts]
        print(f"{f:12}{len(ts):4} {a:14}{gmean(g('t1')):9.1f}{gmean(g('t2')):9.1f}"
              f"{med(g('f1')):9.3f}{med(g('f2')):9.3f}{med(g('r1')):9.1f}{med(g('r2')):9.1f}"
              f"{medz(g('p1')):11.0f}{medz(g('p2')):11.0f}")
    if "memplan" in allocs:
        parts = []
        for a in allocs:
            if a.startswith("memplan"):
                continue
            for th in ("t1", "t2"):
                q = gmean([rows[t]["memplan"][th] / rows[t][a][th] for t in ts
                           if a in rows[t] and th in rows[t][a]])
                parts.append(f"/{a} {th[1]}t {q:.2f}x")
        print(f"{'':17}memplan time " + ", ".join(parts))
    print()
def fam(f, a, k, agg):
    ts = fams.get(f, [])
    return agg([rows[t].get(a, {}).get(k) for t in ts])

def goal(text, ok):
    print(f"  [{'met' if ok else 'UNMET'}] {text}")

def dnn_goals(a, label):
    # The DNN trace's two goals for column a (label: how it was run).
    if a not in allocs or "dnn" not in fams:
        return
    if "tfbfc" in allocs:
        t, b = fam("dnn", a, "t1", gmean), fam("dnn", "tfbfc", "t1", gmean)
        f1 = fam("dnn", a, "f1", med)
        goal(f"DNN, 1 thread{label}: {t:.0f} ns = {t / b:.2f}x BFC's {b:.0f} (<= 0.6x), "
             f"frag {f1:.3f} (<= 1.10)", t <= 0.6 * b and f1 <= 1.10)
    if "mimalloc" in allocs:
        t, m = fam("dnn", a, "t2", gmean), fam("dnn", "mimalloc", "t2", gmean)
        f2 = fam("dnn", a, "f2", med)
        goal(f"DNN, 2 threads{label}: {t:.0f} ns <= mimalloc's {m:.0f}, frag {f2:.3f} (<= 1.15)",
             t <= m and f2 <= 1.15)

if "memplan" in allocs:
    print("Goals (issue 23), measured in this run:")
    if "random" in fams and "glibc" in allocs:
        mt, gt = fam("random", "memplan", "t1", gmean), fam("random", "glibc", "t1", gmean)
        mr, gr = fam("random", "memplan", "r1", med), fam("random", "glibc", "r1", med)
        goal(f"random mix, 1 thread: time {mt:.0f} <= glibc {gt:.0f} ns per pair", mt <= gt)
        goal(f"random mix, 1 thread: peak RSS {mr:.1f} <= glibc {gr:.1f} MiB", mr <= gr)
    dnn_goals("memplan", "")
    if "tfbfc" in allocs:
        worst = max(((fam(f, "memplan", "t1", gmean) / fam(f, "tfbfc", "t1", gmean), f)
                     for f in fams), default=(float("nan"), "-"))
        goal(f"no family slower than BFC at 1 thread: worst {worst[1]} "
             f"{worst[0]:.2f}x BFC's time", worst[0] <= 1.0)
    if "memplan-tc" in allocs and "dnn" in fams and "tfbfc" in allocs:
        tt, bt = fam("dnn", "memplan-tc", "t1", gmean), fam("dnn", "tfbfc", "t1", gmean)
        t2 = fam("dnn", "memplan-tc", "t2", gmean)
        print(f"  (memplan-tc, thread caches on: DNN 1 thread {tt / bt:.2f}x BFC's time, frag "
              f"{fam('dnn', 'memplan-tc', 'f1', med):.3f}; 2 threads {t2:.0f} ns, frag "
              f"{fam('dnn', 'memplan-tc', 'f2', med):.3f}; worst family "
              + "{:.2f}x BFC)".format(max(fam(f, "memplan-tc", "t1", gmean) / fam(f, "tfbfc", "t1", gmean) for f in fams)))
    if "memplan-cap" in allocs and "dnn" in fams and "tfbfc" in allocs:
        ct, bt = fam("dnn", "memplan-cap", "t1", gmean), fam("dnn", "tfbfc", "t1", gmean)
        c2, it = fam("dnn", "memplan-cap", "t2", gmean), fam("dnn", "mimalloc", "t2", gmean)
        print(f"  (memplan-cap, MEMPLAN_RT_FRAG_CAP={os.environ.get('CAP', '1.10')}: DNN 1 thread "
              f"{ct:.0f} ns = {ct / bt:.2f}x BFC's time, frag {fam('dnn', 'memplan-cap', 'f1', med):.3f}; "
              f"2 threads {c2:.0f} ns = {c2 / it:.2f}x mimalloc's, frag "
              f"{fam('dnn', 'memplan-cap', 'f2', med):.3f})")
    dnn_goals("memplan-nocap", ", memplan-nocap (MEMPLAN_RT_FRAG_CAP=0)")
    # The DNN goals, met or not with both options on.
    dnn_goals("memplan-tc-cap",
              f", memplan-tc-cap (MEMPLAN_RT_THREAD_CACHE={os.environ.get('TCCAP', '256K')} "
              f"MEMPLAN_RT_FRAG_CAP={os.environ.get('CAP', '1.10')})")
    print("  the purge returns a freed peak: unit test RuntimePurge.FreedPeakGoesBackAfterTheDelay"
          " (committed bytes and mincore)")
    print()

if os.environ.get("BY_TRACE") == "1":
    # Short names: the four memplan columns apart.
    short = {"memplan-tc": "mp-tc", "memplan-cap": "mp-cap", "memplan-tc-cap": "mp-tcc",
             "memplan-nocap": "mp-nocap", "memplan-noreplay": "mp-norp"}
    lab = lambda a, n: short.get(a, a)[:n]
    hdr = f"{'trace':44}" + "".join(f"{lab(a, 7)+' 1t':>11}{lab(a, 7)+' 2t':>11}" for a in allocs) \
        + "".join(f"{lab(a, 6)+' f1':>10}{lab(a, 6)+' f2':>10}" for a in allocs)
    print(hdr)
    for t in sorted(rows):
        r = rows[t]
        line = f"{t[:44]:44}"
        for a in allocs:
            v = r.get(a, {})
            line += f"{v.get('t1', float('nan')):11.1f}{v.get('t2', float('nan')):11.1f}"
        for a in allocs:
            v = r.get(a, {})
            line += f"{v.get('f1', float('nan')):10.3f}{v.get('f2', float('nan')):10.3f}"
        print(line)
PY

# The run-time plan cache: a shape seen before vs a new one (8-128 buffers).
if [ -x "$BUILD/bin/memplan-bench-plan-cache" ]; then
  echo
  echo "== run-time plan (memplan_rt_plan_offsets): cache hit vs new shape =="
  "$BUILD/bin/memplan-bench-plan-cache" --benchmark_min_time=0.2 2>/dev/null | grep BM_
fi

# The DNN trace's frag goal against online placement without purging: the
# address high-water / peak live each policy reaches (PlacementStudy.cpp).
if [ -x "$BUILD/bin/memplan-bench-placement" ]; then
  echo
  "$BUILD/bin/memplan-bench-placement"
fi
