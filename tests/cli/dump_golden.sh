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

for log in "${logs[@]}"; do
    ref=$log.reference
    [ -f "$ref" ] || continue
    name=$(basename "$log")
    "$evprof" dump "$log" >"$tmp/out" 2>"$tmp/err"
    status=$?
    if [ $status -ne 0 ]; then
        bad "$name: exit status $status"
        head -n 5 "$tmp/err"
    elif ! cmp -s "$tmp/out" "$ref"; then
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
