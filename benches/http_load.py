"""Load on `ctxlake mcp --http`: N concurrent clients x M tool calls each, on loopback.

usage: python3 benches/http_load.py CTXLAKE_BIN [--clients 64] [--calls 100]

Each client opens one keep-alive connection, initializes a session (2025-11-25) and makes M
`tools/call`s (alternating fleet_status and a fleet_claim write); a watcher polls /health
throughout. Reports errors, per-call latency p50/p99/max, throughput and the server's peak RSS
(VmHWM). Runs in a throw-away CTXLAKE_HOME, every client with the token `load` (one token,
as one principal: its per-token caps apply to all N clients). Exits non-zero on any error or
a failed /health.
"""

import argparse
import http.client
import json
import os
import statistics
import subprocess
import tempfile
import threading
import time


def post(conn, body, headers):
    conn.request("POST", "/mcp", body=json.dumps(body), headers=headers)
    r = conn.getresponse()
    data = r.read()
    return r.status, dict(r.getheaders()), data


def client(host, port, token, n, lat, errors, idx):
    conn = http.client.HTTPConnection(host, port, timeout=60)
    base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
            "Authorization": f"Bearer {token}"}
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "load", "version": "1"}}}
    status, headers, _ = post(conn, init, base)
    sid = {k.lower(): v for k, v in headers.items()}.get("mcp-session-id")
    if status != 200 or not sid:
        errors.append(f"client {idx}: initialize {status}")
        return
    h = {**base, "Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
    for i in range(n):
        if i % 2:
            call = {"name": "fleet_claim",
                    "arguments": {"paths": [f"src/c{idx}/f{i}.rs"], "reason": "load"}}
        else:
            call = {"name": "fleet_status", "arguments": {}}
        t0 = time.perf_counter()
        try:
            status, _, data = post(conn, {"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
                                          "params": call}, h)
            lat.append((time.perf_counter() - t0) * 1000)
            res = json.loads(data).get("result", {})
            if status != 200 or res.get("isError") is not False:
                errors.append(f"client {idx} call {i}: {status} {data[:120]!r}")
        except Exception as e:  # a dropped connection is an error, counted
            errors.append(f"client {idx} call {i}: {e!r}")
            conn = http.client.HTTPConnection(host, port, timeout=60)
    conn.close()


def watch_health(host, port, stop, bad, polls):
    while not stop.is_set():
        try:
            c = http.client.HTTPConnection(host, port, timeout=10)
            c.request("GET", "/health")
            r = c.getresponse()
            if r.status != 200 or json.loads(r.read()).get("status") != "ok":
                bad.append(r.status)
            c.close()
        except Exception as e:
            bad.append(repr(e))
        polls.append(1)
        time.sleep(0.2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ctxlake")
    ap.add_argument("--clients", type=int, default=64)
    ap.add_argument("--calls", type=int, default=100)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {"PATH": os.environ.get("PATH", ""), "HOME": home,
               "CTXLAKE_HOME": os.path.join(home, ".ctxlake"), "CTXLAKE_FLEET_ID": "load"}
        made = subprocess.run([a.ctxlake, "mcp", "token", "new", "load"], env=env,
                              capture_output=True, text=True)
        if made.returncode != 0:  # a build from before token principals: one unnamed token
            made = subprocess.run([a.ctxlake, "mcp", "token", "new"], env=env, check=True,
                                  capture_output=True, text=True)
        token = made.stdout.strip()
        p = subprocess.Popen([a.ctxlake, "mcp", "--http", "127.0.0.1:0"], env=env,
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
        url = p.stderr.readline().decode().split()[-1]
        host, port = url.removeprefix("http://").removesuffix("/mcp").split(":")
        lat, errors, bad, polls = [], [], [], []
        stop = threading.Event()
        w = threading.Thread(target=watch_health, args=(host, int(port), stop, bad, polls))
        w.start()
        threads = [threading.Thread(target=client,
                                    args=(host, int(port), token, a.calls, lat, errors, i))
                   for i in range(a.clients)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        stop.set()
        w.join()
        with open(f"/proc/{p.pid}/status") as f:
            hwm = next(line.split()[1] for line in f if line.startswith("VmHWM"))
        p.terminate()
        p.wait(timeout=10)
    lat.sort()
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else [0] * 99
    print(f"clients {a.clients} x calls {a.calls}: {len(lat)} calls in {wall:.1f} s "
          f"({len(lat) / wall:.0f}/s), errors {len(errors)}")
    print(f"latency ms: p50 {q[49]:.2f}  p99 {q[98]:.2f}  max {lat[-1]:.2f}")
    print(f"server peak RSS {int(hwm) / 1024:.1f} MB; /health polled {len(polls)}x, failures {len(bad)}")
    for e in errors[:5]:
        print("  error:", e)
    if errors or bad:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
