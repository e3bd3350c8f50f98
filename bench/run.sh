#!/usr/bin/env bash
# bench/run.sh: evprof's benchmark on every log shape of issue 14, next to
# its yardsticks (docs/BENCH.md).
#
#   bench/run.sh [SHAPE...]        default: every shape
#   BENCH_FULL=1 bench/run.sh      the full sizes (a GB or two each; slow)
#
# Builds a Release tree in build-bench/, makes the logs of the shapes
# below into bench/out/ (kept for later runs; git ignores them), warms the
# page cache, then runs every tool on every log BENCH_RUNS times (default
# 3; the ghc-events fold once on logs over 200 MB) and prints one row per
# shape and tool: best CPU and wall seconds, MB/s, peak RSS (/usr/bin/time -v,
# largest of the runs), time relative to the naive hash and speed-up over
# the ghc-events fold; then the issue's goals with PASS or FAIL. The rows
# also go to build-bench/bench-results.tsv.
#
# Environment: BENCH_FULL (1: full sizes), BENCH_RUNS (runs per
# measurement), BENCH_TOOLS (a subset of the tools, e.g. "report"),
# BENCH_OUTPUTS (0: skip the rows of all and html beside report),
# BENCH_EVPROF (another evprof binary to measure, e.g. a build of main),
# BENCH_JOBS (the N of the -j N rows; default the CPUs online),
# BENCH_COMMANDS (0: skip the rows of every command at -j 1 and -j N),
# BENCH_TEXT (0: skip the writers' rows and the goals of issue 29).
set -euo pipefail

cd "$(dirname "$0")/.."
BUILD=build-bench
OUT=bench/out
RUNS=${BENCH_RUNS:-3}
FULL=${BENCH_FULL:-0}
JOBS=${BENCH_JOBS:-$(nproc)}
RESULTS=$BUILD/bench-results.tsv

die() { echo "bench/run.sh: $*" >&2; exit 1; }

# The shapes: name|quick size|full size|how the log is made. `gen ARGS`:
# bench/gen_eventlog with ARGS, SIZE_MB first; `ghc`: the real program of
# bench/ghc/, SIZE its iterations (about 160 bytes of log each).
SHAPES=(
    # real -fprof-auto program, ~1000 cost centres, mean depth 20, 10 us ticks
    "hard|60000|500000|ghc"
    # 1 GB, 10M samples, ~2.3M distinct stacks: a quarter of the samples are
    # new stacks, the capability's previous one with 1..2 inner frames new
    "synth1g|64|1024|gen --fresh 25 --fresh-frames 2 --sample-share 100 --min-depth 17 --depth 22"
    # stacks drawn again and again from a pool of 10000 (the generator's default)
    "repeat|100|2048|gen"
    # hostile: 10M cost-centre definitions (1M quick), then a few MB of samples
    "hostile-ccs|80|800|gen --ccs QUICK:1000000:FULL:10000000 --sample-share 100"
    # hostile: about a million samples, every stack new
    "hostile-fresh|10|100|gen --fresh 100 --sample-share 100 --min-depth 17 --depth 22"
    # hostile: 80,000 samples of depth 255 (cut stacks), every stack new
    "hostile-deep|8|84|gen --fresh 100 --sample-share 100 --min-depth 255 --depth 255"
    # a heap profile (+RTS -hc) beside the samples: a census of 500 stacks every 10 ticks
    "heapy|64|512|gen --heap 500 --sample-share 80"
)

# The tools: name|command ({} is the log). The first three are yardsticks.
TOOLS=(
    "walk|$BUILD/bench/walk {}"
    "naive_hash|$BUILD/bench/naive_hash {}"
    "ghc-events-fold|$BUILD/ghc-events-fold/ghc-events-fold {} +RTS -A64m -RTS"
    # -j 1: one thread (the goals below use it); -j N: the parallel read on
    # N threads (BENCH_JOBS, default every CPU): wall time is what it improves
    "report|${BENCH_EVPROF:-$BUILD/evprof} report --jobs 1 {}"
    "report-j$JOBS|${BENCH_EVPROF:-$BUILD/evprof} report --jobs $JOBS {}"
    # the hostile shapes only: under a 256 MiB limit, fit or stop cleanly
    "report-256M|${BENCH_EVPROF:-$BUILD/evprof} report --memory-limit 256M {}"
)

# The issue's goals on peak RSS (MB = 10^6 bytes) and speed.
RSS_LIMIT_MB=256
MEMORY_LIMIT_BYTES=$((256 << 20))   # report-256M: --memory-limit 256M
GOAL_HARD_VS_HASH=3         # report seconds <= 3x the naive hash's
GOAL_HARD_VS_FOLD=5         # report at least 5x faster than the fold
GOAL_REPEAT_MBS=1000        # report >= 1 GB/s on repeating stacks (full size)

