"""Opt-in scale measurement (`three_hosts.py --measure`): N agents spread over the three
hosts write at a realistic rate for a few minutes while every host runs
`sync --watch --interval 1`; the request counters of every sync pass (the `requests` field
of `sync --watch --json`) give requests per sync pass and per agent per hour, split into
the idle cost of a pass (nothing to drain) before and after the writes, and the lake's object
counts at the end. docs/scale.md quotes the output."""

import json
import time
from concurrent.futures import ThreadPoolExecutor

from lakecount import wait_for

# One busy agent per hour: a hook event every 10 s (a tool call's Pre/PostToolUse), a lease
# renewal every minute, a handoff and a proposal every five minutes.
HOOK_EVERY, CLAIM_EVERY, NOTE_EVERY = 10, 60, 300
AGENTS_PER_HOST = 10
FLEET = "measure"


def window(hosts):
    """Per host: the sync passes completed so far."""
    return {h.name: len(h.passes()) for h in hosts}


def tally(hosts, since):
    rows = {}
    for h in hosts:
        ps = h.passes()[since[h.name]:]
        rows[h.name] = {
            "passes": len(ps),
            "requests": sum(p["requests"] for p in ps),
            "records": sum(p["drained"]["records"] for p in ps),
            "per_pass": [p["requests"] for p in ps],
            "pass_ms": sum(p["elapsed_ms"] for p in ps) / max(len(ps), 1),
        }
    return rows


class Agent:
    def __init__(self, host, i):
        self.host, self.i = host, i
        self.name, self.session = f"m{i:03d}", f"ms{i:03d}{host.name}"
        self.mcp = host.mcp(self.name, self.session, FLEET)
        self.hooks = 0

    def claim(self):
        self.mcp.call("fleet_claim", {"paths": [f"src/area{self.i % 12}"], "reason": "work"})

    def note(self, k):
        self.mcp.call("fleet_handoff", {"summary": f"step {k} of {self.name}", "status": "done"})
        self.mcp.call("memory_propose", {
            "claim": f"Agent {self.i} found that step {k} needs cache warmup {self.i}x{k}",
            "type": "outcome", "subject": f"{self.name}x{k}",
            "evidence": [{"session_id": self.session, "message_id": f"m{k}"}]})

    def hook(self):
        self.hooks += 1
        ev = "PreToolUse" if self.hooks % 2 else "PostToolUse"
        payload = {"session_id": self.session, "cwd": str(self.host.work),
                   "hook_event_name": ev, "tool_name": "Bash",
                   "tool_input": {"command": f"cargo test {self.hooks}"}}
        self.host.run(["hook", "claude-code"], stdin=json.dumps(payload), agent=self.name,
                      session=self.session, fleet=FLEET)


def drive(agents, seconds):
    """Every agent on its own staggered schedule, four writers at a time."""
    start, sent, jobs = time.time(), set(), []
    with ThreadPoolExecutor(max_workers=4) as pool:
        while time.time() - start < seconds:
            t = time.time() - start
            for a in agents:
                off = a.i * HOOK_EVERY / len(agents)
                for what, every, fn in (("h", HOOK_EVERY, a.hook), ("c", CLAIM_EVERY, a.claim),
                                        ("n", NOTE_EVERY, None)):
                    k = int((t + off) // every)
                    if (a.i, what, k) not in sent:
                        sent.add((a.i, what, k))
                        jobs.append(pool.submit(fn or (lambda a=a, k=k: a.note(k))))
            time.sleep(0.2)
        for j in jobs:
            j.result()


def run(r, minutes):
    hosts = r.hosts
    for h in hosts:
        h.start_sync(1)
    agents = [Agent(h, i * len(hosts) + n) for i in range(AGENTS_PER_HOST)
              for n, h in enumerate(hosts)]
    for a in agents:
        a.claim()
    wait_for(lambda: all(h.backlog() == 0 for h in hosts), 300, "measure: first drain")
    time.sleep(5)
    idle_before = idle(hosts)
    since = window(hosts)
    t = time.time()
    drive(agents, minutes * 60)
    busy_s = time.time() - t
    busy = tally(hosts, since)
    for a in agents:
        a.mcp.close()
    wait_for(lambda: all(h.backlog() == 0 for h in hosts), 300, "measure: last drain")
    time.sleep(5)
    after = idle(hosts)
    report(len(agents), idle_before, busy, after, busy_s)
    objects = {area: len(r.moto.keys("fleet", f"lake/{area}/{FLEET}/"))
               for area in ("live", "sessions", "handoffs", "claims")}
    print(f"lake objects of fleet `{FLEET}` at the end: {objects}")


def idle(hosts):
    """Requests per sync pass with nothing to drain, over 20 s."""
    since = window(hosts)
    time.sleep(20)
    return tally(hosts, since)


def per_pass(row):
    return row["requests"] / max(row["passes"], 1)


def report(n, before, busy, after, busy_s):
    print(f"measure: {n} agents over {len(busy)} hosts, {busy_s:.0f}s of writes "
          f"(per agent and hour: {3600 // HOOK_EVERY} hook events, {3600 // CLAIM_EVERY} claims, "
          f"{3600 // NOTE_EVERY} handoffs, {3600 // NOTE_EVERY} proposals)")
    print("host | requests/idle pass before | busy passes | requests/busy pass (first, last) "
          "| records drained | mean busy pass ms | requests/idle pass after")
    total = 0
    for name, b in busy.items():
        total += b["requests"]
        reqs = b["per_pass"]
        print(f"{name:4} | {per_pass(before[name]):25.1f} | {b['passes']:11} | "
              f"{per_pass(b):10.1f} ({reqs[0] if reqs else 0}, {reqs[-1] if reqs else 0}) | "
              f"{b['records']:15} | {b['pass_ms']:17.0f} | {per_pass(after[name]):.1f}")
    hours = busy_s / 3600
    # Drain and mirror share one counter per pass; docs/scale.md splits them with the lake's
    # object counts printed below (the idle pass after the run is the mirror's cost).
    print(f"requests per agent per hour: {total / n / hours:.0f}")
    passes = sum(b["passes"] for b in busy.values()) / len(busy)
    print(f"passes per host per hour: {passes / hours:.0f}")
