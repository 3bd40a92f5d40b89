#!/usr/bin/env bash
# Acceptance for `ctxlake hook` through the real runtimes, each in a sealed temp HOME:
#   Claude Code  `ctxlake install claude-code`, then
#     1. `claude -p hi` offline (no login): SessionStart/UserPromptSubmit/SessionEnd reach
#        the spool under the real session id;
#     2. `claude -p` against a scripted local Messages API (fake_anthropic.py): the
#        briefing and a collision warning reach the *model's request*, which proves Claude
#        accepted our output shape; with `block_on_conflict = true` the Write is denied.
#   Hermes       `ctxlake install hermes`, then `hermes hooks test on_session_start`,
#                `pre_llm_call` (the briefing) and `pre_tool_call` (a block).
#   Gemini       `ctxlake install gemini`, then `gemini -p hi` with a dummy key.
# A runtime whose CLI is absent is skipped with a message (a failure with ACCEPT_REQUIRE_ALL=1).
# usage: tests/acceptance/hooks.sh /abs/path/to/ctxlake
set -euo pipefail
BIN=$(realpath "${1:?usage: hooks.sh /path/to/ctxlake}")
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
API_PID=
trap '[ -n "$API_PID" ] && kill "$API_PID" 2>/dev/null; rm -rf "$T"' EXIT
export CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 NO_COLOR=1
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*" >&2; exit 1; }
# Under run.sh (ACCEPT_REQUIRE_ALL=1, every runtime installed) a missing CLI fails the run.
skip() { if [ -n "${ACCEPT_REQUIRE_ALL:-}" ]; then fail "$* (every runtime is required here)"; fi; echo "skip $*"; }

# spool_kinds FILE -> the record kinds in a spool file, one per line (a line is JSON).
spool_kinds() { python3 -c 'import json,sys; [print(json.loads(l)["kind"]) for l in open(sys.argv[1])]' "$1"; }
# with_home H CMD… -> run CMD sealed in home H.
with_home() {
  local h=$1; shift
  env -i PATH="$PATH" HOME="$h" CTXLAKE_HOME="$h/.ctxlake" USER=tester NO_COLOR=1 \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 HERMES_HOME="$h/.hermes" \
    CTXLAKE_AGENT_ID=acceptance "$@"
}
# lease_roster H PATH -> a cache where `alice` holds PATH (repo-relative) in H/proj.
lease_roster() {
  local now; now=$(date -u +%Y-%m-%dT%H:%M:%S.000Z)
  local ms; ms=$(( $(date -u +%s) * 1000 ))
  mkdir -p "$1/.ctxlake/cache/default"
  # Roster times are lake-time ms; 32472144000000 is 2999-01-01T00:00:00Z.
  cat > "$1/.ctxlake/cache/default/roster.json" <<EOF
{"generated_at":"$now","lake_clock_offset_ms":0,"agents":[{"agent":"alice","session":"s-alice",
 "runtime":"codex","task":"notes rewrite","last_seen_ms":$ms,"leases":[{"repo":"$1/proj","path":"$2",
 "reason":"rewriting the notes","granted_at_ms":$ms,"expires_at_ms":32472144000000}]}]}
EOF
}

# start_api PORT -> a fresh scripted Messages API (its turn counter starts at 0).
start_api() {
  if [ -n "$API_PID" ]; then kill "$API_PID" 2>/dev/null || true; wait "$API_PID" 2>/dev/null || true; fi
  rm -rf "$T/api" && mkdir -p "$T/api"
  python3 "$HERE/fake_anthropic.py" "$1" "$T/api" "$T/script.json" >/dev/null 2>&1 & API_PID=$!
  sleep 0.5
}

claude_acceptance() {
  command -v claude >/dev/null || { skip "claude-code: \`claude\` not on PATH"; return; }
  local H=$T/claude SID=6f1c2a7e-0b1d-4c53-9a51-1f0e8d7c6b5a
  mkdir -p "$H/.claude" "$H/proj" && (cd "$H/proj" && git init -q)
  with_home "$H" "$BIN" install claude-code --yes >/dev/null
  grep -q "hook claude-code" "$H/.claude/settings.json" || fail "install wrote no claude hooks"

  # 1. Offline: "Not logged in", but the session's hooks fire.
  (cd "$H/proj" && with_home "$H" claude -p hi --session-id "$SID" >/dev/null 2>&1 || true)
  local f=$H/.ctxlake/spool/hooks/claude-code/$SID.ndjson
  [ -f "$f" ] || fail "claude-code: no spool file for session $SID: $(ls -R "$H/.ctxlake/spool" 2>&1)"
  local kinds; kinds=$(spool_kinds "$f" | tr '\n' ' ')
  for k in hook_session_start hook_prompt hook_session_end; do
    [[ " $kinds" == *" $k "* ]] || fail "claude-code: $k missing from spool ($kinds)"
  done
  ok "claude-code $(claude --version | head -1): offline run captured [$kinds] under session $SID"

  # 2. A real turn against a scripted API: briefing and warning must reach the model.
  lease_roster "$H" notes.txt
  cat > "$T/script.json" <<EOF
[[{"tool":"Write","input":{"file_path":"$H/proj/notes.txt","content":"hello\n"}}], [{"text":"done"}]]
EOF
  local port=$((20000 + RANDOM % 20000))
  start_api "$port"
  (cd "$H/proj" && with_home "$H" env ANTHROPIC_BASE_URL="http://127.0.0.1:$port" \
     ANTHROPIC_API_KEY=sk-ant-api03-acceptance claude -p "write the notes" --allowedTools Write \
     >/dev/null 2>&1) || fail "claude-code: scripted turn failed"
  python3 - "$T/api" <<'PY' || fail "claude-code: briefing/warning did not reach the model"
import json, sys, glob
reqs = [json.load(open(p)) for p in sorted(glob.glob(sys.argv[1] + "/request-*.json"))]
turns = [json.dumps(r["messages"]) for r in reqs if r.get("stream")]
assert turns, "no model request"
assert "ctxlake fleet briefing" in turns[0] and "alice" in turns[0], "briefing not in the first request"
assert any("is leased by `alice`" in t for t in turns[1:]), "collision warning not in a later request"
PY
  [ -f "$H/proj/notes.txt" ] || fail "claude-code: a warning must not stop the Write"
  ok "claude-code: SessionStart additionalContext and PreToolUse warning reached the model; Write went ahead"

  # 3. block_on_conflict = true: the Write is denied and the model is told why.
  rm -f "$H/proj/notes.txt"
  start_api "$port"
  printf '[hooks]\nblock_on_conflict = true\n' >> "$H/.ctxlake/config.toml"
  (cd "$H/proj" && with_home "$H" env ANTHROPIC_BASE_URL="http://127.0.0.1:$port" \
     ANTHROPIC_API_KEY=sk-ant-api03-acceptance claude -p "write the notes" --allowedTools Write \
     >/dev/null 2>&1) || fail "claude-code: scripted turn failed (block)"
  grep -q '"name": "Write"' "$T"/api/request-*.json || fail "claude-code: the model never asked to Write"
  [ ! -f "$H/proj/notes.txt" ] || fail "claude-code: block_on_conflict did not stop the Write"
  grep -q "block_on_conflict" "$T"/api/request-*.json || fail "claude-code: deny reason not shown to the model"
  ok "claude-code: block_on_conflict denied the Write and the model saw the reason"
  kill "$API_PID"; wait "$API_PID" 2>/dev/null || true; API_PID=
}

