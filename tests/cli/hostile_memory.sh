#!/usr/bin/env bash
# What the reliability campaign found wrong with memory (issue 27):
# --memory-limit was ignored by pprof --heap, diff --ticky, top --ndjson on
# ticky counters and speedscope (point 15); distinct marks took quadratic
# time and their memory was not charged (point 16). Every command charges
# every aggregate: past the limit, the one memory message, exit 1, no
# output, the peak RSS within the limit. The hostile logs are made here
# by tests/fuzz/hostile_log.
#
# Usage: tests/cli/hostile_memory.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
gen="$(dirname "$evprof")/tests/fuzz/hostile_log"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

if [ ! -x "$gen" ]; then
    echo "SKIPPED: tests/fuzz/hostile_log is not built"
    exit 77
fi
measure=0
[ -x /usr/bin/time ] && [ -z "${EVPROF_TEST_SANITIZED:-}" ] && measure=1

# limited NAME LIMIT WHAT-IT-HOLDS CMD...: past the limit, the one message
# (it names WHAT-IT-HOLDS), exit 1, nothing on stdout, no -o file, and
# (not under the sanitizers) a peak RSS within the limit
limited() {
    local name=$1 limit=$2 holds=$3
    shift 3
    rm -f "$tmp/out.file"
    if [ $measure -eq 1 ]; then
        /usr/bin/time -f %M -o "$tmp/rss" timeout 300 "$@" >"$tmp/out" 2>"$tmp/err"
    else
        timeout 300 "$@" >"$tmp/out" 2>"$tmp/err"
    fi
    local status=$?
    check "$name: exit 1 (got $status)" [ "$status" = 1 ]
    check "$name: the memory message" \
        grep -q "stopped at byte [0-9]* of the log: the memory limit ($limit, --memory-limit) is reached.*$holds.*raise --memory-limit to read the whole log$" "$tmp/err"
    check "$name: one line on stderr" [ "$(wc -l <"$tmp/err")" -eq 1 ]
    check "$name: nothing on stdout" [ ! -s "$tmp/out" ]
    check "$name: no -o file" [ ! -e "$tmp/out.file" ]
    if [ $measure -eq 1 ]; then
        local kb=$(( ${limit% MiB} * 1024 ))
        check "$name: peak RSS $(tail -1 "$tmp/rss") KiB within $limit" [ "$(tail -1 "$tmp/rss")" -le "$kb" ]
    fi
}

# ---- point 15: every command charges every aggregate ---------------------
# pprof --heap: 300 000 bands in one census (a -hT heap profile)
"$gen" "$tmp/bands.eventlog" heap-bands 300000
limited "pprof --heap 40M" "40 MiB" "the heap profile holds [0-9]* bands" \
    "$evprof" pprof --heap --memory-limit 40M -o "$tmp/out.file" "$tmp/bands.eventlog"
# with room, the census goes out: the same profile as without a limit
"$gen" "$tmp/bands-small.eventlog" heap-bands 2000
"$evprof" pprof --heap -o "$tmp/none.pb.gz" "$tmp/bands-small.eventlog" 2>/dev/null
check "pprof --heap without a limit: exit 0" [ $? -eq 0 ]
"$evprof" pprof --heap --memory-limit 1G -o "$tmp/lim.pb.gz" "$tmp/bands-small.eventlog" 2>/dev/null
check "pprof --heap 1G: exit 0" [ $? -eq 0 ]
check "pprof --heap 1G: the same profile" cmp -s "$tmp/none.pb.gz" "$tmp/lim.pb.gz"

# diff --ticky and top --ndjson: 100 000 ticky counters
"$gen" "$tmp/ticky.eventlog" ticky 100000
limited "diff --ticky 40M" "40 MiB" "the ticky counters: [0-9]* in" \
    "$evprof" diff --ticky --memory-limit 40M -o "$tmp/out.file" "$tmp/ticky.eventlog" "$tmp/ticky.eventlog"
limited "top --ndjson ticky 40M" "40 MiB" "the ticky counters: [0-9]* in" \
    "$evprof" top --ndjson --interval 60 --memory-limit 40M "$tmp/ticky.eventlog"
