#!/usr/bin/env bash
# Output formats (cli/format.c), every command and every format: `--format
# NAME` (any case, or an extension without its dot), `-o FILE.EXT` for each
# of the format's extensions and standard output give the same bytes; an
# unknown format is exit 2 with a message that lists the command's formats;
# -o without a known extension takes the command's default for files.
#   bash tests/cli/formats.sh build/evprof     (from the project root)
evprof=${1:-build/evprof}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# For an AddressSanitizer build: what Graphviz and its font libraries keep
# (as tests/cli/graph.sh)
printf 'leak:%s\n' libfontconfig.so libgvc.so libgvplugin_ libpango libcairo libglib \
    libgobject libharfbuzz >"$tmp/lsan.supp"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$tmp/lsan.supp"
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

ex=examples/nfib.eventlog
g9=tests/data/ghc-9.0.2
ge=tests/data/ghc-events

# the same bytes; a PDF's creation date aside
same() {
    if [ "$1" = pdf ]; then
        cmp -s <(grep -av CreationDate "$2") <(grep -av CreationDate "$3")
    else
        cmp -s "$2" "$3"
    fi
}

# COMMAND|LOG|FORMAT|EXTENSIONS (blank-separated; "-": none, the command
# has no -o)
table="
report|$ex|text|.prof .txt
report|$ex|json|.json
gc|$g9/nfib-s.eventlog|text|.txt
gc|$g9/nfib-s.eventlog|json|.json
heap|$g9/nfib-hc.eventlog|summary|.txt
heap|$g9/nfib-hc.eventlog|hp|.hp
heap|$g9/nfib-hc.eventlog|csv|.csv
heap|$g9/nfib-hc.eventlog|json|.json
ticky|$ge/ticky-new.eventlog|text|.txt
ticky|$ge/ticky-new.eventlog|csv|.csv
ticky|$ge/ticky-new.eventlog|json|.json
info|$ex|text|-
info|$ex|json|-
graph|$ex|svg|.svg
graph|$ex|png|.png
graph|$ex|pdf|.pdf
graph|$ex|dot|.dot .gv
"
while IFS='|' read -r cmd log fmt exts; do
    [ -n "$cmd" ] || continue
    "$evprof" "$cmd" --format "$fmt" "$log" >"$tmp/name" 2>/dev/null
    check "$cmd --format $fmt: exit 0" [ $? -eq 0 ]
    check "$cmd --format $fmt: output" [ -s "$tmp/name" ]
    upper=$(tr '[:lower:]' '[:upper:]' <<<"$fmt")
    "$evprof" "$cmd" -f "$upper" "$log" >"$tmp/upper" 2>/dev/null
    check "$cmd -f $upper: the same bytes" same "$fmt" "$tmp/name" "$tmp/upper"
    [ "$exts" = - ] && continue
    for ext in $exts; do
        rm -f "$tmp/out$ext"
        "$evprof" "$cmd" "$log" -o "$tmp/out$ext" 2>/dev/null
        check "$cmd -o out$ext: exit 0" [ $? -eq 0 ]
        check "$cmd -o out$ext: the bytes of --format $fmt" same "$fmt" "$tmp/name" "$tmp/out$ext"
        "$evprof" "$cmd" --format "${ext#.}" "$log" >"$tmp/byext" 2>/dev/null
        check "$cmd --format ${ext#.}: the bytes of --format $fmt" same "$fmt" "$tmp/name" "$tmp/byext"
        # --format beats the extension: another format's extension
        "$evprof" "$cmd" --format "$fmt" "$log" -o "$tmp/other.csv.json.svg" 2>/dev/null
        check "$cmd --format $fmt -o other.csv.json.svg: --format wins" \
            same "$fmt" "$tmp/name" "$tmp/other.csv.json.svg"
    done
done <<<"$table"

# the older spellings
"$evprof" report --json "$ex" >"$tmp/j1"
"$evprof" report --format json "$ex" >"$tmp/j3"
check "report --json = --format json" cmp -s "$tmp/j1" "$tmp/j3"
check "report --json: GHC's -pj" cmp -s "$tmp/j1" tests/golden/report-json-nfib.out
"$evprof" report "$ex" -o "$tmp/prog.prof.json"
check "report -o prog.prof.json: JSON" cmp -s "$tmp/j1" "$tmp/prog.prof.json"

