#!/usr/bin/env bash
# `evprof report` (the default command) from the command line: GHC's
# numbers in the header, strict JSON whose names round-trip, atomic -o,
# the shared filters' usage errors, and logs without samples.
#
# Usage: tests/cli/report.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
data=tests/data/ghc
corpus=tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# `evprof FILE` is the report; its header carries GHC's tick line verbatim
for run in "$corpus/ghc-9.0.2/nfib-p" "$corpus/ghc-9.0.2/nfib-N2" "$data/deep-p" "$data/odd-p" "$data/par-N2-p"; do
    prof=$run.prof
    "$evprof" "$run.eventlog" >"$tmp/out" 2>"$tmp/err"
    check "$run: exit 0" [ $? -eq 0 ]
    want=$(grep "total time" "$prof")
    check "$run: total time line equals GHC's" grep -qF -- "$want" "$tmp/out"
    "$evprof" report "$run.eventlog" >"$tmp/out2" 2>/dev/null
    check "$run: report == default" cmp -s "$tmp/out" "$tmp/out2"
done

# --cap N: one capability's samples, so the total time is its ticks on one
# processor (ticks x interval), the header says which capability of how
# many, the capabilities' ticks add up to the run's; the JSON says so too
# and keeps the run's initial_capabilities
n2="$corpus/ghc-9.0.2/nfib-N2.eventlog"
"$evprof" report "$n2" >"$tmp/cap-all" && "$evprof" report --cap 0 "$n2" >"$tmp/cap-0" &&
    "$evprof" report --cap 1 "$n2" >"$tmp/cap-1"
check "--cap: exit 0" [ $? -eq 0 ]
check "--cap: the ticks and time are one processor's, the capabilities' ticks add up" \
    "$PYTHON" - "$tmp/cap-all" "$tmp/cap-0" "$tmp/cap-1" <<'PY'
import re, sys
def head(f):
    t = open(f, encoding='utf-8').read()
    m = re.search(r'total time  = +([0-9.]+) secs   \((\d+) ticks @ (\d+) us, (\d+) processors?\)\n', t)
    return t, float(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4))
ta, _, ticks_all, _, procs = head(sys.argv[1])
assert procs == 2 and 'selected    =' not in ta
ticks = 0
for cap, f in enumerate(sys.argv[2:]):
    t, secs, n, us, p = head(f)
    assert p == 1, (cap, p)
    assert '%.2f' % secs == '%.2f' % (n * us / 1e6), (cap, secs, n)
    line = ("\tselected    =  capability %d of the run's 2 (--cap %d): its samples alone, "
            "so the ticks and the time are one processor's\n" % (cap, cap))
    assert line in t, (cap, t[:600])
    ticks += n
assert ticks == ticks_all, (ticks, ticks_all)
PY
"$evprof" report --json --cap 0 "$n2" >"$tmp/cap-0.json"
check "--cap --json: evprof_selected, total_time one processor's, initial_capabilities the run's" \
    "$PYTHON" - "$tmp/cap-0.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding='utf-8'))
s = d['evprof_selected']
assert s['capability'] == 0 and s['capabilities'] == 2, s
assert d['initial_capabilities'] == 2
assert '%.2f' % d['total_time'] == '%.2f' % (d['total_ticks'] * d['tick_interval'] / 1e6)
PY

# --json: strict JSON, GHC's schema, names with quotes/backslashes/tabs/UTF-8
"$evprof" report --json "$data/odd-pj.eventlog" >"$tmp/odd.json"
check "odd --json exit 0" [ $? -eq 0 ]
"$PYTHON" - "$tmp/odd.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))   # strict: raises on invalid JSON
for key in ("program", "arguments", "rts_arguments", "end_time", "initial_capabilities",
            "total_time", "total_ticks", "tick_interval", "total_alloc", "cost_centres", "profile"):
    assert key in d, key
labels = {c["label"] for c in d["cost_centres"]}
for want in ('quote"d', 'back\\slash', 'tab\there', 'semi;colon', 'λ-café', 'trailing_42'):
    assert want in labels, (want, sorted(labels))
ids = {c["id"] for c in d["cost_centres"]}
def walk(n):
    assert n["id"] in ids
    for k in ("entries", "alloc", "ticks", "children"):
        assert k in n
    return n["ticks"] + sum(walk(c) for c in n["children"])
