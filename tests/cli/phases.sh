#!/usr/bin/env bash
# `evprof phases`: on real GHC runs that mark their phases with
# traceMarkerIO (tests/data/phases: GHC 9.0.2 and 9.6.6, non-threaded and
# -N2), every row equals the window of the same marks: its ticks and top
# cost centres those of `report --from marker:A#N --to marker:B#M`, its
# collections, GC time, allocation, heap size and live data those of
# `gc --format json` over the same window; the rows add up to the run's
# ticks; --marker, --from/--to, --cap and --all cut the same way; the
# three formats agree; `info` lists every mark with its time; errors.
#
# Usage: tests/cli/phases.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
data=tests/data/phases
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# windows.py PHASES.json EVPROF LOG [OPTIONS...]: each row against its
# window (report and gc with the row's marks), the sum against the run
cat >"$tmp/windows.py" <<'PY'
import json, re, subprocess, sys
rows_file, evprof, log, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
# the selection options as report takes them (--marker is phases' own)
opts = []
i = 0
while i < len(args):
    if args[i] == '--marker':
        i += 2
        continue
    opts.append(args[i])
    i += 1
d = json.load(open(rows_file, encoding='utf-8'))
rows = d['phases']
def run(*args):
    return subprocess.run([evprof, *args], capture_output=True, text=True, check=True).stdout
def report(extra):
    out = run('report', *opts, *extra, log)
    ticks = int(re.search(r'\((\d+) ticks @', out).group(1))
    # the summary at the top: COST CENTRE MODULE SRC %time ticks
    top, body = [], out.split('COST CENTRE', 2)[1].split('\n')[2:]
    for line in body:
        if not line.strip():
            break
        m = re.match(r'^(\S+)\s+(\S+)\s+.*\s(\d+)$', line)
        top.append((m.group(2) + '.' + m.group(1), int(m.group(3))))
    return ticks, top
def gc(extra):
    return json.loads(run('gc', '--format', 'json', *[o for o in opts if o != '--all'], *extra, log))
fails, checked = [], 0
def expect(what, got, want):
    global checked
    checked += 1
    if got != want:
        fails.append('%s: %r, the window says %r' % (what, got, want))
for i, r in enumerate(rows):
    win = []
    if r['n']:
        win += ['--from', 'marker:%s#%d' % (r['label'], r['n'])]
    if i + 1 < len(rows):
        nx = rows[i + 1]
        win += ['--to', 'marker:%s#%d' % (nx['label'], nx['n'])]
    name = '%s#%d' % (r['label'], r['n'])
    ticks, top = report(win)
    expect(name + ' ticks', r['ticks'], ticks)
    # --phase LABEL#N: the same window, from the mark to the next of any label
    if r['n'] and '--marker' not in args:
        expect(name + ' --phase', r['ticks'], report(['--phase', '%s#%d' % (r['label'], r['n'])])[0])
    # the top cost centres: the report's summary rows over 1% (GHC's rule)
    # begin with the same ones, same ticks (ties may order differently)
    mine = [(c['module'] + '.' + c['label'], c['ticks']) for c in r['top']]
    big = [t for t in top if t[1] * 100 > ticks]
    expect(name + ' top', sorted(mine[:len(big)]), sorted(big[:len(mine)]))
    if d.get('gc', True):
        g = gc(win)
        expect(name + ' collections', r['collections'], g['gcs'])
        expect(name + ' GC time', r['gc_ns'], g['gc_elapsed_ns'])
        expect(name + ' allocated', r['allocated_bytes'], g['allocated_bytes'])
        if r['peak_heap_bytes'] is not None:
            expect(name + ' peak heap', r['peak_heap_bytes'], g['max_mem_in_use_bytes'])
        if r['max_live_bytes'] is not None:
            expect(name + ' max live', r['max_live_bytes'], g['max_live_bytes'])
total, _ = report([])
expect('the rows\' sum', sum(r['ticks'] for r in rows), total)
expect('the total', d['ticks'], total)
if fails:
    print('\n'.join(fails[:8]))
    sys.exit(1)
print(len(rows), 'rows,', checked, 'figures')
PY

# rows LOG [OPTIONS...]: phases as JSON, every row against its window
rows() {
    local log=$1
    shift
    "$evprof" phases --format json "$@" "$log" >"$tmp/p.json" 2>"$tmp/err"
    check "phases $* $log: exit 0" [ $? -eq 0 ]
    local got
    got=$(python3 "$tmp/windows.py" "$tmp/p.json" "$evprof" "$log" "$@" 2>&1)
    check "phases $* $log: each row is its window's, they add up ($got)" [ $? -eq 0 ]
}

rows "$data/phases.eventlog"
rows "$data/phases-9.6.eventlog"
rows "$data/threads-N2.eventlog"
rows "$data/threads-N2.eventlog" --all
rows "$data/threads-N2.eventlog" --cap 1
rows "$data/phases.eventlog" --marker '^(parse|print)$'