[[ -x /usr/bin/time ]] || die "/usr/bin/time is missing (apt-get install time)"
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "bad BENCH_RUNS '$RUNS'"
WANT=("$@")
want_shape() {
    [[ ${#WANT[@]} -eq 0 ]] && return 0
    local w
    for w in "${WANT[@]}"; do [[ $w == "$1" ]] && return 0; done
    return 1
}
for w in "${WANT[@]}"; do
    ok=0
    for s in "${SHAPES[@]}"; do [[ ${s%%|*} == "$w" ]] && ok=1; done
    [[ $ok -eq 1 ]] || die "unknown shape '$w' (shapes: $(printf '%s ' "${SHAPES[@]%%|*}"))"
done
want_tool() {
    [[ -z ${BENCH_TOOLS:-} ]] && return 0
    [[ " $BENCH_TOOLS " == *" $1 "* ]]
}

# ---- build --------------------------------------------------------------
echo "== building Release in $BUILD/" >&2
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null \
    || die "cmake configure failed"
cmake --build "$BUILD" -j2 --target gen_eventlog walk naive_hash >/dev/null \
    || die "building gen_eventlog, walk and naive_hash failed"
if ! cmake --build "$BUILD" -j2 --target evprof >"$BUILD/evprof-build.log" 2>&1; then
    echo "warning: evprof did not build (see $BUILD/evprof-build.log)" >&2
fi
FOLD_NOTE=""
if ! command -v ghc >/dev/null; then
    FOLD_NOTE="ghc is missing (apt-get install ghc libghc-ghc-events-dev)"
elif [[ ! -x $BUILD/ghc-events-fold/ghc-events-fold ||
        bench/ghc-events-fold/Main.hs -nt $BUILD/ghc-events-fold/ghc-events-fold ]]; then
    mkdir -p "$BUILD/ghc-events-fold"
    cp bench/ghc-events-fold/Main.hs "$BUILD/ghc-events-fold/"
    echo "== building the ghc-events fold" >&2
    (cd "$BUILD/ghc-events-fold" && ghc -O2 -rtsopts Main.hs -o ghc-events-fold \
         >build.log 2>&1) ||
        FOLD_NOTE="the ghc-events fold did not build: libghc-ghc-events-dev missing? (see $BUILD/ghc-events-fold/build.log)"
fi
[[ -n $FOLD_NOTE ]] && echo "warning: $FOLD_NOTE; its rows are skipped" >&2

# ---- logs ---------------------------------------------------------------
mkdir -p "$OUT"
mode=$([[ $FULL == 1 ]] && echo full || echo quick)
declare -A LOG
for spec in "${SHAPES[@]}"; do
    IFS='|' read -r name quick full how <<<"$spec"
    want_shape "$name" || continue
    size=$([[ $FULL == 1 ]] && echo "$full" || echo "$quick")
    # QUICK:a:FULL:b picks a value by mode
    args=$(sed -E "s/QUICK:([^: ]+):FULL:([^ ]+)/$([[ $FULL == 1 ]] && echo '\2' || echo '\1')/g" <<<"${how#gen}")
    f="$OUT/$name-$mode.eventlog"
    if [[ $how == ghc ]]; then
        if [[ ! -f $f ]]; then
            rc=0
            bash bench/ghc/make_log.sh "$BUILD/ghc-hard" "$f" "$size" || rc=$?
            if [[ $rc -ne 0 ]]; then
                echo "warning: no $name log (make_log.sh exit $rc): its rows are skipped" >&2
                continue
            fi
        fi
    elif [[ ! -f $f ]]; then
        echo "== generating $f" >&2
        # shellcheck disable=SC2086
        "$BUILD/bench/gen_eventlog" "$f" "$size" $args >&2 || die "cannot generate $f"
    fi
    LOG[$name]=$f
done

# ---- measuring ----------------------------------------------------------
# measure FILE TEMPLATE RUNS: sets BEST_S (best CPU seconds, user + system),
# BEST_WALL (best wall seconds), PEAK_KB, STATUS (ok, missing, or the
# failure).
measure() {
    local file=$1 tpl=$2 runs=$3 words argv=() w run t0 t1 rc rss cpu tv tt err
    local TIMEFORMAT='%3U %3S'      # CPU seconds of the run, to the ms
    read -r -a words <<<"$tpl"
    for w in "${words[@]}"; do
        if [[ $w == "{}" ]]; then argv+=("$file"); else argv+=("$w"); fi
    done
    BEST_S="" BEST_WALL="" PEAK_KB=0 STATUS=ok ERRLINE=""
    if [[ ! -x ${argv[0]} ]]; then
        STATUS="missing"
        return
    fi
    tv=$(mktemp) tt=$(mktemp) err=$(mktemp)
    for ((run = 0; run < runs; run++)); do
        t0=$(date +%s%N)
        rc=0
        { time /usr/bin/time -v -o "$tv" "${argv[@]}" >/dev/null 2>"$err"; } 2>"$tt" || rc=$?
        t1=$(date +%s%N)
        rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): *//p' "$tv")
        cpu=$(awk '{ s = $1 + $2 } END { printf "%.3f", s }' "$tt")
        [[ -n $rss && $rss -gt $PEAK_KB ]] && PEAK_KB=$rss
        if [[ $rc -ne 0 ]]; then
            ERRLINE=$(grep -v '^Command' "$err" | head -n 1)
            STATUS="exit $rc: $(grep -v '^Command' "$err" | head -n 1 | head -c 100)"
            break
        fi
        BEST_S=$(awk -v a="$BEST_S" -v s="$cpu" \
                     'BEGIN { if (a != "" && a < s) s = a; printf "%.3f", s }')
        BEST_WALL=$(awk -v a="$BEST_WALL" -v b="$((t1 - t0))" \
                     'BEGIN { s = b / 1e9; if (a != "" && a < s) s = a; printf "%.3f", s }')
    done
    rm -f "$tv" "$tt" "$err"
}

declare -A SEC WALL RSS STAT BYTES ERR
printf 'shape\tsize_MB\ttool\tcpu_s\twall_s\tMB_per_s\tpeak_MB\tstatus\n' >"$RESULTS"
printf '\n%-14s %8s  %-15s %8s %8s %8s %8s %7s %7s\n' \
    "shape" "size_MB" "tool" "cpu_s" "wall_s" "MB/s" "peak_MB" "t/hash" "fold/t"
for spec in "${SHAPES[@]}"; do
    name=${spec%%|*}
    [[ -n ${LOG[$name]:-} ]] || continue
    f=${LOG[$name]}
    bytes=$(stat -c %s "$f")
    BYTES[$name]=$bytes
    cat "$f" >/dev/null                  # warm the page cache
    for t in "${TOOLS[@]}"; do
        tool=${t%%|*} tpl=${t#*|}
        want_tool "$tool" || continue
        [[ $tool == report-256M && $name != hostile-* ]] && continue
        runs=$RUNS
        if [[ $tool == ghc-events-fold ]]; then
            if [[ -n $FOLD_NOTE ]]; then
                STAT[$name,$tool]="skipped"
                printf '%-14s %8.1f  %-15s %s\n' "$name" "$(awk -v b="$bytes" 'BEGIN{print b/1e6}')" \
                    "$tool" "skipped: $FOLD_NOTE"
                continue
            fi
            [[ $bytes -gt 200000000 ]] && runs=1
        fi
        measure "$f" "$tpl" "$runs"
        SEC[$name,$tool]=$BEST_S WALL[$name,$tool]=$BEST_WALL
        RSS[$name,$tool]=$((PEAK_KB * 1024)) STAT[$name,$tool]=$STATUS
        ERR[$name,$tool]=$ERRLINE
        read -r mb mbs peak vs_hash vs_fold < <(awk -v b="$bytes" -v t="$BEST_S" -v k="$PEAK_KB" \
            -v h="${SEC[$name,naive_hash]:-}" -v g="${SEC[$name,ghc-events-fold]:-}" 'BEGIN {
                printf "%.1f %s %.1f %s %s\n", b / 1e6,
                    (t > 0 ? sprintf("%.1f", b / 1e6 / t) : "-"), k * 1024 / 1e6,
                    (t > 0 && h > 0) ? sprintf("%.2f", t / h) : "-",
                    (t > 0 && g > 0) ? sprintf("%.2f", g / t) : "-" }')
        if [[ $STATUS == ok ]]; then
            printf '%-14s %8s  %-15s %8s %8s %8s %8s %7s %7s\n' \
                "$name" "$mb" "$tool" "$BEST_S" "$BEST_WALL" "$mbs" "$peak" "$vs_hash" "$vs_fold"
        else
            printf '%-14s %8s  %-15s %s (peak %s MB)\n' "$name" "$mb" "$tool" "$STATUS" "$peak"
        fi
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$mb" "$tool" "${BEST_S:--}" \
            "${BEST_WALL:--}" "$mbs" \
            "$peak" "$STATUS" >>"$RESULTS"
    done
done

# ---- goals --------------------------------------------------------------
echo
echo "Goals (issue 14), $mode sizes:"
fails=0
goal() {    # goal TEXT VERDICT DETAIL
    printf '  %-4s  %-62s %s\n' "$2" "$1" "$3"
    [[ $2 == FAIL ]] && fails=$((fails + 1))
    return 0
}
# ratio_check TIMES LABEL TEXT SHAPE A B MAX: PASS when TIMES[A] <= MAX *
# TIMES[B] (TIMES: the name of the array, SEC or WALL)
ratio_check() {
    local -n times=$1
    local label=$2 a=${times[$4,$5]:-} b=${times[$4,$6]:-}
    if [[ ${STAT[$4,$5]:-} != ok || ${STAT[$4,$6]:-} != ok || -z $a || -z $b ]]; then
        goal "$3" "-" "not measured"
        return
    fi
    read -r v d < <(awk -v a="$a" -v b="$b" -v m="$7" \
        'BEGIN { printf "%s %.2f\n", (a <= m * b) ? "PASS" : "FAIL", a / b }')
    goal "$3" "$v" "($label$5 $a s = $d x $6 $b s)"
}
ratio_goal() { ratio_check SEC "" "$@"; }    # ratio_goal TEXT SHAPE A B MAX, in CPU time
# the same in wall time, evprof as users run it (-j N, the default: every
# CPU) against the one-thread yardstick
wall_goal() { ratio_check WALL "wall: " "$@"; }
if [[ -n ${LOG[hard]:-} ]]; then
    ratio_goal "hard: report <= ${GOAL_HARD_VS_HASH}x the naive hash" hard report naive_hash "$GOAL_HARD_VS_HASH"
    wall_goal "hard: report -j $JOBS <= ${GOAL_HARD_VS_HASH}x the naive hash, wall" hard \
        "report-j$JOBS" naive_hash "$GOAL_HARD_VS_HASH"
    ratio_goal "hard: report >= ${GOAL_HARD_VS_FOLD}x faster than the ghc-events fold" hard report \
        ghc-events-fold "$(awk -v g="$GOAL_HARD_VS_FOLD" 'BEGIN { print 1 / g }')"
fi
if [[ -n ${LOG[synth1g]:-} ]]; then
    ratio_goal "synth1g: report no slower than the naive hash" synth1g report naive_hash 1
    wall_goal "synth1g: report -j $JOBS no slower than the naive hash, wall" synth1g \
        "report-j$JOBS" naive_hash 1
fi
if [[ -n ${LOG[repeat]:-} ]]; then
    s=${SEC[repeat,report]:-}
    if [[ ${STAT[repeat,report]:-} != ok || -z $s ]]; then
        goal "repeat: report >= $GOAL_REPEAT_MBS MB/s" "-" "not measured"
    else
        mbs=$(awk -v b="${BYTES[repeat]}" -v t="$s" 'BEGIN { printf "%.0f", b / 1e6 / t }')
        if [[ $FULL != 1 ]]; then
            goal "repeat: report >= $GOAL_REPEAT_MBS MB/s" "-" "($mbs MB/s; checked at full size only)"
        else
            goal "repeat: report >= $GOAL_REPEAT_MBS MB/s" \
                "$([[ $mbs -ge $GOAL_REPEAT_MBS ]] && echo PASS || echo FAIL)" "($mbs MB/s)"
        fi
    fi
fi
for spec in "${SHAPES[@]}"; do
    name=${spec%%|*}
    if [[ $name == hostile-* && -n ${LOG[$name]:-} && -n ${STAT[$name,report-256M]:-} ]]; then
        # the hostile shapes: report --memory-limit 256M fits in 256 MB, or
        # stops cleanly (exit 1, the memory-limit message) within 256 MiB
        st=${STAT[$name,report-256M]} rss=${RSS[$name,report-256M]}
        mb=$(awk -v r="$rss" 'BEGIN { printf "%.0f", r / 1e6 }')
        text="$name: report --memory-limit 256M fits or stops cleanly"
        if [[ $st == ok ]]; then
            goal "$text" "$([[ $mb -le $RSS_LIMIT_MB ]] && echo PASS || echo FAIL)" "(fits: $mb MB)"
        elif [[ $st == "exit 1"* && ${ERR[$name,report-256M]} == *"the memory limit (256 MiB, --memory-limit) is reached"* ]]; then
            goal "$text" "$([[ $rss -le $MEMORY_LIMIT_BYTES ]] && echo PASS || echo FAIL)" \
                "(stopped: exit 1 with the message, peak $mb MB = $((rss >> 20)) MiB)"
        else
            goal "$text" FAIL "($st, $mb MB)"
        fi
        continue
    fi
    [[ -n ${LOG[$name]:-} && -n ${STAT[$name,report]:-} ]] || continue
    st=${STAT[$name,report]} rss=${RSS[$name,report]}
    mb=$(awk -v r="$rss" 'BEGIN { printf "%.0f", r / 1e6 }')
    if [[ $st == ok || $st == "exit 1"* ]]; then
        v=$([[ $mb -le $RSS_LIMIT_MB ]] && echo PASS || echo FAIL)
        goal "$name: report peak RSS <= $RSS_LIMIT_MB MB (or a clean stop)" "$v" \
            "($mb MB$([[ $st != ok ]] && echo ", stopped: $st"))"
    else
        goal "$name: report peak RSS <= $RSS_LIMIT_MB MB (or a clean stop)" FAIL "($st, $mb MB)"
    fi
done
# ---- all and html beside report (issues 12 and 17) ------------------------
# `evprof all -d DIR` (every output of one read) and `evprof html -o PAGE`
# next to `evprof report` on the same log, each measured like the tools
# above (best of BENCH_RUNS: CPU = user + system, wall). Goals: all and
# html within 1.3x report in CPU and in wall time, the synth1g page under
# 10 MB (the ratios are goals at full size only: on the quick logs the
# call graph's fixed layout time outweighs the read). BENCH_OUTPUTS=0
# skips the block; the outputs go to $BUILD/outputs/.
OUTPUT_SHAPES=(hard synth1g repeat)
GOAL_ALL_VS_REPORT=1.3
GOAL_HTML_VS_REPORT=1.3
GOAL_PAGE_MB=10
outputs_bench() {
    local evprof=${BENCH_EVPROF:-$BUILD/evprof} dir=$BUILD/outputs name f t c w
    local -A CPU WALL PEAK OK
    [[ ${BENCH_OUTPUTS:-1} == 0 ]] && return
    mkdir -p "$dir"
    echo
    echo "all and html beside report (issues 12 and 17):"
    printf '%-14s %-8s %8s %8s %8s %8s %8s %9s\n' "shape" "command" "cpu_s" "wall_s" "peak_MB" \
        "cpu/rep" "wall/rep" "page_MB"
    for name in "${OUTPUT_SHAPES[@]}"; do
        [[ -n ${LOG[$name]:-} ]] || continue
        f=${LOG[$name]}
        cat "$f" >/dev/null
        # the call graph's Graphviz layout alone, a part of all and html
        # that report does not have: dot on the DOT evprof prints draws the
        # SVG they write (tests/cli/graph.sh)
        local layout=()
        if command -v dot >/dev/null && "$evprof" graph -f dot "$f" -o "$dir/$name.dot" 2>/dev/null
        then
            layout=(layout)
        fi
        for t in report all html "${layout[@]}"; do
            case $t in
            report) measure "$f" "$evprof report {} -o $dir/$name.prof" "$RUNS" ;;
            all) measure "$f" "$evprof all {} -d $dir/$name-all" "$RUNS" ;;
            html) measure "$f" "$evprof html {} -o $dir/$name.html" "$RUNS" ;;
            layout) measure "$f" "$(command -v dot) -Tsvg $dir/$name.dot -o /dev/null" "$RUNS" ;;
            esac
            CPU[$name,$t]=$BEST_S WALL[$name,$t]=$BEST_WALL PEAK[$name,$t]=$PEAK_KB
            OK[$name,$t]=$STATUS
            local page=-
            [[ $t == html && $STATUS == ok ]] &&
                page=$(awk -v b="$(stat -c %s "$dir/$name.html")" 'BEGIN { printf "%.2f", b / 1e6 }')
            if [[ $STATUS != ok ]]; then
                printf '%-14s %-8s %s\n' "$name" "$t" "$STATUS"
                continue
            fi
            read -r c w < <(awk -v a="$BEST_S" -v b="${CPU[$name,report]}" -v x="$BEST_WALL" \
                -v y="${WALL[$name,report]}" 'BEGIN { printf "%.2f %.2f\n", a / b, x / y }')
            printf '%-14s %-8s %8s %8s %8.1f %8s %8s %9s\n' "$name" "$t" "$BEST_S" "$BEST_WALL" \
                "$(awk -v k="$PEAK_KB" 'BEGIN { print k * 1024 / 1e6 }')" "$c" "$w" "$page"
            printf '%s\t%s\t%s\t%s\t%s\t-\t%s\t%s\n' "$name" "$(awk -v b="${BYTES[$name]}" \
                'BEGIN { printf "%.1f", b / 1e6 }')" "$t" "$BEST_S" "$BEST_WALL" \
                "$(awk -v k="$PEAK_KB" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }')" "$STATUS" \
                >>"$RESULTS"
        done
    done
    echo
    echo "Goals (issues 12 and 17), $mode sizes:"
    for name in "${OUTPUT_SHAPES[@]}"; do
        [[ -n ${LOG[$name]:-} ]] || continue
        for t in all html; do
            local max=$GOAL_ALL_VS_REPORT
            [[ $t == html ]] && max=$GOAL_HTML_VS_REPORT
            if [[ ${OK[$name,$t]:-} != ok || ${OK[$name,report]:-} != ok ]]; then
                goal "$name: $t <= ${max}x report (CPU and wall)" "-" "not measured"
                continue
            fi
            read -r v d e < <(awk -v a="${CPU[$name,$t]}" -v b="${CPU[$name,report]}" \
                -v x="${WALL[$name,$t]}" -v y="${WALL[$name,report]}" -v m="$max" 'BEGIN {
                    printf "%s %.2f %.2f\n", (a <= m * b && x <= m * y) ? "PASS" : "FAIL",
                        a / b, x / y }')
            # at quick sizes the call graph's fixed Graphviz layout (about
            # 0.4 s) outweighs the read: the goals are for large logs
            [[ $FULL != 1 ]] && v="-" e="${e}x; checked at full size only" || e="${e}x"
            [[ ${OK[$name,layout]:-} == ok ]] && e="$e; the layout alone $(awk \
                -v x="${WALL[$name,layout]}" -v y="${WALL[$name,report]}" \
                'BEGIN { printf "%.2f s, %.2fx", x, x / y }') report's wall"
            goal "$name: $t <= ${max}x report (CPU and wall)" "$v" "(CPU ${d}x, wall ${e})"
        done
    done
    if [[ ${OK[synth1g,html]:-} == ok ]]; then
        local bytes
        bytes=$(stat -c %s "$dir/synth1g.html")
        goal "synth1g: html page < $GOAL_PAGE_MB MB" \
            "$(awk -v b="$bytes" -v m="$GOAL_PAGE_MB" 'BEGIN { print b < m * 1e6 ? "PASS" : "FAIL" }')" \
            "($(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1e6 }') MB)"
    fi
}
outputs_bench

