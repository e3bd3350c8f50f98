#!/usr/bin/env bash
# Live sources: the bundled logs fed into a growing file in random-sized
# chunks with pauses (the reader starts before the file exists), into a
# FIFO, and through a Unix socket that plays eventlog-socket; `--follow`
# output must equal the batch output byte for byte (report, folded, gc,
# heap). Then Ctrl-C during --follow (the result so far, exit 130),
# --idle-timeout on a file that stops growing, and usage errors.
#
# Usage: tests/cli/live_follow.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
feed="${PYTHON:-python3} tests/support/feed_log.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# command and log: each command on logs that have what it reads
cases="report:tests/data/ghc-9.0.2/nfib-N2.eventlog
report:tests/data/ghc/par-N2-p.eventlog
folded:tests/data/ghc/deep-p.eventlog
gc:tests/data/gc/pargc-N2.eventlog
gc:tests/data/ghc-9.0.2/nfib-s.eventlog
heap:tests/data/heap/leak-hc.eventlog
heap:tests/data/ghc-9.0.2/nfib-hy.eventlog"

# waits until evprof (pid) has read the whole of file (its file position),
# so that a signal comes while it waits for more: a fixed sleep was not
# always enough on a loaded machine under sanitizers
read_all() {
    local pid=$1 file size i fd pos
    file=$(realpath "$2")
    size=$(stat -c %s "$file")
    for i in $(seq 400); do
        for fd in /proc/"$pid"/fd/*; do
            [ "$(readlink "$fd" 2>/dev/null)" = "$file" ] || continue
            pos=$(sed -n 's/^pos:[[:space:]]*//p' /proc/"$pid"/fdinfo/"${fd##*/}" 2>/dev/null)
            [ "${pos:-0}" -ge "$size" ] && { sleep 0.2; return 0; }
        done
        sleep 0.05
    done
    return 1
}

# the heap summary names its source: compare with the name taken out
norm() { sed -e "s|$2|LOG|g" -e 's|<stdin>|LOG|g' -e "s|unix:$tmp/[c0-9/]*ghc_eventlog.sock|LOG|g" "$1"; }
same() { cmp -s <(norm "$1" "$log") <(norm "$2" "$3"); }

# each case in a directory of its own, all at once (each mostly waits for
# its feeder); its counts in $d.counts
live_case() {
    local cmd=$1 log=$2 seed=$3 d=$4 brc rc sock
    mkdir -p "$d"
    "$evprof" "$cmd" "$log" >"$d/batch" 2>"$d/batch.err"
    brc=$?

    # a growing file, started before it exists
    rm -f "$d/grow.eventlog"
    $feed file "$log" "$d/grow.eventlog" --seed $seed &
    timeout 60 "$evprof" "$cmd" --follow "$d/grow.eventlog" >"$d/out" 2>"$d/err"
    rc=$?
    wait
    check "$cmd $log: follow a growing file: exit $brc (got $rc)" [ $rc -eq $brc ]
    check "$cmd $log: follow a growing file: same output" same "$d/batch" "$d/out" "$d/grow.eventlog"
    check "$cmd $log: follow a growing file: nothing on stderr" [ ! -s "$d/err" ]

    # a FIFO
    rm -f "$d/fifo"
    mkfifo "$d/fifo"
    $feed fifo "$log" "$d/fifo" --seed $seed &
    timeout 60 "$evprof" "$cmd" --follow "$d/fifo" >"$d/out" 2>"$d/err"
    rc=$?
    wait
    check "$cmd $log: FIFO: exit $brc (got $rc)" [ $rc -eq $brc ]
    check "$cmd $log: FIFO: same output" same "$d/batch" "$d/out" "$d/fifo"

    # standard input from a slow pipe, without --follow (read as it comes)
    $feed fifo "$log" /dev/stdout --seed $seed | timeout 60 "$evprof" "$cmd" - >"$d/out" 2>"$d/err"
    rc=$?
    check "$cmd $log: slow stdin: exit $brc (got $rc)" [ $rc -eq $brc ]
    check "$cmd $log: slow stdin: same output" same "$d/batch" "$d/out" "<stdin>"

    # eventlog-socket: the program listens, evprof connects
    sock="$d/ghc_eventlog.sock"
    $feed socket "$log" "$sock" --seed $seed &
    timeout 60 "$evprof" "$cmd" --follow --connect "unix:$sock" >"$d/out" 2>"$d/err"
    rc=$?
    wait
    check "$cmd $log: socket: exit $brc (got $rc)" [ $rc -eq $brc ]
    check "$cmd $log: socket: same output" same "$d/batch" "$d/out" "unix:$sock"
}
seed=0 counts=()
for c in $cases; do
    seed=$((seed + 1))
    counts+=("$tmp/c$seed.counts")
    (passed=0 failed=0; live_case "${c%%:*}" "${c#*:}" $seed "$tmp/c$seed"
     counts_to "$tmp/c$seed.counts") &
