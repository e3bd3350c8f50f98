#!/usr/bin/env bash
# -j N / --jobs N (the parallel read, issue 14): every output (report,
# folded, graph, speedscope, pprof, html, gc, heap, diff, ticky, all), message and
# exit code is the same for -j 1, 2, 3 and 7, on real logs in ranges of
# one block each (the test hook EVPROF_TEST_CHUNK_BYTES=1: GHC writes two
# or three blocks of a run this small), on copies of them in blocks of
# about 4 KiB (tests/support/reblock.py: the same events) in ranges of
# about 8 KiB (several blocks each, and from 2 to 50 ranges, more than
# the threads), on a log of three runs put together by `evprof merge`
# (cost centres defined in later blocks) and on damaged copies (which are
# read sequentially, with the same messages). Every read of those runs
# says (EVPROF_TEST_JOBS_NOTE) that it went in two ranges or more, the
# damaged ones in none; a command with an analysis that does not merge
# (heap's censuses, ticky's counters, html's page) reads sequentially at
# every -j, with the same results. The GC summary merges, also on a log of
# mostly thread events. Bad -j values are usage errors.
#
# Usage: tests/cli/jobs.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

d=tests/data
gen="$(dirname "$evprof")/bench/gen_eventlog"
# a note of a read in ranges (tests use one block a range, EVPROF_TEST_CHUNK_BYTES=1:
# the bundled logs are small, read on one thread otherwise)
inranges() { grep -qE '^evprof: test: ([2-9]|[1-9][0-9]+) ranges$' <<<"$1"; }
"$evprof" merge -o "$tmp/three.eventlog" $d/ghc/par-N2-p.eventlog \
    $d/ghc-9.0.2/nfib-N2.eventlog $d/ghc/deep-p.eventlog 2>/dev/null ||
    bad "merge: the test log"
# the real logs in blocks of about 4 KiB (the same events): NAME-4k
"$PYTHON" tests/support/reblock.py 4096 $d/ghc-9.0.2/nfib-N2.eventlog "$tmp/nfib-N2-4k.eventlog" \
    $d/ghc/par-N2-pj.eventlog "$tmp/par-N2-pj-4k.eventlog" $d/ghc/deep-p.eventlog \
    "$tmp/deep-p-4k.eventlog" $d/ghc-9.0.2/nfib-hc.eventlog "$tmp/nfib-hc-4k.eventlog" \
    "$tmp/three.eventlog" "$tmp/three-4k.eventlog" || bad "reblock.py"

