#!/usr/bin/env bash
# A profiled log without samples says why from what it holds (issue 36):
# the command line's +RTS options as logged (-p, --no-automatic-time-samples,
# -V0), PROF_BEGIN, the RTS. Real GHC 9.10.3 and 9.0.2 runs of one -prof
# build (tests/data/nosamples/, regen.sh), in report, info and top.
#
# Usage: tests/cli/no_samples.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
d=tests/data/nosamples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
run() { "$evprof" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?; }
why() { sed -n "s/^evprof: [^:]*: no time-profile samples (event 167): \(.*\) (see 'evprof info .*')$/\1/p" "$tmp/err"; }

# --no-automatic-time-samples (9.10): PROF_BEGIN, no tick, the flag logged
run report "$d/noauto-9.10.eventlog"
check "noauto: exit 1" [ "$rc" -eq 1 ]
w=$(why)
check "noauto: names the flag and startProfTimer" \
    grep -q "the run has +RTS --no-automatic-time-samples (GHC 9.10 and later): the ticks start only when the program calls startProfTimer" <<<"$w"
check "noauto: says the profiler was on (PROF_BEGIN, its time and tick)" \
    grep -q "the time profiler was on (PROF_BEGIN at 0\.[0-9]\{6\} s, a tick every 1 ms)" <<<"$w"
check "noauto: never tells to add +RTS -p, which the run had" eval '! grep -q "run without +RTS -p" <<<"$w"'
run info "$d/noauto-9.10.eventlog"
check "noauto: info's verdict is the same sentence" grep -qF "time profile     no: $w" "$tmp/out"
run top --ndjson "$d/noauto-9.10.eventlog"
check "noauto: top's frames say why ticks have not come" \
    grep -q '"no_samples_why":"it runs with +RTS --no-automatic-time-samples' "$tmp/out"
run top --plain "$d/noauto-9.10.eventlog"
check "noauto: top's view says so" \
    grep -q "^no time-profile samples yet: it runs with +RTS --no-automatic-time-samples" "$tmp/out"

# -V0: the timer off (PROF_BEGIN with no interval)
run report "$d/V0-9.10.eventlog"
w=$(why)
check "-V0: names -V0 as the cause" grep -q "but also with -V0, which turns off the RTS timer" <<<"$w"

# no -p at all: no PROF_BEGIN, none on the logged command line (9.10, 9.0)
for v in 9.10 9.0; do
    run report "$d/nop-$v.eventlog"
    w=$(why)
    check "nop $v: run without +RTS -p, from PROF_BEGIN and the command line" \
        grep -q "built with -prof (RTS GHC-$v\.[0-9]* rts_p; [0-9]* cost centres defined) but run without +RTS -p (no PROF_BEGIN, and no -p among its logged +RTS options): run it with +RTS -p -l" <<<"$w"
done
run top --plain "$d/nop-9.10.eventlog"
check "nop: top's view names the missing -p" grep -q "^no time-profile samples yet: its command line has no +RTS -p" "$tmp/out"

# a log with samples has no such field
run top --ndjson examples/nfib.eventlog
check "a profiled run: no_samples_why is null" grep -q '"no_samples_why":null' "$tmp/out"

echo "no_samples: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
