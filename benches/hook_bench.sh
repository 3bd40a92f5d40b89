#!/usr/bin/env bash
# Hook wall time per event (fork + exec + wait, process start included), p50/p99 over
# N runs, next to /bin/true measured in the same run. Budget (DESIGN §2): p99 <= 5 ms.
#
# usage: benches/hook_bench.sh [path/to/release/ctxlake] [runs]
# The fleet is realistic and large: 50 live agents holding 500 leases, 30 sessions,
# 20 handoffs and a 300-claim snapshot; the PreToolUse payload is a 2 KB Edit that
# collides with a lease (the slowest PreToolUse path: roster read + lease resolution).
set -euo pipefail
BIN=$(realpath "${1:-target/release/ctxlake}")
RUNS=${2:-1000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/home/work/.git" "$T/home/.ctxlake/cache/default"

python3 - "$T" <<'PY'
import json, os, random, sqlite3, sys, datetime
T = sys.argv[1]; home = f"{T}/home"; work = f"{home}/work"; cache = f"{home}/.ctxlake/cache/default"
now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
agents = [{"agent": f"agent-{i:02}", "session": f"s{i}", "runtime": "claude-code",
           "task": f"task {i}: refactor module {i}", "last_seen": now,
           "leases": [{"repo": work, "path": f"src/m{i}/f{j}.rs", "reason": f"refactor part {j}",
                       "granted_at": now, "expires_at": "2999-01-01T00:00:00Z"} for j in range(10)]}
          for i in range(50)]
json.dump({"generated_at": now, "lake_clock_offset_ms": 0, "agents": agents}, open(f"{cache}/roster.json", "w"))
json.dump({"generated_at": now, "sessions": [
    {"session": f"old{i}", "agent": f"agent-{i % 50:02}", "repo": work, "started_at": now, "outcome": "clean",
     "files_touched": [f"src/m{i}/a.rs", f"src/m{i}/b.rs"], "commands": ["cargo test"], "tests": ["cargo test"]}
    for i in range(30)]}, open(f"{cache}/history.json", "w"))
json.dump({"generated_at": now, "handoffs": [
    {"id": f"h{i}", "at": now, "agent": f"agent-{i:02}", "session": f"s{i}", "repo": work,
     "summary": f"left module {i} half done", "status": "blocked", "next": "finish the tests"}
    for i in range(20)]}, open(f"{cache}/handoffs.json", "w"))
# The snapshot schema of src/snapshot/mod.rs (FTS5 without contentless_delete: Python's
# SQLite may predate it; the briefing does not query FTS).
db = sqlite3.connect(f"{cache}/snapshot.bin")
db.executescript("""
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE claims(rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, text TEXT NOT NULL, type TEXT NOT NULL,
  subject TEXT NOT NULL, scope TEXT NOT NULL, status TEXT NOT NULL, visible INTEGER NOT NULL,
  independent_sessions INTEGER NOT NULL, confidence REAL NOT NULL, created_at TEXT NOT NULL, promoted_at TEXT,
  agent TEXT NOT NULL, session TEXT NOT NULL, embedding BLOB NOT NULL);
CREATE INDEX claims_subject ON claims(subject COLLATE NOCASE);
CREATE VIRTUAL TABLE claims_fts USING fts5(text, subject, content='', tokenize='porter unicode61');
""")
db.executemany("INSERT INTO meta VALUES (?,?)", [("snapshot_id", "bench"), ("fleet", "default"), ("mode", "on")])
db.executemany("INSERT INTO claims VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", [
    (i + 1, f"c{i:03}", f"claim {i}: cargo test needs RUSTFLAGS=-D warnings in module {i}", "environment", "ci",
     "fleet", "promoted", 1, random.randint(1, 5), random.random(), now, now, "a", "s", os.urandom(256))
    for i in range(300)])
db.commit(); db.close()
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
      f"PreToolUse {os.path.getsize(f'{T}/pre-tool-use.json')} B; roster {os.path.getsize(f'{cache}/roster.json')} B")
PY

# Sanity: the hook really briefs and really warns with this fleet.
run_hook() { env -i PATH="$PATH" HOME="$T/home" CTXLAKE_HOME="$T/home/.ctxlake" CTXLAKE_AGENT_ID=bench "$BIN" hook claude-code < "$1"; }
run_hook "$T/session-start.json" | grep -q '"additionalContext"' || { echo "no briefing" >&2; exit 1; }
run_hook "$T/pre-tool-use.json" | grep -q 'agent-07' || { echo "no collision warning" >&2; exit 1; }

python3 - "$BIN" "$T" "$RUNS" <<'PY'
import os, sys, time
BIN, T, RUNS = sys.argv[1], sys.argv[2], int(sys.argv[3])
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
    if name != "/bin/true":
        worst = max(worst, p99)
load = os.getloadavg()[0]
print(f"budget: p99 <= 5 ms -> {'OK' if worst <= 5 else 'OVER'} (load average {load:.1f} on {os.cpu_count()} cpus; "
      "a loaded machine inflates wall time, the cpu columns are what the hook itself costs)")
sys.exit(0 if worst <= 5 else 1)
PY
