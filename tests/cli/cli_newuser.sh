#!/usr/bin/env bash
# The command line as a new user tries it (issue 11, point 6): options before
# FILE belong to the default report, a log without samples names the command
# that fits it, ticky says what its input lacks, and every number option
# reads numbers one way (decimal digits) with a message naming the option.
#
# Usage: tests/cli/cli_newuser.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
log=tests/data/ghc/deep-p.eventlog
heaplog=tests/data/heap/leak-hT.eventlog
gclog=tests/data/gc/alloc.eventlog
tickytext=tests/data/ticky/big.ticky
tickylog=../shared/corpus/ghc-events/ticky-ticky.eventlog
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
lacks() { ! grep -q -- "$1" "$2"; }
# run ARGS...: exit status in $rc, stdout in $tmp/out, stderr in $tmp/err
run() { "$evprof" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?; }

# options before FILE: the default command's
for opts in "--json" "--all" "--threshold 2" "-t 2" "--max-depth 3" "-a --json"; do
    run $opts "$log"
    check "evprof $opts FILE: exit 0 (got $rc: $(head -1 "$tmp/err"))" [ "$rc" -eq 0 ]
    cp "$tmp/out" "$tmp/default"
    run report $opts "$log"
    check "evprof $opts FILE == evprof report $opts FILE" cmp -s "$tmp/out" "$tmp/default"
done
run -o "$tmp/r.txt" "$log"
check "evprof -o OUT FILE: exit 0" [ "$rc" -eq 0 ]
check "evprof -o OUT FILE: written" [ -s "$tmp/r.txt" ]
# mistakes are still named
run nosuchcommand
check "unknown command: exit 2" [ "$rc" -eq 2 ]
check "unknown command: said" grep -q "'nosuchcommand' is neither a command nor a file" "$tmp/err"
run --nosuchoption "$log"
check "unknown option: exit 2" [ "$rc" -eq 2 ]
check "unknown option: named" grep -q "unknown option '--nosuchoption'" "$tmp/err"
run --json
check "options but no FILE: exit 2" [ "$rc" -eq 2 ]
check "options but no FILE: said" grep -q "missing FILE" "$tmp/err"

# a log without time samples: which command fits what it holds
run "$heaplog"
check "heap log to report: exit 1" [ "$rc" -eq 1 ]
check "heap log to report: points to evprof heap" grep -q "try 'evprof heap " "$tmp/err"
run report "$gclog"
check "GC-only log to report: exit 1" [ "$rc" -eq 1 ]
check "GC-only log to report: points to evprof gc" grep -q "try 'evprof gc " "$tmp/err"
check "GC-only log to report: not to heap" lacks "evprof heap" "$tmp/err"
run folded "$heaplog"
check "heap log to folded: points to evprof heap" grep -q "try 'evprof heap " "$tmp/err"
if [ -f "$tickylog" ]; then
    run "$tickylog"
    check "ticky log to report: points to evprof ticky" grep -q "try 'evprof ticky " "$tmp/err"
else
    echo "SKIPPED: ticky log to report ($tickylog not found)"
fi

# ticky: what its input lacks
run ticky --series tests/data/ghc/deep-p.prof
check "ticky --series on a non-eventlog: exit 1" [ "$rc" -eq 1 ]
check "ticky --series on a non-eventlog: needs an eventlog" grep -q "not an eventlog.*need" "$tmp/err"
check "ticky --series on a non-eventlog: not called +RTS -r text" lacks "is GHC's +RTS -r text" "$tmp/err"
run ticky --series "$tickytext"
check "ticky --series on +RTS -r text: exit 2" [ "$rc" -eq 2 ]
check "ticky --series on +RTS -r text: says so" grep -q "+RTS -r text.*need an eventlog" "$tmp/err"
"$evprof" ticky - >"$tmp/out" 2>"$tmp/err" <&-
rc=$?
check "ticky - with stdin closed: exit 1" [ "$rc" -eq 1 ]
check "ticky - with stdin closed: says so" grep -q "standard input is closed" "$tmp/err"
run ticky -
check "ticky - with empty stdin: exit 1" [ "$rc" -eq 1 ]
check "ticky - with empty stdin: says so" grep -q "standard input is empty" "$tmp/err"
: >"$tmp/empty"
run ticky "$tmp/empty"
check "ticky on an empty file: says so" grep -q "the file is empty" "$tmp/err"

# -j is --jobs on every command (it was report's --json): the old use
# says what -j is now and where the JSON went
run report -j 1 "$log"
check "report -j 1 FILE: the text report on one thread (exit $rc)" [ "$rc" -eq 0 ]
check "report -j 1 FILE: not JSON" grep -q "Time Profiling Report" "$tmp/out"
"$evprof" report --jobs 1 "$log" >"$tmp/jobs1" 2>/dev/null
check "report -j 1 = report --jobs 1" cmp -s "$tmp/out" "$tmp/jobs1"
run -j 2 "$log"
check "evprof -j 2 FILE: the report (exit $rc)" [ "$rc" -eq 0 ]
for old in "report -j $log" "-j $log" "report $log -j" "report -aj $log"; do
    run $old
    check "$old: exit 2 (got $rc)" [ "$rc" -eq 2 ]
    check "$old: says -j is --jobs" grep -q -- "-j is --jobs N" "$tmp/err"
    check "$old: says the JSON is --json" grep -q -- "-pj JSON profile is --json" "$tmp/err"
done
run info -j 1 "$log"
check "info -j 1: --jobs (exit $rc)" [ "$rc" -eq 0 ]
run gc -j x "$gclog"
check "gc -j x: exit 2" [ "$rc" -eq 2 ]
check "gc -j x: says -j is --jobs" grep -q -- "-j is --jobs N.* not 'x'" "$tmp/err"
check "gc -j x: no word of JSON (gc has no -pj)" lacks "pj" "$tmp/err"
run report --help
check "report --help: -j, --jobs" grep -q -- "-j, --jobs N" "$tmp/out"
check "report --help: --json has no -j" lacks "-j, --json" "$tmp/out"

# numbers: decimal digits only, the option named in the message
bad_values=("0x10" "1 " " 1" "1e308" "1e2" "-1" "" "+1" "inf" "nan" "1,5" "1..5")
while read -r cmd opt good input; do
    run $cmd "--$opt" "$good" "$input"
    check "$cmd --$opt $good: accepted (exit $rc: $(head -1 "$tmp/err"))" [ "$rc" -ne 2 ]
    for v in "${bad_values[@]}"; do
        run $cmd "--$opt" "$v" "$input"
        check "$cmd --$opt '$v': exit 2 (got $rc)" [ "$rc" -eq 2 ]
        check "$cmd --$opt '$v': the option named" grep -q -- "--$opt wants" "$tmp/err"
    done
done <<EOF
report threshold 0.5 $log
report max-depth 3 $log
report from 0.01 $log
report to 10 $log
report cap 0 $log
folded from 0 $log
graph max-nodes 5 $log
graph max-edges 5 $log
graph node-fraction 0.1 $log
graph edge-fraction 5% $log
heap top 5 $heaplog
heap length 40 $heaplog
ticky top 3 $tickytext
gc from 0.05 $gclog
EOF

echo "cli_newuser: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
