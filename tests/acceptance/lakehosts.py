"""Helpers for the multi-host acceptance run (three_hosts.py): a moto S3 server on a free
loopback port, sealed ctxlake hosts sharing one bucket, their `sync --watch` daemons, and
long-lived `ctxlake mcp` stdio sessions. Runs under the moto venv's python (boto3 comes
with moto[server]); nothing here talks to anything but loopback."""

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import boto3
from botocore.config import Config

REPO_URL = "https://github.com/acme/app.git"  # one repo id on every host: leases overlap


class Failed(Exception):
    """An acceptance assertion failed; the message says what and where."""


def check(cond, msg):
    if not cond:
        raise Failed(msg)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Moto:
    """moto_server on a free loopback port, killed by stop()."""

    def __init__(self, moto_server, log):
        for _ in range(3):
            self.port = free_port()
            self.proc = subprocess.Popen(
                [moto_server, "-H", "127.0.0.1", "-p", str(self.port)],
                stdout=log, stderr=subprocess.STDOUT)
            deadline = time.time() + 30
            while time.time() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", self.port), 0.5).close()
                    self.endpoint = f"http://127.0.0.1:{self.port}"
                    self.s3 = boto3.client(
                        "s3", endpoint_url=self.endpoint, region_name="us-east-1",
                        aws_access_key_id="test", aws_secret_access_key="test",
                        config=Config(retries={"max_attempts": 3}))
                    return
                except OSError:
                    time.sleep(0.1)
            self.stop()
        raise Failed("moto_server did not start")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def keys(self, bucket, prefix):
        out = []
        pages = self.s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
        for page in pages:
            out += [o["Key"] for o in page.get("Contents", [])]
        return out

    def body(self, bucket, key):
        return self.s3.get_object(Bucket=bucket, Key=key)["Body"].read()


def parse_stream(text):
    """The JSON objects of a `--json --watch` stdout (pretty-printed, back to back); a
    torn last object (the process was killed mid-write) is dropped."""
    dec, out, i = json.JSONDecoder(), [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        try:
            obj, i = dec.raw_decode(text, i)
        except json.JSONDecodeError:
            return out
        out.append(obj)


class Host:
    """One machine of the fleet: its own HOME and CTXLAKE_HOME, the shared bucket."""

    def __init__(self, root, name, binary, endpoint, store):
        self.name, self.bin, self.store = name, binary, store
        self.home = Path(root) / name
        self.work = self.home / "work"
        (self.work / ".git").mkdir(parents=True)
        (self.work / ".git" / "config").write_text(f'[remote "origin"]\n\turl = {REPO_URL}\n')
        self.base = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.home),
            "CTXLAKE_HOME": str(self.home / ".ctxlake"), "USER": "tester", "NO_COLOR": "1",
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_DATA_HOME": str(self.home / ".local/share"),
            "XDG_STATE_HOME": str(self.home / ".local/state"),
            "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
            "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": endpoint, "AWS_ALLOW_HTTP": "true",
            "AWS_EC2_METADATA_DISABLED": "true", "CTXLAKE_STORE": store,
            # A loaded 2-core machine can make a debug hook miss the release budget.
            "CTXLAKE_HOOK_BUDGET_MS": "20000",
        }
        if os.environ.get("CTXLAKE_TRACE_SYNC"):  # phase times for a post-mortem (--keep)
            self.base["CTXLAKE_TRACE_SYNC"] = os.environ["CTXLAKE_TRACE_SYNC"]
        self.sync_proc, self.sync_runs = None, 0
        self.fleet = "default"  # the host's configured fleet, which its sync serves

    def env(self, agent="operator", session="s-operator", fleet=None):
        return dict(self.base, CTXLAKE_AGENT_ID=agent, CTXLAKE_SESSION_ID=session,
                    CTXLAKE_FLEET_ID=fleet or self.fleet)

    def run(self, args, stdin=None, **who):
        p = subprocess.run([self.bin, *args], env=self.env(**who), cwd=self.work,
                           input=stdin, capture_output=True, text=True, timeout=120)
        check(p.returncode == 0,
              f"host {self.name}: `ctxlake {' '.join(args)}` exited {p.returncode}: {p.stderr}")
        return p.stdout

    def json(self, args, **who):
        return json.loads(self.run([*args, "--json"], **who))

    # -- the sync daemon -------------------------------------------------------------
    def start_sync(self, interval, fleet="default"):
        """`fleet`: the daemon's own fleet (served even when none of its agents wrote to it)."""
        self.sync_runs += 1
        out = open(self.home / f"sync-{self.sync_runs}.out", "w")
        err = open(self.home / f"sync-{self.sync_runs}.err", "w")
        self.sync_proc = subprocess.Popen(
            [self.bin, "sync", "--watch", "--interval", str(interval), "--json"],
            env=self.env(fleet=fleet), cwd=self.work, stdout=out, stderr=err)

    def stop_sync(self, sig=signal.SIGTERM):
        if self.sync_proc and self.sync_proc.poll() is None:
            self.sync_proc.send_signal(sig)
            self.sync_proc.wait()
        self.sync_proc = None

    def passes(self):
        """Every completed sync pass of every daemon run on this host, oldest first."""
        out = []
        for i in range(1, self.sync_runs + 1):
            out += parse_stream((self.home / f"sync-{i}.out").read_text())
        return out

    def sync_errors(self):
        text = ""
        for i in range(1, self.sync_runs + 1):
            text += (self.home / f"sync-{i}.err").read_text()
        return [line for line in text.splitlines() if line.startswith("error")]

    def backlog(self):
        return self.json(["status"])["spool_backlog_bytes"]

    def mcp(self, agent, session, fleet):
        return Mcp(self, agent, session, fleet)


class Mcp:
    """A long-lived `ctxlake mcp` stdio server: one agent's session (DESIGN §3: each
    `ctxlake mcp` process is one session), driven by newline-delimited JSON-RPC."""

    def __init__(self, host, agent, session, fleet):
        self.host, self.agent, self.next_id = host, agent, 1
        self.lock = threading.Lock()  # one request in flight: replies match their ids
        self.proc = subprocess.Popen(
            [host.bin, "mcp"], env=host.env(agent, session, fleet), cwd=host.work,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "three_hosts", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, msg):
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()

    def request(self, method, params):
        with self.lock:
            rid, self.next_id = self.next_id, self.next_id + 1
            self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
            line = self.proc.stdout.readline()
        check(line, f"mcp server of {self.agent} on {self.host.name} closed stdout")
        reply = json.loads(line)
        check(reply.get("id") == rid and "result" in reply, f"mcp {method}: {reply}")
        return reply["result"]

    def call(self, tool, args):
        res = self.request("tools/call", {"name": tool, "arguments": args})
        check(not res.get("isError"), f"mcp {tool} for {self.agent}: {res}")
        return res["structuredContent"]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def temp_root():
    return tempfile.mkdtemp(prefix="ctxlake-hosts-")


def remove(root):
    shutil.rmtree(root, ignore_errors=True)
