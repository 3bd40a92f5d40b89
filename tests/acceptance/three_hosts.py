"""Three hosts, one bucket (issue 10, "Proof"): three sealed CTXLAKE_HOMEs share a moto S3
bucket, each running `ctxlake sync --watch --interval 1`. 500 agents spread over the hosts
and over three fleets, driven through the CLI and through long-lived `ctxlake mcp` stdio
sessions (one per agent session, DESIGN §3), claim overlapping paths, release, hand off,
propose and fire hooks. Asserted:
  (a) every host shows the same lease holders (`fleet status --json`) soon after the last
      write. A write is drained within a quarter interval (or right after its host's pass
      when passes run back to back), and another host's mirror may have just begun its read:
      the bound is 3 x (interval + the longest pass), for a loaded machine. The issue's
      strict 2 x interval is compared as well; `--strict` fails on it (`.ci/run` runs the
      release binary with `--strict`). The time runs from the last write's return to the
      first check in which all hosts agree; a host's view is taken again whenever its
      roster cache file changed, and once more, fresh, to confirm;
  (b) a claim proposed on host A and promoted by `maint` on host B is found on host C;
  (c) a host whose sync was stopped while the others kept writing catches up on restart;
  (d) `kill -9` of a host's `sync --watch` mid-drain, then a restart: every record written
      is in the lake exactly once (handoffs, claim events, hook events in history objects).
The script's own bite checks, each must make the run fail: `--break prefix` points host C at
another prefix; `--break lose` deletes one drained handoff behind the fleet's back; `--break
dup` copies one claim event under a second key.
`--measure` runs the opt-in scale measurement instead (measure.py).

`--phases N` runs only the first N phases; with CTXLAKE_TRACE_SYNC=1 (and `--keep`) each
host's `sync-N.err` holds its pass phases on the wall clock, to line up with the waits.

usage: <moto venv>/bin/python three_hosts.py /abs/path/to/ctxlake [--break prefix|lose|dup]
       [--strict] [--phases N] [--agents N] [--keep] [--measure [--minutes M] [--interval T] [--settle S] [--quiet S]]"""

import argparse
import os
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
from lakehosts import Failed, Host, Moto, check, remove, temp_root  # noqa: E402
import lakecount  # noqa: E402

INTERVAL = 1
HISTORY_CADENCE = 60  # s: a daemon writes hook history once its oldest event is this old
FLEETS = ["alpha", "beta", "gamma"]  # fleet status shows up to 200 agents: 500 fit in three
BUCKET, PREFIX = "fleet", "lake"


def moto_server():
    explicit = os.environ.get("CTXLAKE_TEST_MOTO")
    return explicit or str(Path(sys.executable).parent / "moto_server")


