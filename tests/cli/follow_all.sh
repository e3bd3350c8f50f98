#!/usr/bin/env bash
# --follow on every reading command: report, folded, graph, heap, ticky
# (table and --series), gc, info, dump, all -d, speedscope, pprof, html.
# Each reads a bundled log fed into a growing file in random-sized chunks
# with pauses (started before the file exists), into a FIFO, through a
# Unix socket that plays eventlog-socket (--connect), and from a slow
# standard input; its output (stdout, every -o file, every file of
# `all -d`), its standard error and its exit status must equal the batch
# run's on the finished log, byte for byte. Then, for the commands that
# took --follow last (ticky, info, dump, all, html): Ctrl-C while waiting
# (exit 130, the batch output of the bytes read, nothing half-written) and
# --idle-timeout (the batch output of the cut log). Last, the refusals.
#
# Every run is made in a directory of its own under the same relative
# name (log.eventlog; the socket's batch twin is a file named
# unix:log.sock), so that the names in the outputs are the same.
#
# Usage: tests/cli/follow_all.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
case $evprof in /*) ;; *) evprof=$PWD/$evprof ;; esac
root=$PWD
feed="${PYTHON:-python3} $root/tests/support/feed_log.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# what a run leaves: stdout, stderr, exit status, and the files it wrote
# (the directory `out`), in one directory to compare with another
same_run() { local d; d=$(diff -r "$1" "$2" 2>&1) || { head -20 <<<"$d"; return 1; }; }

# LeakSanitizer's table of suppressions used (sanitizer builds, Graphviz's
# font libraries) ends stderr with counts that vary from run to run
# (and the line that says evprof waits for a socket: it depends on timing)
clean_err() { sed -i -e '/^-\{40,\}$/,$d' -e '/^evprof: waiting for .* to accept a connection/d' "$1"; }

# run DIR INPUT ARGS...: evprof ARGS in DIR/, its results in DIR/res/
# (INPUT: its standard input)
run() {
    local dir=$1 input=$2; shift 2
    mkdir -p "$dir/res/out"
    (cd "$dir/res" && timeout 60 "$evprof" "$@" >stdout 2>stderr <"$input"; echo $? >status)
    clean_err "$dir/res/stderr"
}

# after evprof: the feeder has nothing more to say (a refused option left
# it waiting for a reader)
stop_feeder() { kill "$1" 2>/dev/null; wait "$1" 2>/dev/null; }

# command | args | log   (args: -o and -d write into out/)
cases="report||tests/data/ghc/par-N2-p.eventlog
report|--json|tests/data/ghc-9.0.2/nfib-N2.eventlog
folded||tests/data/ghc/deep-p.eventlog
graph|-f dot|tests/data/ghc/mutual-p.eventlog
graph|-o out/g.svg|tests/data/ghc/deep-p.eventlog
heap||tests/data/heap/leak-hc.eventlog
heap|-f csv -o out/h.csv|tests/data/ghc-9.0.2/nfib-hy.eventlog
ticky||tests/data/ghc-events/ticky-new.eventlog
ticky|--series|tests/data/ghc-events/ticky-new.eventlog
ticky|--series --cumulative -f csv -o out/t.csv|tests/data/ghc-events/ticky-begin-sample.eventlog
ticky|-f json|tests/data/ghc-events/ticky-ticky.eventlog
gc||tests/data/gc/pargc-N2.eventlog
gc|-f json|tests/data/ghc-9.0.2/nfib-s.eventlog
info||tests/data/ghc/par-N2-p.eventlog
info|-f json|tests/data/ghc-events/ticky-new.eventlog
dump||tests/data/gc/pargc-N2.eventlog
dump|--cap 1|tests/data/gc/sparks-N2.eventlog
all|-d out|tests/data/ghc/par-N2-p.eventlog
all|-d out|tests/data/heap/leak-hc.eventlog
all|-d out -n x|tests/data/ghc-events/ticky-new.eventlog
speedscope|-o out/s.json|tests/data/ghc/par-N2-p.eventlog
pprof|-o out/p.pb.gz|tests/data/ghc/par-N2-p.eventlog
html|-o out/page.html|tests/data/ghc/deep-p.eventlog"

# one case (its runs in $c), in a background subshell: its counts in
# $c.counts; four cases at once (each mostly waits for its feeders)
all_case() {
    local cmd=$1 args=$2 log=$3 seed=$4 c=$5 what chunk
    what="$cmd $args ($(basename "$log"))"
    # shellcheck disable=SC2086
    set -- $args
    # about a dozen random-sized chunks whatever the log's size
    chunk=$(( $(stat -c %s "$log") / 6 ))
    [ $chunk -ge 1024 ] || chunk=1024

    # the batch runs: the finished log as log.eventlog, as standard input,
    # and as a file named like the socket's address
    mkdir -p "$c/batch/res" "$c/sock-batch/res"
    cp "$log" "$c/batch/res/log.eventlog"
    run "$c/batch" /dev/null "$cmd" "$@" log.eventlog
    rm "$c/batch/res/log.eventlog"
    run "$c/stdin-batch" "$root/$log" "$cmd" "$@" -
    cp "$log" "$c/sock-batch/res/unix:log.sock"
    run "$c/sock-batch" /dev/null "$cmd" "$@" unix:log.sock
    rm "$c/sock-batch/res/unix:log.sock"
    check "$what: the batch run writes something" [ -s "$c/batch/res/stdout" -o -n "$(ls "$c/batch/res/out")" ]

    # the four live runs at once (each waits on its feeder, not the CPU)
    # a growing file, started before it exists
    mkdir -p "$c/grow/res" "$c/fifo/res" "$c/sock/res" "$c/stdin/res/out"
    (
        $feed file "$log" "$c/grow/res/log.eventlog" --seed $seed --max-chunk $chunk &
        run "$c/grow" /dev/null "$cmd" --follow "$@" log.eventlog
        stop_feeder $!
        rm -f "$c/grow/res/log.eventlog"
    ) &
    # a FIFO
    (
        mkfifo "$c/fifo/res/log.eventlog"
        $feed fifo "$log" "$c/fifo/res/log.eventlog" --seed $seed --max-chunk $chunk &
        run "$c/fifo" /dev/null "$cmd" --follow "$@" log.eventlog
        stop_feeder $!
        rm -f "$c/fifo/res/log.eventlog"
    ) &
    # eventlog-socket: the program listens, evprof connects
    (
        (cd "$c/sock/res" && exec $feed socket "$root/$log" log.sock --seed $seed --max-chunk $chunk) &
        run "$c/sock" /dev/null "$cmd" --follow --connect unix:log.sock "$@"
        stop_feeder $!
        rm -f "$c/sock/res/log.sock"    # the feeder may not have got to it
    ) &
    # standard input from a slow pipe
    (cd "$c/stdin/res" && $feed fifo "$root/$log" /dev/stdout --seed $seed --max-chunk $chunk |
        timeout 60 "$evprof" "$cmd" --follow "$@" - >stdout 2>stderr; echo $? >status
        clean_err stderr) &
    wait
    check "$what: a growing file" same_run "$c/batch" "$c/grow"
    check "$what: a FIFO" same_run "$c/batch" "$c/fifo"
    check "$what: a socket (--connect)" same_run "$c/sock-batch" "$c/sock"
    check "$what: standard input" same_run "$c/stdin-batch" "$c/stdin"
}
seed=0 counts=() running=0
while IFS='|' read -r cmd args log; do
    seed=$((seed + 1))
    counts+=("$tmp/c$seed.counts")
    (passed=0 failed=0; all_case "$cmd" "$args" "$log" $seed "$tmp/c$seed"
     counts_to "$tmp/c$seed.counts") &
    if [ $((running += 1)) -ge 4 ]; then
        wait -n
        running=$((running - 1))
    fi
done <<EOF
$cases
EOF
wait
counts_from "${counts[@]}"

# ---- what is refused ------------------------------------------------------
L=tests/data/ghc/par-N2-p.eventlog
"$evprof" report --follow "$L" "$L" >/dev/null 2>"$tmp/err"
check "report --follow with two logs: usage error" [ $? -eq 2 ]
check "report --follow with two logs: says why" grep -q 'one live log' "$tmp/err"
"$evprof" report --connect "unix:$tmp/x.sock" "$L" "$L" >/dev/null 2>"$tmp/err"
check "report --connect with two logs: usage error" [ $? -eq 2 ]
"$evprof" gc --follow --between x "$L" >/dev/null 2>"$tmp/err"
check "gc --follow --between: usage error" [ $? -eq 2 ]
check "gc --follow --between: says why" grep -q 'finished file' "$tmp/err"
"$evprof" ticky --connect "unix:$tmp/x.sock" --from marker:a >/dev/null 2>"$tmp/err"
check "ticky --connect with a marker: usage error" [ $? -eq 2 ]
"$evprof" diff --follow "$L" "$L" >/dev/null 2>"$tmp/err"
check "diff --follow: usage error" [ $? -eq 2 ]
"$evprof" info --idle-timeout 1 "$L" >/dev/null 2>"$tmp/err"
check "info --idle-timeout without --follow: usage error" [ $? -eq 2 ]
"$evprof" ticky --follow tests/data/ticky/big.ticky >/dev/null 2>"$tmp/err"
check "ticky --follow on +RTS -r text: exit 1" [ $? -eq 1 ]
check "ticky --follow on +RTS -r text: says why" grep -q 'read without them' "$tmp/err"
for cmd in report folded graph heap ticky gc info dump all speedscope pprof html; do
    "$evprof" "$cmd" --help >"$tmp/help" 2>&1
    check "$cmd --help lists --follow" grep -q -- '--follow' "$tmp/help"
done

echo "follow_all: $passed passed, $failed failed"
[ $failed -eq 0 ]
