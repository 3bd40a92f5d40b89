"""Opt-in scale measurement (`three_hosts.py --measure [--interval T]`): 30 agents spread
over hosts A, B and C write at a realistic rate for a few minutes while every host runs
`sync --watch --interval T` (default 1; the daemon's own default is 15), and a fourth host D
with no agents of its own syncs the same lake. The request counters of every sync pass and
prompt drain (the `requests` and `gets` fields of `sync --watch --json`) give, split into
PUT-class (every request that is not an object read: LIST, PUT, create, DELETE, billed as
PUT except DELETE) and GET-class (GET, HEAD):
  - requests per busy agent-hour: everything hosts A-C sent while their agents wrote, over
    the agents and the hours;
  - requests per idle host-hour while the fleet is busy: host D's;
  - requests per idle host-hour on a quiet lake: every host's, over a window after the
    writes stopped (long enough for several passes at T, and for a daemon's back-off);
and the lake's object counts at the end. docs/scale.md quotes the output (`MEASURE ...`
lines are the machine-readable summary)."""

import json
import time
from concurrent.futures import ThreadPoolExecutor

from lakecount import wait_for

# One busy agent per hour: a hook event every 10 s (a tool call's Pre/PostToolUse), a lease
# renewal every minute, a handoff and a proposal every five minutes.
HOOK_EVERY, CLAIM_EVERY, NOTE_EVERY = 10, 60, 300
AGENTS_PER_HOST = 10
FLEET = "measure"
BUSY_HOSTS = 3  # hosts A, B, C; the rest (D) have no agents


def idle_seconds(interval):
    """A quiet window long enough for several passes, backed off or not."""
    return max(30, 12 * interval)


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
            "gets": sum(p.get("gets", 0) for p in ps),
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


def run(r, minutes, interval, settle=None, quiet=None):
    hosts = r.hosts
    # The idle hosts serve the busy fleet (their configured fleet), so they mirror it as a
    # reader of its history: a host mirrors only the fleets it serves.
    for h in hosts[BUSY_HOSTS:]:
        h.fleet = FLEET
    for h in hosts:
        # Every host serves the measured fleet, D too (it has no agents to make it served).
        h.start_sync(interval, fleet=FLEET)
    busy_hosts = hosts[:BUSY_HOSTS]
    agents = [Agent(h, i * len(busy_hosts) + n) for i in range(AGENTS_PER_HOST)
              for n, h in enumerate(busy_hosts)]
    for a in agents:
        a.claim()
    wait_for(lambda: all(h.backlog() == 0 for h in hosts), 300, "measure: first drain")
    time.sleep(5)
    since = window(hosts)
    t = time.time()
    drive(agents, minutes * 60)
    busy_s = time.time() - t
    busy = tally(hosts, since)
    for a in agents:
        a.mcp.close()
    wait_for(lambda: all(h.backlog() == 0 for h in hosts), 300, "measure: last drain")
    # --settle: how long after the last drain the quiet window starts (hook history still
    # pending on a host lands in up to a minute, and the daemons then back off step by
    # step); --quiet: its length. The defaults measure the first minutes after the
    # writes; a long settle and window measure the steady state of a quiet lake.
    time.sleep(max(5, 2 * interval) if settle is None else settle)
    quiet_s = idle_seconds(interval) if quiet is None else quiet
    after = idle(hosts, quiet_s)
    report(len(agents), interval, busy, busy_s, after, quiet_s)
    objects = {area: len(r.moto.keys("fleet", f"lake/{area}/{FLEET}/"))
               for area in ("live", "sessions", "handoffs", "claims")}
    print(f"lake objects of fleet `{FLEET}` at the end: {objects}")


def idle(hosts, seconds):
    """The passes of a quiet window: nothing written anywhere."""
    since = window(hosts)
    time.sleep(seconds)
    return tally(hosts, since)


def per_pass(row):
    return row["requests"] / max(row["passes"], 1)


def split(rows, names, hours, per):
    """(PUT-class, GET-class) requests over `rows` of hosts `names`, per hour and `per`."""
    reqs = sum(rows[n]["requests"] for n in names)
    gets = sum(rows[n]["gets"] for n in names)
    return (reqs - gets) / hours / per, gets / hours / per


def report(n, interval, busy, busy_s, after, quiet_s):
    print(f"measure: {n} agents over {BUSY_HOSTS} hosts and {len(busy) - BUSY_HOSTS} idle "
          f"host(s), interval {interval}s, {busy_s:.0f}s of writes, {quiet_s}s quiet after "
          f"(per agent and hour: {3600 // HOOK_EVERY} hook events, {3600 // CLAIM_EVERY} "
          f"claims, {3600 // NOTE_EVERY} handoffs, {3600 // NOTE_EVERY} proposals)")
    print("host | busy: passes+drains | requests (GETs) | per pass (first, last) "
          "| records drained | mean ms | quiet: passes | requests (GETs)")
    for name, b in busy.items():
        reqs, a = b["per_pass"], after[name]
        print(f"{name:4} | {b['passes']:19} | {b['requests']:8} ({b['gets']:5}) | "
              f"{per_pass(b):8.1f} ({reqs[0] if reqs else 0}, {reqs[-1] if reqs else 0}) | "
              f"{b['records']:15} | {b['pass_ms']:7.0f} | {a['passes']:13} | "
              f"{a['requests']:5} ({a['gets']})")
    names = list(busy)
    busy_names, idle_names = names[:BUSY_HOSTS], names[BUSY_HOSTS:]
    hours, quiet_h = busy_s / 3600, quiet_s / 3600
    put, get = split(busy, busy_names, hours, n)
    print(f"MEASURE interval={interval} busy_agent_hour put={put:.0f} get={get:.0f} "
          f"total={put + get:.0f}")
    if idle_names:
        put, get = split(busy, idle_names, hours, len(idle_names))
        print(f"MEASURE interval={interval} idle_host_hour_busy_fleet put={put:.0f} "
              f"get={get:.0f} total={put + get:.0f}")
    put, get = split(after, names, quiet_h, len(names))
    print(f"MEASURE interval={interval} idle_host_hour_quiet_lake put={put:.0f} get={get:.0f} "
          f"total={put + get:.0f}")
    passes = sum(busy[h]["passes"] for h in busy_names) / len(busy_names)
    print(f"passes and drains per busy host per hour: {passes / hours:.0f}")
