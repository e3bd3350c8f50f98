#!/usr/bin/env bash
# `evprof pprof` read back with the tests' own protobuf decoder
# (tests/support/pprof_read.py): gzip, the format's rules (string 0 is "",
# ids, references), sample types samples/count and cpu/nanoseconds, period
# = the tick interval, totals = the report's ticks (also with --all,
# --from/--to, --cap), stacks = the folded stacks with locations leaf
# first, time_nanos from the wall-clock event; heap logs give the
# inuse_space/bytes of one census equal to `evprof heap --format csv`.
# (tests/cli/pprof_go.sh reads the same files with go tool pprof.)
#
# Usage: tests/cli/pprof.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
data=tests/data/ghc
heap=tests/data/heap
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
export PYTHONPATH=tests/support

logs=("$data"/par-N2-p.eventlog "$data"/deep-p.eventlog "$data"/mutual-p.eventlog
      "$data"/odd-p.eventlog "$data"/chain-p.eventlog "$data"/deep-pj.eventlog
      tests/data/ghc-9.6/sim-late-p.eventlog tests/data/ghc-9.6/workers-N2-pj.eventlog
      tests/data/namesakes/Lexer-calls.nt.p.1.eventlog)   # namesakes: one function each

# time.py PROFILE FOLDED TICKS INTERVAL_NS: the checks of one time profile;
# without arguments, the checks queued with defer (verdicts at the end)
cat >"$tmp/time.py" <<'PY'
import re, sys
from collections import Counter
import pprof_read
def time_profile(profile, folded, ticks, interval):
    raw = open(profile, 'rb').read()
    assert raw[:2] == b'\x1f\x8b', 'gzip-compressed'
    p = pprof_read.read(raw)
    pprof_read.check(p)
    st = p['string_table']
    types = [(st[v['type']], st[v['unit']]) for v in p['sample_type']]
    assert types == [('samples', 'count'), ('cpu', 'nanoseconds')], types
    pt = p['period_type']
    assert (st[pt['type']], st[pt['unit']]) == ('cpu', 'nanoseconds')
    ticks, interval = int(ticks), int(interval)
    assert p['period'] == interval, (p['period'], interval)
    total = sum(s['value'][0] for s in p['sample'])
    assert total == ticks, 'total %d, report %d' % (total, ticks)
    for s in p['sample']:
        assert s['value'][1] == s['value'][0] * interval
    assert p['duration_nanos'] > 0 and p['time_nanos'] > 1.5e18
    # one function and location per cost centre: names unique
    names = [st[f['name']] for f in p['function']]
    assert len(names) == len(set(names)), 'a cost centre twice'
    # stacks: the folded stacks, root first (folded's name cleaning applied)
    def clean(n):
        vis = {'\n': '\\n', '\r': '\\r', '\t': '\\t'}
        n = re.sub(r'[\x00-\x1f\x7f-\x9f]',
                   lambda m: vis.get(m.group(0), '\\x%02x' % ord(m.group(0))), n.replace(';', ':'))
        return re.sub(r'\s+$', lambda m: '_' * len(m.group(0)), n)
    got = Counter()
    for k, v in pprof_read.stacks(p).items():
        got[';'.join(clean(n) for n in k)] += v[0]
    want = Counter()
    for line in open(folded, encoding='utf-8'):
        stack, n = line.rstrip('\n').rsplit(' ', 1)
        want[stack] += int(n)
    assert got == want, 'stacks differ from folded: %r' % (
        list((got - want).items())[:3] + list((want - got).items())[:3])

if len(sys.argv) > 1:
    time_profile(*sys.argv[1:5])
else:
    from verdicts import serve
    serve({"time_profile": time_profile})
PY

ticks_of() { grep -o '([0-9]* ticks @' | grep -o '[0-9]*'; }
interval_of() { grep -o 'ticks @ [0-9]* us' | grep -o '[0-9]* us' | grep -o '[0-9]*'; }

n=0     # each run's files under names of their own, for the deferred check
run() {
    local what="$*"
    n=$((n + 1))
    "$evprof" pprof "$@" -o "$tmp/p$n.pb.gz" 2>"$tmp/err"
    check "pprof $what: exit 0" [ $? -eq 0 ]
    "$evprof" folded "$@" >"$tmp/folded$n"
    local rep ticks us
    rep=$("$evprof" report "$@" | head -5)
    ticks=$(echo "$rep" | ticks_of)
    us=$(echo "$rep" | interval_of)
    defer "pprof $what" time_profile "$tmp/p$n.pb.gz" "$tmp/folded$n" "$ticks" "$((us * 1000))"
}

for f in "${logs[@]}"; do
    run "$f"
done
run --all "$data"/par-N2-p.eventlog
run --from 0.1 --to 0.3 "$data"/par-N2-p.eventlog
run --cap 1 --all "$data"/par-N2-p.eventlog

# time_nanos: the wall-clock event's time, moved to the window's start
"$evprof" pprof --from 0.1 "$data"/par-N2-p.eventlog -o "$tmp/w.pb.gz"
wall=$("$evprof" dump "$data"/par-N2-p.eventlog | grep -m1 'wall clock time')
check "time_nanos is the wall clock at --from" "$PYTHON" -c '
import re, sys, pprof_read
t, s, ns = map(int, re.match(r"(\d+): .*wall clock time (\d+)s (\d+)ns", sys.argv[2]).groups())
p = pprof_read.read(open(sys.argv[1], "rb").read())
want = s * 10**9 + ns - t + 100000000
assert p["time_nanos"] == want, (p["time_nanos"], want)
' "$tmp/w.pb.gz" "$wall"

