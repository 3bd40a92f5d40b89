"""Semantic memory costs with a release binary and an installed all-MiniLM-L6-v2.

usage: python3 benches/semantic_bench.py CTXLAKE_BIN MODEL_DIR [--claims 10000] [--queries 50]
                                        [--seed-vectors] [--home DIR]

In a fresh CTXLAKE_HOME: writes N claim events straight into a file lake, then times
`maint` with the hash embedder, with MiniLM (everything embedded), and again after one
claim changed (incremental, from the vector cache); model check (cold: verified by sha256;
warm: remembered); `memory search` as a cold CLI process; and per-query latency warm in one
`ctxlake mcp` session (the first call loads the model). Peak RSS from /usr/bin/time-like
getrusage of children. Prints one line per measure; CPU times beside wall times, since
this machine's 2 cores are often shared.

--seed-vectors fills the vector cache with random unit vectors before the MiniLM `maint`,
so a 10k-claim snapshot is ready in seconds instead of ~400 s: the search latencies stay
real (same sizes, same code path), the ranking and the maint timing do not. --home reuses
a directory (for comparing two binaries on the same snapshot: the second run skips the
setup when the snapshot exists).
"""

import argparse
import hashlib
import json
import os
import random
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

TOPICS = ["CI", "the database", "the build", "the deploy", "the frontend", "auth", "the cache",
          "the queue", "the linter", "the test suite"]
FACTS = ["needs {n} workers", "times out after {n} seconds", "runs on port {n}",
         "is pinned to version {n}", "fails without flag opt{n}", "keeps {n} days of logs"]


def claim_text(i):
    return f"{TOPICS[i % len(TOPICS)]} {FACTS[i // len(TOPICS) % len(FACTS)].format(n=i)}"


def write_events(lake, n):
    """One framed batch object per event, as a drain lands them (`gen.py claims`' format)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gen import frame as framed, ulid
    d = os.path.join(lake, "claims", "default", "events")
    os.makedirs(d, exist_ok=True)
    os.makedirs(os.path.join(lake, "fleets"), exist_ok=True)
    open(os.path.join(lake, "fleets", "default"), "w").close()
    for i in range(n):
        ev = {"id": ulid(i), "ts": "2026-11-29T00:00:00.000Z", "fleet": "default",
              "kind": "memory_propose", "agent": "a", "session": f"s{i}",
              "payload": {"claim": claim_text(i), "type": "environment", "subject": f"s{i % 50}",
                          "scope": "agent", "evidence": [{"session_id": f"s{i}", "message_id": "m"}]}}
        with open(os.path.join(d, ulid(i) + ".ndjson"), "w") as f:
            f.write(framed(ev))


def run(bin_, env, *args, check=True):
    t0 = time.perf_counter()
    p = subprocess.run([bin_, *args], env=env, capture_output=True, text=True)
    ms = (time.perf_counter() - t0) * 1000
    if check and p.returncode != 0:
        sys.exit(f"{args} failed: {p.stderr}")
    return ms, p.stdout


def frame(id_, method, params=None):
    m = {"jsonrpc": "2.0", "method": method, "id": id_}
    if params is not None:
        m["params"] = params
    return (json.dumps(m) + "\n").encode()


def seed_vectors(home):
    """Random quantized unit vectors under maint's cache keys for every claim."""
    snap = sqlite3.connect(os.path.join(home, "cache", "default", "snapshot.bin"))
    cache = sqlite3.connect(os.path.join(home, "state", "vectors-default.sqlite"))
    cache.execute("CREATE TABLE IF NOT EXISTS v(key TEXT PRIMARY KEY, vec BLOB NOT NULL) WITHOUT ROWID")
    rng = random.Random(7)
    rows = []
    for cid, text in snap.execute("SELECT id, text FROM claims"):
        key = f"minilm-l6-v2:{cid}:{hashlib.sha256(text.encode()).hexdigest()[:16]}"
        rows.append((key, bytes(rng.randrange(-127, 128) & 0xFF for _ in range(384))))
    cache.executemany("INSERT OR REPLACE INTO v(key, vec) VALUES (?, ?)", rows)
    cache.commit()
    return len(rows)


