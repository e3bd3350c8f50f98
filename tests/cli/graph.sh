#!/usr/bin/env bash
# `evprof graph` from the command line: a well-formed SVG for every
# time-profile log, PNG/PDF/DOT/JSON by extension or --format, the pruning and
# focus options as documented, atomic -o, exit codes, and a 10,000-cost-
# centre log (made by bench/gen_eventlog) drawn in seconds within
# --max-nodes.
#
# Usage: tests/cli/graph.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
data=tests/data/ghc
corpus=tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# For an AddressSanitizer build: Graphviz and the font libraries it loads
# keep memory they never free; their stacks name only their own library.
printf 'leak:%s\n' libfontconfig.so libgvc.so libgvplugin_ libpango libcairo libglib \
    libgobject libharfbuzz >"$tmp/lsan.supp"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$tmp/lsan.supp"

logs=("$corpus"/ghc-9.0.2/nfib-p.eventlog "$corpus"/ghc-9.0.2/nfib-pj.eventlog
      "$corpus"/ghc-9.0.2/nfib-N2.eventlog "$corpus"/ghc-events/time-prof.eventlog
      "$data"/deep-p.eventlog "$data"/mutual-p.eventlog "$data"/odd-p.eventlog
      "$data"/chain-p.eventlog "$data"/par-N2-p.eventlog)

