#!/usr/bin/env bash
# The fleet dashboard in a real browser (Debian's headless Chromium): a fleet built through the
# real spool → sync → maint path by three agents, served by `ctxlake mcp --http` with a token.
# The rendered DOM must name the agents, a contended lease with its holder, a handoff and a
# CONTESTED claim; hostile text must stay inert text (no script runs: the payload would set
# document.title and data-pwned); without the token the page is refused. Saves screenshots.
# usage: tests/acceptance/dashboard.sh /abs/ctxlake
set -uo pipefail
CTXLAKE=$(readlink -f "${1:?usage: dashboard.sh /abs/ctxlake}")
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[[ -x $CHROMIUM ]] || { echo "FAIL dashboard: no chromium (apt-get install -y chromium)"; exit 1; }
ART=${CTXLAKE_ARTIFACTS:-$(dirname "$CTXLAKE")/../dashboard-artifacts}
mkdir -p "$ART" && ART=$(readlink -f "$ART")
T=$(mktemp -d)
export HOME=$T CTXLAKE_HOME=$T/.ctxlake CTXLAKE_FLEET_ID=demo NO_COLOR=1
fails=0
fail() { echo "FAIL dashboard: $*"; fails=$((fails + 1)); }
# The agents work in a repository of their own (leases are grouped by its remote).
mkdir -p "$T/shop" && git -C "$T/shop" init -q &&
  git -C "$T/shop" remote add origin https://github.com/acme/shop.git && cd "$T/shop" || exit 1
ok() { echo "ok   $*"; }
as() { CTXLAKE_AGENT_ID=$1 CTXLAKE_SESSION_ID=$2 "${@:3}" -q >/dev/null || fail "${*:3}"; }
PAY=$'<script>document.title="pwned";document.body.dataset.pwned=1</script><img src=x onerror="document.title=\'pwned\';document.body.dataset.pwned=1"> <a href="javascript:document.title=\'pwned\'">link</a> javascript:alert(1) \u202eevil\u202c'
ev() { printf '[{"session_id":"%s","message_id":"m%s"}]' "$1" "$2"; }

as alice s-alice "$CTXLAKE" fleet claim src/auth --reason "refactor the auth module"
as bob s-bob "$CTXLAKE" fleet claim src/auth/login.rs --reason "fix the login bug"
as carol s-carol "$CTXLAKE" fleet claim docs --reason "write the docs"
as bob s-bob "$CTXLAKE" fleet handoff "login half done $PAY" --status in-progress --next "javascript:alert(2) then the tests"
as alice s-alice "$CTXLAKE" memory propose "The build needs network access" --type environment --subject build --evidence-json "$(ev s-alice 1)"
pipeline() { "$CTXLAKE" sync -q && "$CTXLAKE" maint -q && "$CTXLAKE" sync -q; } >/dev/null
pipeline || fail "first sync/maint"
as bob s-bob "$CTXLAKE" memory propose "The build does not need network access" --type environment --subject build --evidence-json "$(ev s-bob 2)"
as carol s-carol "$CTXLAKE" memory propose "Login tests pass with $PAY" --type outcome --subject login --evidence-json "$(ev s-carol 3)"
as carol s-carol "$CTXLAKE" memory propose "Prefer tabs for indentation" --type preference --subject style --evidence-json "$(ev s-carol 4)"
pipeline || fail "second sync/maint"

# The first start makes the owner token, which signs the login links below.
"$CTXLAKE" mcp --http 127.0.0.1:0 2>"$T/server.err" </dev/null &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$T"' EXIT
base=
for _ in $(seq 100); do
  base=$(grep -so 'http://127\.0\.0\.1:[0-9]*' "$T/server.err" || true)
  [[ -n $base ]] && break
  sleep 0.05
done
[[ -n $base ]] || { echo "FAIL dashboard: server did not start: $(cat "$T/server.err")"; exit 1; }

# A fresh profile per run: no cookie survives from one run to the next.
chrome() {
  local profile
  profile=$(mktemp -d "$T/profile.XXXX")
  timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --window-size="${SIZE:-1280,1400}" "$@" 2>>"$T/chromium.err"
}

refused=$(chrome --dump-dom "$base/fleet/demo")
if grep -q '<h1>Unauthorized</h1>' <<<"$refused" && ! grep -q alice <<<"$refused"; then
  ok "without the token the page is refused"
else
  fail "the page opened without the token: ${refused:0:300}"
fi

link=$("$CTXLAKE" mcp token show --link /fleet/demo)
# The virtual time budget lets the page's 10 s refresh run once before the DOM is dumped.
dom=$(chrome --virtual-time-budget=15000 --dump-dom "$link")
printf '%s\n' "$dom" >"$ART/dashboard.dom.html"
check() { if grep -qF -- "$2" <<<"$dom"; then ok "$1"; else fail "$1: \`$2\` not in the DOM"; fi; }
for a in alice bob carol; do check "names agent $a" "<td class=\"agent\">$a</td>"; done
check "a contended lease with its holder" 'contended — held by <b class="holder">alice</b>'
check "the contended path" 'src/auth/login.rs'
check "a handoff" 'login half done'
check "a CONTESTED claim" 'CONTESTED]</span>'
check "the gate says why a claim waits" 'waiting: a preference is promoted only by a person'
check "hostile text as inert text" '&lt;script&gt;document.title="pwned"'
check "the title is ours" '<title>ctxlake · fleet demo</title>'
# The DOM serializer escapes only & < > in text, so a real element shows as a literal `<`.
before=$fails
grep -q pwned <<<"$(grep -o '<title>[^<]*</title>' <<<"$dom")" && fail "a payload set document.title"
grep -q 'data-pwned' <<<"$dom" && fail "a payload ran (data-pwned set)"
grep -qiE '<img|<a href="javascript' <<<"$dom" && fail "a payload became markup"
grep -q $'\u202e' <<<"$dom" && fail "a bidi override reached the page"
[[ $(grep -o '<script' <<<"$dom" | wc -l) == 1 ]] || fail "a script element besides the page's own"
((fails == before)) && ok "no payload ran: title intact, no data-pwned, no <img>, no javascript: link, no bidi override"
grep -q 'data-refreshed' <<<"$dom" && ok "the refresh script swapped in a fresh <main>" ||
  fail "the refresh script did not run (no data-refreshed on <main>)"
reused=$(chrome --dump-dom "$link")
grep -q '<h1>Unauthorized</h1>' <<<"$reused" && ok "a used link is refused" || fail "a login link worked twice"

# 1100×1700 keeps the PNG (committed as docs/dashboard.png) under 150 KB.
SIZE=1100,1700 chrome --hide-scrollbars --force-device-scale-factor=0.75 --screenshot="$ART/dashboard.png" "$("$CTXLAKE" mcp token show --link /fleet/demo)" >/dev/null
[[ -s $ART/dashboard.png ]] && ok "screenshot: $ART/dashboard.png" || fail "no screenshot"
((fails == 0)) && echo "dashboard: the browser sees the fleet, and nothing hostile ran" || exit 1
