#!/usr/bin/env bash
# `evprof html` without a browser: the page of each bundled log is one
# self-contained file whose JSON block parses and holds what the log has
# (tests/support/html_page.py checks the markup, the escaping and the
# bounds), hostile labels stay escaped, --max-nodes keeps the heaviest
# nodes and says so, sizes stay bounded, a damaged log gets a page that
# says what was lost, unreadable input gets no page, usage errors.
#
# Usage: tests/cli/html.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
check_page="${PYTHON:-python3} tests/support/html_page.py"
d=tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
# For an AddressSanitizer build: Graphviz (the call graph) and the font
# libraries it loads keep memory they never free (as in graph.sh).
printf 'leak:%s\n' libfontconfig.so libgvc.so libgvplugin_ libpango libcairo libglib \
    libgobject libharfbuzz >"$tmp/lsan.supp"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$tmp/lsan.supp:print_suppressions=0"
# json PAGE EXPR: the same check at once (for pages a later step rewrites)
json() {
    "$PYTHON" - "$1" "$2" <<'PY'
import json, re, sys
s = open(sys.argv[1], encoding='utf-8').read()
d = json.loads(re.search(r'id="evprof-data">(.*?)</script>', s, re.S).group(1))
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
}
# defer WHAT json PAGE EXPR: the Python expression on the page's data `d`
# is true (every one for one Python start: verdicts at the end)
cat >"$tmp/page.py" <<'PY'
import json as json_, re, sys
from verdicts import serve
def json(page, expr):
    s = open(page, encoding='utf-8').read()
    d = json_.loads(re.search(r'id="evprof-data">(.*?)</script>', s, re.S).group(1))
    assert eval(expr, {"d": d, "json": json_, "re": re, "sys": sys}), expr
serve({"json": json})
PY

# ---- the bundled logs ------------------------------------------------------
"$evprof" html "$d/ghc-9.0.2/nfib-p.eventlog" -o "$tmp/prof.html" 2>"$tmp/err"
check "nfib-p: exit 0" [ $? -eq 0 ]
check "nfib-p: nothing on stderr" [ ! -s "$tmp/err" ]
check "nfib-p: page checks, under 500 KB, holds build.\\" \
    $check_page "$tmp/prof.html" --max-bytes 512000 --expect-label 'build.\'
# the numbers of GHC's own report of the same run (nfib-p.prof)
defer "nfib-p: 114 ticks, as nfib-p.prof" json "$tmp/prof.html" "d['prof']['total'] == 114"
defer "nfib-p: build.\\ has 87 individual ticks" json "$tmp/prof.html" \
    "[f[1] for f in d['prof']['flat'] if d['prof']['ccs'][f[0]][0] == 'build.\\\\'] == [87]"
defer "nfib-p: the summary's facts" json "$tmp/prof.html" \
    "d['summary']['program'] == 'nfib' and d['summary']['rts_args'] == ['-p', '-l'] and d['summary']['rts'] == 'GHC-9.0.2 rts_thr_p' and d['summary']['caps'] == 1 and d['summary']['damage'] == []"
defer "nfib-p: holds prof and gc, not heap or ticky" json "$tmp/prof.html" \
    "d['summary']['holds'] == {'prof': 1, 'heap': 0, 'gc': 1, 'ticky': 0}"
check "nfib-p: the call graph is inline SVG" grep -q '<svg width=' "$tmp/prof.html"
check "nfib-p: no XML prolog or comment from Graphviz" bash -c "! grep -q '<?xml\|<!-- Generated' '$tmp/prof.html'"
defer "nfib-p: the +RTS -s summary" json "$tmp/prof.html" "'bytes allocated in the heap' in d['gc']['report']"
defer "nfib-p: a GC series" json "$tmp/prof.html" \
    "len(d['gc']['series']['t']) > 10 and len(d['gc']['series']['t']) <= 1000 and max(d['gc']['series']['alloc']) > 0"

"$evprof" html "$d/ghc-9.0.2/nfib-hc.eventlog" -o "$tmp/heap.html" 2>"$tmp/err"
check "nfib-hc: exit 0" [ $? -eq 0 ]
check "nfib-hc: page checks, holds the largest band" \
    $check_page "$tmp/heap.html" --max-bytes 512000 --expect-band 'build.\/build/main/Main.CAF'
defer "nfib-hc: bands by peak, one series each plus other" json "$tmp/heap.html" \
    "d['heap']['bands'][0][0] == 'build.\\\\/build/main/Main.CAF' and len(d['heap']['values']) == len(d['heap']['bands']) + 1 and all(len(v) == len(d['heap']['times']) for v in d['heap']['values'])"

