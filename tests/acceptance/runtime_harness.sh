# Shared prologue of the acceptance scripts judged by the runtimes' own CLIs (runtimes.sh,
# doctor.sh): arguments, a quiet environment, reporting, and a fresh throw-away HOME.
# Source it after setting USAGE and DEFAULT_RUNTIMES; it reads the script's "$@".

CTXLAKE=${1:?usage: $USAGE}
BIN=${2:?usage: $USAGE}
shift 2
RUNTIMES=("${@:-$DEFAULT_RUNTIMES}")
read -r -a RUNTIMES <<<"${RUNTIMES[*]}"
CTXLAKE=$(readlink -f "$CTXLAKE")
export PATH="$BIN:$PATH" CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 NO_COLOR=1
FAILED=0

say() { printf '%s\n' "$*" >&2; }
fail() { say "FAIL $RT: $*"; FAILED=1; }
# A runtime that cannot be checked here: skipped when a person runs a script by hand, a
# failure under ACCEPT_REQUIRE_ALL=1 (set by run.sh, which installs every runtime), so
# CI never passes with a runtime silently left out.
skip() {
  if [ -n "${ACCEPT_REQUIRE_ALL:-}" ]; then fail "$* (every runtime is required here)"; else say "SKIP $RT: $*"; fi
}
strip() { sed -E 's/\x1b\[[0-9;?]*[A-Za-z]//g'; }

# A fresh HOME with a git project dir; no runtime or store location leaks in from outside.
fresh() {
  T=$(mktemp -d)
  mkdir -p "$T/proj" && git -C "$T/proj" init -q
  export HOME=$T CTXLAKE_HOME=$T/.ctxlake
  unset CODEX_HOME HERMES_HOME GEMINI_CLI_HOME CLAUDE_CONFIG_DIR XDG_CONFIG_HOME CTXLAKE_STORE
}