# damaged copies of a real log (two capabilities, several blocks), and of
# its copy in 4 KiB blocks a damaged block (found by one range of many)
"$PYTHON" - $d/ghc-9.0.2/nfib-N2.eventlog "$tmp" <<'PY' || exit 1
import sys
b = open(sys.argv[1], "rb").read()
t = sys.argv[2]
open(t + "/cut.eventlog", "wb").write(b[:len(b) * 3 // 5])          # truncated
open(t + "/noend.eventlog", "wb").write(b[:-2])                     # no end marker
open(t + "/tail.eventlog", "wb").write(b + b"\0\0\0\0")             # bytes after it
for src, dst in ((b, "/ff.eventlog"), (open(t + "/nfib-N2-4k.eventlog", "rb").read(), "/ff-4k.eventlog")):
    ff = bytearray(src)
    ff[len(src) // 2:len(src) // 2 + 3000] = b"\xff" * 3000        # damaged block
    open(t + dst, "wb").write(ff)
PY

have_pprof=0
"$evprof" pprof --help >/dev/null 2>&1 && have_pprof=1

# run JOBS CHUNK CMD...: evprof CMD --jobs JOBS with the test's chunk size
# (EVPROF_TEST_CHUNK_BYTES; "": none), noting its
# reads: standard output in $tmp/out, the exit code in $rc, standard error
# without the notes in $err, each read's range count in $ranges (one
# number a read, space-separated). (bash's own read: no process but
# evprof's)
run() {
    local jobs=$1 chunk=$2 line
    shift 2
    EVPROF_TEST_JOBS_NOTE=1 EVPROF_TEST_CHUNK_BYTES=$chunk \
        "$evprof" "$@" --jobs "$jobs" >"$tmp/out" 2>"$tmp/err"
    rc=$? err= ranges=
    while IFS= read -r line; do
        case $line in
        "evprof: test: "*) line=${line#evprof: test: }; ranges+="${line%% *} " ;;
        *) err+="$line"$'\n' ;;
        esac
    done <"$tmp/err"
    err+=$line          # a last line without its newline
}
# want CMD...: the reference, -j 1 ($tmp/want, $want_rc, $want_err)
want() {
    run 1 "" "$@"
    mv "$tmp/out" "$tmp/want"
    want_rc=$rc want_err=$err
}
# same WHAT: the last run's output, messages and exit code are the reference's
same() {
    if [ "$rc" = "$want_rc" ] && [ "$err" = "$want_err" ] && cmp -s "$tmp/want" "$tmp/out"; then
        ok
    else
        bad "$1"
    fi
}
# split WHAT: every read of the last run went in two ranges or more; on a
# damaged log ($damaged), the last read (the damaged log's: diff reads its
# BASE first) in none; a command whose reads say nothing (runs that stop
# before reading) passes; one with an analysis that does not merge ($seq)
# reads in none (seq=last: its last read, pprof's second one for a heap
# census)
split() {
    local n last=
    if [ "$seq" = last ]; then
        for n in $ranges; do last=$n; done
        [ "${last:-0}" -eq 0 ] || { bad "$1: the heap's read in $last ranges"; return; }
        ok
        return
    fi
    if [ -n "$seq" ]; then
        for n in $ranges; do
            [ "$n" -eq 0 ] || { bad "$1: a read in $n ranges, one that does not merge"; return; }
        done
        ok
        return
    fi
    for n in $ranges; do
        [ -n "$damaged" ] || [ "$n" -ge 2 ] || { bad "$1: a read in $n ranges ($ranges)"; return; }
        last=$n
    done
    [ -z "$damaged" ] || [ "${last:-0}" -eq 0 ] || { bad "$1: read in $last ranges"; return; }
    ok
}

logs="$d/ghc-9.0.2/nfib-N2.eventlog $d/ghc/par-N2-pj.eventlog $d/ghc/deep-p.eventlog
      $d/ghc-9.0.2/nfib-hc.eventlog $tmp/three.eventlog $tmp/cut.eventlog
      $tmp/noend.eventlog $tmp/tail.eventlog $tmp/ff.eventlog"
for log in $logs; do
    # damaged: read sequentially; the copy in 4 KiB blocks, if any (the
    # cut log, the one without its end marker and the one with bytes after
    # it have none: their read is refused before any range is made, the
    # note says why, whatever the ranges)
    damaged= log4k=$tmp/$(basename "$log" .eventlog)-4k.eventlog
    case $log in "$tmp"/cut.*|"$tmp"/noend.*|"$tmp"/tail.*|"$tmp"/ff.*) damaged=1 ;; esac
    cmds=("report" "report --json" "folded" "graph --format dot" "speedscope" "gc"
          "gc --from 0.02 --to 0.12 --cap 1" "gc -f json --from 0.05" "heap"
          "diff BASE" "ticky" "info" "info -f json" "threads"
          "threads -f json --from 0.02 --to 0.12 --cap 1")
    [ "$have_pprof" = 1 ] && cmds+=("pprof")
    cmds+=("html -o /dev/stdout")
    for c in "${cmds[@]}"; do
        case $c in heap*|diff*|ticky*|html*) seq=1 ;; *) seq= ;; esac
        case $c:$log in pprof:*-hc*) seq=last ;; esac
        # GHC's blocks, one a range
        # shellcheck disable=SC2086
        want ${c/BASE/$d/ghc/deep-p.eventlog} "$log"
        for j in 2 3 7; do
            # shellcheck disable=SC2086
            run "$j" 1 ${c/BASE/$d/ghc/deep-p.eventlog} "$log"
            same "$c -j $j (one block a range): $log"
            split "$c -j $j (one block a range): $log"
        done
        # the same events in 4 KiB blocks, ranges of about two (diff's
        # BASE too)
        [ -f "$log4k" ] || continue
        # shellcheck disable=SC2086
        want ${c/BASE/$tmp/deep-p-4k.eventlog} "$log4k"
        for j in 2 3 7; do
            # shellcheck disable=SC2086
            run "$j" 8192 ${c/BASE/$tmp/deep-p-4k.eventlog} "$log4k"
            same "$c -j $j (8 KiB ranges): $log4k"
            split "$c -j $j (8 KiB ranges): $log4k"
        done
    done
    # all -d: every file the same
    "$evprof" all --jobs 1 -d "$tmp/all1" "$log" >/dev/null 2>"$tmp/all1.err"
    for j in 2 3 7; do
        rm -rf "$tmp/allj"
        EVPROF_TEST_CHUNK_BYTES=1 "$evprof" all -j "$j" -d "$tmp/allj" "$log" >/dev/null \
            2>"$tmp/allj.err"
        # evprof's own lines (under ASan, LeakSanitizer's notes on Graphviz's
        # and fontconfig's leaks, which vary from run to run, follow them)
        grep '^evprof:' "$tmp/allj.err" | sed "s#$tmp/allj#DIR#" >"$tmp/a.err"
        grep '^evprof:' "$tmp/all1.err" | sed "s#$tmp/all1#DIR#" >"$tmp/b.err"
        check "all -d -j $j: messages: $log" cmp -s "$tmp/a.err" "$tmp/b.err"
        check "all -d -j $j: files: $log" diff -r "$tmp/all1" "$tmp/allj"
    done
    rm -rf "$tmp/all1"