"$evprof" html "$d/ghc-events/ticky-new.eventlog" -o "$tmp/ticky.html" 2>"$tmp/err"
check "ticky-new: exit 0" [ $? -eq 0 ]
check "ticky-new: page checks, holds a counter" \
    $check_page "$tmp/ticky.html" --expect-counter 'Main.fib{v r1} (fun)'
# evprof ticky's totals for the same log
defer "ticky-new: entries as evprof ticky counts them" json "$tmp/ticky.html" \
    "d['ticky']['totals'] == [2086535, 401367408, 0]"
defer "ticky-new: the busiest counter's series sums to its total" json "$tmp/ticky.html" \
    "sum(d['ticky']['series'][0][1]) == d['ticky']['counters'][0][2]"

"$evprof" html "$d/escape/hostile.eventlog" -o "$tmp/hostile.html" 2>"$tmp/err"
check "hostile: exit 0" [ $? -eq 0 ]
check "hostile: labels come through the JSON exactly and never as markup" \
    $check_page "$tmp/hostile.html" --hostile
check "hostile: the title is escaped" bash -c \
    "\"$evprof\" html '$d/escape/hostile.eventlog' 2>/dev/null | grep -q '<title>evprof: tests/data/escape/hostile.eventlog</title>'"

# the checker itself fails on a page with a label unescaped in the JSON
sed 's|\\u003c/script\\u003e\\u003cb\\u003e|</script><b>|' "$tmp/hostile.html" >"$tmp/broken.html"
check "the checker sees an unescaped </script> (so it can fail)" \
    bash -c "! $check_page '$tmp/broken.html' --hostile >/dev/null"

# ---- the timeline ------------------------------------------------------------
# against the log's own report, folded, gc and info (tests/support/html_timeline.py):
# bins, ticks per bin, the stacks of random ranges, collections, allocation,
# heap, each capability's mutator and GC time, the marks
timeline() {   # timeline NAME LOG [CHECKER OPTIONS] (the page in $tmp/NAME.html)
    local name=$1 log=$2
    shift 2
    local got
    got=$(python3 tests/support/html_timeline.py "$evprof" "$log" "$tmp/$name.html" "$@" 2>&1)
    check "$name: the timeline is the log's ($got)" [ $? -eq 0 ]
}
for f in phases/phases.eventlog phases/phases-9.6.eventlog phases/threads-N2.eventlog \
         ghc/par-N2-p.eventlog ghc-9.0.2/nfib-p.eventlog ghc/chain-p.eventlog; do
    name=tl-$(basename "$f" .eventlog)
    "$evprof" html "$d/$f" -o "$tmp/$name.html" 2>/dev/null
    timeline "$name" "$d/$f"
done
# par/pseq on -N2 (tests/data/newprogs): per capability its sparks from
# SPARK_COUNTERS, their running sums each bin's latest counters (issue 35).
# 9.10.3's heap lane (HEAP_SIZE's peak) is below gc's peak of megablocks,
# so only its sparks are checked.
for v in 9.0.2 9.6.6 9.10.3; do
    name=tl-parsum-$v
    "$evprof" html "$d/newprogs/$v/ParSum.N2.P.1.eventlog" -o "$tmp/$name.html" 2>/dev/null
    timeline "$name" "$d/newprogs/$v/ParSum.N2.P.1.eventlog" $([ $v = 9.10.3 ] && echo --sparks-only)
done
check "ParSum 9.0.2: two capabilities' sparks lanes" json "$tmp/tl-parsum-9.0.2.html" \
    "[c['cap'] for c in d['timeline']['spark_caps']] == [0, 1]"
# a page that holds 5 nodes: a stack counts at the deepest node it has
"$evprof" html --max-nodes 5 "$d/phases/phases.eventlog" -o "$tmp/tl-cut.html" 2>/dev/null
timeline tl-cut "$d/phases/phases.eventlog"
# more distinct stacks than the timeline keeps (a test hook makes a small
# log such a one): the page keeps their outer frames, ticks still exact
EVPROF_TEST_TIMELINE_CELLS=30 "$evprof" html "$d/phases/phases.eventlog" -o "$tmp/tl-prefix.html" 2>/dev/null
timeline tl-prefix "$d/phases/phases.eventlog" --prefix
EVPROF_TEST_TIMELINE_CELLS=10 "$evprof" html "$d/ghc/mutual-p.eventlog" -o "$tmp/tl-prefix2.html" 2>/dev/null
timeline tl-prefix2 "$d/ghc/mutual-p.eventlog" --prefix
EVPROF_TEST_TIMELINE_CELLS=30 "$evprof" html "$d/ghc/deep-p.eventlog" -o "$tmp/tl-coarse.html" 2>/dev/null
check "few cells: the profile's bins merged, down to a few" json "$tmp/tl-coarse.html" \
    "d['timeline']['profile']['bins'] <= 8 and d['timeline']['profile']['status'] == 'ok'"