# --cap N: the ticks, top cost centres and allocation are capability N's
# own, so the capabilities' rows add up to the run's; the collections, GC
# time and heap are the whole run's in each; the text and JSON say so
log="$data/threads-N2.eventlog"
for c in all 0 1; do
    sel=(); [ "$c" = all ] || sel=(--cap "$c")
    "$evprof" phases --format json "${sel[@]}" "$log" >"$tmp/cap-$c.json"
done
check "--cap: the capabilities' ticks and allocation add up to the run's, collections whole" \
    python3 - "$tmp"/cap-all.json "$tmp"/cap-0.json "$tmp"/cap-1.json <<'PY'
import json, sys
a, c0, c1 = (json.load(open(f, encoding='utf-8')) for f in sys.argv[1:])
assert a['capability'] is None and c0['capability'] == 0 and c1['capability'] == 1
assert sum(r['allocated_bytes'] for r in a['phases']) > 0
for ra, r0, r1 in zip(a['phases'], c0['phases'], c1['phases']):
    for k in ('ticks', 'allocated_bytes'):
        assert ra[k] == r0[k] + r1[k], (ra['label'], k, ra[k], r0[k], r1[k])
    for k in ('collections', 'gc_ns', 'peak_heap_bytes', 'max_live_bytes'):
        assert ra[k] == r0[k] == r1[k], (ra['label'], k)
PY
"$evprof" phases --cap 1 "$log" >"$tmp/cap1.txt"
check "--cap 1: the text says which figures are capability 1's" \
    grep -qx "Capability 1's own samples and allocation (--cap 1); the collections, GC time and heap are the whole run's." "$tmp/cap1.txt"
"$evprof" phases "$log" >"$tmp/capall.txt"
check "without --cap: no such line" sh -c "! grep -q '^Capability' '$tmp/capall.txt'"
rows tests/data/markers/markers.eventlog

# the real program: 3 rounds of parse, solve, print after (start), each
# phase with its own functions on top
"$evprof" phases "$data/phases.eventlog" >"$tmp/text" 2>"$tmp/err"
check "text: exit 0" [ $? -eq 0 ]
check "text: 10 rows under the header" [ "$(grep -cE '^(\(start\)|parse|solve|print) ' "$tmp/text")" -eq 10 ]
total=$("$evprof" report "$data/phases.eventlog" | grep -o '([0-9]* ticks' | grep -o '[0-9]*')
check "text: says the marks and the report's $total ticks" grep -q "cut at each of its 9 marks; $total ticks of 1 ms" "$tmp/text"
check "text: parse #2 has Main.parseNums on top" grep -Eq '^parse #2 .*  Main\.parseNums [0-9.]+' "$tmp/text"
check "text: solve #1 has Main.fibo on top" grep -Eq '^solve #1 .*  Main\.fibo [0-9.]+' "$tmp/text"
check "text: print #3 has Main.render on top" grep -Eq '^print #3 .*  Main\.render [0-9.]+' "$tmp/text"

# the three formats say the same
"$evprof" phases --format csv "$data/phases.eventlog" >"$tmp/p.csv"
"$evprof" phases -o "$tmp/p2.json" "$data/phases.eventlog"
check "csv and json (by -o's extension) agree" python3 - "$tmp/p.csv" "$tmp/p2.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding='utf-8')))
js = json.load(open(sys.argv[2], encoding='utf-8'))['phases']
assert len(rows) == len(js) == 10, (len(rows), len(js))
for c, j in zip(rows, js):
    assert c['label'] == j['label'] and int(c['n']) == j['n'], (c, j)
    assert int(c['ticks']) == j['ticks'] and int(c['collections']) == j['collections']
    assert round(float(c['start_s']) * 1e9) == j['start_ns'], (c['start_s'], j['start_ns'])
    assert int(c['allocated_bytes']) == j['allocated_bytes']
    assert c['top_cost_centres'] == '; '.join('%s.%s %d' % (t['module'], t['label'], t['ticks']) for t in j['top'])
PY

# namesakes (one Module.label at several places: tests/data/namesakes)
# are listed with their places, the other cost centres without
nl=tests/data/namesakes/Lexer-calls.nt.p.1.eventlog
"$evprof" phases --top 6 "$nl" >"$tmp/names.txt" 2>/dev/null
check "namesakes: text names Main.source.expr's two places apart" grep -Fq \
    "Main.source.expr (Lexer.hs:93:19-49) 6.8, Main.lexNumber.(...) 6.8, Main.source.expr (Lexer.hs:(92,23)-(93,49)) 5.9, Main.source 5.5," "$tmp/names.txt"
"$evprof" phases --top 6 --format csv "$nl" >"$tmp/names.csv" 2>/dev/null
check "namesakes: csv too" grep -Fq "Main.lexer (Lexer.hs:18:17-24) 22; Main.source.expr (Lexer.hs:93:19-49) 16;" "$tmp/names.csv"