done
wait
counts_from "${counts[@]}"

# graph (DOT: the text of the graph) from a growing file
# (the file's name is in the graph's label and changes its wrapping: the
# batch run reads the finished file under the same name)
log=tests/data/ghc/mutual-p.eventlog
rm -f "$tmp/grow.eventlog"
$feed file "$log" "$tmp/grow.eventlog" --seed 7 &
timeout 60 "$evprof" graph -f dot --follow "$tmp/grow.eventlog" >"$tmp/out" 2>"$tmp/err"
check "graph --follow: exit 0" [ $? -eq 0 ]
wait
"$evprof" graph -f dot "$tmp/grow.eventlog" >"$tmp/batch" 2>/dev/null
check "graph --follow: same DOT" cmp -s "$tmp/batch" "$tmp/out"

# Ctrl-C while following a file that never ends: the result so far, 130
log=tests/data/ghc-9.0.2/nfib-N2.eventlog
size=$(stat -c %s "$log")
head -c $((size * 95 / 100)) "$log" >"$tmp/half.eventlog"   # cut inside a sample
"$evprof" report --follow "$tmp/half.eventlog" >"$tmp/out" 2>"$tmp/err" &
pid=$!
read_all $pid "$tmp/half.eventlog"
kill -INT $pid
wait $pid
rc=$?
check "Ctrl-C: exit 130 (got $rc)" [ $rc -eq 130 ]
check "Ctrl-C: a whole report" grep -q 'total ticks\|total time' "$tmp/out"
check "Ctrl-C: says interrupted" grep -q 'interrupted after' "$tmp/err"
"$evprof" report "$tmp/half.eventlog" >"$tmp/batch" 2>/dev/null
check "Ctrl-C: the batch report of the bytes read" cmp -s "$tmp/batch" "$tmp/out"
# some ticks, fewer than the whole log's
ticks_half=$(sed -n 's/.*(\([0-9]*\) ticks.*/\1/p' "$tmp/out" | head -1)
ticks_all=$("$evprof" report "$log" | sed -n 's/.*(\([0-9]*\) ticks.*/\1/p' | head -1)
check "Ctrl-C: ticks so far ($ticks_half) between 1 and $ticks_all" \
    [ "${ticks_half:-0}" -gt 0 -a "${ticks_half:-0}" -lt "$ticks_all" ]

# Ctrl-C with -o: the file appears whole
"$evprof" report --follow "$tmp/half.eventlog" -o "$tmp/r.prof" 2>"$tmp/err" &
pid=$!
read_all $pid "$tmp/half.eventlog"
kill -INT $pid
wait $pid
rc=$?
check "Ctrl-C -o: exit 130 (got $rc)" [ $rc -eq 130 ]
check "Ctrl-C -o: the file is written" cmp -s "$tmp/out" "$tmp/r.prof"
check "Ctrl-C -o: no temporary left" [ -z "$(ls "$tmp" | grep evprof-)" ]

