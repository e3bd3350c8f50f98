#!/usr/bin/env bash
# `evprof html` pages opened in headless Chromium from disk: each page runs
# its script without a console message or an error (window.onerror writes
# into body[data-errors]), finishes (body[data-ready]), and the rendered DOM
# holds the top cost centre (nfib-p), a heap band (nfib-hc), a ticky counter
# and its series (ticky-new); the hostile log's labels render as text, never
# as markup. A page whose script fails is seen as failing (so the test can
# fail). Says SKIPPED (exit 77) without chromium.
#
# Usage: tests/cli/html_browser.sh path/to/evprof   (from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
browser=tests/support/html_browser.sh
if ! command -v chromium >/dev/null 2>&1; then
    echo "SKIPPED: chromium is not installed"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
# For an AddressSanitizer build: Graphviz (the call graph) and the font
# libraries it loads keep memory they never free (as in graph.sh).
printf 'leak:%s\n' libfontconfig.so libgvc.so libgvplugin_ libpango libcairo libglib \
    libgobject libharfbuzz >"$tmp/lsan.supp"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$tmp/lsan.supp:print_suppressions=0"

# clean NAME: the page NAME ran its script to the end, with no error and
# no console message
clean() {
    grep -q 'data-ready="1"' "$tmp/$1.dom" && ! grep -q 'data-errors=' "$tmp/$1.dom" &&
        [ ! -s "$tmp/$1.console" ]
}
# in NAME SECTION TEXT: TEXT (as the DOM serialises it) is inside section SECTION
in_section() {
    "$PYTHON" - "$tmp/$1.dom" "$2" "$3" <<'PY'
import sys, re
dom = open(sys.argv[1], encoding='utf-8').read()
m = re.search(r'<section id="v-%s"[^>]*>(.*?)</section>' % re.escape(sys.argv[2]), dom, re.S)
sys.exit(0 if m and sys.argv[3] in m.group(1) else 1)
PY
}

render() {   # render NAME LOG: page and DOM
    "$evprof" html "$2" -o "$tmp/$1.html" 2>"$tmp/$1.err"
    check "evprof html $2: exit 0" [ $? -eq 0 ]
    "$browser" "$tmp/$1.html" "$tmp/$1"
    check "chromium opened $1" [ $? -eq 0 ]
    check "$1: the script ran without errors or console messages" clean "$1"
    if ! clean "$1"; then
        grep -o 'data-errors="[^"]*"' "$tmp/$1.dom"
        head -5 "$tmp/$1.console"
    fi
}

d=tests/data
render prof "$d/ghc-9.0.2/nfib-p.eventlog"
# the top cost centre by individual time (nfib-p.prof: build.\ 76.3%) leads
# the flat table, which is sorted by individual time
check "prof: the top cost centre is the flat table's first row" "$PYTHON" - "$tmp/prof.dom" <<'PY'
import sys, re
dom = open(sys.argv[1], encoding='utf-8').read()
sec = re.search(r'<section id="v-prof".*?</section>', dom, re.S).group(0)
tables = re.findall(r'<tbody>(.*?)</tbody>', sec, re.S)
first = re.search(r'<tr[^>]*><td[^>]*>(.*?)</td><td[^>]*>(.*?)</td>', tables[1])
sys.exit(0 if first and first.group(1) == 'build.\\' and first.group(2) == 'Main' else 1)
PY
check "prof: the tree shows build.\\ at 76.3%" in_section prof prof '76.3%'
check "prof: the summary names the top cost centre" in_section prof summary 'Main.build.\ (76.3%'
check "prof: the flame graph has its canvas" in_section prof flame '<canvas class="flame"'
check "prof: the call graph is inline SVG" in_section prof graph '<svg'
check "prof: heap says in one line that there is none" in_section prof heap 'No heap profile'
check "prof: ticky says in one line that there is none" in_section prof ticky 'No ticky counters'

render heap "$d/ghc-9.0.2/nfib-hc.eventlog"
check "heap: the largest band is in the legend" in_section heap heap 'build.\/build/main/Main.CAF'
check "heap: the chart is drawn" in_section heap heap '<path d="M'
check "heap: no time profile, said in one line" in_section heap prof 'No time-profile samples'

render ticky "$d/ghc-events/ticky-new.eventlog"
check "ticky: a counter is in the table" in_section ticky ticky 'Main.fib{v r1} (fun)'
check "ticky: the series picker offers the busiest counter" in_section ticky ticky '<option value="0">fib1{v sZs} (Main) (fun) in r1</option>'
check "ticky: a counter's series is drawn" in_section ticky ticky '<path d="M'

render hostile "$d/escape/hostile.eventlog"
check "hostile: a label with </script> renders as text" \
    in_section hostile prof '&lt;/script&gt;&lt;b&gt;"q"&amp;'"'"
check "hostile: no element came from a label" bash -c "! grep -q '<b>' '$tmp/hostile.dom'"
check "hostile: a control byte shows as its picture" in_section hostile prof $'bell\xe2\x90\x87'

