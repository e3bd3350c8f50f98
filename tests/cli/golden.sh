#!/bin/bash
# Golden files: the whole output of every command and format on the bundled
# logs, compared byte for byte with tests/golden/NAME.out (standard output)
# and, when the run exits non-zero or writes to standard error,
# tests/golden/NAME.err ("exit N" then standard error).
#
#   bash tests/cli/golden.sh build/evprof            compare (CTest: cli_golden)
#   bash tests/cli/golden.sh build/evprof --update   rewrite every golden file
#                                                    (make golden); review the
#                                                    change with git diff tests/golden
# Run from the project root: the logs' paths are part of some outputs.
evprof=${1:-build/evprof}
update=0
[ "${2:-}" = --update ] && update=1
dir=tests/golden

ex=examples/nfib.eventlog
g9=tests/data/ghc-9.0.2
ge=tests/data/ghc-events
wd=tests/data/windows

# NAME|ARGUMENTS (split on blanks: no blanks inside an argument)
cases="
report-text-nfib|report $ex
report-json-nfib|report --json $ex
report-all-nfib|report --all $ex
report-text-nfib-N2|report $g9/nfib-N2.eventlog
report-json-nfib-N2|report --json $g9/nfib-N2.eventlog
report-text-time-prof|report $ge/time-prof.eventlog
report-json-time-prof|report --json $ge/time-prof.eventlog
report-threshold-nfib-p|report -t 5 -d 3 $g9/nfib-p.eventlog
report-cap1-nfib-N2|report --cap 1 $g9/nfib-N2.eventlog
report-cap0-nfib-N2|report --cap 0 $g9/nfib-N2.eventlog
report-json-cap0-nfib-N2|report --json --cap 0 $g9/nfib-N2.eventlog
report-json-caps-nt|report --json tests/data/caps/nt.eventlog
phases-cap1-threads-N2|phases --cap 1 tests/data/phases/threads-N2.eventlog
folded-nfib|folded $ex
folded-all-nfib|folded --all $ex
folded-src-time-prof|folded -F src $ge/time-prof.eventlog
folded-nfib-N2|folded $g9/nfib-N2.eventlog
graph-dot-nfib|graph -f dot $ex
graph-dot-time-prof|graph -f dot $ge/time-prof.eventlog
graph-json-nfib|graph -f json $ex
heap-hp-nfib-hc|heap -f hp $g9/nfib-hc.eventlog
heap-summary-nfib-hc|heap $g9/nfib-hc.eventlog
heap-csv-nfib-hc|heap -f csv $g9/nfib-hc.eventlog
heap-json-nfib-hc|heap -f json $g9/nfib-hc.eventlog
heap-hp-sleep.hy|heap -f hp $ge/sleep.hy.eventlog
heap-summary-sleep.hy|heap $ge/sleep.hy.eventlog
heap-summary-biographical|heap $ge/biographical-samples.eventlog
ticky-text-ticky-new|ticky $ge/ticky-new.eventlog
ticky-csv-ticky-new|ticky -f csv $ge/ticky-new.eventlog
ticky-json-ticky-new|ticky -f json $ge/ticky-new.eventlog
ticky-series-ticky-begin-sample|ticky --series $ge/ticky-begin-sample.eventlog
ticky-series-csv-ticky-begin-sample|ticky --series -f csv $ge/ticky-begin-sample.eventlog
ticky-series-json-cumulative-ticky-new|ticky --series --cumulative -f json $ge/ticky-new.eventlog
ticky-text-nfib-ticky|ticky $g9/nfib.ticky
ticky-csv-nfib-ticky|ticky -f csv $g9/nfib.ticky
gc-text-nfib-s|gc $g9/nfib-s.eventlog
gc-json-nfib-s|gc -f json $g9/nfib-s.eventlog
gc-text-nfib-np-N2-s|gc $g9/nfib-np-N2-s.eventlog
gc-json-nfib-np-N2-s|gc -f json $g9/nfib-np-N2-s.eventlog
gc-text-window-parallelTest|gc --from 0.01 --to 0.05 $ge/parallelTest.eventlog
threads-text-N2|threads tests/data/sched/threads-N2.eventlog
threads-json-N2|threads -f json tests/data/sched/threads-N2.eventlog
threads-text-window-cap-bank|threads --from 1 --to 2 --cap 1 tests/data/newprogs/9.6.6/Bank.N2.pj.1.eventlog
threads-text-parallelTest|threads $ge/parallelTest.eventlog
info-text-nfib|info $ex
info-json-nfib|info -f json $ex
info-text-parallelTest|info $ge/parallelTest.eventlog
info-text-testlog-part|info $ge/testlog-part.eventlog
info-json-testlog-part|info -f json $ge/testlog-part.eventlog
diff-text-freq|diff tests/data/diff/freq-before.eventlog tests/data/diff/freq-after.eventlog
diff-json-freq|diff -f json tests/data/diff/freq-before.eventlog tests/data/diff/freq-after.eventlog
diff-folded-freq|diff -f folded tests/data/diff/freq-before.eventlog tests/data/diff/freq-after.eventlog
diff-dot-freq|diff -f dot tests/data/diff/freq-before.eventlog tests/data/diff/freq-after.eventlog
diff-text-normalize-deep|diff --normalize tests/data/ghc/deep-p.eventlog tests/data/ghc/deep-pj.eventlog
diff-text-par-N2|diff -t 5 tests/data/ghc/par-N2-p.eventlog tests/data/ghc/par-N2-pj.eventlog
diff-fail-above-deep|diff --fail-above 50 tests/data/ghc/deep-pj.eventlog tests/data/ghc/deep-p.eventlog
diff-gc-nfib|diff $g9/nfib-s.eventlog $g9/nfib-np-N2-s.eventlog
diff-gc-json-nfib|diff -f json $g9/nfib-s.eventlog $g9/nfib-np-N2-s.eventlog
diff-heap-nfib|diff $g9/nfib-hc.eventlog tests/data/heap/long-hc.eventlog
diff-heap-breakdowns|diff $g9/nfib-hc.eventlog $g9/nfib-hy.eventlog
diff-ticky|diff $ge/ticky-new.eventlog $ge/ticky-ticky.eventlog
metrics-nfib-np-N2-s|metrics $g9/nfib-np-N2-s.eventlog
metrics-nfib-p|metrics $g9/nfib-p.eventlog
metrics-nfib-hc|metrics -n 5 $g9/nfib-hc.eventlog
metrics-ticky-new|metrics $ge/ticky-new.eventlog
metrics-hostile|metrics tests/data/metrics/hostile.eventlog
metrics-window-hostile|metrics --from 0.03 --to 0.08 --cap 0 -n 3 tests/data/metrics/hostile.eventlog
dump-unicode|dump $ge/unicode.eventlog
dump-trace-binary-nonutf|dump $ge/trace-binary-nonutf.eventlog
dump-testlog-part|dump $ge/testlog-part.eventlog
heap-csv-window-steps|heap -f csv --from marker:step#3 --to marker:step#4 $wd/windows-N2.eventlog
heap-hp-window-steps|heap -f hp --from 0.2 --to 0.5 $wd/windows-N2.eventlog
heap-summary-window-steps|heap --from 0.2 $wd/windows-N2.eventlog
ticky-csv-window-steps|ticky -f csv --from marker:step#3 --to marker:step#4 $wd/ticky-9.6.eventlog
ticky-series-window-steps|ticky --series -f csv --from 0.2 --to 0.6 $wd/ticky-9.6.eventlog
gc-json-window-cap-steps|gc -f json --from marker:step#1 --to marker:step#2 --cap 1 $wd/windows-N2.eventlog
gc-text-window-steps|gc --to 0.5 $wd/windows-N2.eventlog
dump-window-steps|dump --from 0.3 --to 0.31 $wd/windows-N2.eventlog
folded-window-cap-markers|folded --from 0.5 --to 1.5 --cap 0 tests/data/markers/markers.eventlog
speedscope-window-markers|speedscope --from 0.5 --to 1 tests/data/markers/markers.eventlog
report-between-markers|report --between phase tests/data/markers/markers.eventlog
metrics-window-steps|metrics --from marker:step#3 --to marker:step#4 $wd/windows-N2.eventlog
"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/empty"     # standard input for every case: empty