# ---- every command at -j 1 and -j N (issue 14) -----------------------------
# Issue 14: folded, graph, gc, all (and heap) "scale the same way" as
# report: each command on hard, synth1g and repeat with --jobs 1 and
# --jobs N, output to files in $BUILD/outputs/ (as users write them), wall
# time (what -j improves), CPU, peak RSS, MB/s of the log by wall time,
# and the speed-up. Goal: -j N no slower than -j 1 (wall, 5% noise). The
# bench logs hold no heap profile: heap is left out (tests/cli/jobs.sh
# checks that its parallel read gives the same output). BENCH_COMMANDS=0
# skips the block.
COMMAND_SHAPES=(hard synth1g repeat heapy)
# the commands of a shape: heap where the log has a heap profile
shape_commands() {
    echo report folded graph gc info all html
    [[ $1 == heapy ]] && echo heap
    return 0
}
commands_bench() {
    local evprof=${BENCH_EVPROF:-$BUILD/evprof} dir=$BUILD/outputs name f c j tpl
    local -A WALLJ
    [[ ${BENCH_COMMANDS:-1} == 0 ]] && return
    mkdir -p "$dir"
    echo
    echo "every command at --jobs 1 and --jobs $JOBS (issue 14):"
    printf '%-10s %-8s %5s %8s %8s %8s %9s %8s
' "shape" "command" "jobs" "cpu_s" "wall_s"         "peak_MB" "MB/s_wall" "speedup"
    for name in "${COMMAND_SHAPES[@]}"; do
        [[ -n ${LOG[$name]:-} ]] || continue
        f=${LOG[$name]}
        cat "$f" >/dev/null
        for c in $(shape_commands "$name"); do
            for j in 1 "$JOBS"; do
                case $c in
                report) tpl="$evprof report --jobs $j {} -o $dir/$name.prof" ;;
                folded) tpl="$evprof folded --jobs $j {} -o $dir/$name.folded" ;;
                graph) tpl="$evprof graph --jobs $j -f svg {} -o $dir/$name.svg" ;;
                gc) tpl="$evprof gc --jobs $j {} -o $dir/$name.gc.txt" ;;
                info) tpl="$evprof info --jobs $j {}" ;;
                heap) tpl="$evprof heap --jobs $j {} -o $dir/$name.hp" ;;
                all) tpl="$evprof all --jobs $j {} -d $dir/$name-all" ;;
                html) tpl="$evprof html --jobs $j {} -o $dir/$name.html" ;;
                esac
                measure "$f" "$tpl" "$RUNS"
                if [[ $STATUS != ok ]]; then
                    printf '%-10s %-8s %5s %s