# the views respond as a user drives them (tests/support/html_selftest.js,
# added after the page's script): search, sort, expand, hover, zoom, pan
selftest() {   # selftest NAME FRAGMENT
    sed 's|</body>|<script>'"$(sed 's/[&|\\]/\\&/g' tests/support/html_selftest.js | tr '\n' ' ')"'</script></body>|' \
        "$tmp/$1.html" >"$tmp/$1-self.html"
    "$browser" "$tmp/$1-self.html" "$tmp/$1-self" "$2"
    local got
    got=$(grep -o 'data-selftest="[^"]*"' "$tmp/$1-self.dom")
    check "$1: the views respond ($got)" [ "$got" = 'data-selftest="ok"' ]
    check "$1: no console message while driven" [ ! -s "$tmp/$1-self.console" ]
}
selftest prof ""
selftest heap heap
render gc tests/data/newuser/threads-N2.eventlog
selftest gc gc

# ---- the timeline ------------------------------------------------------------
# a threaded real run (GHC 9.0.2 -N2: labelled threads, sparks, marks) draws
render threads "$d/phases/threads-N2.eventlog"
check "threads: the timeline's canvas" in_section threads timeline '<canvas class="timeline"'
check "threads: the timeline says its bins" in_section threads timeline 'bins of'
check "threads: the callers' view names a cost centre" grep -q 'class="sandwich" data-name="Main\.crunch' "$tmp/threads.dom"

# a range: dragged across the lanes, then set by script; the other tabs
# show it, with the figures of report/gc/report --callers over the same
# window (the profile's range snapped to its bins, gc's to the lanes')
log=$d/phases/phases.eventlog
"$evprof" html "$log" -o "$tmp/range.html" 2>/dev/null
# ranges: a few random ones, then solve #1 to parse #3 (its marks)
ranges=$("$evprof" info --format json "$log" | python3 -c '
import json, random, sys
m = {(x["label"], x["n"]): x["time_ns"] for x in json.load(sys.stdin)["marks"]}
rng = random.Random(7)
r = [sorted(rng.sample(range(1, 1300000000), 2)) for _ in range(5)]
print(json.dumps(r + [[m[("solve", 1)], m[("parse", 3)]]]).replace(" ", ""))')
from=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])[-1][0])' "$ranges")
to=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])[-1][1])' "$ranges")
sed "s/@RANGES@/$ranges/" tests/support/html_range.js >"$tmp/range.js"
sed 's|</body>|<script>'"$(sed 's/[&|\\]/\\&/g' "$tmp/range.js" | tr '\n' ' ')"'</script></body>|' \
    "$tmp/range.html" >"$tmp/range-self.html"
"$browser" "$tmp/range-self.html" "$tmp/range" timeline
check "range: the page ran clean" clean range
attr() { grep -o "data-$1=\"[^\"]*\"" "$tmp/range.dom" | head -1 | sed 's/^[^"]*"//; s/"$//'; }
check "range: a drag across the timeline selects a range ($(attr drag))" [ "$(attr drag)" = ok ]
secs() { printf '%d.%09d' $(($1 / 1000000000)) $(($1 % 1000000000)); }
IFS=';' read -r -a results <<<"$(attr range-results)"
check "range: a result for each of the 6 ranges" [ "${#results[@]}" -eq 6 ]
for res in "${results[@]}"; do
    IFS=, read -r rfrom rto rticks tabticks <<<"$res"
    want=$("$evprof" report --from "$(secs "$rfrom")" --to "$(secs "$rto")" "$log" | grep -o '([0-9]* ticks' | grep -o '[0-9]*')
    check "range $rfrom..$rto ns: the profile tab's total is report --from --to's ($tabticks = $want)" \
        [ -n "$want" -a "$tabticks" = "$want" -a "$rticks" = "$want" ]
done
check "range: solve #1 to parse #3 widened to its bins ($rfrom..$rto ns, around $from..$to)" \
    [ "$rfrom" -le "$from" -a "$rto" -ge "$to" ]
IFS=, read -r gfrom gto gcols galloc <<<"$(attr gc-range)"
gcw=$("$evprof" gc --format json --from "$(secs "$gfrom")" --to "$(secs "$gto")" "$log" | python3 -c '
import json, sys
g = json.load(sys.stdin)
print(g["gcs"], g["allocated_bytes"])')
check "range: the GC tab's collections and allocation are gc --from --to's ($gcols $galloc = $gcw)" \
    [ "$gcols $galloc" = "$gcw" ]
IFS=, read -r swname swinh <<<"$(attr sandwich)"
swwant=$("$evprof" report --callers "^${swname//./\\.}\$" --from "$(secs "$rfrom")" --to "$(secs "$rto")" "$log" |
         grep -o 'inherited [0-9]* ticks' | grep -o '[0-9]*')
check "range: the callers' view of $swname is report --callers' ($swinh = $swwant)" [ "$swinh" = "$swwant" ]
check "range: the profile, flame graph and GC tabs say the range ($(attr views))" [ "$(attr views)" = "prof,flame,gc" ]

# a page whose script throws is caught
cp "$tmp/prof.html" "$tmp/broken.html"
sed -i 's|document.body.dataset.ready = .1.;|null.x;|' "$tmp/broken.html"
"$browser" "$tmp/broken.html" "$tmp/broken"
check "a page whose script fails is seen as failing" bash -c "! grep -q 'data-ready=\"1\"' '$tmp/broken.dom' && [ -s '$tmp/broken.console' ]"

echo "html_browser: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
