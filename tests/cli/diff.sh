#!/usr/bin/env bash
# `evprof diff BASE NEW` from the command line: a log against itself is all
# zeros (time, GC, heap, ticky); on real runs of the same program every
# cost centre's delta is report --json (NEW) minus report --json (BASE);
# --normalize, --from/--to on both sides; the folded lines parse as
# flamegraph.pl reads them and, where FlameGraph is present, equal
# difffolded.pl's output and render with flamegraph.pl into valid XML; the
# SVG call graph is valid XML with red/green/grey by the sign of each
# node's change; --fail-above's exit 3; the automatic choice of the data
# compared; usage errors.
#
# FlameGraph (not a Debian package) is looked for as $FLAMEGRAPH_DIR, then
# on PATH, then /tmp/FlameGraph; without it those checks say SKIPPED.
#
# Usage: tests/cli/diff.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
ghc=tests/data/ghc
g9=tests/data/ghc-9.0.2
ge=tests/data/ghc-events
fb=tests/data/diff/freq-before.eventlog
fa=tests/data/diff/freq-after.eventlog
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# For an AddressSanitizer build: Graphviz and the font libraries it loads
# keep memory they never free (as in graph.sh)
printf 'leak:%s\n' libfontconfig.so libgvc.so libgvplugin_ libpango libcairo libglib \
    libgobject libharfbuzz >"$tmp/lsan.supp"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$tmp/lsan.supp"

# run WANT_EXIT ARGS...: stdout in $tmp/out, stderr in $tmp/err
run() {
    local want=$1; shift
    "$evprof" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    local got=$?
    check "evprof $*: exit $got, want $want ($(head -c 300 "$tmp/err"))" [ "$got" -eq "$want" ]
}

# The checks of the loops below, for one Python start (checks.bash's defer;
# verdicts at the end):
#  zeros JSON: a diff of a log against itself, every delta 0, every row same
#  deltas A B DIFF: DIFF's cost centres are report --json B minus A
#  folded_lines FOLDED: flamegraph.pl's differential parse,
#    /^(.*)\s+?(\d+(?:\.\d*)?)$/, then the same on what is left
#  flame_coloured SVG: flamegraph.pl's output is valid XML with coloured frames
cat >"$tmp/diff.py" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
from verdicts import serve