# SRC: filename and start line
"$evprof" pprof "$data"/par-N2-p.eventlog >"$tmp/par.pb.gz"
check "stdout output; Main.crunch at Par.hs:11, system name crunch" "$PYTHON" -c '
import sys, pprof_read
p = pprof_read.read(open(sys.argv[1], "rb").read())
st = p["string_table"]
fs = {st[f["name"]]: f for f in p["function"]}
f = fs["Main.crunch"]
assert (st[f["system_name"]], st[f["filename"]], f["start_line"]) == ("crunch", "Par.hs", 11)
' "$tmp/par.pb.gz"

# heap: check.py PROFILE CSV CENSUS(0: the largest) BY_STACK
cat >"$tmp/heap.py" <<'PY'
import csv, sys
from collections import defaultdict
import pprof_read
p = pprof_read.read(open(sys.argv[1], 'rb').read())
pprof_read.check(p)
st = p['string_table']
assert [(st[v['type']], st[v['unit']]) for v in p['sample_type']] == [('inuse_space', 'bytes')]
rows = defaultdict(dict)
for r in csv.DictReader(open(sys.argv[2])):
    rows[int(r['census'])][r['band']] = int(r['bytes'])
want = int(sys.argv[3]) or max(rows, key=lambda c: (sum(rows[c].values()), -c))
got = {}
for k, v in pprof_read.stacks(p).items():
    # -hc bands: innermost first, '/' between frames
    name = '/'.join(reversed(k)) if sys.argv[4] == '1' else '/'.join(k)
    got[name] = got.get(name, 0) + v[0]
band = {}
for name, b in rows[want].items():
    if sys.argv[4] == '1' and name.startswith('('):
        name = name[name.index(')') + 1:]
    band[name] = band.get(name, 0) + b
assert got == band, (sorted(got.items())[:3], sorted(band.items())[:3])
assert ('census %d at' % want) in st[p['comment'][0]], st[p['comment'][0]]
PY
"$evprof" pprof "$heap"/leak-hT.eventlog -o "$tmp/h.pb.gz"
check "heap log: exit 0 without --heap" [ $? -eq 0 ]
"$evprof" heap --format csv "$heap"/leak-hT.eventlog >"$tmp/hT.csv"
check "heap -hT: the peak census, as heap's CSV" "$PYTHON" "$tmp/heap.py" "$tmp/h.pb.gz" "$tmp/hT.csv" 0 0
"$evprof" pprof --heap --census 3 "$heap"/leak-hT.eventlog -o "$tmp/h3.pb.gz"
check "heap -hT --census 3, as heap's CSV" "$PYTHON" "$tmp/heap.py" "$tmp/h3.pb.gz" "$tmp/hT.csv" 3 0
# -hc with whole band names (heap's -L 1000000): the bands are stacks
"$evprof" pprof --heap "$heap"/long-hc.eventlog -o "$tmp/hc.pb.gz"
"$evprof" heap --format csv --length 1000000 "$heap"/long-hc.eventlog >"$tmp/hc.csv" 2>/dev/null ||
    "$evprof" heap --format csv "$heap"/long-hc.eventlog >"$tmp/hc.csv"
check "heap -hc: stacks, innermost band frame first" "$PYTHON" "$tmp/heap.py" "$tmp/hc.pb.gz" "$tmp/hc.csv" 0 1

# errors
"$evprof" pprof --heap --census 999 "$heap"/leak-hT.eventlog -o "$tmp/x.pb.gz" 2>"$tmp/e"
check "--census 999: exit 1" [ $? -eq 1 ]
check "--census 999: says so" grep -q 'no census 999' "$tmp/e"
check "--census 999: no file" [ ! -e "$tmp/x.pb.gz" ]
"$evprof" pprof --census 2 "$heap"/leak-hT.eventlog >/dev/null 2>&1
check "--census without --heap: exit 2" [ $? -eq 2 ]
"$evprof" pprof --app x "$heap"/leak-hT.eventlog >/dev/null 2>&1
check "--app without --push: exit 2" [ $? -eq 2 ]
printf 'not an eventlog' >"$tmp/junk"
"$evprof" pprof "$tmp/junk" -o "$tmp/j.pb.gz" 2>/dev/null
check "junk: exit 1" [ $? -eq 1 ]
check "junk: no output file" [ ! -e "$tmp/j.pb.gz" ]
"$evprof" pprof tests/data/gc/alloc.eventlog -o "$tmp/n.pb.gz" 2>"$tmp/e"
check "neither samples nor censuses: exit 1" [ $? -eq 1 ]
check "neither samples nor censuses: says so" grep -q 'neither time-profile samples' "$tmp/e"

# a log cut inside a sample: exit 1, a valid profile of the samples before
head -c 420000 "$data"/par-N2-p.eventlog >"$tmp/cut.eventlog"
"$evprof" pprof --all "$tmp/cut.eventlog" -o "$tmp/cut.pb.gz" 2>"$tmp/e"
check "cut log: exit 1" [ $? -eq 1 ]
n=$(grep -c 'prof sample' <("$evprof" dump "$tmp/cut.eventlog" 2>/dev/null))
check "cut log: the $n samples before the cut" "$PYTHON" -c '
import sys, pprof_read
p = pprof_read.read(open(sys.argv[1], "rb").read())
pprof_read.check(p)
assert sum(s["value"][0] for s in p["sample"]) == int(sys.argv[2]) > 0
' "$tmp/cut.pb.gz" "$n"

# the checker fails on a profile that breaks the rules (so the test can fail)
check "a wrong total is caught" bash -c "! '$PYTHON' '$tmp/time.py' '$tmp/par.pb.gz' /dev/null 1 1000000 2>/dev/null"

verdicts "$tmp/time.py"
echo "pprof: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
