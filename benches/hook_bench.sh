#!/usr/bin/env bash
# Hook wall time per event (fork + exec + wait, process start included), p50/p99 over
# N runs, next to /bin/true measured in the same run. Budget (DESIGN §2): p99 <= 5 ms.
#
# usage: benches/hook_bench.sh [path/to/release/ctxlake] [runs] [baseline ctxlake]
#        A baseline binary (say, the previous commit's) runs interleaved on the same fleet.
#        Compare fresh `cp` copies of both: two byte-identical copies of one binary were
#        seen 0.24-0.28 ms p50 apart (the linker's output and an older copy the slow ones).
# The fleet is realistic and large: 50 live agents holding 500 leases, 30 sessions,
# 20 handoffs and 300 promoted claims, built through spool → sync → maint → sync; the PreToolUse payload is a 2 KB Edit that
# collides with a lease (the slowest PreToolUse path: roster read + lease resolution).
set -euo pipefail
BIN=$(realpath "${1:-target/release/ctxlake}")
RUNS=${2:-1000}
BASE=$(realpath "${3:-$BIN}")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/home/work/.git"

python3 - "$T" <<'PY'
import json, os, sys, zlib
T = sys.argv[1]; home = f"{T}/home"; work = f"{home}/work"
# The fleet goes through the real pipeline: spool records (framed as src/spool.rs does),
# then `ctxlake sync && ctxlake maint && ctxlake sync` below writes every cache file,
# the snapshot mirror and the hook's pre-rendered briefing exactly as in production.
def frame(rec):
    rest = json.dumps(rec, separators=(",", ":"))[1:]
    return '{"v":1,"crc":"%08x",%s\n' % (zlib.crc32(rest.encode()), rest)
n = 0
def rec(kind, agent, session, payload):
    global n
    n += 1
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    v = (1_764_000_000_000 + n) << 80 | n
    rid = "".join(alphabet[(v >> (125 - k * 5)) & 31] for k in range(26))
    return frame({"id": rid, "ts": "2026-11-29T00:00:00.000Z", "fleet": "default", "agent": agent,
                  "session": session, "kind": kind, "payload": payload})
os.makedirs(f"{home}/.ctxlake/spool/mcp", exist_ok=True)
with open(f"{home}/.ctxlake/spool/mcp/default.ndjson", "w") as f:
    for i in range(50):
        f.write(rec("fleet_claim", f"agent-{i:02}", f"s{i}", {"repo": work, "paths": [f"src/m{i}/f{j}.rs" for j in range(10)],
                                                              "reason": f"task {i}: refactor module {i}", "ttl_secs": 86400}))
    for i in range(20):
        f.write(rec("fleet_handoff", f"agent-{i:02}", f"s{i}", {"summary": f"left module {i} half done", "status": "blocked",
                                                                "next": "finish the tests", "repo": work}))
    for i in range(300):
        f.write(rec("memory_propose", f"agent-{i % 50:02}", f"p{i}", {"claim": f"claim {i}: cargo test needs RUSTFLAGS=-D warnings in module {i}",
            "type": "environment", "subject": "ci", "scope": "agent", "evidence": [{"session_id": f"p{i}", "message_id": "m"}]}))
os.makedirs(f"{home}/.ctxlake/spool/hooks/claude-code", exist_ok=True)
for i in range(30):
    with open(f"{home}/.ctxlake/spool/hooks/claude-code/old{i}.ndjson", "w") as f:
        for kind, extra in [("hook_session_start", {}), ("hook_post_tool", {"paths": [f"src/m{i}/a.rs", f"src/m{i}/b.rs"]}),
                            ("hook_post_tool", {"command": "cargo test", "ok": True}), ("hook_session_end", {})]:
            f.write(rec(kind, f"agent-{i % 50:02}", f"old{i}", dict({"runtime": "claude-code", "cwd": work}, **extra)))
base = {"session_id": "f31a36e2-6dbe-4866-be6f-9f4a675bb550",
        "transcript_path": f"{home}/.claude/projects/p/f31a36e2-6dbe-4866-be6f-9f4a675bb550.jsonl",
        "cwd": work, "prompt_id": "749bb514-a9de-4bae-a95c-8031acaf432c", "permission_mode": "default"}
