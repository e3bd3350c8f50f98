#!/usr/bin/env bash
# Ctrl-C and --idle-timeout with --follow on the reading commands (the
# last to take --follow: ticky, info, dump, all, html; and report, gc,
# heap): each follows a cut log that never grows again. Ctrl-C while it
# waits: exit 130, "interrupted after" on stderr, and the batch output of
# the cut log (stdout and every -o / -d file, each whole, no temporary
# left). --idle-timeout: the batch output, status and messages of the cut
# log, plus the line that says the file stopped growing; on a file that
# never appears, an error and no output.
#
# Usage: tests/cli/follow_interrupt.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
case $evprof in /*) ;; *) evprof=$PWD/$evprof ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# what a run leaves (stdout, stderr, status, out/), compared with another
same_run() { local d; d=$(diff -r "$1" "$2" 2>&1) || { head -20 <<<"$d"; return 1; }; }

# LeakSanitizer's table of suppressions used (sanitizer builds, Graphviz's
# font libraries) ends stderr with counts that vary from run to run
clean_err() { sed -i '/^-\{40,\}$/,$d' "$1"; }

# run DIR ARGS...: evprof ARGS in DIR/res/, its results there
run() {
    local dir=$1; shift
    mkdir -p "$dir/res/out"
    (cd "$dir/res" && timeout 60 "$evprof" "$@" >stdout 2>stderr </dev/null; echo $? >status)
    clean_err "$dir/res/stderr"
}

seed=0
# waits until evprof has read the whole of its log (its file position),
# so that the signal comes while it waits for more
read_all() {
    local pid=$1 file=$2 size i fd pos
    size=$(stat -c %s "$file")
    for i in $(seq 200); do
        for fd in /proc/"$pid"/fd/*; do
            [ "$(readlink "$fd")" = "$file" ] || continue
            pos=$(sed -n 's/^pos:[[:space:]]*//p' /proc/"$pid"/fdinfo/"${fd##*/}" 2>/dev/null)
            [ "${pos:-0}" -ge "$size" ] && return 0
        done
        sleep 0.05
    done
    return 1
}

# command | args | log | cut (bytes kept: a fraction, or minus N from the end)
cut_cases="ticky||tests/data/ghc-events/ticky-new.eventlog|-200
ticky|--series -f csv -o out/t.csv|tests/data/ghc-events/ticky-new.eventlog|-200
info||tests/data/ghc/par-N2-p.eventlog|95
info|-f json|tests/data/ghc/par-N2-p.eventlog|50
dump||tests/data/gc/pargc-N2.eventlog|60
all|-d out|tests/data/ghc/par-N2-p.eventlog|95
html|-o out/page.html|tests/data/ghc/deep-p.eventlog|90
report||tests/data/ghc/par-N2-p.eventlog|95
gc||tests/data/gc/pargc-N2.eventlog|70
heap|-f csv|tests/data/heap/leak-hT.eventlog|95"

# each case on its own, all at once (each mostly waits: for the read,
# the signal, the idle timeout); its counts in $c.counts
cut_case() {
    local cmd=$1 args=$2 log=$3 cut=$4 c=$5 what size keep d pid rc
    what="$cmd $args ($(basename "$log") cut at $cut)"
    # shellcheck disable=SC2086
    set -- $args
    size=$(stat -c %s "$log")
    case $cut in -*) keep=$((size + cut)) ;; *) keep=$((size * cut / 100)) ;; esac
    mkdir -p "$c/batch/res" "$c/int/res" "$c/idle/res"
    for d in batch int idle; do head -c $keep "$log" >"$c/$d/res/log.eventlog"; done
    run "$c/batch" "$cmd" "$@" log.eventlog
    check "$what: the batch run of the cut log shows something" \
        [ -s "$c/batch/res/stdout" -o -n "$(ls "$c/batch/res/out")" ]

    # Ctrl-C: the batch output of the bytes read, exit 130
    mkdir -p "$c/int/res/out"
    (cd "$c/int/res" && exec "$evprof" "$cmd" --follow "$@" log.eventlog >stdout 2>stderr) &
    pid=$!
    check "$what: Ctrl-C: the log is read" read_all $pid "$c/int/res/log.eventlog"
    kill -INT $pid
    wait $pid
    rc=$?
    check "$what: Ctrl-C: exit 130 (got $rc)" [ $rc -eq 130 ]
    check "$what: Ctrl-C: says interrupted" grep -q 'interrupted after' "$c/int/res/stderr"
    check "$what: Ctrl-C: no temporary file left" \
        [ -z "$(find "$c/int" -name '*evprof-*')" ]
    for d in batch int; do rm -f "$c/$d/res/stderr" "$c/$d/res/status"; done
    check "$what: Ctrl-C: the batch output of the bytes read" same_run "$c/batch" "$c/int"

    # --idle-timeout: the cut log's batch output and status
    run "$c/batch" "$cmd" "$@" log.eventlog
    run "$c/idle" "$cmd" --follow --idle-timeout 0.3 "$@" log.eventlog
    check "$what: idle timeout: says so" grep -q 'did not grow' "$c/idle/res/stderr"
    grep -v 'did not grow' "$c/idle/res/stderr" >"$c/idle/res/e" && mv "$c/idle/res/e" "$c/idle/res/stderr"
    check "$what: idle timeout: the batch run of the cut log" same_run "$c/batch" "$c/idle"
}
counts=()
while IFS='|' read -r cmd args log cut; do
    seed=$((seed + 1))
    counts+=("$tmp/c$seed.counts")
    (passed=0 failed=0; cut_case "$cmd" "$args" "$log" "$cut" "$tmp/c$seed"
     counts_to "$tmp/c$seed.counts") &
done <<EOF
$cut_cases
EOF

# a missing file waited for that never appears: an error, no output at all
# (these too at once)
for args in report gc "heap -f csv" ticky "ticky --series" info "info -f json" dump \
            "all -d out" "html -o out/p.html" "speedscope -o out/s.json"; do
    d=$tmp/missing$((seed += 1))
    counts+=("$d.counts")
    (
        passed=0 failed=0
        # shellcheck disable=SC2086
        run "$d" $args --follow --idle-timeout 0.3 never.eventlog
        check "$args: a missing file: exit 1" [ "$(cat "$d/res/status")" = 1 ]
        check "$args: a missing file: nothing on stdout" [ ! -s "$d/res/stdout" ]
        check "$args: a missing file: no file written" [ -z "$(ls "$d/res/out")" ]
        check "$args: a missing file: says it did not appear" \
            grep -q 'never.eventlog: the file did not appear within the idle timeout' "$d/res/stderr"
        counts_to "$d.counts"
    ) &
done
wait
counts_from "${counts[@]}"

echo "follow_interrupt: $passed passed, $failed failed"
[ $failed -eq 0 ]