timeline tl-coarse "$d/ghc/deep-p.eventlog"
EVPROF_TEST_TIMELINE_CELLS=10 "$evprof" html "$d/ghc/deep-p.eventlog" -o "$tmp/tl-none.html" 2>/dev/null
check "no set fits: no profile of a range, said" json "$tmp/tl-none.html" \
    "'no profile of a range' in d['timeline']['profile']['status'] and 'cells' not in d['timeline']['profile']"
# the checker fails on a page whose cells are off by a tick
python3 - "$tmp/tl-phases.html" "$tmp/tl-broken.html" <<'PY'
import re, sys
s = open(sys.argv[1], encoding='utf-8').read()
m = re.search(r'"cells":\[[\[\],]*?\[(\d+),(\d+)', s)
s = s[:m.start(2)] + str(int(m.group(2)) + 1) + s[m.end(2):]
open(sys.argv[2], 'w', encoding='utf-8').write(s)
PY
check "the timeline checker sees a tick moved (so it can fail)" bash -c \
    "! python3 tests/support/html_timeline.py '$evprof' '$d/phases/phases.eventlog' '$tmp/tl-broken.html' >/dev/null"
# marks and labelled threads in the page
check "threads-N2: the labelled workers and the marks" json "$tmp/tl-threads-N2.html" \
    "sorted(t[1] for t in d['timeline']['labelled'] if t[1].startswith('worker')) == ['worker 1', 'worker 2', 'worker 3', 'worker 4'] and [l[0] for l in d['marks']['labels']] == ['workers', 'sparks', 'churn']"
check "threads-N2: sparks from their events (+RTS -lf)" json "$tmp/tl-threads-N2.html" \
    "d['timeline']['sparks']['source'] == 'events' and sum(x for x in d['timeline']['sparks']['created'] if x > 0) > 0"

# ---- --max-nodes -----------------------------------------------------------
"$evprof" html "$d/ghc-9.0.2/nfib-p.eventlog" --max-nodes 3 -o "$tmp/cut.html" 2>"$tmp/err"
check "--max-nodes 3: exit 0" [ $? -eq 0 ]
check "--max-nodes 3: says it cut the tree" grep -q 'holds the 3 heaviest of 7 cost-centre stacks' "$tmp/err"
defer "--max-nodes 3: 3 nodes, the heaviest" json "$tmp/cut.html" \
    "[d['prof']['ccs'][c][0] for c in d['prof']['cc']] == ['MAIN', 'CAF', 'main'] and d['prof']['nodes_all'] == 7"
defer "--max-nodes 3: the flat table keeps every cost centre" json "$tmp/cut.html" "len(d['prof']['flat']) == 7"
check "--max-nodes 3: page checks" $check_page "$tmp/cut.html" --max-nodes 3

# ---- standard output, damage, unreadable input -----------------------------
"$evprof" html "$d/ghc-9.0.2/nfib-p.eventlog" >"$tmp/stdout.html" 2>"$tmp/err"
check "no -o: the page on standard output" cmp -s "$tmp/stdout.html" "$tmp/prof.html"

head -c 60000 "$d/ghc-9.0.2/nfib-p.eventlog" >"$tmp/cut.eventlog"
"$evprof" html "$tmp/cut.eventlog" -o "$tmp/damaged.html" 2>"$tmp/err"
check "a cut log: exit 1" [ $? -eq 1 ]
check "a cut log: the error on stderr" grep -q 'truncated\|cut' "$tmp/err"
defer "a cut log: the page is written and says so" json "$tmp/damaged.html" \
    "len(d['summary']['damage']) == 1 and 'at byte' in d['summary']['damage'][0]"

"$evprof" html "$d/ghc-9.0.2/Main.hs" -o "$tmp/none.html" 2>"$tmp/err"
check "not an eventlog: exit 1" [ $? -eq 1 ]
check "not an eventlog: no page" [ ! -e "$tmp/none.html" ]
"$evprof" html "$tmp/missing.eventlog" -o "$tmp/none.html" 2>/dev/null
check "a missing file: exit 1" [ $? -eq 1 ]