done

# every log of tests/data (ghc-events' odd ones, heap, GC, ticky, escape):
# report and folded at -j 3, one block a range
for log in $(find $d -name '*.eventlog' | LC_ALL=C sort); do
    for c in report folded; do
        want $c "$log"
        run 3 1 $c "$log"
        same "$c -j 3: $log"
    done
done

# the reads really were parallel (and the damaged ones were not)
note() { EVPROF_TEST_JOBS_NOTE=1 EVPROF_TEST_CHUNK_BYTES=1 "$evprof" "$@" 2>&1 >/dev/null |
         sed -n 's/^evprof: test: \([0-9]*\) ranges.*/\1/p'; }
n=$(note report --jobs 3 "$tmp/three.eventlog")
check "report --jobs 3 read in ranges ($n)" [ "${n:-0}" -ge 3 ]
n=$(note folded -j 2 "$d/ghc-9.0.2/nfib-N2.eventlog")
check "folded -j 2 read in ranges ($n)" [ "${n:-0}" -ge 2 ]
line=$(EVPROF_TEST_JOBS_NOTE=1 EVPROF_TEST_CHUNK_BYTES=1 "$evprof" all -j 2 -d "$tmp/alln" \
       "$d/ghc-9.0.2/nfib-hc.eventlog" 2>&1 >/dev/null | grep '^evprof: test:')
check "all -j 2: sequential, an analysis does not merge ($line)" \
    grep -q "0 ranges; sequential: an analysis does not merge" <<<"$line"
line=$(EVPROF_TEST_JOBS_NOTE=1 EVPROF_TEST_CHUNK_BYTES=1 "$evprof" info -j 2 \
       "$d/ghc-9.0.2/nfib-hc.eventlog" 2>&1 >/dev/null | grep '^evprof: test:')
check "info -j 2: read in ranges ($line)" inranges "$line"
# without a test's chunk size a small log is read on one thread (ranges of
# 64 MiB at least), and a large one in ranges
line=$(EVPROF_TEST_JOBS_NOTE=1 "$evprof" report --jobs 2 "$d/ghc-9.0.2/nfib-N2.eventlog" 2>&1 >/dev/null |
       grep '^evprof: test:')
