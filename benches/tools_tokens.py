"""What ctxlake's tool list costs in model context, in o200k_base tokens (tiktoken).

usage: python benches/tools_tokens.py CTXLAKE_BIN [--baseline OTHER_CTXLAKE_BIN] [--check]

Needs `tiktoken` (PyPI). Set up once, offline afterwards:
    python3 -m venv ~/.cache/ctxlake-ci/tiktoken
    ~/.cache/ctxlake-ci/tiktoken/bin/pip install tiktoken
    TIKTOKEN_CACHE_DIR=~/.cache/ctxlake-ci/tiktoken-cache \
        ~/.cache/ctxlake-ci/tiktoken/bin/python benches/tools_tokens.py target/release/ctxlake
(the first run downloads the o200k_base vocabulary into TIKTOKEN_CACHE_DIR).

It runs `ctxlake mcp` in a throwaway HOME and asks for `tools/list` at each protocol
revision a client can negotiate, then counts:
  whole         the `tools/list` result as the server sent it (compact JSON): what a client
                that passes everything to the model pays;
  model-visible name + description + inputSchema of every tool (compact JSON): what a client
                that passes only those pays;
  instructions  the server `instructions` from `initialize` / `server/discover`: what a
                tool-search client loads before any definition.
Bytes are of the same compact JSON. --check exits 1 when a budget of issue 26 is broken
(whole <= 2500, model-visible <= 1200, instructions <= 120 at every revision).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import tiktoken

BUDGET = {"whole": 2500, "model-visible": 1200, "instructions": 120}
REVISIONS = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]


def compact(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def frames(version):
    """The request lines that list the tools (and get the instructions) at one revision."""
    if version == "2026-07-28":
        meta = {"_meta": {"io.modelcontextprotocol/protocolVersion": version,
                          "io.modelcontextprotocol/clientCapabilities": {}}}
        return [{"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": meta},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": meta}]
    return [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"protocolVersion": version, "capabilities": {},
                        "clientInfo": {"name": "bench", "version": "1"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}]


def listing(binary, version, home):
    env = dict(os.environ, HOME=home, CTXLAKE_HOME=os.path.join(home, ".ctxlake"))
    lines = "".join(compact(f) + "\n" for f in frames(version))
    out = subprocess.run([binary, "mcp"], input=lines.encode(), capture_output=True,
                         env=env, timeout=60, check=True).stdout.decode()
    by_id = {}
    for line in out.splitlines():
        m = json.loads(line)
        if "id" in m:
            by_id[m["id"]] = m
    hello, listed = by_id[1].get("result", {}), by_id[2]["result"]
    return hello.get("instructions", ""), listed


def measure(binary, version, enc, home):
    instructions, listed = listing(binary, version, home)
    visible = [{k: t[k] for k in ("name", "description", "inputSchema")}
               for t in listed["tools"]]
    parts = {"whole": compact(listed), "model-visible": compact(visible),
             "instructions": instructions}
    return {k: (len(enc.encode(v)), len(v.encode())) for k, v in parts.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("ctxlake")
    ap.add_argument("--baseline", help="another ctxlake build, for a before/after")
    ap.add_argument("--check", action="store_true", help="exit 1 over budget")
    a = ap.parse_args()
    enc = tiktoken.get_encoding("o200k_base")
    builds = [("after", a.ctxlake)] + ([("before", a.baseline)] if a.baseline else [])
    over = []
    print(f"{'build':<7} {'revision':<11} {'whole':>14} {'model-visible':>14} "
          f"{'instructions':>13}   (o200k tokens / bytes)")
    with tempfile.TemporaryDirectory() as home:
        for name, binary in builds:
            for v in REVISIONS:
                m = measure(os.path.abspath(binary), v, enc, home)
                cells = "".join(f" {m[k][0]:>6} / {m[k][1]:>6}" for k in
                                ("whole", "model-visible"))
                print(f"{name:<7} {v:<11}{cells} {m['instructions'][0]:>6} / "
                      f"{m['instructions'][1]:>4}")
                if name == "after":
                    over += [f"{v} {k}: {m[k][0]} > {b}" for k, b in BUDGET.items()
                             if m[k][0] > b]
    if a.check and over:
        print("over budget: " + "; ".join(over), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
