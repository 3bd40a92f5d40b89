"""Drive `ctxlake mcp --http` with the official Python MCP SDK's Streamable HTTP client.

usage: python mcp_sdk_http_client.py /path/to/ctxlake

Starts the server on a free loopback port in a throw-away CTXLAKE_HOME with a client token
(`ctxlake mcp token new sdk`), then lists the eight tools and calls every one of them in
`legacy` (initialize handshake, Mcp-Session-Id) and `auto` (server/discover probe, stateless
2026-07-28) mode with `Authorization: Bearer`; checks that the calls act as the token's agent,
that a pinned URL refuses another fleet, that a read-only token is refused a write, and that
without a token the SDK is refused (401). Exits non-zero on the first failed check.
"""

import os
import signal
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

import anyio
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcp_sdk_client import CALLS, TOOLS, check  # noqa: E402  (same checks as over stdio)


def env_of(home):
    return {"PATH": os.environ.get("PATH", ""), "HOME": home,
            "CTXLAKE_HOME": os.path.join(home, ".ctxlake"), "CTXLAKE_FLEET_ID": "team"}


def new_token(binary, home, name, *args):
    return subprocess.run([binary, "mcp", "token", "new", name, *args], env=env_of(home),
                          check=True, capture_output=True, text=True).stdout.strip()


def client(url, token, mode, timeout=15):
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    return Client(streamable_http_client(url, http_client=http), mode=mode,
                  read_timeout_seconds=timeout)


def start(binary, home):
    env = env_of(home)
    p = subprocess.Popen([binary, "mcp", "--http", "127.0.0.1:0"], env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    line = p.stderr.readline().decode()
    url = line.split()[-1] if line.split() else ""
    if not url.startswith("http://127.0.0.1:"):
        p.kill()
        raise SystemExit(f"FAIL: no URL on stderr: {line!r}")
    return p, url


async def every_tool(url, token, mode):
    async with client(url, token, mode) as c:
        print(f"--- http mode={mode} protocol={c.protocol_version}")
        listed = {t.name for t in (await c.list_tools()).tools}
        check(listed == TOOLS, f"[http {mode}] tools/list has the eight tools")
        for name, (args, ok) in CALLS.items():
            r = await c.call_tool(name, args)
            s = r.structured_content
            check(not r.is_error and s is not None and ok(s), f"[http {mode}] {name}")
        r = await c.call_tool("memory_search", {"query": 42})
        check(r.is_error, f"[http {mode}] a wrong-typed argument is an isError result")
        r = await c.call_tool("fleet_status", {})
        check(r.structured_content["agent"] == "sdk",
              f"[http {mode}] calls act as the token's agent ({r.structured_content['agent']})")
        return c.protocol_version


async def read_only(url, token, mode):
    async with client(url, token, mode) as c:
        r = await c.call_tool("fleet_claim", {"paths": ["src/x"], "reason": "r"})
        check(r.is_error and "read_only_token" in r.content[0].text and "`viewer`" in r.content[0].text,
              f"[http {mode} read-only] a write is refused naming the token")
        r = await c.call_tool("fleet_status", {})
        check(not r.is_error, f"[http {mode} read-only] a read works")


async def pinned(url, token, mode):
    async with client(url + "/team", token, mode) as c:
        r = await c.call_tool("fleet_status", {"fleet": "elsewhere"})
        check(r.is_error and "fleet_not_accessible" in r.content[0].text,
              f"[http {mode} pinned] another fleet is refused with fleet_not_accessible")
        r = await c.call_tool("fleet_status", {})
        check(not r.is_error and r.structured_content["fleet"] == "team",
              f"[http {mode} pinned] own fleet works")


async def without_token(url):
    refused = None
    try:
        async with Client(url, mode="legacy", read_timeout_seconds=5) as c:
            await c.list_tools()
    except Exception as e:  # the SDK surfaces the 401 as a transport error, maybe grouped
        refused = e
    leaves = [refused]
    while leaves and isinstance(leaves[0], BaseExceptionGroup):
        leaves = list(leaves[0].exceptions)
    # The SDK reports any non-2xx answer as MCPError -32603 without the status, so the
    # status itself is checked with a bare request below.
    check(refused is not None and isinstance(leaves[0], MCPError),
          f"[http no token] a client without a token is refused ({leaves[0]!r:.80})")
    req = urllib.request.Request(url, data=b"{}", method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(req, timeout=5)
        status = 200
    except urllib.error.HTTPError as e:
        status = e.code
    check(status == 401, f"[http no token] that refusal is HTTP 401 (got {status})")


async def main(binary):
    with tempfile.TemporaryDirectory() as home:
        token = new_token(binary, home, "sdk")
        viewer = new_token(binary, home, "viewer", "--read-only")
        server, url = start(binary, home)
        try:
            legacy = await every_tool(url, token, "legacy")
            check(legacy == "2025-11-25", f"[http] legacy mode negotiated {legacy}")
            auto = await every_tool(url, token, "auto")
            check(auto == "2026-07-28", f"[http] auto mode chose the stateless era ({auto})")
            await pinned(url, token, "legacy")
            await pinned(url, token, "auto")
            await read_only(url, viewer, "legacy")
            await read_only(url, viewer, "auto")
            await without_token(url)
        finally:
            server.send_signal(signal.SIGTERM)
            code = server.wait(timeout=10)
        check(code == 0, f"[http] SIGTERM stops the server cleanly (exit {code})")
    print("mcp sdk http client: all checks passed")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    anyio.run(main, os.path.abspath(sys.argv[1]))