json.dump(dict(base, hook_event_name="SessionStart", source="startup"), open(f"{T}/session-start.json", "w"))
old = "fn refactor() {\n" + "    let x = compute(a, b, c);\n" * 40 + "}\n"
pre = dict(base, hook_event_name="PreToolUse", tool_name="Edit", tool_use_id="toolu_01",
           tool_input={"file_path": f"{work}/src/m7/f3.rs", "old_string": old[:900], "new_string": old[:900].replace("x", "y"),
                       "replace_all": False})
json.dump(pre, open(f"{T}/pre-tool-use.json", "w"))
print(f"payloads: SessionStart {os.path.getsize(f'{T}/session-start.json')} B, "
      f"PreToolUse {os.path.getsize(f'{T}/pre-tool-use.json')} B")
PY
env -i PATH="$PATH" HOME="$T/home" CTXLAKE_HOME="$T/home/.ctxlake" sh -c "'$BIN' sync -q && '$BIN' maint -q && '$BIN' sync -q" >/dev/null
echo "fleet: $(wc -c <"$T/home/.ctxlake/cache/default/roster.json") B roster, $(wc -c <"$T/home/.ctxlake/cache/default/briefing.json") B briefing material"

# Sanity: the hook really briefs and really warns with this fleet.
run_hook() { env -i PATH="$PATH" HOME="$T/home" CTXLAKE_HOME="$T/home/.ctxlake" CTXLAKE_AGENT_ID=bench "$BIN" hook claude-code < "$1"; }
run_hook "$T/session-start.json" | grep -q '"additionalContext"' || { echo "no briefing" >&2; exit 1; }
run_hook "$T/pre-tool-use.json" | grep -q 'agent-07' || { echo "no collision warning" >&2; exit 1; }

python3 - "$BIN" "$T" "$RUNS" "$BASE" <<'PY'
import os, sys, time
BIN, T, RUNS, BASE = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
env = {"PATH": os.environ["PATH"], "HOME": f"{T}/home", "CTXLAKE_HOME": f"{T}/home/.ctxlake", "CTXLAKE_AGENT_ID": "bench"}
devnull = os.open(os.devnull, os.O_WRONLY)

def once(argv, stdin_path):
    fd = os.open(stdin_path, os.O_RDONLY)
    t = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=[
        (os.POSIX_SPAWN_DUP2, fd, 0), (os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, ru = os.wait4(pid, 0)
    dt = time.perf_counter_ns() - t
    os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0, argv
    return dt / 1e6, (ru.ru_utime + ru.ru_stime) * 1e3

cases = [("/bin/true", ["/bin/true"], f"{T}/pre-tool-use.json"),
         ("hook SessionStart (briefing)", [BIN, "hook", "claude-code"], f"{T}/session-start.json"),
         ("hook PreToolUse 2 KB (collision)", [BIN, "hook", "claude-code"], f"{T}/pre-tool-use.json")]
if BASE != BIN:
    cases += [("baseline SessionStart", [BASE, "hook", "claude-code"], f"{T}/session-start.json"),
              ("baseline PreToolUse", [BASE, "hook", "claude-code"], f"{T}/pre-tool-use.json")]
samples = {name: [] for name, _, _ in cases}
cpu = {name: [] for name, _, _ in cases}
for _ in range(20):  # warm the page cache
    for name, argv, stdin in cases:
        once(argv, stdin)
for _ in range(RUNS):  # interleaved, so machine noise hits every case alike
    for name, argv, stdin in cases:
        wall, used = once(argv, stdin)
        samples[name].append(wall)
        cpu[name].append(used)
pct = lambda s, q: s[min(len(s) - 1, int(len(s) * q))]
print(f"{'case':36} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'cpu p50':>8} {'cpu p99':>8}  ({RUNS} runs each, wall = fork+exec+wait)")
worst = 0.0
for name, _, _ in cases:
    s, c = sorted(samples[name]), sorted(cpu[name])
    p50, p99 = pct(s, 0.5), pct(s, 0.99)
    print(f"{name:36} {p50:8.2f} {p99:8.2f} {s[-1]:8.2f} {pct(c, 0.5):8.2f} {pct(c, 0.99):8.2f}")
    if name != "/bin/true" and not name.startswith("baseline"):
        worst = max(worst, p99)
load = os.getloadavg()[0]
print(f"budget: p99 <= 5 ms -> {'OK' if worst <= 5 else 'OVER'} (load average {load:.1f} on {os.cpu_count()} cpus; "
      "a loaded machine inflates wall time, the cpu columns are what the hook itself costs)")
sys.exit(0 if worst <= 5 else 1)
PY