def cpu_ms(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def mcp_latencies(bin_, env, queries):
    p = subprocess.Popen([bin_, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=env)
    p.stdin.write(frame(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                          "clientInfo": {"name": "b", "version": "1"}}))
    p.stdin.flush()
    p.stdout.readline()
    out = []
    cpu = 0.0
    for i, q in enumerate(queries):
        if i == 1:
            cpu = cpu_ms(p.pid)
        t0 = time.perf_counter()
        p.stdin.write(frame(10 + i, "tools/call", {"name": "memory_search",
                                                    "arguments": {"query": q, "k": 5}}))
        p.stdin.flush()
        line = p.stdout.readline()
        out.append((time.perf_counter() - t0) * 1000)
        if i == 0 and b"isError\":true" in line:
            sys.exit(f"memory_search failed: {line[:300]}")
    cpu = (cpu_ms(p.pid) - cpu) / max(1, len(queries) - 1)
    p.stdin.close()
    p.wait()
    return out, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("model")
    ap.add_argument("--claims", type=int, default=10000)
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--seed-vectors", action="store_true")
    ap.add_argument("--home")
    a = ap.parse_args()
    home = a.home or tempfile.mkdtemp(prefix="semantic-bench-")
    env = dict(os.environ, CTXLAKE_HOME=home, CTXLAKE_MODEL_DIR=a.model, CTXLAKE_EMBEDDER="hash")
    if os.path.exists(os.path.join(home, "cache", "default", "snapshot.bin")):
        env["CTXLAKE_EMBEDDER"] = "minilm"
        print(f"reusing {home}")
        searches(a, env)
        return
    lake = os.path.join(home, "lake")
    write_events(lake, a.claims)
    ms, _ = run(a.bin, env, "maint", "--only", "default")
    print(f"maint {a.claims} claims, hash only: {ms:.0f} ms")
    if a.seed_vectors:
        run(a.bin, env, "sync")
        print(f"seeded {seed_vectors(home)} random vectors (the MiniLM maint below embeds nothing)")
    env["CTXLAKE_EMBEDDER"] = "minilm"
    ms, _ = run(a.bin, env, "memory", "model", "check")
    print(f"model check, first (sha256 verified): {ms:.0f} ms wall")
    ms, _ = run(a.bin, env, "memory", "model", "check")
    print(f"model check, warm (verified marker): {ms:.0f} ms wall")
    ms, out = run(a.bin, env, "maint", "--only", "default", "--json")
    print(f"maint {a.claims} claims, MiniLM re-embedding all: {ms / 1000:.1f} s "
          f"({json.loads(out)['fleets'][0]['outcome']})")
    write_events_one = os.path.join(lake, "claims", "default", "events", "01BENCHXXXXXXXX.json")
    with open(write_events_one, "w") as f:
        json.dump({"id": "01BENCHXXXXXXXX", "at": "2026-11-29T00:00:01.000Z", "kind": "memory_propose",
                   "agent": "a", "session": "sx", "payload": {"claim": "the staging cluster sleeps at night",
                   "type": "environment", "subject": "infra",
                   "evidence": [{"session_id": "sx", "message_id": "m"}]}}, f)
    ms, _ = run(a.bin, env, "maint", "--only", "default")
    print(f"maint after one new claim (incremental, cached vectors): {ms:.0f} ms")
    run(a.bin, env, "sync")
    searches(a, env)


def children_cpu_ms():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1000


def searches(a, env):
    print(f"load average {os.getloadavg()[0]:.1f}")
    cpu0 = children_cpu_ms()
    cli = [run(a.bin, env, "memory", "search", "why is the linter failing in CI")[0] for _ in range(5)]
    cpu = (children_cpu_ms() - cpu0) / 5
    print(f"CLI memory search, cold process: median {statistics.median(cli):.0f} ms, max {max(cli):.0f} ms "
          f"(CPU {cpu:.0f} ms each)")
    qs = [f"{TOPICS[i % len(TOPICS)]} problem number {i}" for i in range(a.queries)]
    lat, cpu = mcp_latencies(a.bin, env, qs)
    warm = sorted(lat[1:])
    print(f"mcp memory_search: first call (loads the model) {lat[0]:.0f} ms; warm p50 "
          f"{statistics.median(warm):.1f} ms, p95 {warm[int(len(warm) * 0.95) - 1]:.1f} ms "
          f"(CPU {cpu:.1f} ms a query)")
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak RSS of any child process: {rss:.0f} MB")


if __name__ == "__main__":
    main()
