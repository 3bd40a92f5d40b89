#!/usr/bin/env bash
# Run the official conformance suite (npm @modelcontextprotocol/conformance, HTTP only) against
# `ctxlake mcp` behind a stdio→HTTP bridge (npm supergateway), for the scenarios a real server
# without the suite's fixture tools can pass: server-initialize, ping, tools-list.
# usage: tests/clients/conformance.sh /path/to/ctxlake [PORT]   (needs both tools and Node 22 on PATH)
set -euo pipefail

bin=$(realpath "${1:?usage: conformance.sh /path/to/ctxlake [PORT]}")
port=${2:-3919}
work=$(mktemp -d)
# The bridge spawns the server through a shell; a wrapper keeps its environment sealed.
cat >"$work/server.sh" <<EOF
#!/usr/bin/env bash
exec env -i PATH="$PATH" HOME="$work" CTXLAKE_HOME="$work/ctxlake" "$bin" mcp
EOF
chmod +x "$work/server.sh"
supergateway --stdio "$work/server.sh" --outputTransport streamableHttp --stateful \
  --port "$port" --logLevel none >"$work/bridge.log" 2>&1 &
bridge=$!
trap 'kill "$bridge" 2>/dev/null; wait "$bridge" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do
  (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done

fails=0
for scenario in server-initialize ping tools-list; do
  if out=$(conformance server --url "http://127.0.0.1:$port/mcp" --scenario "$scenario" 2>&1); then
    echo "ok   $scenario: $(grep -E '^Passed' <<<"$out")"
  else
    echo "FAIL $scenario"
    sed 's/^/  /' <<<"$out" | tail -20
    fails=$((fails + 1))
  fi
done
((fails == 0)) || { echo "conformance: $fails scenario(s) failed"; exit 1; }
echo "conformance: all scenarios passed"