hermes_acceptance() {
  command -v hermes >/dev/null || { skip "hermes: \`hermes\` not on PATH"; return; }
  local H=$T/hermes
  mkdir -p "$H/.hermes" "$H/proj" && (cd "$H/proj" && git init -q)
  with_home "$H" "$BIN" install hermes --yes >/dev/null
  grep -q "hook hermes" "$H/.hermes/config.yaml" || fail "install wrote no hermes hooks"
  local out
  out=$(cd "$H/proj" && with_home "$H" env HERMES_ACCEPT_HOOKS=1 hermes hooks test on_session_start </dev/null 2>&1)
  echo "$out" | grep -q "exit=0" || fail "hermes: on_session_start hook did not run: $out"
  out=$(cd "$H/proj" && with_home "$H" env HERMES_ACCEPT_HOOKS=1 hermes hooks test pre_llm_call </dev/null 2>&1)
  echo "$out" | grep -q 'parsed.*"context": "ctxlake fleet briefing' || fail "hermes: no briefing from pre_llm_call: $out"
  local f=$H/.ctxlake/spool/hooks/hermes/test-session.ndjson kinds
  kinds=$(spool_kinds "$f" | tr '\n' ' ')
  [[ "$kinds" == *hook_session_start*hook_prompt* ]] || fail "hermes: spool holds [$kinds]"
  ok "hermes $(hermes --version 2>/dev/null | head -1 | awk '{print $3}'): captured [$kinds]; pre_llm_call returned the briefing as context"
  lease_roster "$H" src
  printf '[hooks]\nblock_on_conflict = true\n' >> "$H/.ctxlake/config.toml"
  # Hermes merges this into the hook call's kwargs: `args` becomes the payload's `tool_input`.
  echo "{\"tool_name\":\"write_file\",\"args\":{\"path\":\"$H/proj/src/a.py\",\"content\":\"x\"}}" > "$T/hp.json"
  out=$(cd "$H/proj" && with_home "$H" env HERMES_ACCEPT_HOOKS=1 hermes hooks test pre_tool_call --payload-file "$T/hp.json" </dev/null 2>&1)
  echo "$out" | grep -q 'parsed.*"action": "block"' || fail "hermes: leased write_file not blocked: $out"
  ok "hermes: pre_tool_call write_file on a leased path blocked (block_on_conflict)"
}

gemini_acceptance() {
  command -v gemini >/dev/null || { skip "gemini: \`gemini\` not on PATH"; return; }
  local H=$T/gemini
  mkdir -p "$H/.gemini" "$H/proj" && (cd "$H/proj" && git init -q)
  echo '{"security":{"folderTrust":{"enabled":false}}}' > "$H/.gemini/settings.json"
  with_home "$H" "$BIN" install gemini --yes >/dev/null
  # No key, no network: Gemini fires SessionStart and BeforeAgent, then retries the API.
  (cd "$H/proj" && with_home "$H" env GEMINI_API_KEY=dummy-not-a-key timeout 30 gemini -p hi \
     </dev/null >/dev/null 2>&1 || true)
  local f; f=$(ls "$H"/.ctxlake/spool/hooks/gemini/*.ndjson 2>/dev/null | head -1)
  [ -n "$f" ] || fail "gemini: nothing captured"
  local kinds; kinds=$(spool_kinds "$f" | tr '\n' ' ')
  [[ "$kinds" == *hook_session_start*hook_prompt* ]] || fail "gemini: spool holds [$kinds]"
  ok "gemini $(gemini --version 2>/dev/null | tail -1): captured [$kinds] under session $(basename "$f" .ndjson)"
}

claude_acceptance
hermes_acceptance
gemini_acceptance
echo "hooks acceptance: done"