# a window: phases cut to it, their ticks those of the window
"$evprof" phases --format json "$data/phases.eventlog" >"$tmp/whole.json"
"$evprof" phases --format json --from 0.3 --to 0.9 "$data/phases.eventlog" >"$tmp/w.json"
want=$("$evprof" report --from 0.3 --to 0.9 "$data/phases.eventlog" | grep -o '([0-9]* ticks' | grep -o '[0-9]*')
check "--from 0.3 --to 0.9: the rows add up to the window's $want ticks, cut to it" python3 - "$tmp/w.json" "$want" "$tmp/whole.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['phases']
whole = json.load(open(sys.argv[3]))['phases']
assert sum(x['ticks'] for x in r) == int(sys.argv[2])
assert r[0]['start_ns'] == 300000000 and r[-1]['end_ns'] == 900000000, (r[0], r[-1])
# the phases of the whole run that overlap the window, in order
want = [(x['label'], x['n']) for x in whole if x['end_ns'] > 300000000 and x['start_ns'] < 900000000]
assert [(x['label'], x['n']) for x in r] == want, r
assert len(r) >= 3
PY

# info lists every mark with its time, the first 50, then counts per label
"$evprof" info "$data/phases.eventlog" >"$tmp/info"
check "info: every mark with its time" python3 - "$tmp/info" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
marks = re.findall(r'^ +(\d+\.\d{6})  (parse|solve|print) #(\d)$', t, re.M)
assert len(marks) == 9, marks
assert [m[1] for m in marks] == ['parse', 'solve', 'print'] * 3
assert [float(m[0]) for m in marks] == sorted(float(m[0]) for m in marks)
PY

# --phase: a usage error beside --from/--to/--between, a mark not there
"$evprof" report --phase parse --from 0.1 "$data/phases.eventlog" >/dev/null 2>"$tmp/err"
check "--phase with --from: exit 2" [ $? -eq 2 ]
"$evprof" report --phase 'parse#0' "$data/phases.eventlog" >/dev/null 2>"$tmp/err"
check "--phase LABEL#0: exit 2" [ $? -eq 2 ]
"$evprof" report --phase 'parse#4' "$data/phases.eventlog" >/dev/null 2>"$tmp/err"
check "--phase past the last mark: exit 2, as --from marker: (a selection that matches nothing)" [ $? -eq 2 ]
check "--phase past the last mark: says how many there are" grep -q "marker 'parse' #4 asked, the log has 3" "$tmp/err"
"$evprof" gc --phase 'solve#2' --format json "$data/phases.eventlog" >"$tmp/g.json"
check "gc --phase solve#2: the row's collections" python3 - "$tmp/g.json" "$tmp/whole.json" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))
row = [r for r in json.load(open(sys.argv[2]))['phases'] if r['label'] == 'solve' and r['n'] == 2][0]
assert g['gcs'] == row['collections'] and g['allocated_bytes'] == row['allocated_bytes'], (g['gcs'], row)
PY

# errors
"$evprof" phases --marker '(' "$data/phases.eventlog" >/dev/null 2>"$tmp/err"
check "a bad --marker regex: exit 2" [ $? -eq 2 ]
check "a bad --marker regex: says so" grep -q "bad regular expression" "$tmp/err"
# several windows (issue 28): the phases inside them; the one between is left out
"$evprof" phases --between phase tests/data/markers/markers.eventlog >"$tmp/out" 2>"$tmp/err"
check "--between with several windows: exit 0" [ $? -eq 0 ]
check "--between with several windows: the phases inside" grep -q "^parse start #1 .* 575 " "$tmp/out"
if grep -q "^phase #2 " "$tmp/out"; then bad "--between: the phase between the windows is left out"; else ok; fi
"$evprof" phases --marker nothing "$data/phases.eventlog" >"$tmp/out" 2>"$tmp/err"
check "--marker matching nothing: one phase, exit 0" [ $? -eq 0 ]
check "--marker matching nothing: a note" grep -q "no mark's label matches --marker" "$tmp/err"
"$evprof" phases tests/data/ghc-9.0.2/nfib-hc.eventlog >"$tmp/out" 2>"$tmp/err"
check "a log without marks: one phase, exit 0" [ $? -eq 0 ]
check "a log without marks: a note" grep -q "the log has no marks" "$tmp/err"
head -c 150001 "$data/phases.eventlog" >"$tmp/cut.eventlog"
"$evprof" phases "$tmp/cut.eventlog" >"$tmp/out" 2>"$tmp/err"
check "a cut log: exit 1" [ $? -eq 1 ]
check "a cut log: names where" grep -q "truncated at byte" "$tmp/err"
check "a cut log: the phases before the cut" grep -q "^parse #1 " "$tmp/out"
printf 'junk' >"$tmp/junk"
"$evprof" phases "$tmp/junk" -o "$tmp/j.txt" 2>/dev/null
check "not an eventlog: exit 1" [ $? -eq 1 ]
check "not an eventlog: no output" [ ! -e "$tmp/j.txt" ]
"$evprof" phases >/dev/null 2>&1
check "no FILE: exit 2" [ $? -eq 2 ]

echo "phases: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
