#!/usr/bin/env bash
# `evprof gc` from the command line: GHC's own +RTS -s lines of the same
# run appear verbatim in the text, the JSON is strict and carries GHC's
# numbers, the whole-run window is the plain summary, atomic -o, stdin,
# usage errors, a damaged log, and a log without GC events (+RTS -l-a).
#
# Usage: tests/cli/gc.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
data=tests/data/gc
corpus=tests/data/ghc-9.0.2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

runs="$corpus/nfib-s $corpus/nfib-np-N2-s $data/alloc $data/tiny-A64k $data/pargc-N2
      $data/pargc-N2-G3-qg1 $data/sparks-N2"

for run in $runs; do
    stats=$run.stats
    "$evprof" gc "$run.eventlog" >"$tmp/out" 2>"$tmp/err"
    check "$run: exit 0" [ $? -eq 0 ]
    check "$run: nothing on stderr" [ ! -s "$tmp/err" ]
    # the lines the events determine exactly, as GHC printed them
    grep -E 'bytes allocated in the heap|bytes copied during GC|bytes maximum residency|bytes maximum slop|Parallel GC work balance|TASKS:|SPARKS:' \
        "$stats" >"$tmp/want"
    while IFS= read -r line; do
        check "$run: GHC's line '$line'" grep -qxF -- "$line" "$tmp/out"
    done <"$tmp/want"
    # memory in use up to the fragmentation, a lower bound on GHC 9.0 (">="):
    # GHC's own figure on these runs; the generation rows but the CPU column
    mem=$(grep 'MiB total memory in use' "$stats" | sed 's/ (.*//; s/^ *//')
    check "$run: '>= $mem'" grep -qE -- "^ *>= $mem \(n/a MB lost due to fragmentation\)" "$tmp/out"
    grep '^  Gen ' "$stats" | awk '{ $7 = "n/a"; print }' >"$tmp/gens-want"
    grep '^  Gen ' "$tmp/out" | awk '{ $1 = $1; print }' >"$tmp/gens-got"
    check "$run: generation rows" cmp -s "$tmp/gens-want" "$tmp/gens-got"
    # GHC's Alloc rate is per mutator CPU second: n/a, never GHC's figure;
    # evprof's wall-clock rate on its own line
    check "$run: GHC's Alloc rate n/a" grep -qxF -- "  Alloc rate    n/a bytes per MUT second" "$tmp/out"
    check "$run: wall-clock Alloc rate" grep -qE -- "^  Alloc rate \(wall clock\) +[0-9,]+ bytes per elapsed MUT second \(INIT and EXIT included\)$" "$tmp/out"
    gcel=$(sed -n 's/^  GC      time .*(\(.*\) elapsed)$/\1/p' "$stats")
    check "$run: GC elapsed $gcel" grep -qF -- "  GC      time       n/a  ($gcel elapsed)" "$tmp/out"

    # --format json: strict, and GHC's numbers
    "$evprof" gc --format json "$run.eventlog" >"$tmp/out.json"
    check "$run: json exit 0" [ $? -eq 0 ]
    "$PYTHON" - "$tmp/out.json" "$stats" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))            # strict: raises on invalid JSON
s = open(sys.argv[2]).read()
num = lambda pat: int(re.search(r"([\d,]+) " + pat, s).group(1).replace(",", ""))
assert d["allocated_bytes"] == num("bytes allocated in the heap")
assert d["copied_bytes"] == num("bytes copied during GC")
assert d["max_slop_bytes"] == num("bytes maximum slop")
m = re.search(r"([\d,]+) bytes maximum residency \((\d+) sample", s)
if m:
    assert d["max_live_bytes"] == int(m.group(1).replace(",", ""))
    assert d["major_gcs"] == int(m.group(2))
assert d["max_mem_in_use_bytes"] // 2**20 == num("MiB total memory in use")
assert d["max_mem_in_use_lower_bound"] is True      # GHC 9.0: no MEM_RETURN
gens = re.findall(r"Gen\s+(\d+)\s+(\d+) colls,\s+(\d+) par", s)
assert [(g["collections"], g["par_collections"]) for g in d["generations"]] == \
       [(int(c), int(p)) for _, c, p in gens]
b = re.search(r"work balance: ([\d.]+)%", s)
assert (b is None and d["work_balance"] == 0) or "%.2f" % (d["work_balance"] * 100) == b.group(1)
sp = re.search(r"SPARKS: (\d+) \((\d+) converted, (\d+) overflowed, (\d+) dud, (\d+) GC'd, (\d+) fizzled", s)
if sp:
    x = d["sparks"]
    assert [x["total"], x["converted"], x["overflowed"], x["dud"], x["gcd"], x["fizzled"]] == \
           [int(v) for v in sp.groups()]
