#!/usr/bin/env bash
# The MCP Inspector CLI (npm @modelcontextprotocol/inspector) against `ctxlake mcp --http`:
# lists the eight tools (legacy and auto era, --strict schemas) and calls one, over HTTP,
# with a token in `Authorization`; without it the server refuses the Inspector.
# usage: tests/clients/inspector_http.sh /path/to/ctxlake   (mcp-inspector and Node 22 on PATH)
set -euo pipefail
source "$(dirname "$0")/http_server.sh" "${1:?usage: inspector_http.sh /path/to/ctxlake}"
inspector=${INSPECTOR:-mcp-inspector}
export HOME=$http_work # the Inspector keeps a catalog in ~/.mcp-inspector
fails=0
want='sorted(t["name"] for t in r["result"]["tools"]) == sorted(["fleet_status","fleet_claim","fleet_release","fleet_history","fleet_handoff","memory_search","memory_propose","memory_timeline"])'
check() { # check NAME PYTHON_EXPR [inspector args...]
  local name=$1 expr=$2
  shift 2
  if "$inspector" --cli "$url" --transport http --header "Authorization: Bearer $token" "$@" --format json -q >"$http_work/$name.out" 2>"$http_work/$name.err" &&
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if ($expr) else 1)" "$http_work/$name.out"; then
    echo "ok   $name"
  else
    echo "FAIL $name"
    head -c 600 "$http_work/$name.out" "$http_work/$name.err" | sed 's/^/  /'
    fails=$((fails + 1))
  fi
}
for era in legacy auto; do
  check "http-list-$era" "$want" --protocol-era "$era" --method tools/list --strict
  check "http-status-$era" 'r["result"]["isError"] is False and r["result"]["structuredContent"]["fleet"] == "team"' \
    --protocol-era "$era" --method tools/call --tool-name fleet_status
done
if "$inspector" --cli "$url" --transport http --method tools/list --format json -q >"$http_work/none.out" 2>&1; then
  echo "FAIL http-no-token: the Inspector listed tools without a token"
  fails=$((fails + 1))
else
  echo "ok   http-no-token (refused)"
fi
((fails == 0)) || { echo "inspector (http): $fails check(s) failed"; exit 1; }
echo "inspector (http): all checks passed"
