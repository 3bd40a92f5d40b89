#!/usr/bin/env bash
# Run the official conformance suite DIRECTLY against `ctxlake mcp --http` (no bridge), for
# every server scenario that applies to a tools-only server (the README lists the others and
# why). `conformance` on PATH is the npm `latest` (0.1.16); CONFORMANCE_NEXT, when set, is a
# 0.2.0-alpha build that also has the 2026-07-28 scenarios. The suite sends no
# `Authorization` header, so this server runs with `--no-auth` (loopback only).
# usage: tests/clients/conformance_http.sh /path/to/ctxlake   (Node 22 on PATH)
set -euo pipefail
source "$(dirname "$0")/http_server.sh" "${1:?usage: conformance_http.sh /path/to/ctxlake}" --no-auth
fails=0
run() { # run TOOL SCENARIO [args...]
  local tool=$1 scenario=$2
  shift 2
  if out=$("$tool" server --url "$url" --scenario "$scenario" "$@" 2>&1); then
    echo "ok   $scenario $*: $(grep -E '^Passed' <<<"$out")"
  else
    echo "FAIL $scenario $*"
    sed 's/^/  /' <<<"$out" | grep -vE '^\s*$' | tail -25
    fails=$((fails + 1))
  fi
}
for s in server-initialize ping tools-list dns-rebinding-protection; do
  run conformance "$s"
done
if [[ -n ${CONFORMANCE_NEXT:-} ]]; then
  echo "suite $("$CONFORMANCE_NEXT" --version 2>/dev/null || echo '0.2.0-alpha'):"
  for s in server-initialize server-session-lifecycle ping tools-list dns-rebinding-protection; do
    run "$CONFORMANCE_NEXT" "$s"
  done
  for s in http-header-validation tools-list dns-rebinding-protection; do
    run "$CONFORMANCE_NEXT" "$s" --spec-version 2026-07-28
  done
  # server-stateless: four checks call fixture tools of the reference server
  # (test_missing_capability, test_streaming_elicitation, test_logging_tool) and report
  # "Not testable"; those, and nothing else, may fail. (Its --expected-failures file works per
  # scenario only, so the failed check ids are compared here.)
  out=$("$CONFORMANCE_NEXT" server --url "$url" --scenario server-stateless --spec-version 2026-07-28 2>&1 || true)
  failed=$(sed 's/\x1b\[[0-9;]*m//g' <<<"$out" | grep -oE '\[[a-z0-9-]+ *\] FAILURE' | tr -d '[]' | awk '{print $1}' | sort | tr '\n' ' ')
  want="sep-2575-http-server-no-independent-requests-on-stream sep-2575-missing-capability-http-400 sep-2575-server-no-log-without-loglevel sep-2575-server-rejects-undeclared-capability "
  untestable=$(grep -c 'Not testable' <<<"$out" || true)
  if [[ $failed == "$want" ]] && ((untestable >= 4)); then
    echo "ok   server-stateless --spec-version 2026-07-28: $(grep -E '^Passed' <<<"$out") (the 4 failures are the fixture-tool checks)"
  else
    echo "FAIL server-stateless: failed checks [$failed], expected exactly [$want]"
    sed 's/^/  /' <<<"$out" | grep -E 'FAILURE|Error' | head -20
    fails=$((fails + 1))
  fi
fi
((fails == 0)) || { echo "conformance (http): $fails scenario(s) failed"; exit 1; }
echo "conformance (http): all scenarios passed"
