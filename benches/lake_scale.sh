#!/usr/bin/env bash
# The lake's cost budget (issue 10), whole processes, release build:
#   1. idle `sync` on an S3 lake (moto on loopback) of N objects: requests and GETs
#   2. drain 10k spool records into S3 (moto)
#   3. drain 100k spool records into the local lake, and that sync's peak RSS
#   4. `maint` after 1k new claim events on top of 100k folded
# usage: benches/lake_scale.sh [OBJECTS]   (default 100000; needs python3 and moto_server,
#        from CTXLAKE_TEST_MOTO or ~/.cache/ctxlake-ci/moto/bin/moto_server)
#        ONLY="idle maint" runs just those parts (drain10k drain100k idle maint).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
B="$PWD/target/release/ctxlake"
N="${1:-100000}"
MOTO="${CTXLAKE_TEST_MOTO:-$HOME/.cache/ctxlake-ci/moto/bin/moto_server}"
T=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$MOTO" -H 127.0.0.1 -p "$PORT" >/dev/null 2>&1 &
MOTO_PID=$!
trap 'kill $MOTO_PID 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq 100); do curl -s "http://127.0.0.1:$PORT" >/dev/null && break; sleep 0.1; done
export HOME="$T/home" CTXLAKE_AGENT_ID=bench CTXLAKE_SESSION_ID=bench
s3env() {
  env AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-east-1 \
    AWS_ENDPOINT_URL="http://127.0.0.1:$PORT" AWS_ALLOW_HTTP=true AWS_EC2_METADATA_DISABLED=true \
    CTXLAKE_STORE="s3://$1/lake" CTXLAKE_HOME="$2" "${@:3}"
}
field() { python3 -c "import json,sys; v=json.load(sys.stdin); print(v$1)"; }

part() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }

if part drain10k; then
echo "## drain 10k spool records into S3 (moto)"
curl -s -X PUT "http://127.0.0.1:$PORT/drain10k" >/dev/null
python3 benches/gen.py spool "$T/d10k" 10000
s3env drain10k "$T/d10k" /usr/bin/time -f "drain 10k into moto: %e s wall, %M KiB max RSS" \
  "$B" sync --json | field '["requests"]' | sed 's/^/requests: /'

fi

if part drain100k; then
echo "## drain 100k spool records into the local lake"
python3 benches/gen.py spool "$T/d100k" 100000
CTXLAKE_HOME="$T/d100k" /usr/bin/time -f "drain 100k local: %e s wall, %M KiB max RSS" "$B" sync -q

fi

if part idle; then
echo "## idle sync on an S3 lake of $N objects (moto)"
# The lake: N/2 handoffs and N/2 claim events, built locally, then copied into the bucket.
python3 - "$T/big/lake" "$N" <<'EOF'
import json, os, sys
lake, n = sys.argv[1], int(sys.argv[2])
sys.path.insert(0, "benches"); from gen import ulid, frame
for area in ("handoffs/default", "claims/default/events", "fleets"): os.makedirs(f"{lake}/{area}", exist_ok=True)
open(f"{lake}/fleets/default", "w").close()
for i in range(n):  # one record per batch object: N objects
    id = ulid(i)
    rec = {"id": id, "ts": "2026-11-29T00:00:00.000Z", "fleet": "default", "agent": "a"}
    if i % 2:
        rec |= {"session": "s", "kind": "fleet_handoff",
                "payload": {"summary": f"note {i}", "status": "done", "next": None, "repo": None}}
        path = f"{lake}/handoffs/default/{id}.ndjson"
    else:
        rec |= {"session": f"s{i % 97}", "kind": "memory_propose", "payload": {"claim": f"claim {i}",
                "type": "hypothesis", "subject": "s", "evidence": [{"session_id": "s", "message_id": "m"}]}}
        path = f"{lake}/claims/default/events/{id}.ndjson"
    with open(path, "w") as f: f.write(frame(rec))
EOF
curl -s -X PUT "http://127.0.0.1:$PORT/big" >/dev/null
s3env big "$T/big" /usr/bin/time -f "lake copy of $N objects into moto: %e s" \
  "$B" lake copy "file://$T/big/lake" "s3://big/lake" -q
s3env big "$T/host" /usr/bin/time -f "first sync: %e s" "$B" sync -q
for i in 1 2; do
  s3env big "$T/host" "$B" sync --json | field '["requests"], "requests,", v["gets"], "GETs"' \
    | sed "s/^/idle sync $i: /"
done

fi

if part maint; then
echo "## maint after 1k new claim events on top of 100k folded (local lake)"
python3 benches/gen.py claims "$T/m" 100000
CTXLAKE_HOME="$T/m" /usr/bin/time -f "maint, full fold of 100k: %e s wall, %M KiB max RSS" "$B" maint -q
python3 - "$T/m/lake/claims/default/events" <<'EOF'
import json, os, sys, time
p = sys.argv[1]
def ulid(i):  # minted now, as a drain would land them (older ids reach readers via the feed)
    a = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    v = int(time.time() * 1000) << 80 | i
    return "".join(a[(v >> (125 - k * 5)) & 31] for k in range(26))
sys.path.insert(0, "benches"); from gen import frame
for i in range(100000, 101000):  # one event per batch object, as the 100k before them
    ev = {"id": ulid(i), "ts": "2026-11-29T00:00:00.000Z", "fleet": "default", "agent": "a1",
          "session": f"s{i % 97}", "kind": "memory_propose", "payload": {"claim": f"new claim {i}",
          "type": "outcome", "subject": "new", "scope": "agent",
          "evidence": [{"session_id": f"s{i % 97}", "message_id": "m"}]}}
    with open(os.path.join(p, ulid(i) + ".ndjson"), "w") as f: f.write(frame(ev))
EOF
CTXLAKE_HOME="$T/m" /usr/bin/time -f "maint after 1k new: %e s wall, %M KiB max RSS" "$B" maint -q
CTXLAKE_HOME="$T/m" /usr/bin/time -f "maint, nothing new: %e s wall" "$B" maint -q
fi
