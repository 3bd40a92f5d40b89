#!/usr/bin/env bash
# Acceptance by the runtimes themselves: after `ctxlake install <rt>` into a throw-away HOME,
# each runtime's own CLI must report ctxlake connected with its tools; after `uninstall`,
# none may list it, and pre-seeded config files must be byte-identical again.
#
# usage: tests/acceptance/runtimes.sh /abs/ctxlake /abs/runtime-bin-dir [runtime…]
#   runtime-bin-dir holds claude, codex, gemini, opencode (npm .bin) and hermes (venv bin);
#   a runtime whose CLI is missing is SKIPPED (a failure with ACCEPT_REQUIRE_ALL=1).
#   Exit status is non-zero on any failure.
# env:
#   ACCEPT_STANDIN=/abs/server  replace ctxlake's path in the installed files by this MCP
#                               server before checking (to exercise the harness before
#                               `ctxlake mcp` exists); its file name must contain `ctxlake`.
#   ACCEPT_KEEP=1               keep the temp dirs for inspection.
set -uo pipefail

USAGE="runtimes.sh /abs/ctxlake /abs/bin-dir [runtime…]"
DEFAULT_RUNTIMES="claude-code gemini opencode hermes codex"
# shellcheck source=tests/acceptance/runtime_harness.sh
source "$(dirname "$0")/runtime_harness.sh"

snapshot() { mkdir -p "$T/.snap"; for f in "$@"; do cp -p "$f" "$T/.snap/$(basename "$f")"; done; }
same_as_snapshot() {
  for f in "$@"; do cmp -s "$f" "$T/.snap/$(basename "$f")" || fail "$f differs after uninstall"; done
}

ctx() { (cd "$T/proj" && "$CTXLAKE" "$@"); }

install_rt() {
  ctx install "$RT" --force >"$T/install.out" 2>&1 || { fail "install failed: $(cat "$T/install.out")"; return 1; }
  if [ -n "${ACCEPT_STANDIN:-}" ]; then
    for f in "$@"; do sed -i "s#$CTXLAKE#$ACCEPT_STANDIN#g" "$f"; done
  fi
}

uninstall_rt() {
  ctx uninstall "$RT" >"$T/uninstall.out" 2>&1 || fail "uninstall failed: $(cat "$T/uninstall.out")"
}

check_claude() {
  printf '{\n  "numStartups": 1\n}\n' >"$T/.claude.json"
  snapshot "$T/.claude.json"
  install_rt "$T/.claude.json" "$T/.claude/settings.json" || return
  out=$(cd "$T/proj" && claude mcp list 2>&1 | strip)
  grep -qE '^ctxlake: .* - ✔ Connected' <<<"$out" || fail "claude mcp list: $out"
  uninstall_rt
  (cd "$T/proj" && claude mcp get ctxlake >/dev/null 2>&1) && fail "claude still lists ctxlake"
  # Claude rewrites ~/.claude.json itself when it runs (firstStartTime, machineID, …), so
  # uninstall can only take our entry out: no byte-for-byte comparison here.
  grep -q ctxlake "$T/.claude.json" && fail "~/.claude.json still mentions ctxlake"
  grep -q '"numStartups": 1' "$T/.claude.json" || fail "~/.claude.json lost the user's keys"
}

check_gemini() {
  mkdir -p "$T/.gemini"
  printf '{\n  // folder trust off so user servers connect in a temp dir\n  "security": {"folderTrust": {"enabled": false}}\n}\n' >"$T/.gemini/settings.json"
  snapshot "$T/.gemini/settings.json"
  install_rt "$T/.gemini/settings.json" || return
  out=$(cd "$T/proj" && gemini mcp list 2>&1 | strip)
  grep -q 'Invalid configuration' <<<"$out" && fail "gemini rejects the config: $out"
  grep -qE '✓ ctxlake: .* - Connected' <<<"$out" || fail "gemini mcp list: $out"
  uninstall_rt
  out=$(cd "$T/proj" && gemini mcp list 2>&1 | strip)
  grep -q 'ctxlake' <<<"$out" && fail "gemini still lists ctxlake: $out"
  [ -n "${ACCEPT_STANDIN:-}" ] || same_as_snapshot "$T/.gemini/settings.json"
}