svg_ok() {      # well-formed XML whose root is <svg>, with the legend and a node
    "$PYTHON" - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == '{http://www.w3.org/2000/svg}svg', root.tag
titles = [t.text for t in root.iter('{http://www.w3.org/2000/svg}title')]
assert 'legend' in titles and 'N1' in titles, titles[:5]
PY
}
unwrap() { sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$1"; }   # DOT's line continuations
nodes_in() { grep -c 'evprof_cum=' "$1"; }
edges_in() { grep -c 'evprof_ticks=' "$1"; }

for f in "${logs[@]}"; do
    "$evprof" graph "$f" -o "$tmp/g.svg" 2>"$tmp/err"
    check "$f: -o x.svg exit 0" [ $? -eq 0 ]
    svg_ok "$tmp/g.svg"
    check "$f: well-formed SVG" [ $? -eq 0 ]
    "$evprof" graph --all "$f" -o "$tmp/g.dot"
    check "$f: -o x.dot exit 0" [ $? -eq 0 ]
    check "$f: DOT digraph" grep -q '^digraph ' "$tmp/g.dot"
    if command -v dot >/dev/null; then   # the Graphviz program, when installed
        dot -Tsvg "$tmp/g.dot" -o /dev/null 2>/dev/null
        check "$f: dot reads the DOT" [ $? -eq 0 ]
        # the SVG is the picture dot draws from the DOT evprof prints
        "$evprof" graph -f dot "$f" | dot -Tsvg -o "$tmp/dot.svg"
        check "$f: the SVG is what dot draws from the DOT" cmp -s "$tmp/g.svg" "$tmp/dot.svg"
    fi
done

# formats: by extension, by --format (which wins), to stdout
f="$data/odd-p.eventlog"
"$evprof" graph "$f" -o "$tmp/g.png" && head -c 8 "$tmp/g.png" | od -An -c | tr -d ' ' >"$tmp/magic"
check "-o x.png is a PNG" grep -q 'PNG' "$tmp/magic"
"$evprof" graph "$f" -o "$tmp/g.pdf"
check "-o x.pdf is a PDF" [ "$(head -c 5 "$tmp/g.pdf")" = "%PDF-" ]
"$evprof" graph "$f" >"$tmp/stdout.svg"
check "stdout: SVG by default" grep -q '<svg' "$tmp/stdout.svg"
"$evprof" graph --format dot "$f" -o "$tmp/really-dot.svg"
check "--format beats the extension" grep -q '^digraph ' "$tmp/really-dot.svg"
"$evprof" graph -f PNG "$f" >"$tmp/p"
check "-f PNG to a pipe" [ "$(head -c 4 "$tmp/p" | tail -c 3)" = "PNG" ]
"$evprof" graph "$f" -o "$tmp/g.gv"
check "-o x.gv is DOT" grep -q '^digraph ' "$tmp/g.gv"

# styling and legend (pprof's): labels, font size by self, widths, legend lines
"$evprof" graph "$f" -o "$tmp/odd.dot"
check "node label: name, module, self and cum with %" grep -qF 'label="churn\nHelpers\n504 (100.00%)\nof 504 (100.00%)"' "$tmp/odd.dot"
check "the hottest self has the biggest font" grep -qF 'fontsize=24' "$tmp/odd.dot"
check "edges carry penwidth and weight" grep -q 'penwidth=6.000' "$tmp/odd.dot"
check "legend: program and ticks" grep -qF 'Type: time, 504 ticks @ 1000 us, 1 processor' <(unwrap "$tmp/odd.dot")
check "a backslash is doubled for Graphviz" grep -qF 'back\\slash' "$tmp/odd.dot"
check "a tab in a label is shown as \\t" grep -qF 'label="tab\\there\nMain' "$tmp/odd.dot"
"$evprof" graph "$f" -o "$tmp/odd.svg"
check "a tab in a label: the SVG draws \\t" grep -qF '>tab\there<' "$tmp/odd.svg"

# --format json (and -o x.json): valid JSON for tools; unpruned, the nodes'
# individual ticks sum to the report's total, and edges name listed nodes
json_ok() {     # LOG JSON [unpruned]
    "$evprof" report "$1" >"$tmp/r.txt" || return 1     # the text's total: -p's samples
    "$PYTHON" - "$tmp/r.txt" "$2" "${3:-}" <<'PY'
import json, re, sys
total = int(re.search(r"\((\d+) ticks @", open(sys.argv[1]).read()).group(1))
g = json.load(open(sys.argv[2]))
ids = [n["id"] for n in g["nodes"]]
assert ids == list(range(len(ids))), ids[:5]
assert g["total_ticks"] == total, (g["total_ticks"], total)
assert sum(n["individual_ticks"] for n in g["nodes"]) == g["node_ticks"]
for n in g["nodes"]:
    assert n["individual_ticks"] <= n["inherited_ticks"], n
    assert set(n) >= {"label", "module", "src", "individual_share", "inherited_share"}, n
for e in g["edges"]:
    assert 0 <= e["caller"] < len(ids) and 0 <= e["callee"] < len(ids), e
    assert 0 < e["ticks"] <= total, e
if sys.argv[3]:
    assert sum(n["individual_ticks"] for n in g["nodes"]) == total, \
        (sum(n["individual_ticks"] for n in g["nodes"]), total)
    assert g["hidden_nodes"] == 0, g["hidden_nodes"]
PY
}
for f in "${logs[@]}"; do
    b=$(basename "$f" .eventlog)
    "$evprof" graph -f json "$f" >"$tmp/$b.json"
    check "$b: graph -f json is valid JSON" json_ok "$f" "$tmp/$b.json"
    "$evprof" graph --node-fraction 0 --edge-fraction 0 --max-nodes 1000000 \
        --max-edges 1000000 "$f" -o "$tmp/$b-all.json"
    check "$b: unpruned -o x.json: individual ticks sum to the report's total" \
        json_ok "$f" "$tmp/$b-all.json" unpruned
done

# pruning: never more than --max-nodes, fewer with bigger fractions
f="$corpus/ghc-9.0.2/nfib-N2.eventlog"
"$evprof" graph --all --node-fraction 0 --edge-fraction 0 "$f" -o "$tmp/full.dot"
full=$(nodes_in "$tmp/full.dot")
for n in 1 3 5; do
    "$evprof" graph --all --max-nodes $n "$f" -o "$tmp/m.dot"
    got=$(nodes_in "$tmp/m.dot")
    check "--max-nodes $n: $got nodes" [ "$got" -le $n ]
done
"$evprof" graph --all --max-nodes 3 "$f" -o "$tmp/m.dot"
unwrap "$tmp/m.dot" >"$tmp/m.txt"
check "--max-nodes 3 says so" grep -q 'Showing top 3 nodes out of' "$tmp/m.txt"
"$evprof" graph --all --node-fraction 5% "$f" -o "$tmp/nf.dot"
check "--node-fraction 5%: fewer nodes" [ "$(nodes_in "$tmp/nf.dot")" -lt "$full" ]
check "--node-fraction: legend says what was dropped" grep -q 'Dropped [0-9]* nodes (cum <' <(unwrap "$tmp/nf.dot")
"$evprof" graph --all --node-fraction 0 --edge-fraction 0.2 "$f" -o "$tmp/ef.dot"
check "--edge-fraction 0.2: fewer edges" [ "$(edges_in "$tmp/ef.dot")" -lt "$(edges_in "$tmp/full.dot")" ]
check "--edge-fraction: legend" grep -q 'Dropped [0-9]* edges (ticks <' <(unwrap "$tmp/ef.dot")
"$evprof" graph --all --node-fraction 0 --edge-fraction 0 --max-edges 2 "$f" -o "$tmp/me.dot"
check "--max-edges 2" [ "$(edges_in "$tmp/me.dot")" -eq 2 ]
"$evprof" graph --max-nodes 3 "$data/deep-p.eventlog" -o "$tmp/res.dot"
check "edges past hidden nodes are dotted" grep -q 'style=dotted' "$tmp/res.dot"

# focus / ignore
f="$data/deep-p.eventlog"
"$evprof" graph --node-fraction 0 --focus 'fromC' "$f" -o "$tmp/foc.dot"
check "--focus keeps stacks through a match" grep -q 'evprof_name="Main.fromC"' "$tmp/foc.dot"
check "--focus drops the others" [ "$(grep -c 'evprof_name="Main.deep_frame"' "$tmp/foc.dot")" -eq 0 ]
unwrap "$tmp/foc.dot" >"$tmp/foc.txt"
check "--focus in the legend" grep -q 'Focus: fromC.lStacks kept: 38 of 168 ticks' "$tmp/foc.txt"
check "--focus: MAIN's cum is fromC's" grep -A3 'N1	' "$tmp/foc.dot" | grep -q 'evprof_cum=38'
"$evprof" graph --node-fraction 0 --ignore '^Main\.from' "$f" -o "$tmp/ign.dot"
check "--ignore drops stacks through a match" [ "$(grep -c 'evprof_name="Main.walk_step"' "$tmp/ign.dot")" -eq 0 ]
check "--ignore keeps the rest" grep -q 'evprof_name="Main.deep_leaf"' "$tmp/ign.dot"

# a filter that leaves nothing: exit 1, the expression named, no output
for args in "--focus NoSuchCostCentre" "--ignore ." "--focus fromC --ignore ^Main\.from"; do
    rm -f "$tmp/empty.svg"
    # shellcheck disable=SC2086
    "$evprof" graph $args "$f" -o "$tmp/empty.svg" 2>"$tmp/err"
    check "graph $args (nothing left): exit 1" [ $? -eq 1 ]
    re=${args##* }
    check "graph $args (nothing left): names '$re'" grep -qF "'$re'" "$tmp/err"
    check "graph $args (nothing left): no output file" [ ! -e "$tmp/empty.svg" ]
done
echo keep >"$tmp/kept.svg"
"$evprof" graph --focus NoSuchCostCentre "$f" -o "$tmp/kept.svg" 2>/dev/null
check "--focus matching nothing leaves an existing -o file" [ "$(cat "$tmp/kept.svg")" = keep ]
"$evprof" graph --focus NoSuchCostCentre "$f" >"$tmp/stdout.svg" 2>/dev/null
check "--focus matching nothing: nothing on stdout" [ ! -s "$tmp/stdout.svg" ]

# -o: whole or nothing
f="$data/deep-p.eventlog"
"$evprof" graph "$f" -o "$tmp/x.svg" >"$tmp/stdout"
check "-o leaves stdout empty" [ ! -s "$tmp/stdout" ]
check "-o leaves no temporary" [ "$(ls "$tmp" | grep -c evprof-)" -eq 0 ]
"$evprof" graph "$f" -o "$tmp/no/such/dir/x.svg" 2>"$tmp/err"
check "-o into a missing directory: exit 1" [ $? -eq 1 ]
if [ -w /dev/full ]; then
    "$evprof" graph "$f" >/dev/full 2>"$tmp/err"
    check "write error: exit 1" [ $? -eq 1 ]
fi

# usage errors: exit 2 with a message
for args in "-o x.jpeg" "-o noextension" "--format jpeg" "--focus (" "--ignore [" \
            "--node-fraction 2" "--node-fraction x" "--edge-fraction -1" "--max-nodes 0" \
            "--max-nodes 1.5" "--max-edges q" "--cap z" "--from 2 --to 1"; do
    # shellcheck disable=SC2086
    "$evprof" graph $args "$f" >/dev/null 2>"$tmp/err"
    check "graph $args: exit 2" [ $? -eq 2 ]
    check "graph $args: a message" [ -s "$tmp/err" ]
done
"$evprof" graph --ignore '[' "$f" 2>&1 >/dev/null | grep -q "regular expression"
check "bad regex: message" [ $? -eq 0 ]
"$evprof" graph --help >"$tmp/help"
check "--help: exit 0" [ $? -eq 0 ]
check "--help lists --max-nodes" grep -q -- "--max-nodes" "$tmp/help"

# no samples; a truncated log
"$evprof" graph "$corpus/ghc-9.0.2/nfib-s.eventlog" -o "$tmp/none.svg" 2>"$tmp/err"
check "no samples: exit 1" [ $? -eq 1 ]
check "no samples: says how" grep -q "+RTS -p -l" "$tmp/err"
f="$data/mutual-p.eventlog"; head -c $(( $(wc -c < "$f") - 7 )) "$f" >"$tmp/cut.eventlog"
"$evprof" graph "$tmp/cut.eventlog" -o "$tmp/cut.dot" 2>"$tmp/err"
check "truncated: exit 1" [ $? -eq 1 ]
check "truncated: still a graph" grep -q '^digraph ' "$tmp/cut.dot"

# 10,000 cost centres: pruning keeps it to seconds and to --max-nodes
gen="$(dirname "$evprof")/bench/gen_eventlog"
if [ -x "$gen" ]; then
    "$gen" "$tmp/big.eventlog" 20 --ccs 10000 --stacks 50000 --seed 7 >/dev/null
    start=$(date +%s%N)
    "$evprof" graph "$tmp/big.eventlog" -o "$tmp/big.svg"
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "10,000 cost centres: evprof graph -o big.svg in $ms ms"
    check "10,000 ccs: exit 0" [ $rc -eq 0 ]
    check "10,000 ccs: under 30 s ($ms ms)" [ "$ms" -lt 30000 ]
    svg_ok "$tmp/big.svg"
    check "10,000 ccs: well-formed SVG" [ $? -eq 0 ]
    "$evprof" graph "$tmp/big.eventlog" -o "$tmp/big.dot"
    check "10,000 ccs: at most 80 nodes" [ "$(nodes_in "$tmp/big.dot")" -le 80 ]
    check "10,000 ccs: at most 240 edges" [ "$(edges_in "$tmp/big.dot")" -le 240 ]
else
    bad "no $gen to make the 10,000-cost-centre log"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
