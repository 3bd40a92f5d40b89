#!/usr/bin/env python3
"""`ctxlake init` on a real terminal (a pseudo-terminal): the guided flow's dialoguer prompts.

Usage: init_tty.py BIN

In a sealed HOME holding a Claude Code config, the first run takes every default by pressing
Enter, except the model question, answered "n" (no download here); it must write the config,
wire Claude Code, skip the model, and exit 0. The second run must show Claude Code as already
wired, ask nothing about it, and leave its config byte for byte. Standard library only.
"""
import os
import pty
import re
import select
import shutil
import sys
import tempfile
import time

BIN = sys.argv[1]
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def fail(msg, out=""):
    print(f"FAIL init on a terminal: {msg}\n{out[-2000:]}", file=sys.stderr)
    sys.exit(1)


def drive(home):
    """Run `ctxlake init --no-service` on a pty; answer each prompt once it is waiting."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
           "CTXLAKE_HOME": f"{home}/.ctxlake", "USER": "tester", "CTXLAKE_AGENT_ID": "tty",
           "TERM": "xterm", "COLUMNS": "100"}
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(home)
        os.execve(BIN, ["ctxlake", "init", "--no-service"], env)
    out, prompts = b"", []
    deadline = time.time() + 120
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            continue
        # Quiet for half a second: a prompt is waiting on its last line.
        last = ANSI.sub(b"", out).rstrip(b" ").split(b"\n")[-1].decode("utf-8", "replace")
        prompts.append(last)
        os.write(fd, b"n\r" if "semantic model" in last else b"\r")
        time.sleep(0.3)
    _, status = os.waitpid(pid, 0)
    return ANSI.sub(b"", out).decode("utf-8", "replace"), prompts, os.waitstatus_to_exitcode(status)


def main():
    home = tempfile.mkdtemp(prefix="ctxlake-init-tty-")
    try:
        os.makedirs(f"{home}/.claude")
        for f in (".claude.json", ".claude/settings.json"):
            with open(f"{home}/{f}", "w") as fh:
                fh.write("{}\n")
        out, prompts, code = drive(home)
        if code != 0:
            fail(f"first run exited {code}", out)
        for asked in ("Fleet", "Agent id", "Store URL", "semantic model"):
            if not any(asked in p for p in prompts):
                fail(f"first run never asked `{asked}` (asked: {prompts})", out)
        # A multi-select's last line is its cursor row, not its question.
        if "Runtimes to wire" not in out:
            fail("first run never asked which runtimes to wire", out)
        if "ctxlake" not in open(f"{home}/.claude.json").read():
            fail("Claude Code's MCP entry was not written", out)
        if not os.path.exists(f"{home}/.ctxlake/config.toml"):
            fail("no config.toml", out)
        if "model     (skipped)" not in out:
            fail("the model was not skipped after answering no", out)
        before = open(f"{home}/.claude.json", "rb").read()
        out, prompts, code = drive(home)
        if code != 0:
            fail(f"second run exited {code}", out)
        if "Runtimes to wire" in out:
            fail("second run asked about runtimes already wired", out)
        if "runtimes  (already)" not in out:
            fail("second run did not say the runtimes are already wired", out)
        if open(f"{home}/.claude.json", "rb").read() != before:
            fail("second run changed Claude Code's config", out)
        print("ok   init on a terminal: guided prompts, defaults, idempotent second run")
    finally:
        shutil.rmtree(home, ignore_errors=True)


main()
