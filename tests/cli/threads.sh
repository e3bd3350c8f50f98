#!/usr/bin/env bash
# `evprof threads`: on real GHC runs (9.0.2, 9.6.6, 9.10.3; threaded and
# not; tests/data/sched a run whose labelled threads block on STM, MVars
# and a black hole), the threads' running times add up to the
# capabilities', which equal `gc`'s per-capability MUT time, for the whole
# run, a window and a capability; the parallel read (one block a range)
# gives the sequential output; the text names the threads' labels and
# reasons; a log without scheduler events and a cut log are said.
#
# Usage: tests/cli/threads.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

logs="tests/data/sched/threads-N2.eventlog
tests/data/ghc-9.0.2/nfib-N2.eventlog
tests/data/ghc-9.6/workers-N2-s.eventlog
tests/data/ghc-9.10/workers-N2-p.eventlog
tests/data/newprogs/9.6.6/Bank.N2.pj.1.eventlog
tests/data/newprogs/9.10.3/ParSum.N2.P.1.eventlog
tests/data/phases/threads-N2.eventlog
tests/data/ghc-events/parallelTest.eventlog
examples/nfib.eventlog"

# sums.py EVPROF LOG...: per log and selection, the threads' running time,
# the capabilities' and gc's per-capability MUT time agree
cat >"$tmp/sums.py" <<'PY'
import json, subprocess, sys
evprof, logs = sys.argv[1], sys.argv[2:]
def run(*a):
    p = subprocess.run([evprof, *a], capture_output=True, text=True)
    return p.returncode, json.loads(p.stdout) if p.stdout else None
for log in logs:
    for sel in ([], ['--from', '0.01', '--to', '0.2'], ['--cap', '1']):
        (trc, t), (grc, g) = run('threads', '-f', 'json', *sel, log), run('gc', '-f', 'json', *sel, log)
        if trc == grc == 2 and sel:
            continue            # no capability 1 in a non-threaded run: a usage error for both
        if trc != 0 or grc != 0:
            print('FAIL: %s %s: exit %d, gc %d' % (log, ' '.join(sel), trc, grc))
            continue
        threads = sum(x['running_ns'] for x in t['threads'])
        caps = sum(c['running_ns'] for c in t['caps'])
        mut = sum(c['mutator_elapsed_ns'] for c in g.get('capabilities', []))
        where = '%s %s' % (log, ' '.join(sel))
        if not (threads == caps == t['running_ns'] == mut) or caps == 0 and not sel:
            print('FAIL: %s: threads %d, capabilities %d, gc MUT %d' % (where, threads, caps, mut))
        else:
            print('ok')
PY
# shellcheck disable=SC2086
while read -r line; do
    if [ "$line" = ok ]; then ok; else bad "${line#FAIL: }"; fi
done < <("$PYTHON" "$tmp/sums.py" "$evprof" $logs)
[ "$passed" -ge 24 ] || bad "the sums were not all checked ($passed)"

# the parallel read, one block a range, against one thread
for log in $logs; do
    "$evprof" threads -f json -j 1 "$log" >"$tmp/seq" 2>&1
    EVPROF_TEST_CHUNK_BYTES=1 "$evprof" threads -f json -j 3 "$log" >"$tmp/par" 2>&1
    check "$log: -j 3 (a range a block) as -j 1" cmp -s "$tmp/seq" "$tmp/par"
done

# the run of tests/data/sched: its labels, its STM, MVar and black-hole stops
out=$("$evprof" threads tests/data/sched/threads-N2.eventlog)
for want in 'stm-waiter' 'blackhole-waiter' 'producer' '  stm     : blocked in an STM retry' \
            '  blackhole: blocked on a black hole' 'Allocation per thread: n/a'; do
    check "threads-N2: '$want' in the table" grep -qF -- "$want" <<<"$out"
done
check "threads-N2: stm-waiter stopped 3 times in an STM retry" \
    "$PYTHON" -c 'import json,sys; d=json.load(sys.stdin); t=[x for x in d["threads"] if x["label"]=="stm-waiter"][0]; sys.exit(t["stops"]["stm"]!=3)' \
    < <("$evprof" threads -f json tests/data/sched/threads-N2.eventlog)

# no scheduler events (-l-a): exit 1, said
"$evprof" threads tests/data/gc/alloc-l-a.eventlog >"$tmp/out" 2>"$tmp/err"
check "no scheduler events: exit 1" test $? -eq 1
check "no scheduler events: said" grep -q 'no scheduler events' "$tmp/err"
check "no scheduler events: no table" test ! -s "$tmp/out"
# a cut log: the threads so far, exit 1, the cut said
"$evprof" threads tests/data/ghc-events/testlog-part.eventlog >"$tmp/out" 2>"$tmp/err"
check "cut log: exit 1" test $? -eq 1
check "cut log: truncated said" grep -q 'truncated at byte' "$tmp/err"
check "cut log: the table so far" grep -q '^Threads: ' "$tmp/out"
# usage
"$evprof" threads >/dev/null 2>&1
check "no file: exit 2" test $? -eq 2
"$evprof" threads --help >"$tmp/out"
check "--help: exit 0" test $? -eq 0
check "--help: the usage" grep -q '^Usage: evprof threads' "$tmp/out"

echo "threads: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