# --idle-timeout: a file that stops growing ends the read as a cut log
start=$(date +%s.%N)
"$evprof" report --follow --idle-timeout 0.5 "$tmp/half.eventlog" >"$tmp/out" 2>"$tmp/err"
rc=$?
end=$(date +%s.%N)
check "idle timeout: exit 1 as a cut log (got $rc)" [ $rc -eq 1 ]
check "idle timeout: says so" grep -q 'did not grow' "$tmp/err"
check "idle timeout: says truncated" grep -q 'truncated\|no end marker' "$tmp/err"
check "idle timeout: took about 0.5 s" "$PYTHON" -c "import sys; sys.exit(not 0.4 < $end - $start < 5)"
"$evprof" report "$tmp/half.eventlog" >"$tmp/batch" 2>/dev/null
check "idle timeout: the batch report of the same bytes" cmp -s "$tmp/batch" "$tmp/out"

# a missing file waited for, then given up (idle timeout)
"$evprof" gc --follow --idle-timeout 0.3 "$tmp/never.eventlog" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "missing file, idle timeout: exit 1 (got $rc)" [ $rc -eq 1 ]
check "missing file: no output" [ ! -s "$tmp/out" ]

# without --follow a cut log is reported as cut at once
timeout 10 "$evprof" report "$tmp/half.eventlog" >/dev/null 2>"$tmp/err"
check "no --follow: a cut log fails at once" [ $? -eq 1 ]

# usage
"$evprof" report --idle-timeout 1 "$log" >/dev/null 2>"$tmp/err"
check "--idle-timeout without --follow: usage error" [ $? -eq 2 ]
"$evprof" report --connect foo >/dev/null 2>"$tmp/err"
check "--connect foo: usage error" [ $? -eq 2 ]
"$evprof" report --idle-timeout 0.3 --connect "unix:$tmp/nobody.sock" >/dev/null 2>"$tmp/err"
check "--connect to nobody: exit 1" [ $? -eq 1 ]
check "--connect to nobody: says why" grep -q 'cannot connect' "$tmp/err"
"$evprof" report --connect "unix:$tmp/x.sock" "$log" >/dev/null 2>"$tmp/err"
check "--connect and FILE: usage error" [ $? -eq 2 ]

# evprof top on a finished file, a FIFO and a socket: the last NDJSON
# frame's totals are the report's
log=tests/data/ghc/par-N2-p.eventlog
"$evprof" report "$log" >"$tmp/report"
want=$(sed -n 's/.*(\([0-9]*\) ticks @.*/\1/p' "$tmp/report")
last_ticks() { tail -1 "$1" | "$PYTHON" -c 'import json,sys; f=json.loads(sys.stdin.read()); print(f["ticks"] if f["finished"] and f["end_marker"] else -1)'; }
"$evprof" top --ndjson "$log" >"$tmp/top.json" 2>"$tmp/err"
check "top FILE: exit 0" [ $? -eq 0 ]
check "top FILE: final ticks $want" [ "$(last_ticks "$tmp/top.json")" = "$want" ]
rm -f "$tmp/fifo"; mkfifo "$tmp/fifo"
$feed fifo "$log" "$tmp/fifo" --max-pause 0.2 &
timeout 60 "$evprof" top --ndjson --interval 0.1 "$tmp/fifo" >"$tmp/top.json" 2>"$tmp/err"
check "top FIFO: exit 0" [ $? -eq 0 ]
wait
check "top FIFO: several frames" [ "$(wc -l <"$tmp/top.json")" -ge 3 ]
check "top FIFO: final ticks $want" [ "$(last_ticks "$tmp/top.json")" = "$want" ]
$feed socket "$log" "$tmp/top.sock" &
timeout 60 "$evprof" top --ndjson --connect "unix:$tmp/top.sock" >"$tmp/top.json" 2>"$tmp/err" &
toppid=$!
wait $toppid
check "top --connect: exit 0" [ $? -eq 0 ]
wait
check "top --connect: final ticks $want" [ "$(last_ticks "$tmp/top.json")" = "$want" ]
"$evprof" top --plain "$log" >"$tmp/top.txt" 2>"$tmp/err"
check "top --plain: the cost centres" grep -q '^crunch  *Main' "$tmp/top.txt"
check "top --plain: the end" grep -q '\[ended\]' "$tmp/top.txt"