# standard output and files without a known extension: each command's default
while IFS='|' read -r cmd log stdout_fmt file_fmt; do
    [ -n "$cmd" ] || continue
    "$evprof" "$cmd" --format "$stdout_fmt" "$log" >"$tmp/want" 2>/dev/null
    "$evprof" "$cmd" "$log" >"$tmp/got" 2>/dev/null
    check "$cmd to standard output: $stdout_fmt" cmp -s "$tmp/want" "$tmp/got"
    "$evprof" "$cmd" "$log" -o - >"$tmp/got" 2>/dev/null
    check "$cmd -o -: $stdout_fmt" cmp -s "$tmp/want" "$tmp/got"
    "$evprof" "$cmd" --format "$file_fmt" "$log" >"$tmp/want" 2>/dev/null
    "$evprof" "$cmd" "$log" -o "$tmp/noextension" 2>/dev/null
    check "$cmd -o noextension: $file_fmt" cmp -s "$tmp/want" "$tmp/noextension"
    "$evprof" "$cmd" "$log" -o "$tmp/out.unknown" 2>/dev/null
    check "$cmd -o out.unknown: $file_fmt" cmp -s "$tmp/want" "$tmp/out.unknown"
done <<EOF
report|$ex|text|text
gc|$g9/nfib-s.eventlog|text|text
heap|$g9/nfib-hc.eventlog|summary|hp
ticky|$ge/ticky-new.eventlog|text|text
EOF
"$evprof" info "$ex" >"$tmp/got"
check "info: text" cmp -s "$tmp/got" tests/golden/info-text-nfib.out
"$evprof" graph "$ex" >"$tmp/got"
"$evprof" graph -f svg "$ex" >"$tmp/want"
check "graph to standard output: svg" cmp -s "$tmp/want" "$tmp/got"
"$evprof" graph "$ex" -o "$tmp/graph-noextension" 2>"$tmp/err"
check "graph -o noextension: exit 2" [ $? -eq 2 ]
check "graph -o noextension: names the extensions" \
    grep -q "name it .svg, .png, .pdf, .dot or .json, or give --format" "$tmp/err"
check "graph -o noextension: writes nothing" [ ! -e "$tmp/graph-noextension" ]

# an unknown format: exit 2, the command's formats listed, nothing written
while IFS='|' read -r cmd log names; do
    [ -n "$cmd" ] || continue
    "$evprof" "$cmd" --format xml "$log" >"$tmp/out" 2>"$tmp/err"
    check "$cmd --format xml: exit 2" [ $? -eq 2 ]
    check "$cmd --format xml: lists $names" grep -q -- "--format wants $names, not 'xml'" "$tmp/err"
    check "$cmd --format xml: no output" [ ! -s "$tmp/out" ]
    "$evprof" "$cmd" --format "" "$log" >"$tmp/out" 2>"$tmp/err"
    check "$cmd --format '': exit 2" [ $? -eq 2 ]
done <<EOF
report|$ex|text or json
gc|$g9/nfib-s.eventlog|text or json
heap|$g9/nfib-hc.eventlog|summary, hp, csv or json
ticky|$ge/ticky-new.eventlog|text, csv or json
info|$ex|text or json
graph|$ex|svg, png, pdf, dot or json
EOF
# the value is shown in its visible form
"$evprof" gc --format $'x\e[31m' "$g9/nfib-s.eventlog" 2>"$tmp/err"
check "--format ESC: escaped in the message" grep -qF "not 'x\\x1b[31m'" "$tmp/err"

# every JSON output parses, strictly (no NaN or Infinity)
json_ok() {
    "$PYTHON" -c 'import json, sys
def bad(c): raise ValueError(c)
json.load(open(sys.argv[1], encoding="utf-8"), parse_constant=bad)' "$1"
}
while IFS='|' read -r name args; do
    [ -n "$name" ] || continue
    # shellcheck disable=SC2086
    "$evprof" $args >"$tmp/$name.json" 2>/dev/null
    check "$name: JSON parses" json_ok "$tmp/$name.json"
done <<EOF
report-json|report --json $g9/nfib-N2.eventlog
gc-json|gc -f json $g9/nfib-np-N2-s.eventlog
gc-json-empty-window|gc -f json --from 0.0001 --to 0.0002 $g9/nfib-s.eventlog
heap-json|heap -f json $g9/nfib-hc.eventlog
heap-json-no-census|heap -f json --from 0.0001 --to 0.0002 $g9/nfib-hc.eventlog
ticky-json|ticky -f json $ge/ticky-new.eventlog
ticky-json-none|ticky -f json -m nomatch $ge/ticky-new.eventlog
ticky-text-json|ticky -f json $g9/nfib.ticky
ticky-series-json|ticky --series -f json $ge/ticky-begin-sample.eventlog
ticky-series-json-none|ticky --series -f json -m nomatch $ge/ticky-new.eventlog
info-json|info -f json $ge/testlog-part.eventlog
speedscope|speedscope $g9/nfib-N2.eventlog
EOF

echo "formats: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
