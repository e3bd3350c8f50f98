#!/usr/bin/env bash
# --memory-limit (issue 14): a log whose profile needs more than the limit
# stops the read with one message (where, the limit, what the profile
# holds, what bounds it) and exit 1, publishes no output (an existing -o
# file stays as it was, no temp file is left), and stays within the limit;
# a sufficient limit gives the same output as none; bad sizes are usage
# errors; every reading command takes the option.
#
# Usage: tests/cli/memlimit.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
gen="$(dirname "$evprof")/bench/gen_eventlog"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

if [ ! -x "$gen" ]; then
    echo "SKIPPED: bench/gen_eventlog is not built"
    exit 77
fi
# 4 MB, about 40 000 samples of new stacks: a tree of 400 000 nodes (25 MB)
log=$tmp/fresh.eventlog
"$gen" "$log" 4 --fresh 100 --sample-share 100 --min-depth 17 --depth 22 >/dev/null
check "log made" test -s "$log"

# the limit reached: one message, exit 1, nothing on stdout
"$evprof" report --memory-limit 40M "$log" >"$tmp/out" 2>"$tmp/err"
check "40M: exit 1" [ $? -eq 1 ]
check "40M: nothing on stdout" [ ! -s "$tmp/out" ]
check "40M: one line on stderr" [ "$(wc -l <"$tmp/err")" -eq 1 ]
check "40M: the message" grep -qE "^evprof: $log: stopped at byte [1-9][0-9]* of the log: the memory limit \(40 MiB, --memory-limit\) is reached; the time profile holds 1410 cost centres, [1-9][0-9]* distinct stacks, [1-9][0-9]* tree nodes in [0-9.]+ MiB\. report --max-depth N bounds the tree and --threshold PCT the report; raise --memory-limit to read the whole log$" "$tmp/err"
off=$(sed -E 's/.*stopped at byte ([0-9]+).*/\1/' "$tmp/err")
check "40M: the offset is inside the log" [ "$off" -lt "$(stat -c %s "$log")" ]

# -o: the existing file stays as it was, no temp file left beside it
echo "old report" >"$tmp/keep.prof"
"$evprof" report --memory-limit 40M -o "$tmp/keep.prof" "$log" 2>"$tmp/err"
check "-o: exit 1" [ $? -eq 1 ]
check "-o: the old file untouched" [ "$(cat "$tmp/keep.prof")" = "old report" ]
check "-o: no temp file" [ -z "$(ls "$tmp" | grep evprof-)" ]
"$evprof" report --memory-limit 40M -o "$tmp/new.prof" "$log" 2>/dev/null
check "-o: no new file" [ ! -e "$tmp/new.prof" ]

# within the limit while it stops (the reader's own 32 MiB are counted)
# (not under the sanitizers: their shadow memory is in the RSS)
if [ -x /usr/bin/time ] && [ -z "${EVPROF_TEST_SANITIZED:-}" ]; then
    /usr/bin/time -f "%M" -o "$tmp/rss" "$evprof" report --memory-limit 40M "$log" >/dev/null 2>&1
    check "40M: peak RSS within 40 MiB ($(cat "$tmp/rss") KiB)" [ "$(tail -1 "$tmp/rss")" -le 40960 ]
fi

# below what reading takes: said so
"$evprof" report --memory-limit 1M "$log" >/dev/null 2>"$tmp/err"
check "1M: exit 1" [ $? -eq 1 ]
check "1M: below what reading takes" grep -q "the memory limit (1 MiB, --memory-limit) is reached, below what reading takes (32 MiB)" "$tmp/err"

# a sufficient limit: the same output as no limit, exit 0
"$evprof" report "$log" >"$tmp/none.prof" 2>/dev/null
check "no limit: exit 0" [ $? -eq 0 ]
for lim in 1G 200M 209715200 204800K; do
    "$evprof" report --memory-limit "$lim" "$log" >"$tmp/lim.prof" 2>"$tmp/err"
    check "$lim: exit 0" [ $? -eq 0 ]
    check "$lim: same report" cmp -s "$tmp/none.prof" "$tmp/lim.prof"
    check "$lim: nothing on stderr" [ ! -s "$tmp/err" ]
done
"$evprof" folded "$log" >"$tmp/none.folded"
"$evprof" folded --memory-limit=1G "$log" >"$tmp/lim.folded"
check "folded 1G: same" cmp -s "$tmp/none.folded" "$tmp/lim.folded"

# bad sizes: usage errors naming the option
for bad in 1.5M -1 12T "" 0 M "1 M" 0x10 99999999999999999999 1MM; do
    "$evprof" report --memory-limit "$bad" "$log" >/dev/null 2>"$tmp/err"
    check "'$bad': exit 2" [ $? -eq 2 ]
    check "'$bad': message" grep -qF -- "--memory-limit: '$bad' is not a size" "$tmp/err"
done

# every reading command takes it (and lists it in --help)
for cmd in report folded graph speedscope pprof html all heap gc ticky info dump diff top; do
    "$evprof" "$cmd" --help >"$tmp/help" 2>&1
    check "$cmd --help lists --memory-limit" grep -q -- "--memory-limit SIZE" "$tmp/help"
