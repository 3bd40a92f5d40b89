"""What was written against what the lake holds, for the kill -9 check of three_hosts.py:
a spool backlog of distinguishable records (proposals, handoffs, hook events), and an
exactly-once count of them read straight from the bucket with boto3."""

import json
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from lakehosts import check

FLEET = "bulk"
SESSIONS = 8  # long-lived MCP sessions writing the backlog
HOOK_SESSIONS = 12
HOOK_EVENTS = ["SessionStart", "UserPromptSubmit", "Stop"]


def wait_for(cond, limit, what):
    """Poll `cond` until it returns something truthy (returned) or fail after `limit` s."""
    deadline = time.time() + limit
    while time.time() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(0.2)
    check(False, f"{what}: not within {limit}s")


def read_all(moto, bucket, keys):
    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(lambda k: moto.body(bucket, k), keys))


def records(moto, bucket, prefix):
    """Every record under `prefix`: the lines of its batch objects (`<first-id>.ndjson`,
    one framed spool record a line; lake format 1 writes nothing else there). Returns the
    records and the number of objects."""
    keys = moto.keys(bucket, prefix)
    others = [k for k in keys if not k.endswith(".ndjson")]
    check(not others, f"not batch objects under {prefix}: {others[:3]}")
    out = []
    for body in read_all(moto, bucket, keys):
        out += [json.loads(line) for line in body.decode().splitlines() if line]
    return out, len(keys)


def summary_of(note):
    """A handoff's summary, in the payload of its batch line."""
    return note["payload"]["summary"]


def proposals(moto, bucket, prefix, text):
    return sum(1 for r in records(moto, bucket, prefix)[0] if r["payload"].get("claim") == text)


def in_lake(moto, bucket, prefixes):
    """How many create-only records the lake holds under `prefixes`."""
    return sum(len(records(moto, bucket, p)[0]) for p in prefixes)


def backlog(host, n):
    """Queue about `n` create-only records on `host` (its sync stopped) in fleet `bulk`,
    plus hook events; returns what was written, to count in the lake later."""
    written = {"proposals": [], "handoffs": [], "hooks": {}, "hook_events": 0}
    per = max(n // SESSIONS, 1)
    for s in range(SESSIONS):
        session = f"bulk-s{s}"
        m = host.mcp(f"bulk{s}", session, FLEET)
        m.call("fleet_claim", {"paths": [f"lib/bulk{s}"], "reason": "bulk load"})
        for k in range(per):
            if k % 5 == 4:
                text = f"bulk handoff {s}-{k}"
                m.call("fleet_handoff", {"summary": text, "status": "done"})
                written["handoffs"].append(text)
            else:
                text = f"Module {s} part {k} compiles with feature flag number {s}x{k}"
                m.call("memory_propose", {
                    "claim": text, "type": "outcome", "subject": f"bulk{s}x{k}",
                    "evidence": [{"session_id": session, "message_id": f"m{k}"}]})
                written["proposals"].append(text)
        m.close()
    for s in range(HOOK_SESSIONS):
        sid = f"hook-session-{s}"
        for ev in HOOK_EVENTS:
            payload = {"session_id": sid, "cwd": str(host.work), "hook_event_name": ev,
                       "prompt": f"step {s}", "source": "startup"}
            host.run(["hook", "claude-code"], stdin=json.dumps(payload),
                     agent=f"hooker{s}", session=sid, fleet=FLEET)
        written["hooks"][sid] = len(HOOK_EVENTS)
        written["hook_events"] += len(HOOK_EVENTS)
    return written


def hook_events(moto, bucket, prefix, fleet):
    """How many distinct hook events the lake's history objects of `fleet` hold."""
    bodies = read_all(moto, bucket, moto.keys(bucket, f"{prefix}/sessions/{fleet}/"))
    return len({json.loads(line)["id"] for b in bodies for line in b.decode().splitlines() if line})


def exactly_once(moto, bucket, prefix, fleet, written):
    """Each written record in the lake exactly once, counted inside batch objects; every id
    once. Returns a line on the objects counted."""
    events, n_events = records(moto, bucket, f"{prefix}/claims/{fleet}/events/")
    got = Counter(r["payload"]["claim"] for r in events)
    want = Counter(written["proposals"])
    check(got == want, f"(d) claim events: {len(want - got)} lost, {len(got - want)} duplicated "
                       f"or foreign (of {sum(want.values())})")
    notes, n_notes = records(moto, bucket, f"{prefix}/handoffs/{fleet}/")
    got = Counter(summary_of(n) for n in notes)
    want = Counter(written["handoffs"])
    check(got == want, f"(d) handoffs: {len(want - got)} lost, {len(got - want)} duplicated "
                       f"or foreign (of {sum(want.values())})")
    ids = Counter(r["id"] for r in events + notes)
    check(all(c == 1 for c in ids.values()),
          f"(d) {sum(c - 1 for c in ids.values())} record ids in the lake more than once")
    objects = read_all(moto, bucket, moto.keys(bucket, f"{prefix}/sessions/{fleet}/"))
    recs = [json.loads(line) for obj in objects for line in obj.decode().splitlines() if line]
    ids = Counter(r["id"] for r in recs)
    check(all(c == 1 for c in ids.values()),
          f"(d) hook events: {sum(c - 1 for c in ids.values())} duplicated in history objects")
    per_session = Counter(r["session"] for r in recs)
    check(dict(per_session) == written["hooks"],
          f"(d) hook events per session: lake {dict(per_session)} != written {written['hooks']}")
    return (f"{len(events)} claim events in {n_events} objects, "
            f"{len(notes)} handoffs in {n_notes} objects")
