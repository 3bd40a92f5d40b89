#!/usr/bin/env bash
# Benchmarks for the foundation and the lake, whole processes, release build.
# usage: benches/bench.sh [--quick]      (needs hyperfine and python3)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
B="$PWD/target/release/ctxlake"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
N100K=100000; [ "${1:-}" = "--quick" ] && N100K=20000
export HOME="$T/home" CTXLAKE_AGENT_ID=bench CTXLAKE_SESSION_ID=bench
hf() { hyperfine -N --warmup 5 --style basic "$@" 2>&1 | grep -E "Time|Range|±" ; }

echo "## fleet status, cold process, 200 agents / 5000 leases"
export CTXLAKE_HOME="$T/status"; python3 benches/gen.py roster "$CTXLAKE_HOME" 200 5000
hf --runs 200 "$B fleet status --json"
hf --runs 200 "$B fleet status"

echo "## one spool append per process (fleet claim, fsync'd)"
export CTXLAKE_HOME="$T/append"
hf --runs 300 "$B fleet claim src/lib.rs --reason bench -q"

for n in 10000 "$N100K"; do
  echo "## maint over $n claim events (fold + gate + build + publish)"
  export CTXLAKE_HOME="$T/claims$n"; python3 benches/gen.py claims "$CTXLAKE_HOME" "$n"
  /usr/bin/time -f "maint: %e s wall, %M KiB max RSS" "$B" maint -q >/dev/null
  "$B" sync -q >/dev/null
  echo "## memory search over $n claims, whole process"
  hf --runs 100 "$B memory search 'flaky postgres timeout' --json"
  hf --runs 100 "$B memory search 'postgress timout' --json"
done

echo "## sync of $N100K spool records (drain + mirror)"
export CTXLAKE_HOME="$T/sync"; python3 benches/gen.py spool "$CTXLAKE_HOME" "$N100K"
/usr/bin/time -f "sync: %e s wall, %M KiB max RSS" "$B" sync -q >/dev/null
echo "## sync again with nothing to drain (mirror only)"
/usr/bin/time -f "sync: %e s wall" "$B" sync -q >/dev/null