if [ $update -eq 1 ]; then
    rm -f "$dir"/*.out "$dir"/*.err
fi
passed=0
failed=0
while IFS='|' read -r name args; do
    [ -n "$name" ] || continue
    # shellcheck disable=SC2086
    "$evprof" $args >"$tmp/out" 2>"$tmp/stderr" <"$tmp/empty"
    status=$?
    : >"$tmp/err"
    if [ $status -ne 0 ] || [ -s "$tmp/stderr" ]; then
        { echo "exit $status"; cat "$tmp/stderr"; } >"$tmp/err"
    fi
    if [ $update -eq 1 ]; then
        cp "$tmp/out" "$dir/$name.out"
        [ -s "$tmp/err" ] && cp "$tmp/err" "$dir/$name.err"
        continue
    fi
    ok=1
    if [ ! -f "$dir/$name.out" ]; then
        echo "FAIL: $name: no $dir/$name.out (make golden writes it)"
        ok=0
    elif ! cmp -s "$dir/$name.out" "$tmp/out"; then
        echo "FAIL: $name: evprof $args: output differs from $dir/$name.out"
        diff "$dir/$name.out" "$tmp/out" | head -n 20
        ok=0
    fi
    if [ -f "$dir/$name.err" ] || [ -s "$tmp/err" ]; then
        if ! cmp -s "$dir/$name.err" "$tmp/err" 2>/dev/null; then
            echo "FAIL: $name: evprof $args: exit status or stderr differs from $dir/$name.err"
            diff "$dir/$name.err" "$tmp/err" 2>&1 | head -n 10
            ok=0
        fi
    fi
    if [ $ok -eq 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done <<<"$cases"

if [ $update -eq 1 ]; then
    echo "golden files rewritten in $dir: review with git diff $dir"
    exit 0
fi
# a golden file that no case writes is a case that was dropped
for f in "$dir"/*.out "$dir"/*.err; do
    [ -f "$f" ] || continue
    n=$(basename "$f"); n=${n%.*}
    if ! grep -q "^$n|" <<<"$cases"; then
        echo "FAIL: $f belongs to no case (make golden removes it)"
        failed=$((failed + 1))
    fi
done
echo "golden: $passed passed, $failed failed"
[ $failed -eq 0 ]