assert d["cpu_ns"] is None and d["init_elapsed_ns"] is None
# GHC's Alloc rate (per mutator CPU second) and fragmentation: null;
# evprof's rate per elapsed mutator second under its own key
assert d["alloc_rate"] is None and d["ghc_fragmentation_bytes"] is None
assert d["alloc_rate_wall_clock"] == int(d["allocated_bytes"] / (d["mutator_elapsed_ns"] / 1e9))
assert d["max_current_fragmentation_bytes"] >= 0
assert d["window"]["whole_run"] is True
assert sum(c["allocated_bytes"] for c in d["capabilities"]) == d["allocated_bytes"]
PY
    check "$run: json strict, GHC's numbers" [ $? -eq 0 ]

    # the whole-run window is the plain summary
    "$evprof" gc --from 0 --to 100000 "$run.eventlog" >"$tmp/whole"
    check "$run: whole window == plain" cmp -s "$tmp/out" "$tmp/whole"
done

# the non-moving collector and TASKS (issue 36; tests/data/ghc-9.10/README-gc.md):
# runs of one program under GHC 9.10, 9.6 and 9.0 with --nonmoving-gc, and
# under 9.10 copying. GHC's syncs line verbatim; its concurrent line and
# CONC GC time with the CPU column n/a and the elapsed ones as lower bounds
# (">="; n/a on GHC 9.0, whose figure there is CPU time); TASKS verbatim
# but where the collector's mark thread took bound tasks out of the log's
# sight (">="); the JSON carries the same; -j 3 reads the same summary.
g10=tests/data/ghc-9.10
for run in $g10/nonmoving-N2-s tests/data/ghc-9.6/nonmoving-N2-s $data/nonmoving-N2 \
           $g10/copying-N2-s; do
    stats=$run.stats
    "$evprof" gc "$run.eventlog" >"$tmp/out" 2>"$tmp/err"
    check "$run: exit 0" [ $? -eq 0 ]
    check "$run: nothing on stderr" [ ! -s "$tmp/err" ]
    if grep -q ' syncs, ' "$stats"; then
        check "$run: GHC's syncs line" grep -qxF -- "$(grep ' syncs, ' "$stats")" "$tmp/out"
        if grep -q 'GHC-9.0' "$run.eventlog"; then
            check "$run: concurrent n/a (GHC 9.0)" grep -qxE -- \
                "  Gen  1      concurrent, +n/a +n/a +n/a +n/a" "$tmp/out"
            check "$run: CONC GC time n/a" grep -qxF -- "  CONC GC time       n/a  (     n/a elapsed)" "$tmp/out"
        else
            check "$run: concurrent, lower bounds" grep -qxE -- \
                "  Gen  1      concurrent, +n/a +>=[0-9.]+s +>=[0-9.]+s +>=[0-9.]+s" "$tmp/out"
            ours=$(sed -n 's/^  CONC GC time  *n\/a  (>=\([0-9.]*\)s elapsed)$/\1/p' "$tmp/out")
            ghcs=$(sed -n 's/^  CONC GC time .*( *\([0-9.]*\)s elapsed)$/\1/p' "$stats")
            check "$run: CONC GC time >=$ours, GHC's $ghcs" \
                "$PYTHON" -c 'import sys; o, g = map(float, sys.argv[1:]); sys.exit(not 0.98 * g <= o <= g)' \
                "${ours:-0}" "${ghcs:-0}"
        fi
        tail=$(sed -n 's/^  TASKS: [0-9]* ([0-9]* bound, //p' "$stats")
        workers=$(sed -n 's/^  TASKS: .*(\([0-9]*\) total).*/\1/p' "$stats")
        check "$run: TASKS, bound ones a lower bound" grep -qxF -- \
            "  TASKS: >= $((workers + 1)) (>= 1 bound, $tail" "$tmp/out"
    else
        check "$run: no non-moving lines" eval '! grep -q " syncs, \|concurrent,\|CONC GC" "$tmp/out"'
        check "$run: GHC's TASKS line" grep -qxF -- "$(grep 'TASKS:' "$stats")" "$tmp/out"
    fi
    "$evprof" gc --format json "$run.eventlog" >"$tmp/out.json"
    "$PYTHON" - "$tmp/out.json" "$stats" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
s = open(sys.argv[2]).read()
t = d["tasks"]
m = re.search(r"TASKS: (\d+) \((\d+) bound, (\d+) peak workers \((\d+) total\), using -N(\d+)", s)
tasks, bound, peak, workers, n = map(int, m.groups())
assert (t["peak_worker_count"], t["worker_count"], t["n_capabilities"]) == (peak, workers, n)
m = re.search(r"Gen  1 +(\d+) syncs, +([\d.]+)s +([\d.]+)s +([\d.]+)s", s)
nm = d["nonmoving"]
if m is None:
    assert nm is None and (t["task_count"], t["bound_task_count"]) == (tasks, bound)
    assert t["bound_task_count_lower_bound"] is False
