#!/usr/bin/env bash
# Drive `ctxlake mcp` with the MCP Inspector CLI (npm @modelcontextprotocol/inspector, Node >= 22.19).
# usage: tests/clients/inspector.sh /path/to/ctxlake
# Needs `mcp-inspector` and a Node 22 `node` on PATH (or INSPECTOR=/path/to/mcp-inspector).
# Fails on any --strict schema finding (warnings included), a failed call, or a wrong answer.
set -euo pipefail

bin=$(realpath "${1:?usage: inspector.sh /path/to/ctxlake}")
inspector=${INSPECTOR:-mcp-inspector}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work # the Inspector keeps a catalog in ~/.mcp-inspector
fails=0

inspect() { # inspect NAME EXPECTED_EXIT [inspector args...] -- stdout in $work/NAME.out
  local name=$1 want=$2 got=0
  shift 2
  "$inspector" --cli "$@" --format json -q >"$work/$name.out" 2>"$work/$name.err" || got=$?
  if [[ $got != "$want" ]]; then
    echo "FAIL $name: exit $got, want $want"
    sed 's/^/  /' "$work/$name.err" | head -20
    fails=$((fails + 1))
    return 1
  fi
}

expect() { # expect NAME PYTHON_EXPR_OVER_r  (r = parsed stdout JSON)
  if python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$work/$1.out"; then
    echo "ok   $1: $2"
  else
    echo "FAIL $1: $2"
    head -c 600 "$work/$1.out" | sed 's/^/  /'
    echo
    fails=$((fails + 1))
  fi
}

server=(-e "CTXLAKE_HOME=$work/ctxlake" -e CTXLAKE_FLEET_ID=team "$bin" mcp)
echo "inspector: $("$inspector" --version 2>/dev/null || echo '?') node: $(node --version)"

for era in legacy auto; do
  if inspect "list-$era" 0 --protocol-era "$era" "${server[@]}" --method tools/list --strict; then
    if [[ -s "$work/list-$era.err" ]]; then
      echo "FAIL list-$era: --strict reported schema problems:"
      sed 's/^/  /' "$work/list-$era.err" | head -40
      fails=$((fails + 1))
    else
      echo "ok   list-$era: --strict found no schema problems"
    fi
    expect "list-$era" 'sorted(t["name"] for t in r["result"]["tools"]) == sorted(["fleet_status","fleet_claim","fleet_release","fleet_history","fleet_handoff","memory_search","memory_propose","memory_timeline"])'
  fi
  inspect "status-$era" 0 --protocol-era "$era" "${server[@]}" --method tools/call --tool-name fleet_status &&
    expect "status-$era" 'r["result"]["isError"] is False and r["result"]["structuredContent"]["fleet"] == "team"'
done

inspect init 0 "${server[@]}" --method initialize &&
  expect init 'r["result"]["protocolVersion"] == "2025-11-25" and r["result"]["serverInfo"]["name"] == "ctxlake"'

args='{"claim":"CI needs RUSTFLAGS=-D warnings","type":"convention","subject":"ci","evidence":[{"session_id":"s1","message_id":"m1"}]}'
inspect propose 0 "${server[@]}" --method tools/call --tool-name memory_propose --tool-args-json "$args" &&
  expect propose 'r["result"]["structuredContent"]["status"] == "queued"'

inspect search 0 "${server[@]}" --method tools/call --tool-name memory_search --tool-arg query=flaky --tool-arg k=3 &&
  expect search 'r["result"]["structuredContent"]["results"] == [] and r["result"]["structuredContent"]["enabled"] is False'

# A refusal is an isError result (the Inspector exits 5 on those) and so is an unknown tool.
inspect refused 5 "${server[@]}" --method tools/call --tool-name memory_propose \
  --tool-args-json '{"claim":"c","type":"convention","subject":"s","evidence":[]}' && echo "ok   refused: isError result (exit 5)"
inspect unknown 5 "${server[@]}" --method tools/call --tool-name memory_write && echo "ok   unknown: tool not found (exit 5)"

pinned=(-e "CTXLAKE_HOME=$work/ctxlake" "$bin" mcp --fleet team)
inspect pinned 5 "${pinned[@]}" --method tools/call --tool-name fleet_status --tool-arg fleet=elsewhere &&
  echo "ok   pinned: another fleet is refused (exit 5)"

if ((fails)); then
  echo "inspector: $fails check(s) failed"
  exit 1
fi
echo "inspector: all checks passed"
