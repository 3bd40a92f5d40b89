#!/usr/bin/env bash
# `ctxlake install claude-code --http URL` against a running `ctxlake mcp --http` with a token:
# `claude mcp list` must report the HTTP entry connected (the token reaches it only through
# CTXLAKE_MCP_TOKEN), the file must not hold the token, and `uninstall` must remove it.
# usage: tests/acceptance/install_http.sh /abs/ctxlake /abs/runtime-bin-dir
set -uo pipefail
CTXLAKE=$(readlink -f "${1:?usage: install_http.sh /abs/ctxlake /abs/bin-dir}")
BIN=${2:?usage: install_http.sh /abs/ctxlake /abs/bin-dir}
command -v "$BIN/claude" >/dev/null || { echo "SKIP install_http: no claude in $BIN"; exit 0; }
export PATH="$BIN:$PATH" CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 NO_COLOR=1
T=$(mktemp -d)
mkdir -p "$T/proj" && git -C "$T/proj" init -q
export HOME=$T CTXLAKE_HOME=$T/.ctxlake
unset CLAUDE_CONFIG_DIR XDG_CONFIG_HOME
fails=0
fail() { echo "FAIL install_http: $*"; fails=$((fails + 1)); }
token=$("$CTXLAKE" mcp token new)
"$CTXLAKE" mcp --http 127.0.0.1:0 2>"$T/server.err" </dev/null &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$T"' EXIT
url=
for _ in $(seq 100); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$T/server.err" || true)
  [[ -n $url ]] && break
  sleep 0.05
done
[[ -n $url ]] || { echo "FAIL: server did not start: $(cat "$T/server.err")"; exit 1; }
printf '{\n  "numStartups": 1\n}\n' >"$T/.claude.json"
(cd "$T/proj" && "$CTXLAKE" install claude-code --http "$url" --force --no-hooks) >"$T/install.out" 2>&1 ||
  fail "install: $(cat "$T/install.out")"
grep -q "$token" "$T/.claude.json" && fail "the token was written into ~/.claude.json"
out=$(cd "$T/proj" && CTXLAKE_MCP_TOKEN=$token claude mcp list 2>&1 | sed -E 's/\x1b\[[0-9;?]*[A-Za-z]//g')
if grep -qE "^ctxlake: $url \(HTTP\) - ✔ Connected" <<<"$out"; then
  echo "ok   claude mcp list: $(grep '^ctxlake' <<<"$out")"
else
  fail "claude mcp list: $out"
fi
# Without the token the same entry must not connect (the server answers 401).
out=$(cd "$T/proj" && CTXLAKE_MCP_TOKEN=wrong claude mcp list 2>&1 | sed -E 's/\x1b\[[0-9;?]*[A-Za-z]//g')
grep -qE '^ctxlake: .*✔ Connected' <<<"$out" && fail "connected with a wrong token: $out"
(cd "$T/proj" && "$CTXLAKE" uninstall claude-code) >/dev/null 2>&1 || fail "uninstall"
grep -q ctxlake "$T/.claude.json" && fail "~/.claude.json still mentions ctxlake"
((fails == 0)) && echo "install_http: claude sees the HTTP entry connected" || exit 1