else:
    assert t["bound_task_count_lower_bound"] is True and t["bound_task_count"] < bound
    assert nm["syncs"] == int(m.group(1))
    assert "%.3f" % (nm["sync_elapsed_ns"] / 1e9) == m.group(2)
    assert "%.4f" % (nm["sync_avg_pause_ns"] / 1e9) == m.group(3)
    assert "%.4f" % (nm["sync_max_elapsed_ns"] / 1e9) == m.group(4)
    assert nm["concurrent_cpu_ns"] is None
    c = re.search(r"concurrent, +[\d.]+s +([\d.]+)s +[\d.]+s +([\d.]+)s", s)
    if d["rts"].startswith("GHC-9.0"):
        assert nm["concurrent_elapsed_ns"] is None and nm["concurrent_elapsed_lower_bound"] is False
    else:
        assert nm["concurrent_elapsed_lower_bound"] is True
        assert nm["concurrent_elapsed_ns"] / 1e9 <= float(c.group(1)) + 0.0005
        assert nm["concurrent_max_elapsed_ns"] / 1e9 <= float(c.group(2)) + 0.00005
PY
    check "$run: json, GHC's numbers" [ $? -eq 0 ]
    # the parallel read merges the collector's and the tasks' events: a
    # copy in 4 KiB blocks, read in ranges of 8 KiB
    "$PYTHON" tests/support/reblock.py 4096 "$run.eventlog" "$tmp/4k.eventlog"
    for f in text json; do
        "$evprof" gc -f $f -j 1 "$tmp/4k.eventlog" >"$tmp/j1"
        EVPROF_TEST_CHUNK_BYTES=8192 "$evprof" gc -f $f -j 3 "$tmp/4k.eventlog" >"$tmp/j3"
        check "$run: gc -f $f -j 3 == -j 1" cmp -s "$tmp/j1" "$tmp/j3"
    done
    check "$run: the 4 KiB copy's summary is the log's" cmp -s "$tmp/out" <("$evprof" gc "$tmp/4k.eventlog")
done

# total memory in use on a leaking pipeline (tests/data/newuser, issue 27):
# GHC's figure is its peak of megablocks, reached inside a major
# collection; GHC 9.0's HEAP_SIZE after each collection stays below it (a
# lower bound, said), GHC 9.6's MEM_RETURN carries it (GHC's own figure)
nu=tests/data/newuser
ghc_mib() { sed -n 's/^ *\([0-9]*\) MiB total memory in use.*/\1/p' "$1"; }
"$evprof" gc "$nu/leak.eventlog" >"$tmp/leak" 2>"$tmp/err"
g=$(ghc_mib "$nu/leak.stats")
got=$(sed -n 's/^ *>= \([0-9]*\) MiB total memory in use.*/\1/p' "$tmp/leak")
check "leak (9.0): a lower bound, said with >= ($got, GHC $g)" [ -n "$got" ] && [ "$got" -le "$g" ]
check "leak (9.0): here below GHC's peak" [ "$got" -lt "$g" ]
check "leak (9.0): the note says why" grep -q "a lower bound" "$tmp/leak"
"$evprof" gc --format json "$nu/leak.eventlog" | "$PYTHON" -c '
import json, sys
d = json.load(sys.stdin)
assert d["max_mem_in_use_lower_bound"] is True and d["max_mem_in_use_bytes"] // 2**20 == int(sys.argv[1])' "$got"
check "leak (9.0): JSON says lower bound" [ $? -eq 0 ]
"$evprof" gc "$nu/leak-9.6.eventlog" >"$tmp/leak96" 2>"$tmp/err"
g=$(ghc_mib "$nu/leak-9.6.stats")
check "leak (9.6): GHC's $g MiB, exactly" grep -qE "^ +$g MiB total memory in use" "$tmp/leak96"
check "leak (9.6): no bound, no note" eval '! grep -q ">=\|lower bound" "$tmp/leak96"'
"$evprof" gc --format json "$nu/leak-9.6.eventlog" | "$PYTHON" -c '
import json, sys
d = json.load(sys.stdin)
assert d["max_mem_in_use_lower_bound"] is False and d["max_mem_in_use_bytes"] // 2**20 == int(sys.argv[1])' "$g"
check "leak (9.6): JSON exact" [ $? -eq 0 ]

