#!/usr/bin/env bash
# What the reliability campaign found wrong with text and logs (issue 27):
# dump printed raw control bytes from labels (point 17); an end marker in
# the middle of a log without blocks silently dropped the events after it
# (point 18); one 60 000-byte label made `graph` fail and `all` lose its
# SVG (point 23).
# The hostile logs are made here by tests/fuzz/hostile_log.
#
# Usage: tests/cli/hostile_text.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
gen="$(dirname "$evprof")/tests/fuzz/hostile_log"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

if [ ! -x "$gen" ]; then
    echo "SKIPPED: tests/fuzz/hostile_log is not built"
    exit 77
fi
# raw control bytes (C0 but the line feed, DEL, C1 as UTF-8) in a file
no_raw_controls() {
    ! LC_ALL=C grep -q -P '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1"
}

# ---- point 17: dump shows control bytes visibly -------------------------
"$gen" "$tmp/ctl.eventlog" controls
"$evprof" dump "$tmp/ctl.eventlog" >"$tmp/dump" 2>"$tmp/err"
check "dump controls: exit 0" [ $? -eq 0 ]
check "dump controls: no raw control byte (ESC, BEL, DEL, C1, NUL)" no_raw_controls "$tmp/dump"
check "dump controls: the label escaped as tx_vis does" grep -qF \
    'cost centre 2 a\x1b[31mred\x07 bell\x7f del\x85 c1\x9b csi'$'\xef\xbf\xbd'' bad in M\x1b]0;title\x07od at F'$'\xef\xbf\xbd''.hs' "$tmp/dump"
check "dump controls: the user message" grep -qF \
    'cap 0: a\x1b[31mred\x07 bell\x7f del\x85 c1\x9b csi' "$tmp/dump"
check "dump controls: a mark with a NUL" grep -qF 'marker: nul\x00after' "$tmp/dump"
check "dump controls: a log message" grep -qF 'cap 0: log\x1b[1m' "$tmp/dump"
check "dump controls: line breaks in a message" grep -qF 'cap 0: two\nlines\r\tend\n' "$tmp/dump"
check "dump controls: printable text as ghc-events prints it" \
    grep -qF 'cost centre 1 main in Main at Main.hs:1:1' "$tmp/dump"
# one line per event: as many event lines as events
events=$("$evprof" info "$tmp/ctl.eventlog" | sed -n 's/^events: *\([0-9]*\).*/\1/p')
lines=$(sed -n '/^Events:$/,$p' "$tmp/dump" | sed 1d | grep -ac '^[0-9][0-9]*: ')
others=$(sed -n '/^Events:$/,$p' "$tmp/dump" | sed 1d | grep -av '^$' | grep -avc '^[0-9][0-9]*: ')
check "dump controls: one line per event ($lines of $events)" [ "$lines" -eq "$events" ]
check "dump controls: no line that is not an event's ($others)" [ "$others" -eq 0 ]
# the same from standard input, and the info listing of the marks
"$evprof" dump - <"$tmp/ctl.eventlog" >"$tmp/dump2" 2>/dev/null
check "dump controls from standard input: the same" cmp -s "$tmp/dump" "$tmp/dump2"

# ---- point 18: an end marker mid-log in a log without blocks is damage ---
# end-mid: 40 CREATE_THREAD, an end marker, 40 RUN_THREAD, the end marker;
# end-over: the marker written over the first RUN_THREAD's type instead
for shape in end-mid end-over; do
    "$gen" "$tmp/$shape.eventlog" "$shape" 40
    "$evprof" info "$tmp/$shape.eventlog" >"$tmp/out" 2>"$tmp/err"
    check "$shape: info exit 1" [ $? -eq 1 ]
    check "$shape: info status DAMAGED" grep -q "^status: *DAMAGED: skipped" "$tmp/out"
    check "$shape: the damage named on stderr" \
        grep -q "end marker followed by more events (an event at byte [0-9]*) (event type 65535 END_MARKER)" "$tmp/err"
    check "$shape: read on after it" grep -q "and read on after them" "$tmp/err"
    "$evprof" dump "$tmp/$shape.eventlog" >"$tmp/out" 2>/dev/null
    check "$shape: dump: exit 1" [ $? -eq 1 ]
    check "$shape: dump: the 40 events after the marker" [ "$(grep -c 'running thread' "$tmp/out")" -eq 40 ]
    check "$shape: dump: and the 40 before" [ "$(grep -c 'creating thread' "$tmp/out")" -eq 40 ]
    "$evprof" info --format json "$tmp/$shape.eventlog" 2>/dev/null | grep -q '"status": "damaged"'
    check "$shape: info --json: damaged" [ $? -eq 0 ]
    "$evprof" gc "$tmp/$shape.eventlog" >/dev/null 2>&1
    check "$shape: gc: exit 1" [ $? -eq 1 ]
    "$evprof" dump - <"$tmp/$shape.eventlog" 2>/dev/null | grep -c 'running thread' >"$tmp/n"
    check "$shape: dump from standard input: the 40 events after" [ "$(cat "$tmp/n")" -eq 40 ]
done

# ---- point 23: a 60 000-byte label never fails the graph ----------------
# (its box made dot's edges longer than 65 535 points; dot's DOT reader
# takes quoted strings of 16 384 bytes at most)
for n in 20000 60000 65000; do
    "$gen" "$tmp/long.eventlog" long-label "$n"
    rm -f "$tmp/long.svg"
    "$evprof" graph -o "$tmp/long.svg" "$tmp/long.eventlog" 2>"$tmp/err"
    check "graph, a $n-byte label: exit 0" [ $? -eq 0 ]
    check "graph, a $n-byte label: an SVG" grep -q "</svg>" "$tmp/long.svg"
    check "graph, a $n-byte label: valid XML" "$PYTHON" -c \
        'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$tmp/long.svg"
    check "graph, a $n-byte label: drawn shortened, its head and tail around a '…'" \
        grep -q ">abcdefghij[a-z]*…[a-z]*</text>" "$tmp/long.svg"
    "$evprof" graph -f dot "$tmp/long.eventlog" >"$tmp/long.dot" 2>/dev/null
    check "graph -f dot, a $n-byte label: exit 0" [ $? -eq 0 ]
    if command -v dot >/dev/null; then
        dot -Tsvg "$tmp/long.dot" >"$tmp/dot.svg" 2>"$tmp/err"
        check "graph -f dot, a $n-byte label: Graphviz's dot reads it back" [ $? -eq 0 ]
    fi
    rm -rf "$tmp/all"
    "$evprof" all -d "$tmp/all" "$tmp/long.eventlog" 2>"$tmp/err"
    check "all, a $n-byte label: exit 0" [ $? -eq 0 ]
    check "all, a $n-byte label: the SVG written" grep -q "</svg>" "$tmp/all/long.svg"
    "$evprof" html -o "$tmp/long.html" "$tmp/long.eventlog" 2>/dev/null
    check "html, a $n-byte label: exit 0" [ $? -eq 0 ]
done
# the text outputs keep the whole label
check "report keeps the whole label" grep -q "$(printf 'abcdefghijklmnopqrstuvwxyz%.0s' $(seq 200))" \
    "$tmp/all/long.prof"

echo "hostile_text: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
