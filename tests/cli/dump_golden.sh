#!/usr/bin/env bash
# Golden test: `evprof dump FILE` prints exactly what `ghc-events show FILE`
# printed (the .reference beside each log of the shared corpus), and a
# truncated log prints its complete events, says "truncated" on stderr and
# exits with status 1.
#
# Usage: tests/cli/dump_golden.sh path/to/evprof   (run from the project root)
set -u

evprof=${1:?usage: $0 path/to/evprof}
corpus=tests/data/ghc-events
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

shopt -s nullglob
logs=("$corpus"/*.eventlog)
if [ ${#logs[@]} -eq 0 ]; then
    echo "no logs in $corpus (run from the project root)"
    exit 1
fi

# The one difference from ghc-events allowed (issue 27, point 17): text
# holding control characters, which ghc-events writes raw, is shown in the
# visible form of every evprof output (\n, \r, \t, \xNN). Same when the
# escapes turned back into their bytes give the reference, and nothing raw
# but the line ends is left (parallelTest's messages end with a newline).
same_but_visible() {
    "$PYTHON" - "$1" "$2" <<'PY'
import re, sys
out, ref = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
if re.search(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", out):
    sys.exit(1)
names = {b"n": b"\n", b"r": b"\r", b"t": b"\t"}
def raw(m):
    e = m.group(1)
    if e in names:
        return names[e]
    v = int(e[1:], 16)      # a C1 control was a two-byte UTF-8 sequence
    return bytes([v]) if v < 0x80 else bytes([0xc2, v])
back = re.sub(rb"\\(n|r|t|x[0-9a-f]{2})", raw, out)
sys.exit(0 if back == ref else 1)
PY
}

for log in "${logs[@]}"; do
    ref=$log.reference
    [ -f "$ref" ] || continue
    name=$(basename "$log")
    "$evprof" dump "$log" >"$tmp/out" 2>"$tmp/err"
    status=$?
    if [ $status -ne 0 ]; then
        bad "$name: exit status $status"
        head -n 5 "$tmp/err"
    elif ! cmp -s "$tmp/out" "$ref" && ! same_but_visible "$tmp/out" "$ref"; then
        bad "$name: output differs from $ref"
        diff "$ref" "$tmp/out" | head -n 20
    else
        ok
    fi
done

# The same through standard input.
log=$corpus/time-prof.eventlog
if [ -f "$log.reference" ]; then
    if "$evprof" dump - <"$log" >"$tmp/out" 2>"$tmp/err" && cmp -s "$tmp/out" "$log.reference"; then
        ok
    else
        bad "time-prof.eventlog from standard input differs or failed"
        head -n 5 "$tmp/err"
    fi
fi

# A log cut in the middle of an event.
log=$corpus/testlog-part.eventlog
if [ -f "$log" ]; then
    "$evprof" dump "$log" >"$tmp/out" 2>"$tmp/err"
    status=$?
    events=$(sed -n '/^Events:$/,$p' "$tmp/out" | grep -c '^[0-9][0-9]*: ')
    if [ $status -ne 1 ]; then
        bad "testlog-part.eventlog: exit status $status, expected 1"
    elif ! grep -q 'truncated' "$tmp/err"; then
        bad "testlog-part.eventlog: no 'truncated' message on stderr"
        head -n 5 "$tmp/err"
    elif [ "$events" -lt 100 ]; then
        bad "testlog-part.eventlog: only $events events printed"
    else
        ok
    fi
fi

# Usage: --help succeeds, a bad option is a usage error.
if "$evprof" dump --help >"$tmp/out" 2>&1 && grep -q 'Usage: evprof dump' "$tmp/out"; then
    ok
else
    bad "dump --help"
fi
"$evprof" dump --no-such-option x >/dev/null 2>&1
status=$?
if [ $status -eq 2 ]; then ok; else bad "dump --no-such-option: exit status $status, expected 2"; fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