# a window: says so, and its allocation is less than the run's
"$evprof" gc --from 0.05 --to 0.1 "$data/pargc-N2.eventlog" >"$tmp/win"
check "window: exit 0" [ $? -eq 0 ]
check "window: header" grep -q '^  Window: 0.050000s to 0.100000s of a ' "$tmp/win"
whole=$(grep 'bytes allocated' "$data/pargc-N2.stats" | tr -dc 0-9)
part=$("$evprof" gc --format json --from 0.05 --to 0.1 "$data/pargc-N2.eventlog" |
       "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["allocated_bytes"])')
check "window: allocation $part < $whole" [ "$part" -gt 0 -a "$part" -lt "$whole" ]
# --cap: that capability's row only
"$evprof" gc --cap 1 "$data/pargc-N2.eventlog" >"$tmp/cap1"
check "--cap 1: exit 0" [ $? -eq 0 ]
check "--cap 1: one row" [ "$(grep -cE '^    [0-9] ' "$tmp/cap1")" -eq 1 ]
check "--cap 1: header" grep -q 'capability 1$' "$tmp/cap1"
# a capability the log lacks selects nothing: a usage error (issue 27)
"$evprof" gc --cap 7 "$data/pargc-N2.eventlog" >"$tmp/out" 2>"$tmp/err"
check "--cap 7: exit 2" [ $? -eq 2 ]
check "--cap 7: says what the log has" grep -q -- "--cap 7 selects nothing: .*2 capabilities (0, 1)" "$tmp/err"
check "--cap 7: no summary" [ ! -s "$tmp/out" ]

# standard input and -o
"$evprof" gc - <"$data/alloc.eventlog" >"$tmp/stdin"
"$evprof" gc "$data/alloc.eventlog" >"$tmp/file"
check "stdin == file" cmp -s "$tmp/stdin" "$tmp/file"
"$evprof" gc "$data/alloc.eventlog" -o "$tmp/o.txt" >"$tmp/stdout"
check "-o exit 0" [ $? -eq 0 ]
check "-o: stdout empty" [ ! -s "$tmp/stdout" ]
check "-o: same text" cmp -s "$tmp/o.txt" "$tmp/file"
check "-o: no temporary left" [ "$(ls "$tmp" | grep -c evprof-)" -eq 0 ]
"$evprof" gc "$data/alloc.eventlog" -o "$tmp/no/such/dir/x" 2>"$tmp/err"
check "-o missing dir: exit 1" [ $? -eq 1 ]
if [ -w /dev/full ]; then
    "$evprof" gc "$data/alloc.eventlog" >/dev/full 2>/dev/null
    check "write error: exit 1" [ $? -eq 1 ]
fi

# a log without GC events: exit 1, nothing on stdout, the flags that add them
"$evprof" gc "$data/alloc-l-a.eventlog" >"$tmp/out" 2>"$tmp/err"
check "-l-a: exit 1" [ $? -eq 1 ]
check "-l-a: no summary" [ ! -s "$tmp/out" ]
want="evprof: $data/alloc-l-a.eventlog: no GC events (GC_START/GC_END, GC_STATS_GHC, HEAP_ALLOCATED, HEAP_SIZE, HEAP_LIVE): run the program with +RTS -l, whose default event classes include the GC class g (-l-a and -l-g turn it off; -l-ag keeps only it) (see 'evprof info $data/alloc-l-a.eventlog')"
check "-l-a: the message" [ "$(cat "$tmp/err")" = "$want" ]

# a truncated log: the summary of what is there, the error, exit 1
f="$data/pargc-N2.eventlog"; head -c $(( $(wc -c <"$f") / 2 + 3 )) "$f" >"$tmp/cut.eventlog"
"$evprof" gc "$tmp/cut.eventlog" >"$tmp/out" 2>"$tmp/err"
check "truncated: exit 1" [ $? -eq 1 ]
check "truncated: says so" grep -q "truncated at byte" "$tmp/err"
check "truncated: still a summary" grep -q "bytes allocated in the heap" "$tmp/out"
"$evprof" gc "$tmp/does-not-exist" >/dev/null 2>"$tmp/err"
check "missing file: exit 1" [ $? -eq 1 ]
printf 'not an eventlog at all' >"$tmp/junk"
"$evprof" gc "$tmp/junk" >"$tmp/out" 2>/dev/null
check "junk: exit 1" [ $? -eq 1 ]
check "junk: no summary" [ ! -s "$tmp/out" ]

# usage errors exit 2
for args in "--format xml" "--from x" "--to -1" "--from 2 --to 1" "--cap z" "--bogus"; do
    # shellcheck disable=SC2086
    "$evprof" gc $args "$data/alloc.eventlog" >/dev/null 2>&1
    check "gc $args: exit 2" [ $? -eq 2 ]
done
"$evprof" gc >/dev/null 2>&1
check "no file: exit 2" [ $? -eq 2 ]
"$evprof" gc "$data/alloc.eventlog" "$data/alloc.eventlog" >/dev/null 2>&1
check "two files: exit 2" [ $? -eq 2 ]
"$evprof" gc --help >"$tmp/help"
check "--help: exit 0" [ $? -eq 0 ]
check "--help: names the window options" grep -q -- "--from" "$tmp/help"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