def zeros(path):
    d = json.load(open(path))
    def deltas(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == 'delta':
                    yield v
                else:
                    yield from deltas(v)
        elif isinstance(x, list):
            for v in x:
                yield from deltas(v)
    ds = list(deltas(d))
    assert ds, 'no deltas at all'
    assert all(v == 0 for v in ds), [v for v in ds if v != 0][:5]
    for c in d.get('cost_centres', []) + d.get('bands', []) + d.get('counters', []):
        assert c['change'] == 'same', c

def deltas(a_json, b_json, diff_json):
    def own_ticks(path):
        r = json.load(open(path))
        names = {c['id']: (c['module'], c['label'], c['src_loc']) for c in r['cost_centres']}
        t = {}
        stack = [r['profile']]
        while stack:
            n = stack.pop()
            k = names[n['id']]
            t[k] = t.get(k, 0) + n['ticks']
            stack.extend(n['children'])
        return t, r['total_ticks']
    a, ta = own_ticks(a_json)
    b, tb = own_ticks(b_json)
    d = json.load(open(diff_json))
    assert d['total']['base'] == ta and d['total']['new'] == tb, (d['total'], ta, tb)
    assert d['total']['delta'] == tb - ta
    got = {}
    for c in d['cost_centres']:
        got[(c['module'], c['label'], c['src_loc'])] = c
    for k, c in got.items():
        assert c['new'] == b.get(k, 0), (k, c, b.get(k))
        if k in a:
            base = a[k]
        else:
            # a cost centre whose location moved shows NEW's: BASE's is the one
            # unpaired cost centre of that module and label
            was = [x for x in a if x[:2] == k[:2] and x not in got]
            assert len(was) <= 1, (k, was)
            base = a[was[0]] if was else 0
        assert c['base'] == base and c['delta'] == c['new'] - base, (k, c, base)
    keys = {k for k in set(a) | set(b) if a.get(k, 0) or b.get(k, 0)}
    assert all(k in got for k in keys if b.get(k, 0)), 'a cost centre of NEW is missing'
    assert sum(c['base'] for c in got.values()) == ta and sum(c['new'] for c in got.values()) == tb

def folded_lines(path):
    rx = re.compile(r'^(.*)\s+?(\d+(?:\.\d*)?)$')
    seen = set()
    for line in open(path).read().split('\n')[:-1]:
        m = rx.match(line); assert m, line
        n = rx.match(m.group(1)); assert n, line
        assert not rx.match(n.group(1)), 'a third count: %r' % line
        assert n.group(1) not in seen; seen.add(n.group(1))
        assert int(n.group(2)) + int(m.group(2)) > 0, line

def flame_coloured(path):
    t = ET.parse(path)
    fills = [e.get('fill') for e in t.iter('{http://www.w3.org/2000/svg}rect') if e.get('fill')]
    # difffolded colours: red rgb(255,x,x) for growth, blue rgb(x,x,255) for shrinkage
    assert any(re.match(r'rgb\(\d+,\d+,255\)', f) or re.match(r'rgb\(255,\d+,\d+\)', f) for f in fills)

serve(globals())
PY

# ---- a log against itself: zeros -----------------------------------------
n=0     # each check's own copy of what it reads
for f in "$ghc"/*.eventlog "$g9"/nfib-p.eventlog "$fb"; do
    run 0 diff -f json "$f" "$f"
    mv "$tmp/out" "$tmp/zero$((n += 1)).json"
    defer "$f: diff X X is all zeros" zeros "$tmp/zero$n.json"
    run 0 diff "$f" "$f"
    # the text: every delta column 0 (table and tree)
    check "$f: text deltas are 0" awk '
        /^COST CENTRE/ { part++; next }
        part == 1 && NF >= 6 && $0 !~ /^\t/ { if ($(NF-1) != "0" || $NF != "0.0%") exit 1 }
        part == 2 && NF >= 9 { if ($(NF) != "0" || $(NF-3) != "0") exit 1 }
        END { if (part != 2) exit 1 }' "$tmp/out"
done
for f in "$g9"/nfib-s.eventlog "$g9"/nfib-hc.eventlog "$ge"/ticky-new.eventlog; do
    run 0 diff -f json "$f" "$f"
    mv "$tmp/out" "$tmp/zero$((n += 1)).json"
    defer "$f: diff X X is all zeros" zeros "$tmp/zero$n.json"
done
run 0 diff -f json "$g9"/nfib-s.eventlog "$g9"/nfib-s.eventlog
check "a GC-only log is compared as GC" grep -q '"kind": "gc"' "$tmp/out"
run 0 diff -f json "$g9"/nfib-hc.eventlog tests/data/heap/long-hc.eventlog
check "heap logs are compared as heap" grep -q '"kind": "heap"' "$tmp/out"
# heap profiles of different breakdowns have no band in common: refused
for k in "" --heap; do
    run 2 diff $k "$g9"/nfib-hc.eventlog "$g9"/nfib-hy.eventlog
    check "diff ${k:-(auto)} -hc against -hy: refused, both breakdowns named" grep -q \
        "nfib-hc.eventlog is a heap profile by -hc (cost-centre stack) and .*nfib-hy.eventlog one by -hy (type description)" "$tmp/err"
    check "diff ${k:-(auto)} -hc against -hy: no comparison written" [ ! -s "$tmp/out" ]
done
run 2 diff --heap tests/data/heap/leak-hT.eventlog tests/data/heap/leak-hd.eventlog
check "diff --heap -hT against -hd: refused" grep -q "by -hT (closure type) and .* by -hd (closure description)" "$tmp/err"
run 0 diff --heap tests/data/heap/leak-hc.eventlog tests/data/heap/long-hc.eventlog
check "diff --heap of two -hc logs: compared" grep -q "heap profiles (bytes per band)" "$tmp/out"
run 0 diff -f json "$ge"/ticky-new.eventlog "$ge"/ticky-ticky.eventlog
check "ticky logs are compared as ticky" grep -q '"kind": "ticky"' "$tmp/out"
run 0 diff -f json --gc "$ghc"/deep-p.eventlog "$ghc"/deep-pj.eventlog
check "--gc compares a profiled run's GC" grep -q '"kind": "gc"' "$tmp/out"
check "--gc json: GHC 9.0's memory in use is a lower bound on both sides" \
    grep -q '"max_mem_in_use_lower_bound": {"base": true, "new": true}' "$tmp/out"
# a 9.0 log (no MEM_RETURN) against a 9.6 one: the text says which is a lower bound
run 0 diff --gc "$ghc"/deep-p.eventlog tests/data/ghc-9.6/sim-p.eventlog
check "--gc text: BASE's memory in use is a lower bound, as gc's '>='" \
    grep -q "^total memory in use: BASE's is a lower bound" "$tmp/out"
run 0 diff -f json "$g9"/nfib-s.eventlog "$ghc"/deep-p.eventlog
check "a GC log and a profile share only GC" grep -q '"kind": "gc"' "$tmp/out"
check "... and evprof says so" grep -q "nfib-s.eventlog has no time-profile samples: comparing GC summaries (--gc)" "$tmp/err"

# ---- the other analyses against their own commands --------------------------
# heap: per band the peak and mean of `evprof heap -f csv`'s censuses
"$evprof" heap -f csv -L 1000000 "$g9"/nfib-hc.eventlog >"$tmp/a.csv"  # whole names, as the diff
"$evprof" heap -f csv -L 1000000 tests/data/heap/long-hc.eventlog >"$tmp/b.csv"
run 0 diff --heap -f json "$g9"/nfib-hc.eventlog tests/data/heap/long-hc.eventlog
check "diff --heap: peaks and means are the censuses'" "$PYTHON" -c "
import csv, json, sys
def bands(path):
    rows = list(csv.DictReader(open(path)))
    n = len({r['census'] for r in rows})
    peak, total = {}, {}
    for r in rows:
        b = int(r['bytes'])
        peak[r['band']] = max(peak.get(r['band'], 0), b)
        total[r['band']] = total.get(r['band'], 0) + b
    return peak, {k: v / n for k, v in total.items()}
pa, ma = bands(sys.argv[1]); pb, mb = bands(sys.argv[2])
d = json.load(open(sys.argv[3]))
assert {x['name'] for x in d['bands']} == set(pa) | set(pb)
for x in d['bands']:
    k = x['name']
    assert x['peak_bytes']['base'] == pa.get(k, 0) and x['peak_bytes']['new'] == pb.get(k, 0), x
    assert abs(x['mean_bytes']['base'] - ma.get(k, 0)) < 1e-3 and abs(x['mean_bytes']['new'] - mb.get(k, 0)) < 1e-3, x
" "$tmp/a.csv" "$tmp/b.csv" "$tmp/out"
# ticky: per name the entries and allocation of `evprof ticky -f csv`
"$evprof" ticky -f csv "$ge"/ticky-new.eventlog >"$tmp/a.csv"
"$evprof" ticky -f csv "$ge"/ticky-json.eventlog >"$tmp/b.csv"
run 0 diff --ticky -f json "$ge"/ticky-new.eventlog "$ge"/ticky-json.eventlog
check "diff --ticky: entries and allocation are ticky's" "$PYTHON" -c "
import csv, json, sys
def counters(path):
    t = {}
    for r in csv.DictReader(open(path)):
        e, a = t.get(r['name'], (0, 0))
        t[r['name']] = (e + int(r['entries']), a + int(r['alloc']))
    return t
a = counters(sys.argv[1]); b = counters(sys.argv[2])
d = json.load(open(sys.argv[3]))
assert {x['name'] for x in d['counters']} == set(a) | set(b)
for x in d['counters']:
    k = x['name']
    assert (x['entries']['base'], x['alloc_bytes']['base']) == a.get(k, (0, 0)), x
    assert (x['entries']['new'], x['alloc_bytes']['new']) == b.get(k, (0, 0)), x
    assert x['entries']['delta'] == x['entries']['new'] - x['entries']['base']
" "$tmp/a.csv" "$tmp/b.csv" "$tmp/out"
# GC: the figures of `evprof gc -f json`
"$evprof" gc -f json "$g9"/nfib-s.eventlog >"$tmp/a.json"
"$evprof" gc -f json "$g9"/nfib-np-N2-s.eventlog >"$tmp/b.json"
run 0 diff --gc -f json "$g9"/nfib-s.eventlog "$g9"/nfib-np-N2-s.eventlog
check "diff --gc: the figures are gc's" "$PYTHON" -c "
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
d = {f['name']: f for f in json.load(open(sys.argv[3]))['figures']}
for k in ('allocated_bytes', 'copied_bytes', 'max_live_bytes'):
    assert (d[k]['base'], d[k]['new']) == (a[k], b[k]), (k, d[k], a[k], b[k])
    assert d[k]['delta'] == b[k] - a[k]
for g in (0, 1):
    k = 'gen%d_collections' % g
    assert (d[k]['base'], d[k]['new']) == (a['generations'][g]['collections'], b['generations'][g]['collections']), k
" "$tmp/a.json" "$tmp/b.json" "$tmp/out"

# ---- deltas are report(NEW) - report(BASE) ---------------------------------
pairs=("$ghc/deep-p $ghc/deep-pj" "$ghc/mutual-p $ghc/mutual-pj" "$ghc/odd-p $ghc/odd-pj"
       "$ghc/chain-p $ghc/chain-pj" "$ghc/par-N2-p $ghc/par-N2-pj" "$ghc/deep-p $ghc/odd-pj"
       "tests/data/diff/freq-before-100k tests/data/diff/freq-before")
for p in "${pairs[@]}"; do
    set -- $p
    n=$((n + 1))
    "$evprof" report --json "$1.eventlog" >"$tmp/a$n.json"
    "$evprof" report --json "$2.eventlog" >"$tmp/b$n.json"
    # report --json counts every sample: diff --all does too
    run 0 diff --all -f json "$1.eventlog" "$2.eventlog"
    mv "$tmp/out" "$tmp/d$n.json"
    defer "$1 -> $2: deltas are report(NEW) - report(BASE)" \
        deltas "$tmp/a$n.json" "$tmp/b$n.json" "$tmp/d$n.json"
done
# the Freq runs: freqs moved (28:1-59 -> 28:1-61) and is one row
"$evprof" report --json "$fb" >"$tmp/a.json"
"$evprof" report --json "$fa" >"$tmp/b.json"
run 0 diff --all -f json "$fb" "$fa"
cp "$tmp/out" "$tmp/freq.json"
defer "Freq: deltas are report(NEW) - report(BASE)" \
    deltas "$tmp/a.json" "$tmp/b.json" "$tmp/freq.json"
check "Freq: freqs is paired across its move" \
    "$PYTHON" -c "import json,sys; d=json.load(open(sys.argv[1])); c=[c for c in d['cost_centres'] if c['label']=='freqs']; assert len(c)==1 and c[0]['change']=='same' and c[0]['src_loc']=='Freq.hs:28:1-61', c" "$tmp/out"

# --normalize: BASE's figures scaled to NEW's total
run 0 diff --normalize -f json "$fb" "$fa"
check "--normalize scales BASE to NEW's total" "$PYTHON" -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['normalized'] and abs(d['total']['base'] - d['total']['new']) < 1e-6, d['total']
s = sum(c['base'] for c in d['cost_centres'])
assert abs(s - d['total']['new']) < 1e-3, s" "$tmp/out"

# --from/--to/--cap apply to both sides
ticks_of() { grep -o '([0-9]* ticks @' | grep -o '[0-9]*'; }
want_a=$("$evprof" report --to 0.3 "$ghc"/deep-p.eventlog | ticks_of)
want_b=$("$evprof" report --to 0.3 "$ghc"/deep-pj.eventlog | ticks_of)
run 0 diff --to 0.3 -f json "$ghc"/deep-p.eventlog "$ghc"/deep-pj.eventlog
check "--to applies to both sides ($want_a, $want_b)" "$PYTHON" -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert (d['base']['total_ticks'], d['new']['total_ticks']) == ($want_a, $want_b), d['total']" "$tmp/out"
want_a=$("$evprof" report --cap 1 "$ghc"/par-N2-p.eventlog | ticks_of)
want_b=$("$evprof" report --cap 1 "$ghc"/par-N2-pj.eventlog | ticks_of)
run 0 diff --cap 1 -f json "$ghc"/par-N2-p.eventlog "$ghc"/par-N2-pj.eventlog
check "--cap applies to both sides ($want_a, $want_b)" "$PYTHON" -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert (d['base']['total_ticks'], d['new']['total_ticks']) == ($want_a, $want_b), d['total']" "$tmp/out"

# ---- folded ----------------------------------------------------------------
flamegraph_dir=${FLAMEGRAPH_DIR:-}
if [ -z "$flamegraph_dir" ] && command -v flamegraph.pl >/dev/null; then
    flamegraph_dir=$(dirname "$(command -v flamegraph.pl)")
fi
[ -z "$flamegraph_dir" ] && [ -f /tmp/FlameGraph/flamegraph.pl ] && flamegraph_dir=/tmp/FlameGraph
for p in "$fb $fa" "$ghc/deep-p.eventlog $ghc/deep-pj.eventlog" \
         "$ghc/par-N2-p.eventlog $ghc/par-N2-pj.eventlog"; do
    set -- $p
    for norm in "" "--normalize"; do
        run 0 diff -f folded $norm "$1" "$2"
        cp "$tmp/out" "$tmp/diff.folded"
        cp "$tmp/out" "$tmp/diff$((n += 1)).folded"
        defer "$1 -> $2 $norm: folded lines are 'stack base new'" folded_lines "$tmp/diff$n.folded"
        if [ -n "$flamegraph_dir" ]; then
            "$evprof" folded "$1" >"$tmp/a.folded"
            "$evprof" folded "$2" >"$tmp/b.folded"
            perl "$flamegraph_dir/difffolded.pl" ${norm:+-n} "$tmp/a.folded" "$tmp/b.folded" |
                sort >"$tmp/want"
            sort "$tmp/diff.folded" >"$tmp/got"
            check "$1 -> $2 $norm: folded diff = difffolded.pl of the two folded files" \
                cmp -s "$tmp/want" "$tmp/got"
            perl "$flamegraph_dir/flamegraph.pl" "$tmp/diff.folded" >"$tmp/flame$n.svg" 2>"$tmp/ferr"
            check "flamegraph.pl renders the folded diff" [ $? -eq 0 ]
            defer "the differential flame graph is valid XML with coloured frames" \
                flame_coloured "$tmp/flame$n.svg"
        fi
    done
done
[ -n "$flamegraph_dir" ] || echo "SKIPPED: difffolded.pl and flamegraph.pl checks (FlameGraph not found: set FLAMEGRAPH_DIR)"
if [ -n "$flamegraph_dir" ]; then
    perl "$flamegraph_dir/flamegraph.pl" <("$evprof" diff -f folded "$fb" "$fa") >"$tmp/flame.svg"
    check "Freq: Main.freqs shrank: a blue frame" "$PYTHON" -c "
import re, sys, xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
t = ET.parse(sys.argv[1])
for g in t.iter(ns + 'g'):
    title = g.find(ns + 'title'); rect = g.find(ns + 'rect')
    if title is not None and rect is not None and title.text.startswith('Main.freqs '):
        m = re.match(r'rgb\((\d+),(\d+),(\d+)\)', rect.get('fill'))
        assert m and int(m.group(3)) == 255 and int(m.group(1)) < 255, rect.get('fill')
        break
else:
    raise SystemExit('no Main.freqs frame')
" "$tmp/flame.svg"
fi

# ---- the call graph --------------------------------------------------------
cat >"$tmp/svg.py" <<'PY'
import re, sys, xml.etree.ElementTree as ET
ns = '{http://www.w3.org/2000/svg}'
t = ET.parse(sys.argv[1])
seen = {'grew': 0, 'shrank': 0, 'same': 0}
for g in t.iter(ns + 'g'):
    if g.get('class') != 'node' or g.find(ns + 'title').text == 'legend':
        continue
    fill = next(g.iter(ns + 'polygon')).get('fill')
    texts = [x.text for x in g.iter(ns + 'text')]
    note = [x for x in texts if x.startswith('base ') or x.startswith('not in base')]
    assert note, texts
    m = re.search(r': ([+-]?\d+)', note[0])
    delta = int(m.group(1))
    r, gr, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    if delta > 0:
        assert r > gr and r > b, (texts, fill); seen['grew'] += 1
    elif delta < 0:
        assert gr > r and gr > b, (texts, fill); seen['shrank'] += 1
    else:
        assert r == gr == b, (texts, fill); seen['same'] += 1
print(seen)
PY
run 0 diff -f svg "$fb" "$fa"
check "the diff's SVG is valid XML, nodes coloured by their change" \
    "$PYTHON" "$tmp/svg.py" "$tmp/out"
run 0 diff -o "$tmp/g.svg" "$fa" "$fb"
check "-o x.svg: an SVG, coloured the other way round" "$PYTHON" "$tmp/svg.py" "$tmp/g.svg"
run 0 diff -o "$tmp/g.png" "$fb" "$fa"
check "-o x.png: a PNG" [ "$(head -c 8 "$tmp/g.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
run 0 diff -f pdf "$fb" "$fa"
check "--format pdf: a PDF" [ "$(head -c 5 "$tmp/out")" = "%PDF-" ]
run 0 diff -o "$tmp/x.json" "$fb" "$fa"
check "-o x.json: JSON" "$PYTHON" -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/x.json"

# ---- --fail-above ----------------------------------------------------------
# growth is measured against BASE's total: the total's own, a cost
# centre's delta over BASE's total ticks (issue 27, point 5)
# deep-pj -> deep-p: total 115 -> 168 (+46.1%), walk_step 92 -> 144 (+52 ticks: 45.2%)
run 3 diff --fail-above 40 "$ghc"/deep-pj.eventlog "$ghc"/deep-p.eventlog
check "--fail-above 40: the total is named" grep -q "the total grew by +46.1%" "$tmp/err"
check "--fail-above: the report is still written" grep -q "walk_step" "$tmp/out"
run 0 diff --fail-above 47 "$ghc"/deep-pj.eventlog "$ghc"/deep-p.eventlog
# normalized (BASE scaled to 168 ticks): walk_step 134.4 -> 144, +9.6 of 168 (5.7%)
run 3 diff --fail-above 5 --normalize "$ghc"/deep-pj.eventlog "$ghc"/deep-p.eventlog
check "--fail-above 5 --normalize: walk_step is named, by its share of BASE's total" \
    grep -q "Main.walk_step (Deep.hs:10:38-72) grew by +10 ticks: +5.7% of BASE's total (normalized), more than --fail-above 5%" "$tmp/err"
run 0 diff --fail-above 6 --normalize "$ghc"/deep-pj.eventlog "$ghc"/deep-p.eventlog
# freq-before -> freq-after: -97% in all; corpus.step 1 -> 3 ticks (+2 of 4527)
run 0 diff --fail-above 10 "$fb" "$fa" -f json
check "--fail-above: a faster run passes, output intact" "$PYTHON" -c "import json,sys; json.load(open(sys.argv[1]))" "$tmp/out"
run 0 diff --fail-above 0.05 "$fb" "$fa"
run 3 diff --fail-above 0.04 "$fb" "$fa"
check "--fail-above 0.04: a cost centre of +2 of 4527 ticks (0.044%) is named" \
    grep -q "Main.corpus.* grew by +2 ticks: +0.044% of BASE's total" "$tmp/err"
# --min-share: corpus has 5 of 4527 ticks, then 7 of 135 (5.2%); corpus.step
# 1, then 3 (2.2%)
run 3 diff --fail-above 0.04 --min-share 5 "$fb" "$fa"
check "--min-share 5: corpus.step left out, corpus not" grep -q "Main.corpus (" "$tmp/err"
run 0 diff --fail-above 0.04 --min-share 6 "$fb" "$fa"
# a real naive -> fast rewrite (tests/data/newuser): 127 -> 4 ticks, and the
# fast version's own helper is new: it counts by its 4 ticks of 127 (3.1%),
# not as unbounded growth
nu=tests/data/newuser
run 0 diff --fail-above 10 "$nu"/dedup-naive.eventlog "$nu"/dedup-fast.eventlog
run 3 diff --fail-above 3 "$nu"/dedup-naive.eventlog "$nu"/dedup-fast.eventlog
check "--fail-above 3: the new helper is named with its share" \
    grep -q "Main.fastDedup.go (Dedup.hs:(17,5)-(20,47)) grew by +4 ticks (from 0): +3.1% of BASE's total, more than --fail-above 3%" "$tmp/err"
# the other way round, the slow version fails any guard by its total
run 3 diff --fail-above 100 "$nu"/dedup-fast.eventlog "$nu"/dedup-naive.eventlog
check "--fail-above 100 fast -> naive: the total" grep -q "the total grew by +3075.0%" "$tmp/err"
run 0 diff --help
tr -s ' \n' '  ' < "$tmp/out" > "$tmp/help1"     # --help wraps its lines
check "--help: --fail-above says what it measures against" grep -q "of BASE's total ticks" "$tmp/help1"
check "--help: --min-share is there" grep -q -- "--min-share PCT" "$tmp/out"

# ---- standard input, errors -------------------------------------------------
"$evprof" diff -f json - "$fa" <"$fb" >"$tmp/stdin.json" 2>"$tmp/err"
check "BASE from standard input" [ $? -eq 0 ]
"$evprof" diff -f json "$fb" "$fa" >"$tmp/file.json"
check "... the same figures as from the file" "$PYTHON" -c "
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2]))
assert a['cost_centres'] == b['cost_centres'] and a['total'] == b['total']" "$tmp/stdin.json" "$tmp/file.json"
run 2 diff "$fb"
check "one file: usage error" grep -q "BASE NEW" "$tmp/err"
run 2 diff - -
run 2 diff --gc -f folded "$fb" "$fa"
run 2 diff --gc --heap "$fb" "$fa"
run 2 diff -f bogus "$fb" "$fa"
run 2 diff -f folded "$g9"/nfib-s.eventlog "$g9"/nfib-s.eventlog
check "folded of GC logs: says why" grep -q "no time profiles" "$tmp/err"
run 1 diff "$fb" "$tmp/missing.eventlog"
check "a missing file is named" grep -q "missing.eventlog" "$tmp/err"
check "... and nothing is written" [ ! -s "$tmp/out" ]
# a log cut inside an event: the error named, the figures before it compared
head -c 72000 "$fa" >"$tmp/cut.eventlog"
run 1 diff -f json "$fb" "$tmp/cut.eventlog"
check "a cut log: the error names file, offset and event type" \
    grep -q "cut.eventlog: truncated at byte 72000: the log ends inside an event that starts at byte 71988 (event type 167 PROF_SAMPLE_COST_CENTRE)" "$tmp/err"
check "a cut log: the samples before the cut are compared" "$PYTHON" -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d['kind'] == 'time profile' and 0 < d['new']['total_ticks'] < 135, d['new']" "$tmp/out"
# hostile names: no control byte reaches the terminal
run 0 diff tests/data/escape/hostile.eventlog tests/data/escape/hostile.eventlog
check "hostile names are shown in their visible form" \
    bash -c "! LC_ALL=C grep -q \$'[\x01-\x08\x0b-\x1f\x7f]' '$tmp/out'"
printf 'not an eventlog' >"$tmp/junk"
run 1 diff "$tmp/junk" "$fa"
run 1 diff --heap "$fb" "$fa"
check "--heap on time profiles: says what is missing" grep -q "no heap profile" "$tmp/err"
run 1 diff --time "$g9"/nfib-s.eventlog "$fa"
check "--time on a GC log: says what is missing" grep -q "no time-profile samples" "$tmp/err"
cp "$fb" "$tmp/in.eventlog"
run 2 diff -o "$tmp/in.eventlog" "$tmp/in.eventlog" "$fa"
check "-o over an input: refused" cmp -s "$fb" "$tmp/in.eventlog"

# docs/DIFF.md's example outputs are the current ones
check "docs/DIFF.md's outputs" bash tests/cli/readme.sh "$evprof" docs/DIFF.md

verdicts "$tmp/diff.py"
echo "diff: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
