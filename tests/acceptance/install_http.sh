#!/usr/bin/env bash
# `ctxlake install <runtime> --http URL` against a running `ctxlake mcp --http`, judged by each
# runtime's own CLI: with a client token in CTXLAKE_MCP_TOKEN, `claude mcp list`,
# `gemini mcp list` and `opencode mcp list` must report the HTTP entry connected (each entry
# expands the variable in its own syntax); with a wrong token none may; the files never hold
# the token; `doctor` names the entry's token as missing, then as revoked; `uninstall` removes
# the entries.
# usage: tests/acceptance/install_http.sh /abs/ctxlake /abs/runtime-bin-dir
#   a runtime whose CLI is missing is skipped (a failure with ACCEPT_REQUIRE_ALL=1).
set -uo pipefail
CTXLAKE=$(readlink -f "${1:?usage: install_http.sh /abs/ctxlake /abs/bin-dir}")
BIN=${2:?usage: install_http.sh /abs/ctxlake /abs/bin-dir}
export PATH="$BIN:$PATH" CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 NO_COLOR=1
T=$(mktemp -d)
mkdir -p "$T/proj" && git -C "$T/proj" init -q
export HOME=$T CTXLAKE_HOME=$T/.ctxlake
unset CLAUDE_CONFIG_DIR XDG_CONFIG_HOME GEMINI_CLI_HOME CTXLAKE_MCP_TOKEN
fails=0
fail() { echo "FAIL install_http: $*"; fails=$((fails + 1)); }
ok() { echo "ok   $*"; }
strip() { sed -E 's/\x1b\[[0-9;?]*[A-Za-z]//g'; }
token=$("$CTXLAKE" mcp token new laptop 2>/dev/null)
"$CTXLAKE" mcp --http 127.0.0.1:0 2>"$T/server.err" </dev/null &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$T"' EXIT
url=
for _ in $(seq 100); do
  url=$(grep -so 'http://127\.0\.0\.1:[0-9]*/mcp' "$T/server.err" || true)
  [[ -n $url ]] && break
  sleep 0.05
done
[[ -n $url ]] || { echo "FAIL: server did not start: $(cat "$T/server.err")"; exit 1; }

# Seed each runtime's file as a person would have it (Gemini: folder trust off in a temp dir).
printf '{\n  "numStartups": 1\n}\n' >"$T/.claude.json"
mkdir -p "$T/.gemini" "$T/.config/opencode"
printf '{\n  "security": {"folderTrust": {"enabled": false}}\n}\n' >"$T/.gemini/settings.json"
printf '{\n  "$schema": "https://opencode.ai/config.json"\n}\n' >"$T/.config/opencode/opencode.json"
files=("$T/.claude.json" "$T/.gemini/settings.json" "$T/.config/opencode/opencode.json")
present=()
for rt in claude:claude-code gemini:gemini opencode:opencode; do
  cli=${rt%%:*}
  if command -v "$cli" >/dev/null; then
    present+=("$rt")
  elif [ -n "${ACCEPT_REQUIRE_ALL:-}" ]; then
    fail "$cli not in $BIN (ACCEPT_REQUIRE_ALL: every runtime is required here)"
  else
    echo "SKIP $cli: not in $BIN"
  fi
done
((${#present[@]} > 0)) || { echo "SKIP install_http: no runtime CLI in $BIN"; exit "$((fails > 0))"; }
for rt in "${present[@]}"; do
  (cd "$T/proj" && "$CTXLAKE" install "${rt#*:}" --http "$url" --force --no-hooks) >"$T/install.out" 2>&1 ||
    fail "install ${rt#*:}: $(cat "$T/install.out")"
done
for f in "${files[@]}"; do grep -q "$token" "$f" && fail "the token was written into $f"; done

# `list` as each runtime's CLI prints it, with CTXLAKE_MCP_TOKEN set to $1.
list() {
  case $1 in
  claude) claude mcp list 2>&1 ;;
  gemini) gemini mcp list 2>&1 ;;
  opencode) opencode mcp list </dev/null 2>&1 ;;
  esac
}
connected() {
  case $1 in
  claude) grep -qE "^ctxlake: $url \(HTTP\) - ✔ Connected" ;;
  gemini) grep -qE "✓ ctxlake: $url \(http\) - Connected" ;;
  opencode) grep -qE '✓ ctxlake connected' ;;
  esac
}
for rt in "${present[@]}"; do
  cli=${rt%%:*}
  out=$(cd "$T/proj" && CTXLAKE_MCP_TOKEN=$token list "$cli" | strip)
  if connected "$cli" <<<"$out"; then
    ok "$cli mcp list: $(grep ctxlake <<<"$out" | head -1)"
  else
    fail "$cli mcp list with the token: $out"
  fi
  out=$(cd "$T/proj" && CTXLAKE_MCP_TOKEN=wrong list "$cli" | strip)
  if connected "$cli" <<<"$out"; then fail "$cli connected with a wrong token: $out"; else ok "$cli refused with a wrong token"; fi
done

# doctor names the entry whose token is missing, then revoked.
out=$(cd "$T/proj" && "$CTXLAKE" doctor 2>&1)
grep -qE 'remote token.*CTXLAKE_MCP_TOKEN, which is not set' <<<"$out" &&
  ok "doctor: the token variable is not set" || fail "doctor without the variable: $out"
out=$(cd "$T/proj" && CTXLAKE_MCP_TOKEN=$token "$CTXLAKE" doctor 2>&1)
grep -qE "remote token.*token \`laptop\`" <<<"$out" &&
  ok "doctor: the entry sends token laptop" || fail "doctor with the token: $out"
"$CTXLAKE" mcp token revoke laptop >/dev/null 2>&1 || fail "revoke"
out=$(cd "$T/proj" && CTXLAKE_MCP_TOKEN=$token "$CTXLAKE" doctor 2>&1)
grep -qE 'remote token.*does not know: revoked' <<<"$out" &&
  ok "doctor: the entry's token is revoked" || fail "doctor after revoke: $out"
for rt in "${present[@]}"; do
  cli=${rt%%:*}
  out=$(cd "$T/proj" && CTXLAKE_MCP_TOKEN=$token list "$cli" | strip)
  connected "$cli" <<<"$out" && fail "$cli still connected with a revoked token: $out"
done

for rt in "${present[@]}"; do
  (cd "$T/proj" && "$CTXLAKE" uninstall "${rt#*:}") >/dev/null 2>&1 || fail "uninstall ${rt#*:}"
done
for f in "${files[@]}"; do grep -q '"ctxlake"' "$f" && fail "$f still holds ctxlake's entry"; done
((fails == 0)) && echo "install_http: ${present[*]%%:*} see the HTTP entry connected with the token only" || exit 1