done
for cmd in report folded speedscope pprof "all -d $tmp/all" diff; do
    extra=""
    [ "$cmd" = diff ] && extra=$log
    "$evprof" $cmd --memory-limit 40M "$log" $extra >"$tmp/out" 2>"$tmp/err"
    check "$cmd 40M: exit 1" [ $? -eq 1 ]
    case $cmd in all*) cp "$tmp/err" "$tmp/err.all" ;; esac
    check "$cmd 40M: the message" grep -q "the memory limit (40 MiB, --memory-limit) is reached; the time profile holds" "$tmp/err"
done
check "all 40M: no outputs" [ -z "$(ls "$tmp/all" 2>/dev/null)" ]
"$evprof" html --memory-limit 40M -o "$tmp/page.html" "$log" 2>"$tmp/err"
check "html 40M: exit 1" [ $? -eq 1 ]
check "html 40M: the message, with the profile's counts" grep -q "the memory limit (40 MiB, --memory-limit) is reached; the time profile holds 1410 cost centres, [1-9][0-9]* distinct stacks" "$tmp/err"
# all reads heap, ticky and GC too: the ones with nothing in them are not named
check "all 40M: no empty heap or ticky counts" \
    bash -c "! grep -q 'heap profile holds 0 bands\|ticky counters: 0' '$tmp/err.all'"
check "html 40M: no page" [ ! -e "$tmp/page.html" ]
# html at the smallest limit the report fits in (4 MiB steps) and one step
# more: a page; the timeline's cells, a cache, give their room to the
# profile and the page says so
lim=48
while [ "$lim" -lt 400 ] && ! "$evprof" report --memory-limit ${lim}M "$log" >/dev/null 2>&1; do
    lim=$((lim + 4))
done
lim=$((lim + 4))
"$evprof" html --memory-limit ${lim}M -o "$tmp/fit.html" "$log" 2>"$tmp/err"
check "html ${lim}M (the report fits in $((lim - 4))M): exit 0" [ $? -eq 0 ]
check "html ${lim}M: the page says the limit left no room for the profile by time" \
    grep -q 'the memory limit (--memory-limit) left no room for the profile by time' "$tmp/fit.html"
# top: the frames so far, then the message and exit 1 (no last frame: it
# would need memory past the limit); a bad size is a usage error
timeout 120 "$evprof" top --ndjson --interval 0.2 --memory-limit 40M "$log" >"$tmp/top.json" 2>"$tmp/err"
check "top 40M: exit 1 (got $?)" [ $? -eq 1 ]
check "top 40M: the message" grep -q "the memory limit (40 MiB, --memory-limit) is reached; the time profile holds 1410 cost centres" "$tmp/err"
timeout 120 "$evprof" top --ndjson --interval 0.2 --memory-limit 1G "$log" >"$tmp/top.json" 2>"$tmp/err"
check "top 1G: exit 0, a last frame" [ $? -eq 0 -a -s "$tmp/top.json" ]
"$evprof" top --ndjson --memory-limit lots "$log" >/dev/null 2>&1
check "top: a bad size is a usage error" [ $? -eq 2 ]
# the heap profile and the ticky counters charge the budget too
hlog=tests/data/ghc-9.0.2/nfib-hc.eventlog
tlog=tests/data/ghc-events/ticky-json.eventlog
"$evprof" heap --memory-limit 1M -o "$tmp/h.hp" "$hlog" >/dev/null 2>"$tmp/err"
check "heap 1M: exit 1" [ $? -eq 1 ]
check "heap 1M: the message" grep -q "is reached, below what reading takes (32 MiB); the heap profile holds 0 bands" "$tmp/err"
check "heap 1M: no .hp" [ ! -e "$tmp/h.hp" ]
"$evprof" heap "$hlog" >"$tmp/h1" 2>/dev/null
"$evprof" heap --memory-limit 1G "$hlog" >"$tmp/h2" 2>/dev/null
check "heap 1G: same" cmp -s "$tmp/h1" "$tmp/h2"
"$evprof" ticky --memory-limit 1M "$tlog" >"$tmp/out" 2>"$tmp/err"
check "ticky 1M: exit 1" [ $? -eq 1 ]
check "ticky 1M: the message" grep -q "is reached, below what reading takes (32 MiB); the ticky counters: 0 in" "$tmp/err"
check "ticky 1M: no table" [ ! -s "$tmp/out" ]
# GHC's +RTS -r table too
"$evprof" ticky --memory-limit 1M tests/data/ticky/big.ticky >"$tmp/out" 2>"$tmp/err"
check "ticky -r table 1M: exit 1" [ $? -eq 1 ]
check "ticky -r table 1M: the message" grep -q "is reached, below what reading takes (32 MiB); the ticky counters" "$tmp/err"
check "ticky -r table 1M: no table" [ ! -s "$tmp/out" ]
"$evprof" ticky "$tlog" >"$tmp/t1" 2>/dev/null
"$evprof" ticky --memory-limit 1G "$tlog" >"$tmp/t2" 2>/dev/null
check "ticky 1G: same" cmp -s "$tmp/t1" "$tmp/t2"
"$evprof" info --memory-limit 1G "$log" >/dev/null
check "info 1G: exit 0" [ $? -eq 0 ]

echo "memlimit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
