#!/usr/bin/env bash
# -j N / --jobs N (the parallel read, issue 14): every output (report,
# folded, graph, speedscope, pprof, html, gc, heap, diff, ticky, all), message and
# exit code is the same for -j 1, 2, 3 and 7, with the natural ranges and
# with ranges of one block each (the test hook EVPROF_TEST_CHUNK_BYTES=1),
# on real logs, on a log of three runs put together by `evprof merge`
# (cost centres defined in later blocks) and on damaged copies (which are
# read sequentially, with the same messages). The analyses that do not
# merge (heap, ticky, html's series) get their records held by the ranges
# and replayed; with too little room to hold them (the test hook
# EVPROF_TEST_HOLD_BYTES) they read beside the workers, with the same
# results. The GC summary merges, also on a log of mostly thread events. Bad -j values are usage
# errors. EVPROF_TEST_JOBS_NOTE shows that the reads really went parallel.
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

# damaged copies of a real log (two capabilities, several blocks)
"$PYTHON" - $d/ghc-9.0.2/nfib-N2.eventlog "$tmp" <<'PY' || exit 1
import sys
b = open(sys.argv[1], "rb").read()
t = sys.argv[2]
open(t + "/cut.eventlog", "wb").write(b[:len(b) * 3 // 5])          # truncated
open(t + "/noend.eventlog", "wb").write(b[:-2])                     # no end marker
open(t + "/tail.eventlog", "wb").write(b + b"\0\0\0\0")             # bytes after it
ff = bytearray(b)
ff[len(b) // 2:len(b) // 2 + 3000] = b"\xff" * 3000                 # damaged block
open(t + "/ff.eventlog", "wb").write(ff)
PY

have_pprof=0
"$evprof" pprof --help >/dev/null 2>&1 && have_pprof=1

# run NAME JOBS CHUNK CMD...: stdout, stderr and exit code into $tmp/NAME.*
run() {
    local name=$1 jobs=$2 chunk=$3; shift 3
    EVPROF_TEST_CHUNK_BYTES=$chunk EVPROF_TEST_HOLD_BYTES=${hold:-} "$evprof" "$@" \
        --jobs "$jobs" >"$tmp/$name.out" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
}

logs="$d/ghc-9.0.2/nfib-N2.eventlog $d/ghc/par-N2-pj.eventlog $d/ghc/deep-p.eventlog
      $d/ghc-9.0.2/nfib-hc.eventlog $tmp/three.eventlog $tmp/cut.eventlog
      $tmp/noend.eventlog $tmp/tail.eventlog $tmp/ff.eventlog"
for log in $logs; do
    cmds=("report" "report --json" "folded" "graph --format dot" "speedscope" "gc"
          "gc --from 0.02 --to 0.12 --cap 1" "gc -f json --from 0.05" "heap"
          "diff $d/ghc/deep-p.eventlog" "ticky" "info" "info -f json")
    [ "$have_pprof" = 1 ] && cmds+=("pprof")
    cmds+=("html -o /dev/stdout")
    for c in "${cmds[@]}"; do
        # shellcheck disable=SC2086
        run want 1 "" $c "$log"
        for j in 2 3 7; do
            for chunk in "" 1; do
                # shellcheck disable=SC2086
                run got "$j" "$chunk" $c "$log"
                what="$c -j $j${chunk:+ (one block a range)}: $log"
                if cmp -s "$tmp/want.out" "$tmp/got.out" && cmp -s "$tmp/want.err" "$tmp/got.err" &&
                   cmp -s "$tmp/want.rc" "$tmp/got.rc"; then ok; else bad "$what"; fi
            done
        done
        # the records held for the analyses that do not merge (gc, heap,
        # html's series) overflow the limit at once, or part way: they are
        # read sequentially beside the workers
        for hold in 1 70000; do
            # shellcheck disable=SC2086
            run got 3 1 $c "$log"
            if cmp -s "$tmp/want.out" "$tmp/got.out" && cmp -s "$tmp/want.err" "$tmp/got.err" &&
               cmp -s "$tmp/want.rc" "$tmp/got.rc"; then ok; else bad "$c -j 3, hold $hold: $log"; fi
        done
        hold=
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
        run want 1 "" $c "$log"
        run got 3 1 $c "$log"
        if cmp -s "$tmp/want.out" "$tmp/got.out" && cmp -s "$tmp/want.err" "$tmp/got.err" &&
           cmp -s "$tmp/want.rc" "$tmp/got.rc"; then ok; else bad "$c -j 3: $log"; fi
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
check "all -j 2: every analysis read in ranges, no sequential pass ($line)" inranges "$line"
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
# the analyses that do not merge: their records held by the ranges and
# replayed, or (too many to hold) read beside the workers
for c in gc heap "html -o $tmp/p.html"; do
    # shellcheck disable=SC2086
    line=$(EVPROF_TEST_JOBS_NOTE=1 EVPROF_TEST_CHUNK_BYTES=1 "$evprof" $c -j 2 \
           "$d/ghc-9.0.2/nfib-hc.eventlog" 2>&1 >/dev/null | grep '^evprof: test:')
    check "$c -j 2: every analysis read in ranges, no sequential pass ($line)" inranges "$line"
done
held=$(EVPROF_TEST_HOLD_BYTES=1 EVPROF_TEST_JOBS_NOTE=1 EVPROF_TEST_CHUNK_BYTES=1 "$evprof" heap -j 2 \
       "$d/ghc-9.0.2/nfib-hc.eventlog" 2>&1 >"$tmp/hp2")
check "heap -j 2, nothing can be held: read beside the workers ($held)" \
    grep -q "too many records to hold" <<<"$held"
"$evprof" heap -j 1 "$d/ghc-9.0.2/nfib-hc.eventlog" >"$tmp/hp1" 2>&1
check "heap -j 2, nothing can be held: the same profile" cmp -s "$tmp/hp1" "$tmp/hp2"
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
