#!/usr/bin/env bash
# Replays the record sets (and synthetic mixes) against the BFC runtime,
# glibc malloc, jemalloc and mimalloc, then prints one table: ns per
# alloc+free pair with 1 and 2 threads, and peak reserved / peak live bytes.
# Usage: bench/runtime/run.sh BUILD_DIR [extra google-benchmark flags]
set -euo pipefail
BUILD=${1:-build}
shift || true
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
ran=()
for a in bfc glibc jemalloc mimalloc; do
  bin="$BUILD/bin/memplan-bench-runtime-$a"
  if [ ! -x "$bin" ]; then
    echo "runtime bench: $bin missing (install libjemalloc-dev/libmimalloc-dev:" \
         "scripts/install-deps.sh --bench), skipping $a" >&2
    continue
  fi
  "$bin" --benchmark_min_time=0.05 --benchmark_format=json \
    --benchmark_out="$OUT/$a.json" --benchmark_out_format=json "$@" >/dev/null
  ran+=("$a")
done
python3 - "$OUT" "${ran[@]}" <<'PY'
import json, math, sys
out, allocs = sys.argv[1], sys.argv[2:]
rows = {}  # trace -> alloc -> {t1, t2, ratio}
for a in allocs:
    for b in json.load(open(f"{out}/{a}.json"))["benchmarks"]:
        name = b["name"].split("/", 1)[1]
        trace, _, threads = name.rpartition("/real_time/threads:")
        r = rows.setdefault(trace, {}).setdefault(a, {})
        r["t" + threads] = b["ns_per_pair"]
        r["ratio"] = b["reserved_ratio"]
hdr = f"{'trace':44}" + "".join(f"{a+' 1t':>10}{a+' 2t':>10}" for a in allocs) \
    + "".join(f"{a[:5]+' res/live':>15}" for a in allocs)
print("ns per alloc+free pair (1 and 2 threads) and peak reserved / peak live bytes")
print(hdr)
for t in sorted(rows):
    r = rows[t]
    line = f"{t[:44]:44}"
    for a in allocs:
        v = r.get(a, {})
        line += f"{v.get('t1', float('nan')):10.1f}{v.get('t2', float('nan')):10.1f}"
    for a in allocs:
        line += f"{r.get(a, {}).get('ratio', float('nan')):15.3f}"
    print(line)

def gmean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")

print()
for group in ("glow/", "peers/", "minimalloc/", "synthetic/", ""):
    ts = [t for t in rows if t.startswith(group)]
    if not ts or "bfc" not in allocs:
        continue
    label = group.rstrip("/") or "all"
    parts = []
    for a in allocs:
        if a == "bfc":
            continue
        for th in ("t1", "t2"):
            q = gmean([rows[t]["bfc"][th] / rows[t][a][th] for t in ts
                       if a in rows[t] and th in rows[t][a]])
            parts.append(f"bfc/{a} {th[1]}t {q:.2f}x")
    worst = max(ts, key=lambda t: rows[t]["bfc"]["ratio"])
    print(f"{label:11} geomean time ratio: " + ", ".join(parts))
    print(f"{'':11} bfc peak reserved/live: geomean "
          f"{gmean([rows[t]['bfc']['ratio'] for t in ts]):.3f}, max "
          f"{rows[worst]['bfc']['ratio']:.3f} ({worst}), "
          f"{sum(rows[t]['bfc']['ratio'] <= 1.10 for t in ts)}/{len(ts)} <= 1.10")
PY
