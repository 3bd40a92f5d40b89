"""Cold start of `ctxlake mcp` to its first tools/call result, next to a reference server.

usage: python3 benches/mcp_cold_start.py CTXLAKE_BIN [--sessions N] [--memory-server CMD]
                                        [--baseline OTHER_CTXLAKE_BIN]

One session = spawn, initialize (answer awaited), notifications/initialized + tools/list
(answer awaited), one tools/call (answer awaited), close stdin, wait for exit: what a real
client does. Reports wall time per session (p50/p99/max, ms) to the call's answer and to
process exit. Sessions of the two servers are interleaved so both see the same machine load.
--memory-server is the `mcp-server-memory` command from @modelcontextprotocol/server-memory.
--baseline runs another ctxlake build (say, the previous commit's) interleaved, for a before/after.
"""

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time


def frame(id_, method, params=None):
    m = {"jsonrpc": "2.0", "method": method}
    if id_ is not None:
        m["id"] = id_
    if params is not None:
        m["params"] = params
    return (json.dumps(m) + "\n").encode()


INIT = {"protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}


def one_session(cmd, env, tool, args):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=env)

    def ask(data):
        p.stdin.write(data)
        p.stdin.flush()
        line = p.stdout.readline()
        if not line:
            raise SystemExit(f"{cmd[0]} closed stdout")
        return json.loads(line)

    ask(frame(1, "initialize", INIT))
    listed = ask(frame(None, "notifications/initialized") + frame(2, "tools/list"))
    assert listed["result"]["tools"], listed
    r = ask(frame(3, "tools/call", {"name": tool, "arguments": args}))
    assert not r["result"].get("isError"), r
    t_call = time.perf_counter()
    p.stdin.close()
    p.wait()
    t_exit = time.perf_counter()
    return (t_call - t0) * 1000, (t_exit - t0) * 1000


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def report(name, samples):
    call = [c for c, _ in samples]
    done = [e for _, e in samples]
    print(f"{name:<14} n={len(samples):<4} to call result: p50 {pct(call, .5):7.2f} ms  "
          f"p99 {pct(call, .99):7.2f} ms | to exit: p50 {pct(done, .5):7.2f} ms  "
          f"p99 {pct(done, .99):7.2f} ms  max {max(done):7.2f} ms  mean {statistics.mean(done):7.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ctxlake")
    ap.add_argument("--sessions", type=int, default=200)
    ap.add_argument("--memory-server", help="command line of mcp-server-memory")
    ap.add_argument("--baseline", help="another ctxlake binary, measured interleaved")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {"PATH": os.environ.get("PATH", ""), "HOME": home,
               "CTXLAKE_HOME": os.path.join(home, ".ctxlake"),
               "MEMORY_FILE_PATH": os.path.join(home, "memory.jsonl")}
        servers = [("ctxlake", [os.path.abspath(a.ctxlake), "mcp"], "fleet_status", {})]
        if a.baseline:
            servers.append(("baseline", [os.path.abspath(a.baseline), "mcp"], "fleet_status", {}))
        if a.memory_server:
            servers.append(("server-memory", shlex.split(a.memory_server), "read_graph", {}))
        for _, cmd, tool, args in servers:  # warm the page cache once, not measured
            one_session(cmd, env, tool, args)
        samples = {name: [] for name, *_ in servers}
        for _ in range(a.sessions):
            for name, cmd, tool, args in servers:
                samples[name].append(one_session(cmd, env, tool, args))
        for name, s in samples.items():
            report(name, s)
        target = pct([e for _, e in samples["ctxlake"]], .5)
        print(f"target <= 10 ms per session (p50 to exit): {'met' if target <= 10 else 'MISSED'}")


if __name__ == "__main__":
    sys.exit(main())
