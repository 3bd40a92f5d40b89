#!/usr/bin/env bash
# A lake flooded with fake fleet markers (issue 23 A): what one `sync` of a host costs in
# store requests with N markers planted next to its own fleet, against the same lake
# without them. S3 through moto on loopback, so every request is counted (`sync --json`
# `requests`); a local lake reports 0.
# usage: benches/fleet_flood.sh [MARKERS] [BINARY]   (default 300, target/debug/ctxlake;
#        needs python3, curl and moto_server, from CTXLAKE_TEST_MOTO or
#        ~/.cache/ctxlake-ci/moto/bin/moto_server). Pass an older build as BINARY to compare.
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-300}"
B="$(realpath "${2:-target/debug/ctxlake}")"
MOTO="${CTXLAKE_TEST_MOTO:-$HOME/.cache/ctxlake-ci/moto/bin/moto_server}"
T=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$MOTO" -H 127.0.0.1 -p "$PORT" >/dev/null 2>&1 &
MOTO_PID=$!
trap 'kill $MOTO_PID 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq 100); do curl -s "http://127.0.0.1:$PORT" >/dev/null && break; sleep 0.1; done
curl -s -X PUT "http://127.0.0.1:$PORT/flood" >/dev/null
export HOME="$T/home" CTXLAKE_SESSION_ID=bench
s3() {
  env AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-east-1 \
    AWS_ENDPOINT_URL="http://127.0.0.1:$PORT" AWS_ALLOW_HTTP=true AWS_EC2_METADATA_DISABLED=true \
    CTXLAKE_STORE="s3://flood/lake" CTXLAKE_HOME="$T/$1" CTXLAKE_AGENT_ID="$1" "$B" "${@:2}"
}
requests() { python3 -c 'import json,sys; v=json.load(sys.stdin); print(v["requests"], v.get("unserved_fleets", {}).get("count", "-"))'; }

# Host a writes in its fleet; host b serves the same fleet and only reads.
s3 a fleet claim src --reason bench -q >/dev/null
s3 a sync -q >/dev/null
s3 b sync -q >/dev/null
echo "markers  pass      requests  unserved"
echo "0        idle      $(s3 b sync --json | requests)"
s3 a fleet claim lib --reason bench -q >/dev/null
s3 a sync -q >/dev/null
echo "0        news      $(s3 b sync --json | requests)"

# The flood, planted through `lake copy` from a local lake of bare markers.
mkdir -p "$T/markers/fleets"
for i in $(seq -w 1 "$N"); do : > "$T/markers/fleets/fake$i"; done
env AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-east-1 \
  AWS_ENDPOINT_URL="http://127.0.0.1:$PORT" AWS_ALLOW_HTTP=true AWS_EC2_METADATA_DISABLED=true \
  CTXLAKE_HOME="$T/copier" "$B" lake copy "file://$T/markers" s3://flood/lake -q >/dev/null
s3 a fleet claim docs --reason bench -q >/dev/null
s3 a sync -q >/dev/null
echo "$N      first     $(s3 b sync --json | requests)"
echo "$N      idle      $(s3 b sync --json | requests)"
s3 a fleet claim tests --reason bench -q >/dev/null
s3 a sync -q >/dev/null
echo "$N      news      $(s3 b sync --json | requests)"
