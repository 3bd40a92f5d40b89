#!/usr/bin/env python3
"""Fixture generator for benches/bench.sh (synthetic data, deterministic).

usage: gen.py roster DIR AGENTS LEASES      -> DIR/cache/default/roster.json
       gen.py spool DIR RECORDS            -> DIR/spool/mcp/default.ndjson (framed, CRC'd)
       gen.py claims DIR EVENTS            -> DIR/lake/claims/default/events/*.ndjson + fleets/default
                                              (one event per batch object: as many objects as events)
"""
import json, os, random, sys, zlib

WORDS = ("cargo test build flaky network postgres redis cache deploy token auth login ci lint "
         "clippy docs api schema migration timeout retry queue worker config env docker node "
         "python rust go linux macos windows fixture snapshot index search memory lease").split()

def ulid(i):
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    v = (1_700_000_000_000 + i) << 80 | (i * 2654435761 % (1 << 80))
    return "".join(alphabet[(v >> (125 - k * 5)) & 31] for k in range(26))

def frame(rec):
    rest = json.dumps(rec, separators=(",", ":"))[1:]
    return '{"v":1,"crc":"%08x",%s\n' % (zlib.crc32(rest.encode()), rest)

FAR = 32472144000000  # 2999-01-01T00:00:00Z in ms
DAY = 1795910400000  # 2026-11-29T00:00:00Z in ms

def roster(d, agents, leases):
    rnd = random.Random(1)
    out = {"generated_at": "2999-01-01T00:00:00.000Z", "lake_clock_offset_ms": 0, "agents": []}
    per = leases // agents
    for a in range(agents):
        ls = [{"repo": "github.com/acme/api", "path": f"src/m{a}/f{j}.rs" if rnd.random() > 0.1 else f"src/m{rnd.randrange(agents)}",
               "reason": "bench", "granted_at_ms": DAY + ((a % 60) * 60 + j % 60) * 1000,
               "expires_at_ms": FAR} for j in range(per)]
        out["agents"].append({"agent": f"agent-{a}", "session": f"s{a}", "task": "bench task",
                              "last_seen_ms": FAR, "leases": ls})
    p = os.path.join(d, "cache", "default"); os.makedirs(p, exist_ok=True)
    json.dump(out, open(os.path.join(p, "roster.json"), "w"))

def spool(d, n):
    p = os.path.join(d, "spool", "mcp"); os.makedirs(p, exist_ok=True)
    with open(os.path.join(p, "default.ndjson"), "w") as f:
        for i in range(n):
            kind = ("fleet_claim", "fleet_handoff", "memory_propose")[i % 3]
            payload = {"fleet_claim": {"repo": "r", "paths": [f"src/f{i}.rs"], "reason": "bench", "ttl_secs": 1800},
                       "fleet_handoff": {"summary": f"note {i}", "status": "done", "next": None, "repo": None},
                       "memory_propose": {"claim": f"claim {i}", "type": "outcome", "subject": "s", "scope": "agent",
                                          "evidence": [{"session_id": "s", "message_id": "m"}]}}[kind]
            f.write(frame({"id": ulid(i), "ts": "2026-11-29T00:00:00.000Z", "fleet": "default",
                           "agent": f"a{i % 50}", "session": f"s{i % 50}", "kind": kind, "payload": payload}))

def claims(d, n):
    rnd = random.Random(2)
    p = os.path.join(d, "lake", "claims", "default", "events"); os.makedirs(p, exist_ok=True)
    os.makedirs(os.path.join(d, "lake", "fleets"), exist_ok=True)
    open(os.path.join(d, "lake", "fleets", "default"), "w").close()
    for i in range(n):
        text = " ".join(rnd.choice(WORDS) for _ in range(8)) + f" #{i}"
        ev = {"id": ulid(i), "ts": "2026-11-29T00:00:00.000Z", "fleet": "default", "agent": f"a{i % 50}",
              "session": f"s{i % 97}", "kind": "memory_propose",
              "payload": {"claim": text, "type": ("environment", "outcome", "convention")[i % 3],
                          "subject": f"{rnd.choice(WORDS)}-{rnd.randrange(n // 2000 + 1)}", "scope": "agent",
                          "evidence": [{"session_id": f"s{i % 97}", "message_id": "m"}]}}
        with open(os.path.join(p, ulid(i) + ".ndjson"), "w") as f:
            f.write(frame(ev))

if __name__ == "__main__":
    cmd, d = sys.argv[1], sys.argv[2]
    {"roster": lambda: roster(d, int(sys.argv[3]), int(sys.argv[4])),
     "spool": lambda: spool(d, int(sys.argv[3])),
     "claims": lambda: claims(d, int(sys.argv[3]))}[cmd]()