"$gen" "$tmp/ticky-small.eventlog" ticky 300
"$evprof" diff --ticky "$tmp/ticky-small.eventlog" "$tmp/ticky-small.eventlog" >"$tmp/none" 2>&1
"$evprof" diff --ticky --memory-limit 1G "$tmp/ticky-small.eventlog" "$tmp/ticky-small.eventlog" >"$tmp/lim" 2>&1
check "diff --ticky 1G: the same as without a limit" cmp -s "$tmp/none" "$tmp/lim"
timeout 60 "$evprof" top --ndjson --memory-limit 1G "$tmp/ticky-small.eventlog" >"$tmp/top.json" 2>/dev/null
check "top --ndjson ticky 1G: exit 0, its counters" grep -q '"ticky":\[{"name":"Main.counter' "$tmp/top.json"

# speedscope: a million samples (12 bytes each kept), from a file, followed
# as it is written (the live reader of --follow and --connect), and from
# standard input
"$gen" "$tmp/samples.eventlog" samples 1000000
limited "speedscope 40M" "40 MiB" "the speedscope time line: [0-9]* samples of 8 stacks" \
    "$evprof" speedscope --memory-limit 40M -o "$tmp/out.file" "$tmp/samples.eventlog"
limited "speedscope --follow 40M" "40 MiB" "the speedscope time line" \
    "$evprof" speedscope --follow --idle-timeout 5 --memory-limit 40M "$tmp/samples.eventlog"
limited "speedscope - 40M" "40 MiB" "the speedscope time line" \
    bash -c '"$0" speedscope --memory-limit 40M - <"$1"' "$evprof" "$tmp/samples.eventlog"
"$gen" "$tmp/samples-small.eventlog" samples 5000
"$evprof" speedscope "$tmp/samples-small.eventlog" >"$tmp/none" 2>/dev/null
"$evprof" speedscope --memory-limit 1G "$tmp/samples-small.eventlog" >"$tmp/lim" 2>/dev/null
check "speedscope 1G: exit 0, the same file" cmp -s "$tmp/none" "$tmp/lim"

# ---- point 16: distinct marks, linear and charged -----------------------
# 200 000 marks of distinct labels: main's quadratic search took minutes
"$gen" "$tmp/marks.eventlog" marks 200000
if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%U" -o "$tmp/cpu" timeout 60 "$evprof" info "$tmp/marks.eventlog" >"$tmp/info" 2>&1
    check "info of 200 000 distinct marks: exit 0" [ $? -eq 0 ]
    cpu=$(tail -1 "$tmp/cpu")
    check "info of 200 000 distinct marks: $cpu CPU s, under 5" \
        awk -v c="$cpu" 'BEGIN { exit !(c < 5) }'
    /usr/bin/time -f "%U" -o "$tmp/cpu" timeout 60 \
        "$evprof" report --between 'phase 199999' "$tmp/marks.eventlog" >/dev/null 2>"$tmp/err"
    cpu=$(tail -1 "$tmp/cpu")
    check "report --between on 200 000 labels: $cpu CPU s, under 5" \
        awk -v c="$cpu" 'BEGIN { exit !(c < 5) }'
    check "report --between a label with one mark: says how many the log has" \
        grep -q "marker 'phase 199999' #2 asked, the log has 1" "$tmp/err"
fi
check "info lists every label" [ "$(grep -c "^ *1  *[0-9.]*  phase [0-9]*$" "$tmp/info")" -eq 200000 ]
# charged: 400 000 labels do not fit in 40 MiB with the reader's 32
"$gen" "$tmp/marks-big.eventlog" marks 400000
limited "info of 400 000 labels 40M" "40 MiB" "the marks: [0-9]* labels of [0-9]* marks in" \
    "$evprof" info --memory-limit 40M "$tmp/marks-big.eventlog"
limited "report --between of 400 000 labels 40M" "40 MiB" "the marks: [0-9]* labels of [0-9]* marks in" \
    "$evprof" report --between 'phase 1' --memory-limit 40M -o "$tmp/out.file" "$tmp/marks-big.eventlog"
limited "dump --from marker: of 400 000 labels 40M" "40 MiB" "the marks: [0-9]* labels" \
    "$evprof" dump --from 'marker:phase 3' --memory-limit 40M "$tmp/marks-big.eventlog"
# the marks resolve as before: the window between two marks
"$evprof" report --from 'marker:phase 10' --to 'marker:phase 20' --memory-limit 1G \
    "$tmp/marks.eventlog" >"$tmp/rep" 2>"$tmp/err"
check "marker window on 200 000 labels: exit 0" [ $? -eq 0 ]
check "marker window on 200 000 labels: 10 ticks" grep -q "total time *= *0.01 secs *(10 ticks" "$tmp/rep"

echo "hostile_memory: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
