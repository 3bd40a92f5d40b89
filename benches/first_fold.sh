#!/usr/bin/env bash
# The first full fold: `maint` of 100k claim events with no state and no checkpoint
# (fold, gate, snapshot build, publish), each run on a fresh copy of one generated lake.
# Prints each run's CPU (user + sys), wall and max RSS, then the medians and minimums; with
# a second binary the runs alternate, so both see the same machine load, and the per-pair
# difference is printed too.
#
# usage: benches/first_fold.sh [RUNS] [BIN [BIN_B]]   (default: 5 runs of target/release)
#   EVENTS=20000 benches/first_fold.sh               a smaller lake
#   TRACE=1 ...                                      each run's phases (CTXLAKE_TRACE_MAINT)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
A=${2:-}
if [ -z "$A" ]; then
  cargo build --release --quiet
  A="$PWD/target/release/ctxlake"
fi
BINS=("$A")
[ -n "${3:-}" ] && BINS+=("$3")
EVENTS=${EVENTS:-100000}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export HOME="$T/home" CTXLAKE_AGENT_ID=bench CTXLAKE_SESSION_ID=bench
python3 benches/gen.py claims "$T/base" "$EVENTS"
echo "## first fold of $EVENTS claim events, $RUNS runs per binary (load: $(cut -d' ' -f1-3 /proc/loadavg))"
for r in $(seq 1 "$RUNS"); do
  for i in "${!BINS[@]}"; do
    rm -rf "$T/run" && cp -a "$T/base" "$T/run"
    sync
    out=$( { CTXLAKE_HOME="$T/run" CTXLAKE_TRACE_MAINT=${TRACE:-} /usr/bin/time \
      -f "time %U %S %e %M" "${BINS[$i]}" maint -q; } 2>&1 )
    [ -n "${TRACE:-}" ] && grep '^maint:' <<<"$out" | sed 's/^/    /'
    read -r _ u s e m < <(grep '^time ' <<<"$out")
    id=$(grep -o 'snapshot [0-9a-f]\{16\}' <<<"$out" || true)
    cpu=$(echo "$u + $s" | bc)
    echo "bin$i run $r: cpu ${cpu} s (user $u, sys $s), wall ${e} s, max RSS $((m / 1024)) MiB ($id)"
    echo "$i $cpu $e $m" >>"$T/results"
  done
done
echo "## medians and minimums (load now: $(cut -d' ' -f1-3 /proc/loadavg))"
for i in "${!BINS[@]}"; do
  python3 - "$T/results" "$i" "${BINS[$i]}" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.split()[0] == sys.argv[2]]
med = lambda k: statistics.median(float(r[k]) for r in rows)
low = lambda k: min(float(r[k]) for r in rows)
print(f"bin{sys.argv[2]} {sys.argv[3]}: cpu {med(1):.2f} s (min {low(1):.2f}), "
      f"wall {med(2):.2f} s (min {low(2):.2f}), "
      f"max RSS {med(3) / 1024:.0f} MiB ({med(3) * 1024 / 1e6:.0f} MB), {len(rows)} runs")
EOF
done
if [ "${#BINS[@]}" = 2 ]; then
  # Run r of both binaries saw about the same load: the per-pair difference is steadier
  # than the difference of medians on a machine whose speed drifts.
  python3 - "$T/results" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
a = [float(r[2]) for r in rows if r[0] == "0"]
b = [float(r[2]) for r in rows if r[0] == "1"]
d = [y - x for x, y in zip(a, b)]
print(f"wall, bin1 - bin0 per pair: median {statistics.median(d):+.2f} s "
      f"({min(d):+.2f} to {max(d):+.2f}), bin1 faster in {sum(x < 0 for x in d)} of {len(d)}")
EOF
fi
