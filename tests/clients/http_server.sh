# Sourced by the HTTP client scripts: start `ctxlake mcp --http` on a free loopback port in a
# throw-away CTXLAKE_HOME, export its URL as $url and a client token (`mcp token new ci`) as
# $token, stop it (by pid) on exit. Extra args go to the server (`--no-auth` for clients that
# cannot send a header, such as the conformance suite).
# usage: source tests/clients/http_server.sh /path/to/ctxlake [extra mcp args...]
http_bin=$(realpath "$1")
shift
http_work=$(mktemp -d)
http_env=(env -i PATH="$PATH" HOME="$http_work" CTXLAKE_HOME="$http_work/ctxlake" CTXLAKE_FLEET_ID=team)
token=$("${http_env[@]}" "$http_bin" mcp token new ci 2>/dev/null)
[[ ${#token} == 64 ]] || { echo "ctxlake mcp token new did not print a token"; exit 1; }
"${http_env[@]}" "$http_bin" mcp --http 127.0.0.1:0 "$@" 2>"$http_work/server.err" </dev/null &
http_pid=$!
trap 'kill "$http_pid" 2>/dev/null; wait "$http_pid" 2>/dev/null; rm -rf "$http_work"' EXIT
url=
for _ in $(seq 100); do
  url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$http_work/server.err" 2>/dev/null || true)
  [[ -n $url ]] && break
  sleep 0.05
done
[[ -n $url ]] || { echo "ctxlake mcp --http did not start:"; cat "$http_work/server.err"; exit 1; }
export url token
