#!/usr/bin/env bash
# What the reliability campaign found wrong with text and logs (issue 27):
# dump printed raw control bytes from labels (point 17).
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

echo "hostile_text: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
