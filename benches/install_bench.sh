#!/usr/bin/env bash
# Wall time of `ctxlake install claude-code` + `uninstall` on a 5 MB ~/.claude.json
# (many projects, as long-lived Claude Code installs accumulate). Uses hyperfine when
# present, else a `date +%s%N` loop.
# usage: benches/install_bench.sh /abs/ctxlake [runs]
set -euo pipefail
CTXLAKE=$(readlink -f "${1:?usage: install_bench.sh /abs/ctxlake [runs]}")
RUNS=${2:-20}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/.claude"
python3 - "$T/.claude.json" <<'PY'
import json, sys
projects, i = {}, 0
doc = {"numStartups": 42, "mcpServers": {"memory": {"type": "stdio", "command": "/usr/bin/m", "args": [], "env": {}}}, "projects": projects}
size = 0
while size < 5 * 1024 * 1024:
    p = {"allowedTools": [], "history": [{"display": f"fix the flaky test number {j} in module {i}", "pastedContents": {}} for j in range(20)], "mcpServers": {}, "hasTrustDialogAccepted": True}
    projects[f"/home/u/src/project-{i}"] = p
    size += len(json.dumps(p, indent=2)) + 40  # nesting indent and key, roughly
    i += 1
open(sys.argv[1], "w").write(json.dumps(doc, indent=2))
PY
cp "$T/.claude.json" "$T/orig.json"
export HOME=$T CTXLAKE_HOME=$T/.ctxlake
echo "file: $(du -h "$T/.claude.json" | cut -f1) ($(stat -c %s "$T/.claude.json") bytes)" >&2
cycle="$CTXLAKE install claude-code --no-hooks -q >/dev/null && $CTXLAKE uninstall claude-code -q >/dev/null"
if command -v hyperfine >/dev/null; then
  hyperfine --warmup 2 --runs "$RUNS" --shell=bash "$CTXLAKE install claude-code --no-hooks -q" \
    --prepare "cp $T/orig.json $T/.claude.json; rm -rf $T/.ctxlake" 2>&1 | sed 's/^/  /' >&2 || true
  hyperfine --warmup 2 --runs "$RUNS" --shell=bash "$cycle" \
    --prepare "cp $T/orig.json $T/.claude.json; rm -rf $T/.ctxlake" >&2
else
  start=$(date +%s%N)
  for _ in $(seq "$RUNS"); do bash -c "$cycle"; done
  echo "install+uninstall: $(( ($(date +%s%N) - start) / RUNS / 1000000 )) ms per cycle ($RUNS runs)" >&2
fi
cmp "$T/.claude.json" "$T/orig.json" && echo "byte-identical after the last cycle" >&2
