#!/usr/bin/env bash
# Acceptance for `ctxlake doctor --fix`, judged by the runtimes themselves: install into a
# throw-away HOME, break the entry (point it at a binary that does not exist, drop the
# hooks), check that `doctor` names the drift and exits 1, run `doctor --fix`, and require
# the runtime's own CLI to report ctxlake connected again.
#
# usage: tests/acceptance/doctor.sh /abs/ctxlake /abs/runtime-bin-dir [runtime…]
#   a runtime whose CLI is missing is SKIPPED (a failure with ACCEPT_REQUIRE_ALL=1).
#   Exit status is non-zero on any failure.
set -uo pipefail

USAGE="doctor.sh /abs/ctxlake /abs/bin-dir [runtime…]"
DEFAULT_RUNTIMES="claude-code gemini hermes"
# shellcheck source=tests/acceptance/runtime_harness.sh
source "$(dirname "$0")/runtime_harness.sh"

ctx() { (cd "$T/proj" && "$CTXLAKE" "$@"); }

# Install, then break: every mention of this binary in FILES becomes a path that is gone.
install_and_break() {
  ctx install "$RT" --force >"$T/install.out" 2>&1 || { fail "install failed: $(cat "$T/install.out")"; return 1; }
  for f in "$@"; do sed -i "s#$CTXLAKE#/gone/ctxlake#g" "$f"; done
}

# doctor must fail naming the drift; --fix must pass; prints nothing on success.
doctor_repairs() {
  local out
  out=$(ctx doctor 2>&1)
  [ $? = 1 ] || fail "doctor did not exit 1 on a broken entry: $out"
  grep -q "stale_binary_path" <<<"$out" || fail "doctor did not name the stale path: $out"
  out=$(ctx doctor --fix 2>&1) || fail "doctor --fix did not end healthy: $out"
  grep -q -- "--fix: changed" <<<"$out" || fail "doctor --fix changed nothing: $out"
  ctx doctor >/dev/null 2>&1 || fail "doctor still fails after --fix: $(ctx doctor 2>&1)"
}

check_claude() {
  printf '{\n  "numStartups": 1\n}\n' >"$T/.claude.json"
  install_and_break "$T/.claude.json" || return
  printf '{}\n' >"$T/.claude/settings.json" # the hooks are gone too
  out=$(cd "$T/proj" && claude mcp list 2>&1 | strip)
  grep -qE '^ctxlake: .* - ✔ Connected' <<<"$out" && fail "the broken entry still connects: $out"
  doctor_repairs
  out=$(cd "$T/proj" && claude mcp list 2>&1 | strip)
  grep -qE '^ctxlake: .* - ✔ Connected' <<<"$out" || fail "claude mcp list after --fix: $out"
  grep -q '"SessionStart"' "$T/.claude/settings.json" || fail "hooks not re-wired"
}

check_gemini() {
  mkdir -p "$T/.gemini"
  printf '{\n  // folder trust off so user servers connect in a temp dir\n  "security": {"folderTrust": {"enabled": false}}\n}\n' >"$T/.gemini/settings.json"
  install_and_break "$T/.gemini/settings.json" || return
  doctor_repairs
  out=$(cd "$T/proj" && gemini mcp list 2>&1 | strip)
  grep -qE '✓ ctxlake: .* - Connected' <<<"$out" || fail "gemini mcp list after --fix: $out"
  grep -q 'folder trust off' "$T/.gemini/settings.json" || fail "the user's comment was lost"
}

check_hermes() {
  mkdir -p "$T/.hermes"
  printf '# my hermes config\nmodel: x   # keep this comment\n' >"$T/.hermes/config.yaml"
  install_and_break "$T/.hermes/config.yaml" || return
  doctor_repairs
  out=$(cd "$T/proj" && hermes mcp test ctxlake </dev/null 2>&1 | strip)
  grep -q '✓ Connected' <<<"$out" || fail "hermes mcp test after --fix: $out"
  grep -q 'keep this comment' "$T/.hermes/config.yaml" || fail "the user's comment was lost"
}

for RT in "${RUNTIMES[@]}"; do
  case $RT in
    claude-code) cli=claude fn=check_claude ;;
    gemini) cli=gemini fn=check_gemini ;;
    hermes) cli=hermes fn=check_hermes ;;
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
  [ "$FAILED" = 0 ] && say "PASS doctor $RT ($("$cli" --version 2>/dev/null | head -1))"
  FAILED=$((before | FAILED))
  [ -n "${ACCEPT_KEEP:-}" ] && say "  kept $T" || rm -rf "$T"
done
exit "$FAILED"
