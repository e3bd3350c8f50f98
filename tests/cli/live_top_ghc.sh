#!/usr/bin/env bash
# `evprof top --ndjson -- PROG` on a real GHC program: builds
# tests/data/live/Main.hs with ghc -prof -rtsopts, runs it under evprof top
# (which adds +RTS -l -ol<FIFO> -RTS) long enough for the sample buffer to
# fill and be written mid-run (GHC before 9.2 writes a buffer only when it
# is full: 2 MiB), and checks: several intervals, ticks that grow before
# the end, the program's exit status, and final totals equal to the batch
# report of the same run's log (written by --save). SKIPPED (77) without
# ghc or its profiling libraries.
#
# Usage: tests/cli/live_top_ghc.sh path/to/evprof   (run from the project root)
set -u
evprof=$(realpath "${1:?usage: $0 path/to/evprof}")
src=$(realpath tests/data/live/Main.hs)
if ! command -v ghc >/dev/null 2>&1; then
    echo "SKIPPED: ghc is not installed"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

cp "$src" "$tmp/Main.hs"
if ! (cd "$tmp" && ghc -O -prof -fprof-auto -rtsopts Main.hs -o prog >"$tmp/ghc.log" 2>&1); then
    echo "SKIPPED: ghc -prof failed (no profiling libraries?):"
    tail -5 "$tmp/ghc.log"
    exit 77
fi

# 3 to 10 s on GHC 9.0 at -V0.00005, depending on the machine: 2 MiB
# sample buffers are written mid-run (at least three: with one, a loaded
# machine could end the program before a refresh saw it), the rest at
# the end; a refresh every half second
(cd "$tmp" && "$evprof" top --ndjson -n 100 --interval 0.5 --save "$tmp/run.eventlog" \
    -- ./prog 2600 +RTS -p -V0.00005 -RTS >"$tmp/top.json" 2>"$tmp/top.err")
rc=$?
check "top exits with the program's status 0 (got $rc)" [ $rc -eq 0 ]
check "the program's output went to stderr" grep -qE '^[0-9]+$' "$tmp/top.err"
"$evprof" report "$tmp/run.eventlog" >"$tmp/report" 2>"$tmp/report.err"
check "the saved log is a complete log" [ $? -eq 0 -a ! -s "$tmp/report.err" ]

"$PYTHON" - "$tmp/top.json" "$tmp/report" <<'PY'
import json, re, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
report = open(sys.argv[2]).read()
fails = []
def check(what, cond):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails.append(what)
check("at least two intervals (%d)" % len(frames), len(frames) >= 2)
last = frames[-1]
check("the last frame is finished, with the end marker", last["finished"] and last["end_marker"])
mid = [f for f in frames[:-1] if f["ticks"] > 0]
check("ticks before the end (%s)" % [f["ticks"] for f in frames], len(mid) >= 1)
# some frame mid-run has part of the ticks (the last ones may all be in a
# frame before the one that reads the end marker: a loaded machine splits
# the program's last write across two refreshes)
check("ticks grow: mid-run %s, final %d" % ([f["ticks"] for f in mid], last["ticks"]),
      any(f["ticks"] < last["ticks"] for f in mid))
check("ticks never decrease", all(a["ticks"] <= b["ticks"] for a, b in zip(frames, frames[1:])))
check("interval ticks add up to the total",
      sum(f["ticks_interval"] for f in frames) == last["ticks"])
m = re.search(r"\((\d+) ticks @", report)
check("final ticks %d == the report's %s" % (last["ticks"], m and m.group(1)),
      m and int(m.group(1)) == last["ticks"])
# the report's per-cost-centre summary: every row's ticks
rows = {}
lines = report.splitlines()
i = next(k for k, l in enumerate(lines) if l.startswith("COST CENTRE")) + 2
while i < len(lines) and lines[i].strip():
    p = lines[i].split()
    rows[(p[0], p[1])] = int(p[-1])
    i += 1
got = {(r["label"], r["module"]): r["ticks"] for r in last["top"]}
check("the report has summary rows (%d)" % len(rows), len(rows) >= 3)
for k, v in rows.items():
    check("%s.%s: %d ticks as in the report (%s)" % (k[1], k[0], v, got.get(k)), got.get(k) == v)
check("collections counted", last["gc"]["collections"] > 0)
# GHC 9.0 writes only full buffers: before the first one the view waits
# and says why (rts_writes_when_full from the header), never after
check("GHC 9.0's header: the RTS writes when a buffer fills",
      all(f["rts_writes_when_full"] for f in frames))
check("the first frame waits for the first buffer (%d events)" % frames[0]["events"],
      frames[0]["waiting"] and frames[0]["events"] == 0)
first = next(i for i, f in enumerate(frames) if f["events"])
check("no frame waits once events came", not any(f["waiting"] for f in frames[first:]))
sys.exit(1 if fails else 0)
PY
check "figures (see above)" [ $? -eq 0 ]

# a program that fails: its status is top's
(cd "$tmp" && "$evprof" top --ndjson -- ./prog >/dev/null 2>"$tmp/err")
rc=$?
check "a failing program's status (got $rc)" [ $rc -eq 1 ]

echo "live_top_ghc: $passed passed, $failed failed"
[ $failed -eq 0 ]