' "$name" "$c" "$j" "$STATUS"
                    continue
                fi
                WALLJ[$name,$c,$j]=$BEST_WALL
                local sp=-
                [[ $j != 1 && -n ${WALLJ[$name,$c,1]:-} ]] &&
                    sp=$(awk -v a="${WALLJ[$name,$c,1]}" -v b="$BEST_WALL" 'BEGIN { printf "%.2fx", a / b }')
                printf '%-10s %-8s %5s %8s %8s %8.1f %9.0f %8s
' "$name" "$c" "$j" "$BEST_S" \
                    "$BEST_WALL" "$(awk -v k="$PEAK_KB" 'BEGIN { print k * 1024 / 1e6 }')" \
                    "$(awk -v b="${BYTES[$name]}" -v t="$BEST_WALL" 'BEGIN { print (t > 0 ? b / 1e6 / t : 0) }')" "$sp"
                printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" \
                    "$(awk -v b="${BYTES[$name]}" 'BEGIN { printf "%.1f", b / 1e6 }')" "$c-j$j" \
                    "$BEST_S" "$BEST_WALL" "-" \
                    "$(awk -v k="$PEAK_KB" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }')" "$STATUS" \
                    >>"$RESULTS"
            done
        done
    done
    echo
    echo "Goals (issue 14, every command), $mode sizes:"
    for name in "${COMMAND_SHAPES[@]}"; do
        [[ -n ${LOG[$name]:-} ]] || continue
        for c in $(shape_commands "$name"); do
            local a=${WALLJ[$name,$c,1]:-} b=${WALLJ[$name,$c,$JOBS]:-}
            if [[ -z $a || -z $b || $JOBS == 1 ]]; then
                goal "$name: $c --jobs $JOBS no slower than --jobs 1" "-" "not measured"
                continue
            fi
            # 5% or 10 ms of slack: a log under 128 MiB is read on one
            # thread at every -j, and runs of 40 ms differ by a few ms
            read -r v d < <(awk -v a="$a" -v b="$b" \
                'BEGIN { printf "%s %.2f\n", (b <= 1.05 * a || b <= a + 0.01) ? "PASS" : "FAIL", a / b }')
            goal "$name: $c --jobs $JOBS no slower than --jobs 1" "$v" "(wall $a -> $b s: ${d}x)"
        done
    done
}
commands_bench