check_opencode() {
  mkdir -p "$T/.config/opencode"
  printf '{\n  // mine\n  "$schema": "https://opencode.ai/config.json",\n}\n' >"$T/.config/opencode/opencode.jsonc"
  snapshot "$T/.config/opencode/opencode.jsonc"
  install_rt "$T/.config/opencode/opencode.jsonc" || return
  out=$(cd "$T/proj" && opencode mcp list </dev/null 2>&1 | strip)
  grep -qE '✓ ctxlake connected' <<<"$out" || fail "opencode mcp list: $out"
  uninstall_rt
  out=$(cd "$T/proj" && opencode mcp list </dev/null 2>&1 | strip)
  grep -q 'ctxlake' <<<"$out" && fail "opencode still lists ctxlake: $out"
  [ -n "${ACCEPT_STANDIN:-}" ] || same_as_snapshot "$T/.config/opencode/opencode.jsonc"
}

check_hermes() {
  mkdir -p "$T/.hermes"
  printf '# my hermes config\nmodel: x   # keep this comment\n' >"$T/.hermes/config.yaml"
  snapshot "$T/.hermes/config.yaml"
  install_rt "$T/.hermes/config.yaml" || return
  out=$(cd "$T/proj" && hermes mcp test ctxlake </dev/null 2>&1 | strip)
  grep -q '✓ Connected' <<<"$out" || fail "hermes mcp test: $out"
  grep -qE '✓ Tools discovered: [1-9]' <<<"$out" || fail "hermes found no tools: $out"
  uninstall_rt
  out=$(cd "$T/proj" && hermes mcp test ctxlake </dev/null 2>&1 | strip)
  grep -q 'not found in config' <<<"$out" || fail "hermes still has ctxlake: $out"
  [ -n "${ACCEPT_STANDIN:-}" ] || same_as_snapshot "$T/.hermes/config.yaml"
}

check_codex() {
  mkdir -p "$T/.codex"
  printf '# my codex config\nmodel = "o3" # keep\n' >"$T/.codex/config.toml"
  snapshot "$T/.codex/config.toml"
  install_rt "$T/.codex/config.toml" "$T/.codex/hooks.json" || return
  out=$( (printf '%s\n' '{"id":0,"method":"initialize","params":{"clientInfo":{"name":"probe","version":"0"}}}' \
      '{"method":"initialized"}' '{"id":1,"method":"mcpServerStatus/list","params":{}}'; sleep 6) |
    (cd "$T/proj" && timeout 30 codex app-server 2>/dev/null) | grep '"id":1')
  python3 - "$out" <<'PY' || fail "codex mcpServerStatus/list: $out"
import json, sys
data = json.loads(sys.argv[1])["result"]["data"]
s = next(d for d in data if d["name"] == "ctxlake")
assert s["toolsError"] is None and s["tools"], s
PY
  uninstall_rt
  (cd "$T/proj" && codex mcp list 2>&1) | grep -q ctxlake && fail "codex still lists ctxlake"
  [ -n "${ACCEPT_STANDIN:-}" ] || same_as_snapshot "$T/.codex/config.toml"
}

for RT in "${RUNTIMES[@]}"; do
  case $RT in
    claude-code) cli=claude fn=check_claude ;;
    gemini) cli=gemini fn=check_gemini ;;
    opencode) cli=opencode fn=check_opencode ;;
    hermes) cli=hermes fn=check_hermes ;;
    codex) cli=codex fn=check_codex ;;
    *) skip "no offline verifier for this runtime"; continue ;;
  esac
  if ! command -v "$cli" >/dev/null; then
    skip "\`$cli\` not found in $BIN or PATH"
    continue
  fi
  before=$FAILED
  FAILED=0
  fresh
  $fn
  [ "$FAILED" = 0 ] && say "PASS $RT ($("$cli" --version 2>/dev/null | head -1))"
  FAILED=$((before | FAILED))
  [ -n "${ACCEPT_KEEP:-}" ] && say "  kept $T" || rm -rf "$T"
done
exit "$FAILED"