# ---- usage -----------------------------------------------------------------
"$evprof" html >/dev/null 2>&1
check "no FILE: exit 2" [ $? -eq 2 ]
"$evprof" html --max-nodes 0 "$d/ghc-9.0.2/nfib-p.eventlog" >/dev/null 2>&1
check "--max-nodes 0: exit 2" [ $? -eq 2 ]
cp "$d/ghc-9.0.2/nfib-p.eventlog" "$tmp/in.eventlog"
"$evprof" html "$tmp/in.eventlog" -o "$tmp/in.eventlog" >/dev/null 2>&1
check "-o the input: exit 2" [ $? -eq 2 ]
check "-o the input: the input is untouched" cmp -s "$tmp/in.eventlog" "$d/ghc-9.0.2/nfib-p.eventlog"
# issue 27, points 7 and 12, on real runs (tests/data/newuser): the
# summary's event count is info's; sizes are binary multiples named as
# such; the GC series is in time order, its allocation the sum over the
# capabilities (one rising line) ending at +RTS -s's figure; each
# capability's figures reconcile with +RTS -s (the GC it led, summed, is
# -s's GC time)
nu=tests/data/newuser
"$evprof" html "$nu/threads-N2.eventlog" -o "$tmp/thr.html" 2>"$tmp/err"
check "threads -N2: exit 0" [ $? -eq 0 ]
info_events=$("$evprof" info "$nu/threads-N2.eventlog" | sed -n 's/^events: *//p')
alloc=$(sed -n 's/^ *\([0-9,]*\) bytes allocated in the heap.*/\1/p' "$nu/threads-N2.stats" | tr -d ,)
gcel=$(sed -n 's/^  GC      time .*( *\([0-9.]*\)s elapsed)$/\1/p' "$nu/threads-N2.stats")
"$PYTHON" - "$tmp/thr.html" "$info_events" "$alloc" "$gcel" <<'PY'
import json, re, sys
s = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r'id="evprof-data">(.*?)</script>', s, re.S).group(1))
events, alloc, gcel = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
assert d["summary"]["events"] == events, ("events", d["summary"]["events"], events)
S = d["gc"]["series"]
assert all(a <= b for a, b in zip(S["t"], S["t"][1:])), "series out of time order"
assert all(a <= b for a, b in zip(S["alloc"], S["alloc"][1:])), "allocation not one rising line"
assert S["alloc"][-1] == alloc, ("allocated", S["alloc"][-1], alloc)
caps = d["gc"]["caps"]
assert len(caps) == 2
led = sum(c[8] for c in caps)
assert led == d["gc"]["gc_ns"], ("GC led summed", led, d["gc"]["gc_ns"])
assert "%.3f" % (led / 1e9) == gcel, ("-s GC elapsed", led, gcel)
assert all(c[3] >= c[8] for c in caps), "a capability's own GC holds the pauses it led"
PY
check "threads -N2: events = info's, time-ordered rising allocation = -s's, GC led summed = -s's GC" [ $? -eq 0 ]
check "the page names binary multiples as such (KiB, MiB, GiB)" \
    grep -q "'B', 'KiB', 'MiB', 'GiB', 'TiB'" "$tmp/thr.html"
if command -v node >/dev/null; then
    got=$(node -e "$(sed -n '/^  function bytes(n) {/,/^  }/p' html/page.js); console.log(bytes(1947779536) + '|' + bytes(1536))")
    check "1,947,779,536 bytes are 1.81 GiB, 1536 bytes 1.50 KiB ($got)" [ "$got" = "1.81 GiB|1.50 KiB" ]
else
    echo "SKIPPED: the bytes() check (no node)"
fi

# namesakes (one Module.label at several places: tests/data/namesakes)
# are flagged in the data block, and the page's names (ccName: a
# namesake's "Module.label (SRC)", by which the tree, the flame graph and
# the callers' view go) tell every cost centre sent apart
"$evprof" html "$d/namesakes/Lexer-calls.nt.p.1.eventlog" -o "$tmp/names.html" 2>"$tmp/err"
check "namesakes: exit 0" [ $? -eq 0 ]
defer "namesakes: flagged where a Module.label has several places (its twin sent or not)" \
    json "$tmp/names.html" "all(c[4] == 1 for c in d['prof']['ccs'] if len({x[2] for x in d['prof']['ccs'] if x[:2] == c[:2]}) > 1) and sum(c[4] for c in d['prof']['ccs']) > 10 and d['prof']['ccs'][0][4] == 0"
if command -v node >/dev/null; then
    "$PYTHON" - "$tmp/names.html" >"$tmp/names.json" <<'PY'
import re, sys
print(re.search(r'id="evprof-data">(.*?)</script>', open(sys.argv[1], encoding='utf-8').read(), re.S).group(1))
PY
    got=$(node -e "var D = JSON.parse(require('fs').readFileSync('$tmp/names.json', 'utf8'));
$(sed -n '/^  function ccName(i) {/,/^  }/p' html/page.js)
var n = D.prof.ccs.map(function (c, i) { return ccName(i); });
console.log(new Set(n).size === n.length && n.indexOf('Main.lexer (Lexer.hs:18:17-24)') >= 0 ? 'unique' : 'twice')")
    check "namesakes: the page's names of the cost centres sent are all different ($got)" [ "$got" = unique ]
else
    echo "SKIPPED: the page's names of namesakes (no node)"
fi

"$evprof" html --help >"$tmp/help" 2>&1
check "--help: exit 0 and the options" grep -q -- '--max-nodes' "$tmp/help"

verdicts "$tmp/page.py"
echo "html: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