# ---- text at memory speed (issue 29) ---------------------------------------
# The writers alone (bench/textspeed: each writer's best CPU seconds over
# the same snapshot, bytes to a counting sink), the commands at --jobs 1
# to /dev/null, and the formatting's share of each: writer CPU / command
# CPU. Then `all` beside the single commands whose files it writes (the
# .prof, .prof.json, .folded, .svg, .gc.txt, .info.txt on these logs),
# each as users run it (--jobs default: every CPU; outputs to files in
# $BUILD/outputs/): CPU = user + system of every thread, what the
# machine spends; wall = the best run's. Goals: the text writers at
# >= 500 MB/s; report within 2x `report --max-depth 3` (hard, the real
# deep log); report and folded >= 5x faster than the ghc-events fold
# (hard); info within 2x the minimal walk (CPU, --jobs 1); all <= 0.4x
# the sum of its singles (CPU, and wall as a second line).
# BENCH_TEXT=0 skips the block.
TEXT_SHAPES=(hard synth1g repeat)
GOAL_TEXT_MBS=500
GOAL_REPORT_VS_DEPTH3=2
GOAL_INFO_VS_WALK=2
GOAL_ALL_VS_SINGLES=0.4
text_bench() {
    local evprof=${BENCH_EVPROF:-$BUILD/evprof} dir=$BUILD/outputs name f c w t
    local -A TCPU TWALL TOK WCPU WBYTES
    [[ ${BENCH_TEXT:-1} == 0 ]] && return
    mkdir -p "$dir"
    if ! cmake --build "$BUILD" -j2 --target textspeed >/dev/null 2>&1; then
        echo "warning: bench/textspeed did not build: the writers' rows are skipped" >&2
    fi
    echo
    echo "text at memory speed (issue 29): the writers alone (bench/textspeed, best of $RUNS)"
    printf '%-10s %-12s %12s %8s %9s\n' "shape" "step" "bytes" "cpu_s" "MB/s"
    for name in "${TEXT_SHAPES[@]}"; do
        [[ -n ${LOG[$name]:-} ]] || continue
        f=${LOG[$name]}
        [[ -x $BUILD/bench/textspeed && -z ${BENCH_EVPROF:-} ]] || continue
        while IFS=$'\t' read -r step bytes cpu mbs; do
            WCPU[$name,$step]=$cpu WBYTES[$name,$step]=$bytes
            printf '%-10s %-12s %12s %8s %9s\n' "$name" "$step" "$bytes" "$cpu" "$mbs"
            printf '%s\t%s\t%s\t%s\t-\t%s\t-\tok\n' "$name" \
                "$(awk -v b="${BYTES[$name]}" 'BEGIN { printf "%.1f", b / 1e6 }')" "writer-$step" \
                "$cpu" "$mbs" >>"$RESULTS"
        done < <("$BUILD/bench/textspeed" "$f" "$RUNS")
    done
    echo
    echo "the commands (best of $RUNS; --jobs 1 to /dev/null; all and its singles at the default --jobs, to files):"
    printf '%-10s %-24s %8s %8s %8s %7s\n' "shape" "command" "cpu_s" "wall_s" "peak_MB" "fmt_%"
    for name in "${TEXT_SHAPES[@]}"; do
        [[ -n ${LOG[$name]:-} ]] || continue
        f=${LOG[$name]}
        cat "$f" >/dev/null
        local cmds=(report report-d3 folded json speedscope dot info)
        [[ $name != repeat ]] && cmds+=(all s-report s-json s-folded s-graph s-gc s-info)
        for c in "${cmds[@]}"; do
            local tpl writer=""
            case $c in
            report) tpl="$evprof report --jobs 1 {}" writer=report ;;
            report-d3) tpl="$evprof report --jobs 1 --max-depth 3 {}" ;;
            folded) tpl="$evprof folded --jobs 1 {}" writer=folded ;;
            json) tpl="$evprof report --json --jobs 1 {}" writer=json ;;
            speedscope) tpl="$evprof speedscope --jobs 1 {}" writer=speedscope ;;
            dot) tpl="$evprof graph -f dot --jobs 1 {}" writer=dot ;;
            info) tpl="$evprof info --jobs 1 {}" ;;
            all) tpl="$evprof all {} -d $dir/$name-all" ;;
            s-report) tpl="$evprof report {} -o $dir/$name.prof" ;;
            s-json) tpl="$evprof report --json {} -o $dir/$name.prof.json" ;;
            s-folded) tpl="$evprof folded {} -o $dir/$name.folded" ;;
            s-graph) tpl="$evprof graph {} -o $dir/$name.svg" ;;
            s-gc) tpl="$evprof gc {} -o $dir/$name.gc.txt" ;;
            s-info) tpl="$evprof info {}" ;;
            esac
            measure "$f" "$tpl" "$RUNS"
            TCPU[$name,$c]=$BEST_S TWALL[$name,$c]=$BEST_WALL TOK[$name,$c]=$STATUS
            if [[ $STATUS != ok ]]; then
                printf '%-10s %-24s %s\n' "$name" "$c" "$STATUS"
                continue
            fi
            local share=-
            [[ -n $writer && -n ${WCPU[$name,$writer]:-} ]] &&
                share=$(awk -v a="${WCPU[$name,$writer]}" -v b="$BEST_S" \
                    'BEGIN { printf "%.0f", (b > 0 ? 100 * a / b : 0) }')
            printf '%-10s %-24s %8s %8s %8.1f %7s\n' "$name" "$c" "$BEST_S" "$BEST_WALL" \
                "$(awk -v k="$PEAK_KB" 'BEGIN { print k * 1024 / 1e6 }')" "$share"
            printf '%s\t%s\t%s\t%s\t%s\t-\t%s\t%s\n' "$name" \
                "$(awk -v b="${BYTES[$name]}" 'BEGIN { printf "%.1f", b / 1e6 }')" "text-$c" \
                "$BEST_S" "$BEST_WALL" "$(awk -v k="$PEAK_KB" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }')" \
                "$STATUS" >>"$RESULTS"
        done
    done
    echo "(fmt_%: the writer's CPU in the command's: report, folded, json, speedscope; dot: the DOT"
    echo " text of the call graph, without the graph's build, which the callgraph step shows)"

    echo
    echo "Goals (issue 29), $mode sizes:"
    for name in hard synth1g; do
        [[ -n ${LOG[$name]:-} ]] || continue
        local low="" det=""
        for w in report json folded speedscope; do
            local mbs
            mbs=$(awk -v b="${WBYTES[$name,$w]:-}" -v t="${WCPU[$name,$w]:-}" \
                'BEGIN { if (b > 0 && t > 0) printf "%.0f", b / 1e6 / t }')
            det="$det $w ${mbs:-?}"
            [[ -z $mbs ]] && low=unknown && continue
            [[ $mbs -lt $GOAL_TEXT_MBS && $low != unknown ]] && low=yes
        done
        if [[ $low == unknown ]]; then
            goal "$name: text written at >= $GOAL_TEXT_MBS MB/s (--jobs 1)" "-" "(not measured:$det)"
        else
            goal "$name: text written at >= $GOAL_TEXT_MBS MB/s (--jobs 1)" \
                "$([[ $low == yes ]] && echo FAIL || echo PASS)" "(MB/s:$det)"
        fi
    done
    text_ratio() {      # text_ratio TEXT SHAPE A B MAX (TCPU, or SEC for the yardsticks' rows)
        local a=${TCPU[$2,$3]:-${SEC[$2,$3]:-}} b=${TCPU[$2,$4]:-${SEC[$2,$4]:-}}
        if [[ -z $a || -z $b || ${TOK[$2,$3]:-${STAT[$2,$3]:-}} != ok ||
              ${TOK[$2,$4]:-${STAT[$2,$4]:-}} != ok ]]; then
            goal "$1" "-" "not measured"
            return
        fi
        read -r v d < <(awk -v a="$a" -v b="$b" -v m="$5" \
            'BEGIN { printf "%s %.2f\n", (a <= m * b) ? "PASS" : "FAIL", a / b }')
        goal "$1" "$v" "($3 $a s = $d x $4 $b s)"
    }
    if [[ -n ${LOG[hard]:-} ]]; then
        # the real deep log: GHC's report of it would have as many lines
        local lines
        lines=$("$evprof" report --jobs 1 "${LOG[hard]}" 2>/dev/null | wc -l)
        goal "hard: a deep real log, a report of 200k+ lines" \
            "$([[ $lines -ge 200000 ]] && echo PASS || echo FAIL)" "($lines lines)"
    fi
    text_ratio "hard: report <= ${GOAL_REPORT_VS_DEPTH3}x report --max-depth 3" hard report \
        report-d3 "$GOAL_REPORT_VS_DEPTH3"
    for c in report folded; do
        text_ratio "hard: $c >= ${GOAL_HARD_VS_FOLD}x faster than the ghc-events fold" hard "$c" \
            ghc-events-fold "$(awk -v g="$GOAL_HARD_VS_FOLD" 'BEGIN { print 1 / g }')"
    done
    for name in "${TEXT_SHAPES[@]}"; do
        [[ -n ${LOG[$name]:-} ]] || continue
        text_ratio "$name: info <= ${GOAL_INFO_VS_WALK}x the minimal walk" "$name" info walk \
            "$GOAL_INFO_VS_WALK"
    done
    for name in hard synth1g; do
        [[ -n ${LOG[$name]:-} ]] || continue
        local sc=0 sw=0 ok=1
        for c in s-report s-json s-folded s-graph s-gc s-info; do
            [[ ${TOK[$name,$c]:-} == ok ]] || ok=0
            sc=$(awk -v a="$sc" -v b="${TCPU[$name,$c]:-0}" 'BEGIN { print a + b }')
            sw=$(awk -v a="$sw" -v b="${TWALL[$name,$c]:-0}" 'BEGIN { print a + b }')
        done
        if [[ $ok != 1 || ${TOK[$name,all]:-} != ok ]]; then
            goal "$name: all <= ${GOAL_ALL_VS_SINGLES}x the sum of its single commands" "-" "not measured"
            continue
        fi
        for k in CPU wall; do
            local a s
            if [[ $k == CPU ]]; then a=${TCPU[$name,all]} s=$sc; else a=${TWALL[$name,all]} s=$sw; fi
            read -r v d < <(awk -v a="$a" -v b="$s" -v m="$GOAL_ALL_VS_SINGLES" \
                'BEGIN { printf "%s %.2f\n", (a <= m * b) ? "PASS" : "FAIL", a / b }')
            goal "$name: all <= ${GOAL_ALL_VS_SINGLES}x the sum of its single commands, $k" "$v" \
                "(all $a s = $d x $s s)"
        done
    done
}
text_bench

echo
echo "best of $RUNS runs (the ghc-events fold: 1 run on logs over 200 MB); MB = 10^6 bytes;"
echo "cpu_s = user + system seconds (what MB/s and the ratios use: the machine is shared);"
echo "t/hash = cpu_s / naive_hash's cpu_s; fold/t = ghc-events-fold's cpu_s / cpu_s."
echo "Results: $RESULTS. Failed goals: $fails"