class Run:
    def __init__(self, args):
        self.args, self.root = args, temp_root()
        self.moto = Moto(moto_server(), open(Path(self.root) / "moto.log", "w"))
        self.moto.s3.create_bucket(Bucket=BUCKET)
        store = f"s3://{BUCKET}/{PREFIX}"
        stores = [store, store, f"s3://{BUCKET}/elsewhere" if args.brk == "prefix" else store]
        self.hosts = [Host(self.root, n, args.bin, self.moto.endpoint, s)
                      for n, s in zip("ABC", stores)]
        if args.measure:  # a fourth host with no agents of its own (measure.py)
            self.hosts.append(Host(self.root, "D", args.bin, self.moto.endpoint, store))
        self.pool = ThreadPoolExecutor(max_workers=4)
        self.viewers = ThreadPoolExecutor(max_workers=len(self.hosts))
        self.expected = {f: set() for f in FLEETS}  # (agent, session, path) leases written
        self.timings = {}

    def close(self):
        for h in self.hosts:
            h.stop_sync()
        self.moto.stop()
        if not self.args.keep:
            remove(self.root)

    # -- fleet views -----------------------------------------------------------------
    def view(self, host, fleet):
        """The lease holders `host` shows for `fleet`: (agent, session, path, state, holder)."""
        v = host.json(["fleet", "status"], fleet=fleet)
        check(not v["truncated"], f"fleet status on {host.name} truncated for {fleet}")
        return {(a["agent"], a["session"], lease["path"], lease["state"], str(lease.get("holder")))
                for a in v["agents"] for lease in a["leases"]}

    def roster_stamp(self, host, fleet):
        """What `fleet status` reads on `host`: its cache's roster file, by identity (each
        pass renames a new one into place) and size. None before the first pass."""
        try:
            st = os.stat(host.home / ".ctxlake" / "cache" / fleet / "roster.json")
            return (st.st_ino, st.st_size, st.st_mtime_ns)
        except FileNotFoundError:
            return None

    def converged(self, hosts, views):
        """True when every host in `hosts` shows the same holders and every expected lease.
        `fleet status` is a function of the host's roster cache file and the clock (no
        lease of this run expires or idles out while it is measured), so a view is taken
        again only when that file changed since it was last taken: the hosts' syncs keep
        the machine's cores instead of sharing them with views that cannot differ.
        `views` maps (host, fleet) to (file stamp, view)."""
        pairs = [(h, f) for f in FLEETS for h in hosts]
        stale = [(h, f) for h, f in pairs
                 if (h, f) not in views or views[(h, f)][0] != self.roster_stamp(h, f)]

        def take(hf):
            stamp = self.roster_stamp(*hf)
            return hf, (stamp, self.view(*hf))
        views.update(self.viewers.map(take, stale))
        for f in FLEETS:
            got = [views[(h, f)][1] for h in hosts]
            if any(v != got[0] for v in got):
                return False
            if {(a, s, p) for a, s, p, _, _ in got[0]} != self.expected[f]:
                return False
        return True

    def wait_converged(self, hosts, what):
        """Seconds until `hosts` agree; fails once 60 s plus four of the longest passes
        went by without it (a pass on a loaded machine can take tens of seconds)."""
        start, views = time.time(), {}
        if os.environ.get("CTXLAKE_TRACE_SYNC"):  # to line up with the hosts' sync traces
            print(f"  {what}: waiting from {start * 1000:.0f} (epoch ms)")
        while time.time() - start < (limit := 60 + 4 * self.longest_pass_s()):
            if self.converged(hosts, views):
                took = time.time() - start
                # Taken afresh, every view must still agree.
                check(self.converged(hosts, {}), f"{what}: fresh views disagree")
                return took
            time.sleep(0.02)
        for f in FLEETS:
            for h in hosts:
                got = {(a, s, p) for a, s, p, _, _ in self.view(h, f)}
                print(f"  {what}: host {h.name} fleet {f}: {len(got)} leases, "
                      f"{len(self.expected[f] - got)} missing, {len(got - self.expected[f])} extra")
        raise Failed(f"{what}: hosts {[h.name for h in hosts]} did not converge in {limit:.0f}s")

    def longest_pass_s(self):
        return max((p["elapsed_ms"] for h in self.hosts for p in h.passes()), default=0) / 1000

    # -- writers ---------------------------------------------------------------------
    def cli_agent(self, i, host, fleet, tag):
        agent, session = f"{tag}{i:03d}", f"{tag}s{i:03d}{host.name}"
        who = {"agent": agent, "session": session, "fleet": fleet}
        paths = [f"src/area{i % 40}"] + (["src"] if i % 9 == 0 else [])
        host.run(["fleet", "claim", *paths, "--reason", f"work {i}"], **who)
        if i % 7 == 0:
            host.run(["fleet", "release", paths[0]], **who)
            paths = paths[1:]
        if i % 6 == 1:
            host.run(["fleet", "handoff", f"{tag} handoff {i}", "--status", "in-progress",
                      "--next", "finish it"], **who)
        return fleet, {(agent, session, p) for p in paths}

    def mcp_agent(self, i, host, fleet, tag):
        agent, session = f"{tag}{i:03d}", f"{tag}s{i:03d}{host.name}"
        m = host.mcp(agent, session, fleet)
        paths = [f"src/area{i % 40}", "src/shared/config.rs"]
        m.call("fleet_claim", {"paths": paths, "reason": f"mcp work {i}", "ttl_secs": 3600})
        m.call("fleet_handoff", {"summary": f"{tag} mcp handoff {i}", "status": "blocked",
                                 "next": "ask the holder"})
        m.call("memory_propose", {
            "claim": f"Area {i} builds need the {tag} toolchain {i}", "type": "environment",
            "subject": f"area{i}", "evidence": [{"session_id": session, "message_id": "m1"}]})
        return m, fleet, {(agent, session, p) for p in paths}

    def write_agents(self, n, tag, hosts):
        """n agents round-robin over `hosts` and the fleets; every 10th speaks MCP (its
        server stays up until all are done), the rest use the CLI, four at a time."""
        jobs, servers = [], []
        for i in range(n):
            host, fleet = hosts[i % len(hosts)], FLEETS[(i // len(hosts)) % len(FLEETS)]
            is_mcp = i % 10 == 0
            fn = self.mcp_agent if is_mcp else self.cli_agent
            jobs.append((is_mcp, self.pool.submit(fn, i, host, fleet, tag)))
        for is_mcp, j in jobs:
            res = j.result()
            if is_mcp:
                servers.append(res[0])
                res = res[1:]
            self.expected[res[0]] |= res[1]
        for m in servers:
            m.close()
        return len(servers)


def phase_a(r):
    for h in r.hosts:
        h.start_sync(INTERVAL)
    t = time.time()
    n_mcp = r.write_agents(r.args.agents, "ag", r.hosts)
    print(f"(a) {r.args.agents} agents ({n_mcp} over MCP) wrote in {time.time() - t:.1f}s")
    conv = r.wait_converged(r.hosts, "(a) three hosts")
    bound = 3 * (INTERVAL + r.longest_pass_s())
    r.timings["(a) lease convergence s"] = conv
    print(f"(a) every host shows the same lease holders {conv:.2f}s after the last write "
          f"(bound 3 x (interval + longest pass) = {bound:.1f}s; strict 2 x interval = "
          f"{2 * INTERVAL}s: {'met' if conv <= 2 * INTERVAL else 'NOT met'})")
    check(conv <= bound, f"(a) convergence {conv:.1f}s over the bound {bound:.1f}s")
    check(not r.args.strict or conv <= 2 * INTERVAL,
          f"(a) --strict: convergence {conv:.1f}s over 2 x interval")


def phase_b(r):
    a, b, c = r.hosts
    text = "Integration tests need the postgres service running"
    a.run(["memory", "propose", text, "--type", "convention", "--subject", "tests",
           "--evidence", "pg1:m1"], agent="pg-one", session="pg1", fleet="alpha")
    m = a.mcp("pg-two", "pg2", "alpha")
    m.call("memory_propose", {"claim": text, "type": "convention", "subject": "tests",
                              "evidence": [{"session_id": "pg2", "message_id": "m7"}]})
    m.close()
    t = time.time()
    lakecount.wait_for(lambda: a.backlog() == 0 and lakecount.proposals(
        r.moto, BUCKET, f"{PREFIX}/claims/alpha/events/", text) == 2, 120, "(b) A drains")
    b.run(["maint", "--only", "alpha"])

    def found():
        v = c.json(["memory", "search", "postgres integration"], fleet="alpha")
        return any(x["claim"] == text and x["independent_sessions"] == 2 for x in v["results"])
    lakecount.wait_for(found, 120, "(b) host C finds the claim promoted by host B")
    r.timings["(b) propose A -> maint B -> search C s"] = time.time() - t
    print(f"(b) proposed on A, promoted by maint on B, found on C after {time.time() - t:.1f}s")


def phase_c(r):
    a, b, c = r.hosts
    c.stop_sync()
    r.write_agents(60, "off", [a, b])
    r.wait_converged([a, b], "(c) A and B while C is offline")
    r.write_agents(20, "offc", [c])  # C's own agents queue into its spool meanwhile
    time.sleep(3 * INTERVAL)
    c.start_sync(INTERVAL)
    conv = r.wait_converged(r.hosts, "(c) C catching up")
    r.timings["(c) offline host catch-up s"] = conv
    print(f"(c) host C, offline while A and B kept writing, caught up {conv:.1f}s after restart")


def phase_d(r):
    b = r.hosts[1]
    b.stop_sync()
    written = lakecount.backlog(b, r.args.backlog)
    total = len(written["proposals"]) + len(written["handoffs"])
    # Small drain blocks (a debug build's knob): the backlog goes out in many flushes, each
    # its own batch objects and watermark, so the kill lands between two of them.
    b.base["CTXLAKE_TEST_DRAIN_BLOCK"] = "16384"
    b.start_sync(INTERVAL)
    events, notes = f"{PREFIX}/claims/bulk/events/", f"{PREFIX}/handoffs/bulk/"

    def under_way():  # a tenth of the records are in the lake: kill now
        n = lakecount.in_lake(r.moto, BUCKET, [events, notes])
        return n if n >= total // 10 else None
    seen = lakecount.wait_for(under_way, 120, "(d) the drain starts")
    b.stop_sync(signal.SIGKILL)
    at_kill = lakecount.in_lake(r.moto, BUCKET, [events, notes])
    check(seen < total and at_kill < total,
          f"(d) the kill did not land mid-drain ({at_kill} of {total} records already in the "
          f"lake): make the backlog larger")
    print(f"(d) killed B's sync -9 mid-drain: {at_kill} of {total} create-only records in the lake")
    b.start_sync(INTERVAL)
    lakecount.wait_for(lambda: b.backlog() == 0, 300, "(d) B drains after the restart")
    # Hook history goes at its own cadence (the oldest pending event 60 s old): wait for it,
    # then count every record exactly once as before.
    lakecount.wait_for(
        lambda: lakecount.hook_events(r.moto, BUCKET, PREFIX, "bulk") >= written["hook_events"],
        HISTORY_CADENCE + 8 * INTERVAL + 30, "(d) B's hook history reaches the lake")
    if r.args.brk == "lose":
        r.moto.s3.delete_object(Bucket=BUCKET, Key=r.moto.keys(BUCKET, notes)[0])
    if r.args.brk == "dup":
        key = r.moto.keys(BUCKET, events)[0]
        r.moto.s3.copy_object(Bucket=BUCKET, Key=key.replace("/events/", "/events/Z"),
                              CopySource={"Bucket": BUCKET, "Key": key})
    counted = lakecount.exactly_once(r.moto, BUCKET, PREFIX, "bulk", written)
    del b.base["CTXLAKE_TEST_DRAIN_BLOCK"]
    print(f"(d) exactly once after kill -9 and restart: {len(written['proposals'])} proposals, "
          f"{len(written['handoffs'])} handoffs, {written['hook_events']} hook events; {counted}")


def summary(r):
    print("\nhost | passes | requests/pass mean | max | idle-pass requests | mean pass ms "
          "| prompt drains (requests) | status last_sync_requests")
    for h in r.hosts:
        # A prompt drain between passes prints as a pass that mirrored no fleet.
        drains = [p for p in h.passes() if not p["fleets"]]
        ps = [p for p in h.passes() if p["fleets"]]
        reqs = [p["requests"] for p in ps]
        idle = [p["requests"] for p in ps if p["drained"]["records"] == 0]
        status = h.json(["status"])
        print(f"{h.name:4} | {len(ps):6} | {sum(reqs) / max(len(reqs), 1):18.0f} | "
              f"{max(reqs, default=0):4} | {sum(idle) / max(len(idle), 1):18.0f} | "
              f"{sum(p['elapsed_ms'] for p in ps) / max(len(ps), 1):12.0f} | "
              f"{len(drains):13} ({sum(p['requests'] for p in drains):5}) | "
              f"{status['last_sync_requests']}")
    for k, v in r.timings.items():
        print(f"{k}: {v:.1f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bin")
    ap.add_argument("--agents", type=int, default=500)
    ap.add_argument("--backlog", type=int, default=1000, help="records queued for the kill -9")
    ap.add_argument("--break", dest="brk", choices=["prefix", "lose", "dup"])
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--phases", type=int, default=4, help="run only the first N phases")
    ap.add_argument("--keep", action="store_true", help="keep the temp homes for a post-mortem")
    ap.add_argument("--measure", action="store_true")
    ap.add_argument("--minutes", type=float, default=3)
    ap.add_argument("--interval", type=int, default=1, help="--measure's sync interval")
    ap.add_argument("--settle", type=float, help="--measure: seconds from the last drain to the quiet window")
    ap.add_argument("--quiet", type=float, help="--measure: the quiet window's length in seconds")
    args = ap.parse_args()
    args.bin = str(Path(args.bin).resolve())
    start = time.time()
    r = Run(args)
    try:
        if args.measure:
            import measure
            measure.run(r, args.minutes, args.interval, args.settle, args.quiet)
            return 0
        for phase in (phase_a, phase_b, phase_c, phase_d)[:args.phases]:
            phase(r)
        summary(r)
        errors = [e for h in r.hosts for e in h.sync_errors()]
        check(not errors, f"sync reported errors: {errors[:5]}")
        print(f"three hosts: all checks passed in {time.time() - start:.0f}s")
        return 0
    except Failed as e:
        print(f"FAIL {e}")
        for h in r.hosts:
            for line in h.sync_errors()[-3:]:
                print(f"  host {h.name} sync: {line}")
        return 1
    finally:
        r.pool.shutdown()
        r.viewers.shutdown()
        r.close()


if __name__ == "__main__":
    sys.exit(main())
