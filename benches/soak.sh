#!/usr/bin/env bash
# Soak: one `sync --watch` daemon under a steady write load for a long time. Its RSS, open
# file descriptors and the spool backlog must stay flat (issue 14 §4).
#
# usage: benches/soak.sh [path/to/release/ctxlake] [seconds=3600] [writers=50] [hooks_per_sec=10]
# Every writer is its own agent and session: it claims, hands off, proposes and releases
# through the CLI, one write every 5 s, so 50 writers make about 10 writes/s. A hook storm
# adds `ctxlake hook claude-code` PreToolUse events at the given rate. A sample line every
# 60 s: elapsed s, daemon RSS KiB, daemon open fds, spool backlog bytes, spool files, lake objects.
set -euo pipefail
BIN=$(realpath "${1:-target/release/ctxlake}")
SECS=${2:-3600}
WRITERS=${3:-50}
HOOK_RATE=${4:-10}
T=$(mktemp -d)
export HOME="$T/home" CTXLAKE_HOME="$T/home/.ctxlake" NO_COLOR=1
mkdir -p "$HOME/work/.git"
cd "$HOME/work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$T"
}
trap cleanup EXIT

CTXLAKE_AGENT_ID=daemon "$BIN" sync --watch --interval 5 -q >/dev/null 2>"$T/daemon.log" &
daemon=$!
pids+=("$daemon")

writer() {
  local i=$1 n=0
  export CTXLAKE_AGENT_ID="w$i" CTXLAKE_SESSION_ID="soak-w$i"
  while :; do
    n=$((n + 1))
    case $((n % 4)) in
      0) "$BIN" fleet claim "src/w$i/f$((n % 7)).rs" --reason "soak $n" -q ;;
      1) "$BIN" fleet handoff "soak note $n from w$i" --status in_progress --next "step $n" -q ;;
      2) "$BIN" memory propose "w$i fact $((n % 13)) holds" --type environment --subject "soak$((i % 5))" \
           --evidence "soak-w$i:m$n" -q ;;
      3) "$BIN" fleet release -q ;;
    esac >/dev/null 2>>"$T/writers.err" || echo "w$i write $n failed" >>"$T/writers.err"
    sleep 5
  done
}
for i in $(seq "$WRITERS"); do
  writer "$i" &
  pids+=("$!")
  sleep 0.1
done

hooks() {
  local n=0 gap
  gap=$(python3 -c "print(1/$HOOK_RATE)")
  while :; do
    n=$((n + 1))
    printf '{"session_id":"storm-%d","hook_event_name":"PreToolUse","cwd":"%s","tool_name":"Edit","tool_input":{"file_path":"%s/src/w1/f1.rs","old_string":"a","new_string":"b"}}' \
      $((n % 20)) "$PWD" "$PWD" | "$BIN" hook claude-code >/dev/null 2>>"$T/hooks.err" ||
      echo "hook $n exited non-zero" >>"$T/hooks.err"
    sleep "$gap"
  done
}
hooks &
pids+=("$!")

sample() {
  local rss fds backlog files objects
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$daemon/status" 2>/dev/null || echo dead)
  fds=$(ls "/proc/$daemon/fd" 2>/dev/null | wc -l)
  backlog=$(find "$CTXLAKE_HOME/spool" -type f -printf '%s\n' 2>/dev/null | awk '{s += $1} END {print s + 0}')
  files=$(find "$CTXLAKE_HOME/spool" -type f 2>/dev/null | wc -l)
  objects=$(find "$CTXLAKE_HOME/lake" -type f 2>/dev/null | wc -l)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$rss" "$fds" "$backlog" "$files" "$objects"
}

printf 'elapsed_s\trss_kib\tfds\tspool_bytes\tspool_files\tlake_objects\n'
start=$(date +%s)
sample 0
while :; do
  sleep 60
  now=$(( $(date +%s) - start ))
  sample "$now"
  kill -0 "$daemon" 2>/dev/null || { echo "the daemon died"; cat "$T/daemon.log"; exit 1; }
  [ "$now" -ge "$SECS" ] && break
done
# Stop the load, give the daemon two intervals to drain, sample once more.
for p in "${pids[@]:1}"; do kill "$p" 2>/dev/null || true; done
sleep 12
sample "drained"
echo "writer failures: $(wc -l <"$T/writers.err") lines; hook failures: $(wc -l <"$T/hooks.err") lines"
head -5 "$T/writers.err" "$T/hooks.err" 2>/dev/null || true