check "report -j 2, a small log: one thread ($line)" grep -q "sequential: a small file" <<<"$line"
if [ -x "$gen" ]; then
    "$gen" "$tmp/big.eventlog" 140 --sample-share 100 >/dev/null
    line=$(EVPROF_TEST_JOBS_NOTE=1 "$evprof" report --jobs 2 "$tmp/big.eventlog" 2>&1 >"$tmp/b2" |
           grep '^evprof: test:')
    check "report -j 2, a 140 MB log: two ranges ($line)" [ "$line" = "evprof: test: 2 ranges" ]
    "$evprof" report --jobs 1 "$tmp/big.eventlog" >"$tmp/b1" 2>&1
    check "report -j 2, a 140 MB log: the same report" cmp -s "$tmp/b1" "$tmp/b2"
    rm -f "$tmp/big.eventlog"
fi
# an analysis that does not merge: the read is sequential; gc merges
line=$(EVPROF_TEST_JOBS_NOTE=1 EVPROF_TEST_CHUNK_BYTES=1 "$evprof" gc -j 2 \
       "$d/ghc-9.0.2/nfib-hc.eventlog" 2>&1 >/dev/null | grep '^evprof: test:')
check "gc -j 2: read in ranges ($line)" inranges "$line"
for c in heap "html -o $tmp/p.html"; do
    # shellcheck disable=SC2086
    line=$(EVPROF_TEST_JOBS_NOTE=1 EVPROF_TEST_CHUNK_BYTES=1 "$evprof" $c -j 2 \
           "$d/ghc-9.0.2/nfib-hc.eventlog" 2>&1 >/dev/null | grep '^evprof: test:')
    check "$c -j 2: sequential, an analysis does not merge ($line)" \
        grep -q "0 ranges; sequential: an analysis does not merge" <<<"$line"
done
# a log of mostly thread events (80 MB, every RUN/STOP_THREAD a record of
# the GC summary): gc merges its ranges; the same results
if [ -x "$gen" ]; then
    "$gen" "$tmp/dense.eventlog" 80 --sample-share 5 >/dev/null
    line=$(EVPROF_TEST_JOBS_NOTE=1 EVPROF_TEST_CHUNK_BYTES=$((8 << 20)) "$evprof" gc -j 2 \
           "$tmp/dense.eventlog" 2>&1 >"$tmp/g2" | grep '^evprof: test:')
    check "gc -j 2, dense: read in ranges ($line)" inranges "$line"
    "$evprof" gc -j 1 "$tmp/dense.eventlog" >"$tmp/g1" 2>&1
    check "gc -j 2, dense: the same summary" cmp -s "$tmp/g1" "$tmp/g2"
    "$evprof" html -j 1 -o "$tmp/h1.html" "$tmp/dense.eventlog" 2>/dev/null
    "$evprof" html -j 2 -o "$tmp/h2.html" "$tmp/dense.eventlog" 2>/dev/null
    check "html -j 2, dense: the same page" cmp -s "$tmp/h1.html" "$tmp/h2.html"
    rm -f "$tmp/dense.eventlog"
else
    echo "SKIPPED (part): bench/gen_eventlog is not built"
fi
for f in cut noend tail ff; do
    n=$(note report --jobs 3 "$tmp/$f.eventlog")
    check "report --jobs 3 $f: sequential ($n)" [ "${n:-1}" = 0 ]
done
n=$(note report --jobs 3 - <"$tmp/three.eventlog")
check "standard input: sequential ($n)" [ "${n:-1}" = 0 ]

# -j's values: decimal, from 1
for v in 0 x 1e3 0x2 -1 "" 1025; do
    "$evprof" folded -j "$v" "$d/ghc/deep-p.eventlog" >/dev/null 2>"$tmp/err"
    rc=$?
    check "-j '$v': usage error (exit $rc)" [ "$rc" -eq 2 ]
    check "-j '$v': says why" grep -q "jobs.* wants a whole number from 1" "$tmp/err"
done
"$evprof" folded --jobs=2 "$d/ghc/deep-p.eventlog" >/dev/null && ok || bad "--jobs=2"
"$evprof" folded -j2 "$d/ghc/deep-p.eventlog" >/dev/null && ok || bad "-j2"
check "report --help lists --jobs" grep -q -- "--jobs N" <("$evprof" report --help)
check "folded --help lists -j" grep -q -- "-j, --jobs N" <("$evprof" folded --help)
check "info --help lists -j" grep -q -- "-j, --jobs N" <("$evprof" info --help)

echo "jobs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