# the heap line is the last census of `evprof heap`, the ticky rows the
# counters of `evprof ticky`
"$evprof" top --ndjson -n 100 tests/data/heap/leak-hc.eventlog >"$tmp/top.json"
"$evprof" heap -f csv tests/data/heap/leak-hc.eventlog >"$tmp/heap.csv"
check "top: the last census's bands" "$PYTHON" - "$tmp/top.json" "$tmp/heap.csv" <<'PY'
import csv, json, sys
f = json.loads(open(sys.argv[1]).readlines()[-1])
rows = list(csv.DictReader(open(sys.argv[2])))
last = max(int(r["census"]) for r in rows)
want = {r["band"]: int(r["bytes"]) for r in rows if int(r["census"]) == last}
got = {b["name"]: b["bytes"] for b in f["heap"]["bands"]}
sys.exit(not (got == want and f["heap"]["total"] == sum(want.values())))
PY
"$evprof" top --ndjson -n 100 tests/data/ghc-events/ticky-new.eventlog >"$tmp/top.json"
"$evprof" ticky -f json tests/data/ghc-events/ticky-new.eventlog >"$tmp/ticky.json"
check "top: the ticky counters' entries and allocations" "$PYTHON" - "$tmp/top.json" "$tmp/ticky.json" <<'PY'
import json, sys
f = json.loads(open(sys.argv[1]).readlines()[-1])
t = json.load(open(sys.argv[2]))
rows = t["counters"] if isinstance(t, dict) and "counters" in t else t
want = {r["name"]: (r["entries"], r["alloc"]) for r in rows if r["entries"] or r["alloc"]}
got = {r["name"]: (r["entries"], r["allocs"]) for r in f["ticky"]}
sys.exit(not (got == want and len(got) > 0))
PY

# Ctrl-C in top: a last frame with the figures so far, exit 130
"$evprof" top --ndjson --interval 0.2 "$tmp/half.eventlog" >"$tmp/top.json" 2>"$tmp/err" &
pid=$!
read_all $pid "$tmp/half.eventlog"
kill -INT $pid
wait $pid
rc=$?
check "top, Ctrl-C: exit 130 (got $rc)" [ $rc -eq 130 ]
check "top, Ctrl-C: the last frame is finished, without the end marker" "$PYTHON" -c '
import json, sys
f = json.loads(open(sys.argv[1]).readlines()[-1])
sys.exit(not (f["finished"] and not f["end_marker"] and f["ticks"] > 0))' "$tmp/top.json"

# top -- PROG: a program that never writes its log ends top with its status
start=$(date +%s)
timeout 20 "$evprof" top --ndjson -- false >/dev/null 2>"$tmp/err"
rc=$?
check "top -- false: exit 1 (got $rc)" [ $rc -eq 1 ]
check "top -- false: says why" grep -q 'ended without writing an eventlog' "$tmp/err"
timeout 20 "$evprof" top --ndjson -- "$tmp/no-such-prog" >/dev/null 2>"$tmp/err"
check "top -- missing program: exit 127" [ $? -eq 127 ]
"$evprof" top --ndjson >/dev/null 2>&1
check "top without a source: usage error" [ $? -eq 2 ]
"$evprof" top --ndjson "$log" -- prog >/dev/null 2>&1
check "top FILE -- PROG: usage error" [ $? -eq 2 ]

# a file that is not there (yet): the view says so, --idle-timeout gives up
timeout 20 "$evprof" top --plain --interval 0.2 --idle-timeout 3 "$tmp/no-such.eventlog" >"$tmp/top.txt" 2>"$tmp/err"
rc=$?
check "top on a missing file: the view says there is no such file yet" \
    grep -q "no-such.eventlog to appear: there is no such file yet" "$tmp/top.txt"
check "top on a missing file: --idle-timeout ends it, exit 1 (got $rc)" [ $rc -eq 1 ]
check "top on a missing file: the message" grep -q "did not appear within the idle timeout" "$tmp/err"

echo "live_follow: $passed passed, $failed failed"
[ $failed -eq 0 ]
