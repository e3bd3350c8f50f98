#!/usr/bin/env bash
# `evprof speedscope`: the file follows speedscope's format (schema URL,
# frames, one sampled profile per capability, frame indices in range, as
# many weights as samples, non-negative integer weights); each capability
# holds the report's ticks for that capability (`report --all --cap N`),
# also under --from/--to and --cap; the stacks are the folded stacks'
# (`folded --all`); and the timeline is real: every sample ends exactly at
# the time of its event 167 as `evprof dump` prints it. Without --all the
# built-in stacks (one built-in frame: MAIN/GC, MAIN/IDLE, ...) are empty
# samples, and the counts are `report --cap N`'s and the stacks `folded`'s.
#
# Usage: tests/cli/speedscope.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
data=tests/data/ghc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

logs=("$data"/par-N2-p.eventlog "$data"/deep-p.eventlog "$data"/mutual-p.eventlog
      "$data"/odd-pj.eventlog "$data"/chain-p.eventlog
      tests/data/ghc-9.6/sim-p.eventlog tests/data/ghc-9.6/workers-N2-p.eventlog
      tests/data/namesakes/Lexer-calls.nt.p.1.eventlog)   # namesakes: one frame name each

# check.py FILE.json DUMP.txt FOLDED.txt: prints "cap count" per profile
cat >"$tmp/check.py" <<'PY'
import json, re, sys
from collections import Counter
d = json.load(open(sys.argv[1], encoding='utf-8'))
assert d['$schema'] == 'https://www.speedscope.app/file-format-schema.json', d['$schema']
frames = d['shared']['frames']
assert frames, 'no frames'
for f in frames:
    assert isinstance(f['name'], str) and f['name'], f
    if 'file' in f:
        assert isinstance(f['file'], str) and f['file']
        assert isinstance(f['line'], int) and f['line'] >= 1
        assert isinstance(f['col'], int) and f['col'] >= 1
# the sample times of every capability, from the dump (with "all" in
# argv[4] every sample; else not those of a built-in stack: one frame, a
# cost centre defined at <built-in>)
every = len(sys.argv) > 4 and sys.argv[4] == 'all'
builtin, times = set(), {}
for line in open(sys.argv[2], encoding='utf-8', errors='replace'):
    m = re.match(r'^\d+: cost centre (\d+) .* at <built-in>$', line)
    if m:
        builtin.add(m.group(1))
    m = re.match(r'^(\d+): cap no (\d+), prof sample \d+, cost centre stack (.*)$', line)
    if m and (every or m.group(3).strip() not in builtin):
        times.setdefault(int(m.group(2)), []).append(int(m.group(1)))
# the folded stacks
folded = Counter()
for line in open(sys.argv[3], encoding='utf-8'):
    stack, n = line.rstrip('\n').rsplit(' ', 1)
    folded[stack] += int(n)
# folded's cleaning (docs/FLAMEGRAPH.md): ';' -> ':', control characters
# shown visibly (\n, \t, \xNN), whitespace at a frame's end -> '_'
def folded_name(n):
    vis = {'\n': '\\n', '\r': '\\r', '\t': '\\t'}
    n = re.sub(r'[\x00-\x1f\x7f-\x9f]',
               lambda m: vis.get(m.group(0), '\\x%02x' % ord(m.group(0))), n.replace(';', ':'))
    return re.sub(r'\s+$', lambda m: '_' * len(m.group(0)), n)
stacks = Counter()
starts = set()
for p in d['profiles']:
    assert p['type'] == 'sampled' and p['unit'] == 'nanoseconds', p['type']
    cap = int(re.search(r'capability (\d+)$', p['name']).group(1))
    s, w = p['samples'], p['weights']
    assert len(s) == len(w), 'samples and weights differ in length'
    assert all(isinstance(x, int) and x >= 0 for x in w), 'weights are non-negative integers'
    assert p['startValue'] <= p['endValue']
    starts.add(p['startValue'])
    pos, ends = p['startValue'], []
    for stack, weight in zip(s, w):
        assert all(isinstance(i, int) and 0 <= i < len(frames) for i in stack), stack
        pos += weight
        if stack:
            ends.append(pos)
            stacks[';'.join(folded_name(frames[i]['name']) for i in stack)] += 1
    assert ends == sorted(ends), 'sample times go backwards'
    assert ends == sorted(times.get(cap, [])), \
        'cap %d: sample ends differ from the events\' times' % cap
    # the last sample ends the profile (a dropped one as an empty sample)
    assert pos <= p['endValue'] and (not ends or ends[-1] <= pos)
    assert pos == ends[-1] if every else True
    print(cap, len(ends))
assert len(starts) <= 1, 'profiles do not share their start'
# namesakes (one Module.label at several places) are frames of names of
# their own: no name the samples use stands for two places
places = {}
for p in d['profiles']:
    for stack in p['samples']:
        for i in stack:
            f = frames[i]
            places.setdefault(f['name'], set()).add((f.get('file'), f.get('line'), f.get('col')))
assert all(len(v) == 1 for v in places.values()), 'one name for several places: %r' % (
    [k for k, v in places.items() if len(v) > 1][:3])
assert stacks == folded, 'stacks differ from folded: %r' % (
    list((stacks - folded).items())[:3] + list((folded - stacks).items())[:3])
PY

ticks_of() { grep -o '([0-9]* ticks @' | grep -o '[0-9]*'; }

# run.sh OPTIONS... FILE: checks one output against dump, folded and report
run() {
    local f=${*: -1} what="$*"
    "$evprof" speedscope "$@" -o "$tmp/out.json" 2>"$tmp/err"
    check "$what: exit 0" [ $? -eq 0 ]
    # the dump, windowed as the options say (python does the window)
    local all=some
    case " $* " in *" --all "*) all=all ;; esac
    "$evprof" dump "$f" >"$tmp/dump.all"
    "$PYTHON" - "$tmp/dump.all" "$@" >"$tmp/dump" <<'PY'