assert walk(d["profile"]) == d["total_ticks"], "tree ticks add up to total_ticks"
PY
check "odd --json: strict parse, schema, names round-trip" [ $? -eq 0 ]
for f in "$corpus"/ghc-9.0.2/nfib-p*.eventlog "$data"/*-p.eventlog "$corpus"/ghc-events/time-prof.eventlog; do
    "$evprof" report --json "$f" | "$PYTHON" -c 'import json,sys; json.load(sys.stdin)'
    check "$f: --json parses" [ $? -eq 0 ]
done

# -o: written whole, nothing on stdout, no temporary left behind
"$evprof" "$data/deep-p.eventlog" -o "$tmp/r.prof" >"$tmp/stdout"
check "-o exit 0" [ $? -eq 0 ]
check "-o leaves stdout empty" [ ! -s "$tmp/stdout" ]
"$evprof" "$data/deep-p.eventlog" >"$tmp/direct"
check "-o file equals stdout report" cmp -s "$tmp/r.prof" "$tmp/direct"
check "-o leaves no temporary" [ "$(ls "$tmp" | grep -c evprof-)" -eq 0 ]
"$evprof" "$data/deep-p.eventlog" -o "$tmp/no/such/dir/r.prof" 2>"$tmp/err"
check "-o into a missing directory: exit 1" [ $? -eq 1 ]
check "-o error names the file" grep -q "no/such/dir/r.prof" "$tmp/err"
if [ -w /dev/full ]; then
    "$evprof" "$data/deep-p.eventlog" >/dev/full 2>"$tmp/err"
    check "write error: exit 1" [ $? -eq 1 ]
fi

# filters: usage errors exit 2
for args in "--from x" "--to -1" "--cap -3" "--cap z" "--from 2 --to 1" "--threshold 200" "--max-depth q"; do
    # shellcheck disable=SC2086
    "$evprof" report $args "$data/deep-p.eventlog" >/dev/null 2>&1
    check "report $args: exit 2" [ $? -eq 2 ]
done
# a window after the log's end selects nothing: a usage error that says
# what the log has (issue 27); one inside the log but between samples is
# a report of zero ticks, said plainly
"$evprof" report --from 1000 "$data/deep-p.eventlog" >"$tmp/out" 2>"$tmp/err"
check "window outside the log: exit 2" [ $? -eq 2 ]
check "window outside the log: no report" [ ! -s "$tmp/out" ]
check "window outside the log: the log's span" grep -q "selects nothing: its events run from" "$tmp/err"
first=$("$evprof" info "$data/deep-p.eventlog" | sed -n 's/.*(events from \([0-9.]*\) s to.*/\1/p')
"$evprof" report --to "$first" "$data/deep-p.eventlog" >"$tmp/out" 2>/dev/null
check "window before the first event: exit 2" [ $? -eq 2 ]
# the first sample is at 1.372924 ms: [0.5 ms, 1 ms) is inside the log, empty
"$evprof" report --from 0.0005 --to 0.001 "$data/deep-p.eventlog" >"$tmp/out" 2>/dev/null
check "empty window inside the log: exit 0" [ $? -eq 0 ]
check "empty window: 0 ticks" grep -q "(0 ticks @" "$tmp/out"
check "empty window: says what was filtered" grep -q "outside the time window" "$tmp/out"
# --threshold hides rows, --max-depth too
full=$("$evprof" report "$data/deep-p.eventlog" | wc -l)
thr=$("$evprof" report --threshold 10 "$data/deep-p.eventlog" | wc -l)
dep=$("$evprof" report --max-depth 1 "$data/deep-p.eventlog" | wc -l)
check "--threshold shows fewer rows" [ "$thr" -lt "$full" ]
check "--max-depth shows fewer rows" [ "$dep" -lt "$full" ]

# a log without samples: exit 1 and the flags that would add them
"$evprof" "$corpus/ghc-9.0.2/nfib-s.eventlog" >/dev/null 2>"$tmp/err"
check "no samples: exit 1" [ $? -eq 1 ]
check "no samples: says how" grep -q "+RTS -p -l" "$tmp/err"
# a truncated log: the report of what is there, then the error, exit 1
f="$data/mutual-p.eventlog"; head -c $(( $(wc -c < "$f") - 7 )) "$f" >"$tmp/cut.eventlog"
"$evprof" "$tmp/cut.eventlog" >"$tmp/out" 2>"$tmp/err"
check "truncated: exit 1" [ $? -eq 1 ]
check "truncated: says so" grep -q "truncated at byte" "$tmp/err"
check "truncated: still a report" grep -q "COST CENTRE" "$tmp/out"

# --callers: a block per matching cost centre with its callers and callees
# (the figures against a brute force: tests/test_callers.c)
"$evprof" report --callers 'isEven' "$data/mutual-p.eventlog" >"$tmp/out" 2>"$tmp/err"
check "--callers: exit 0" [ $? -eq 0 ]
check "--callers: the block of Main.isEven'" grep -q "^Main.isEven'  Mutual.hs" "$tmp/out"
check "--callers: its inherited ticks are the tree's (202)" grep -q "inherited 202 ticks" "$tmp/out"
check "--callers: called by collatz in 202 ticks" grep -Eq "^ +202 +83.8  Main.collatz$" "$tmp/out"
check "--callers: calls isOdd' in 88 ticks" grep -Eq "^ +88 +36.5  Main.isOdd'$" "$tmp/out"
"$evprof" report --callers 'nothing here' "$data/mutual-p.eventlog" -o "$tmp/none.txt" 2>"$tmp/err"
check "--callers matching nothing: exit 1" [ $? -eq 1 ]
check "--callers matching nothing: says so" grep -q "no cost centre with ticks matches 'nothing here'" "$tmp/err"
check "--callers matching nothing: no output file" [ ! -e "$tmp/none.txt" ]
for args in "--callers (" "--callers f --json" "--callers f --max-depth 2" "--callers f --threshold 1"; do
    # shellcheck disable=SC2086
    "$evprof" report $args "$data/mutual-p.eventlog" >/dev/null 2>&1
    check "report $args: exit 2" [ $? -eq 2 ]
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