import re, sys
args = sys.argv[2:-1]
lo, hi, cap = 0, float('inf'), None
for i, a in enumerate(args):
    if a == '--from': lo = round(float(args[i + 1]) * 1e9)
    if a == '--to': hi = round(float(args[i + 1]) * 1e9)
    if a == '--cap': cap = int(args[i + 1])
for line in open(sys.argv[1], encoding='utf-8', errors='replace'):
    m = re.match(r'^(\d+): cap no (\d+), prof sample', line)
    if m and lo <= int(m.group(1)) < hi and (cap is None or int(m.group(2)) == cap):
        sys.stdout.write(line)
    elif re.match(r'^\d+: cost centre \d+ ', line):
        sys.stdout.write(line)
PY
    "$evprof" folded "$@" >"$tmp/folded"
    if ! "$PYTHON" "$tmp/check.py" "$tmp/out.json" "$tmp/dump" "$tmp/folded" "$all" >"$tmp/caps" 2>"$tmp/py"; then
        bad "$what: structure, timeline or stacks: $(tail -1 "$tmp/py")"
        return
    fi
    ok
    local cap n want
    while read -r cap n; do
        want=$("$evprof" report --cap "$cap" "${@:1:$#-1}" "$f" | ticks_of)
        check "$what: capability $cap has the report's $want ticks (got $n)" [ "$n" = "$want" ]
    done <"$tmp/caps"
    check "$what: some capability has samples" [ -s "$tmp/caps" ]
}

for f in "${logs[@]}"; do
    run --all "$f"
    run "$f"
done
run --all --from 0.1 --to 0.3 "$data"/par-N2-p.eventlog
run --from 0.1 --to 0.3 "$data"/par-N2-p.eventlog
run --all --cap 1 "$data"/par-N2-p.eventlog
run --cap 1 "$data"/par-N2-p.eventlog
run --all --from 0.05 --cap 0 "$data"/par-N2-p.eventlog
# the built-in stacks are there to drop: IDLE and GC samples in par-N2-p
check "par-N2-p has built-in samples (the --all runs differ)" bash -c \
    "[ \"\$('$evprof' report --all '$data/par-N2-p.eventlog' | grep -o '([0-9]* ticks')\" != \
       \"\$('$evprof' report '$data/par-N2-p.eventlog' | grep -o '([0-9]* ticks')\" ]"

# frames carry file, line and column from SRC
"$evprof" speedscope "$data"/par-N2-p.eventlog >"$tmp/par.json"
check "Main.crunch has its SRC Par.hs:11:33-73" "$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert {"name": "Main.crunch", "file": "Par.hs", "line": 11, "col": 33} in d["shared"]["frames"]
' "$tmp/par.json"

# the checker catches a broken timeline (so the test can fail)
"$PYTHON" - "$tmp/par.json" "$tmp/broken.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d['profiles'][0]['weights'][5] += 1000
json.dump(d, open(sys.argv[2], 'w'))
PY
cp "$tmp/dump.all" "$tmp/dump.keep"
"$evprof" dump "$data"/par-N2-p.eventlog >"$tmp/dump"
"$evprof" folded "$data"/par-N2-p.eventlog >"$tmp/folded"
"$PYTHON" "$tmp/check.py" "$tmp/par.json" "$tmp/dump" "$tmp/folded" >/dev/null 2>&1
check "the checker passes the unbroken file" [ $? -eq 0 ]
"$PYTHON" "$tmp/check.py" "$tmp/broken.json" "$tmp/dump" "$tmp/folded" >/dev/null 2>&1
check "a shifted sample is caught" [ $? -ne 0 ]
# the built-in samples are checked: the --all file fails the checks without it
"$evprof" speedscope --all "$data"/par-N2-p.eventlog >"$tmp/parall.json"
"$PYTHON" "$tmp/check.py" "$tmp/parall.json" "$tmp/dump" "$tmp/folded" >/dev/null 2>&1
check "a file with the built-in samples fails the checks of one without" [ $? -ne 0 ]

# errors: no samples, not an eventlog, usage
"$evprof" speedscope tests/data/heap/leak-hT.eventlog >"$tmp/o" 2>"$tmp/e"
check "no samples: exit 1" [ $? -eq 1 ]
check "no samples: says so" grep -q 'no time-profile samples' "$tmp/e"
printf 'not an eventlog' >"$tmp/junk"
"$evprof" speedscope "$tmp/junk" -o "$tmp/j.json" 2>/dev/null
check "junk: exit 1" [ $? -eq 1 ]
check "junk: no output file" [ ! -e "$tmp/j.json" ]
"$evprof" speedscope >/dev/null 2>&1
check "no FILE: exit 2" [ $? -eq 2 ]
# a log cut inside a sample: exit 1, the samples before the cut, valid JSON
head -c 420000 "$data"/par-N2-p.eventlog >"$tmp/cut.eventlog"
"$evprof" speedscope --all "$tmp/cut.eventlog" -o "$tmp/cut.json" 2>"$tmp/e"
check "cut log: exit 1" [ $? -eq 1 ]
check "cut log: names the byte offset and event type" grep -q 'truncated at byte 420000.*event type 167' "$tmp/e"
n=$(grep -c 'prof sample' <("$evprof" dump "$tmp/cut.eventlog" 2>/dev/null))
check "cut log: the $n samples before the cut, as valid JSON" "$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert sum(1 for p in d["profiles"] for s in p["samples"] if s) == int(sys.argv[2]) > 0
' "$tmp/cut.json" "$n"

echo "speedscope: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
