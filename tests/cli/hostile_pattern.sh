#!/usr/bin/env bash
# Patterns and the text of messages (issue 35, points 11, 12 and 15):
# glibc's regcomp recursed off the stack on '(.*){1,32000}(.*){1,32000}y'
# (SIGSEGV, exit 139, in report --focus and --callers and phases -m) and
# took 1.6 GB in 15 s on '(.*){1,32000}' under --memory-limit 200M; its
# regexec took 1.1 GB on '(x+)\1\1y' and a 60 KB label; a selection that
# matched nothing repeated a 30 KB mark label whole on stderr. Every
# option that takes a pattern now refuses these at once (exit 2, a message
# naming the option), the largest patterns taken run 60 KB labels
# within a time and memory bound, and messages quote labels and patterns
# shortened (72 code points). The hostile logs are made here by
# tests/fuzz/hostile_log.
#
# Usage: tests/cli/hostile_pattern.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
gen="$(dirname "$evprof")/tests/fuzz/hostile_log"
log=tests/data/ghc/chain-p.eventlog
marks=tests/data/phases/phases.eventlog
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

if [ ! -x "$gen" ]; then
    echo "SKIPPED: tests/fuzz/hostile_log is not built"
    exit 77
fi
measure=0
[ -x /usr/bin/time ] && [ -z "${EVPROF_TEST_SANITIZED:-}" ] && measure=1

# run SECONDS CMD...: CMD under `timeout SECONDS`; $status, $secs, $rss
# (KiB, 0 when not measured), its output in $out and $err
runs=0
run() {
    local limit=$1
    shift
    runs=$((runs + 1))
    out=$tmp/$runs.out err=$tmp/$runs.err
    local start=$(date +%s.%N)
    if [ $measure -eq 1 ]; then
        /usr/bin/time -f %M -o "$tmp/rss" timeout "$limit" "$@" >"$out" 2>"$err"
        status=$?
        rss=$(tail -1 "$tmp/rss")
    else
        timeout "$limit" "$@" >"$out" 2>"$err"
        status=$?
        rss=0
    fi
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
}
below() { awk -v s="$secs" -v hi="$1" 'BEGIN { exit !(s < hi) }'; }
rss_below() { [ "$rss" -le "$1" ]; }    # KiB
no_raw_controls() { ! LC_ALL=C grep -q -P '[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1"; }

# ---- points 11 and 12: the hostile patterns, refused at once ------------
# refused NAME WHY OPTION CMD...: exit 2, "evprof: OPTION: bad regular
# expression 'PATTERN': WHY", nothing on stdout, within 5 s and 64 MiB
refused() {
    local name=$1 why=$2 opt=$3
    shift 3
    run 20 "$@"
    check "$name: exit 2 (got $status)" [ "$status" = 2 ]
    check "$name: the message names $opt and says why" \
        grep -q -- "^evprof: $opt: bad regular expression '.*': $why" "$err"
    check "$name: one line on stderr" [ "$(wc -l <"$err")" -eq 1 ]
    check "$name: nothing on stdout" [ ! -s "$out" ]
    check "$name: at once ($secs s)" below 5
    [ $measure -eq 1 ] && check "$name: peak RSS $rss KiB within 64 MiB" rss_below 65536
}
crash='(.*){1,32000}(.*){1,32000}y'
huge='(.*){1,32000}'
backref='(x+)\1\1y'
for p in "$crash" "$huge"; do
    refused "report --focus '$p'" "a count above 255" --focus "$evprof" report --focus "$p" "$log"
    refused "report --callers '$p'" "a count above 255" --callers "$evprof" report --callers "$p" "$log"
    refused "phases -m '$p'" "a count above 255" --marker "$evprof" phases -m "$p" "$marks"
done
refused "report --focus 200M '$huge'" "a count above 255" --focus \
    "$evprof" report --memory-limit 200M --focus "$huge" "$log"
why="a back-reference (\\\\1 to \\\\9)"
refused "report --focus '$backref'" "$why" --focus "$evprof" report --focus "$backref" "$log"
refused "report --callers '$backref'" "$why" --callers "$evprof" report --callers "$backref" "$log"
refused "phases --marker '$backref'" "$why" --marker "$evprof" phases --marker "$backref" "$marks"
# one meaning per flag: every command that takes --focus/--ignore refuses
# them the same way, before the log is read
for cmd in "folded" "graph -o $tmp/g.svg" "speedscope -o $tmp/s.json" "pprof -o $tmp/p.pb.gz" \
    "html -o $tmp/h.html" "diff $log" "metrics" "top --ndjson"; do
    # shellcheck disable=SC2086
    refused "$cmd --focus" "a count above 255" --focus "$evprof" $cmd --focus "$crash" "$log"
    # shellcheck disable=SC2086
    refused "$cmd --ignore" "a back-reference" --ignore "$evprof" $cmd --ignore "$backref" "$log"
done
check "no output file was written" [ ! -e "$tmp/g.svg" ] && [ ! -e "$tmp/h.html" ]
# the other bounds
refused "steps" "more than 2000 steps once compiled" --focus "$evprof" report --focus '(a{255}){255}' "$log"
refused "two 255s" "more than 2000 steps once compiled" --focus \
    "$evprof" report --focus '(.*){1,255}(.*){1,255}y' "$log"
deep=$(printf '(%.0s' $(seq 65))a$(printf ')%.0s' $(seq 65))
refused "nested" "groups nested deeper than 64" --focus "$evprof" report --focus "$deep" "$log"
long=$(printf 'ab%.0s' $(seq 2100))
refused "long" "longer than 4096 bytes" --callers "$evprof" report --callers "$long" "$log"
check "long: the pattern quoted shortened (one short line)" [ "$(wc -c <"$err")" -lt 400 ]
# what regcomp refused stays refused, with exit 2 as before
refused "unmatched" "unmatched \\[" --ignore "$evprof" folded --ignore '[' "$log"

# ---- point 12: the largest patterns taken, on 60 KB labels --------------
# bounded: a 60 000-byte cost-centre label and a 60 000-byte mark label
"$gen" "$tmp/label.eventlog" long-label 60000
"$gen" "$tmp/mark.eventlog" long-mark 60000
heavy='(.*){1,249}(.*){1,249}y'
run 60 "$evprof" report --memory-limit 200M --focus "$heavy" "$tmp/label.eventlog"
check "report --focus '$heavy' on a 60 KB label: exit 0 (got $status)" [ "$status" = 0 ]
check "report --focus '$heavy' on a 60 KB label: within 20 s ($secs s)" below 20
[ $measure -eq 1 ] && check "report --focus '$heavy': peak RSS $rss KiB within 200 MiB" rss_below 204800
run 60 "$evprof" report --memory-limit 200M --callers "$heavy" "$tmp/label.eventlog"
check "report --callers '$heavy' on a 60 KB label: exit 0 (got $status)" [ "$status" = 0 ]
check "report --callers '$heavy' on a 60 KB label: within 20 s ($secs s)" below 20
check "report --callers: the long label's block (it ends in y)" grep -q "Main.abcdefghij" "$out"
[ $measure -eq 1 ] && check "report --callers '$heavy': peak RSS $rss KiB within 200 MiB" rss_below 204800
heavyz='(.*){1,249}(.*){1,249}z'     # the long mark ends in z
run 60 "$evprof" phases --memory-limit 200M -m "$heavyz" "$tmp/mark.eventlog"
check "phases -m '$heavyz' on a 60 KB mark: exit 0 (got $status)" [ "$status" = 0 ]
check "phases -m '$heavyz' on a 60 KB mark: within 20 s ($secs s)" below 20
[ $measure -eq 1 ] && check "phases -m '$heavyz': peak RSS $rss KiB within 200 MiB" rss_below 204800
check "phases -m '$heavyz': the long mark cuts, twice" [ "$(grep -c '^long' "$out")" -eq 2 ]
# backtracking's worst cases are linear here
for p in '(a|aa)*c' '(a*)*b' '(.*a){12}q' '(x+x+)+y'; do
    run 60 "$evprof" report --focus "$p" "$tmp/label.eventlog"
    check "report --focus '$p' on a 60 KB label: within 10 s ($secs s, exit $status)" below 10
done

# ---- point 15: labels and patterns in messages, shortened ---------------
"$gen" "$tmp/mark30.eventlog" long-mark 30000
for sel in "--from marker:nosuch" "--between nosuch" "--phase nosuch" "--from marker:short#9"; do
    # shellcheck disable=SC2086
    run 20 "$evprof" report $sel "$tmp/mark30.eventlog"
    check "report $sel on a 30 KB mark: exit 2 (got $status)" [ "$status" = 2 ]
    check "report $sel: stderr short ($(wc -c <"$err") bytes)" [ "$(wc -c <"$err")" -lt 1000 ]
    check "report $sel: the long label quoted, shortened with an ellipsis" \
        grep -qF "'long\\x1babcdéabcdé" "$err"
    check "report $sel: ... its 72 code points" grep -qF "abcdéabc…' (2, " "$err"
    check "report $sel: the short one whole" grep -qF "'short' (2, " "$err"
    check "report $sel: no raw control byte" no_raw_controls "$err"
done
q=$(printf 'q%.0s' $(seq 1500))
run 20 "$evprof" graph --focus "$q" -o "$tmp/q.svg" "$log"
check "graph --focus that keeps nothing: exit 1 (got $status)" [ "$status" = 1 ]
check "graph --focus that keeps nothing: the pattern shortened" \
    grep -q "^evprof: .*: --focus 'q\{71\}…' matches no stack" "$err"
run 20 "$evprof" report --callers "$q" "$log"
check "report --callers that matches nothing: exit 1 (got $status)" [ "$status" = 1 ]
check "report --callers that matches nothing: the pattern shortened" \
    grep -q "no cost centre with ticks matches 'q\{71\}…'" "$err"
long1=$(printf 'q%.0s' $(seq 5000))
run 20 "$evprof" phases -m "$long1" "$marks"
check "phases -m of 5000 bytes: exit 2, the pattern shortened" \
    grep -q "^evprof: --marker: bad regular expression 'q\{71\}…': longer than 4096 bytes$" \
    "$err"

# ---- the docs say the bounds the code has --------------------------------
hdr=include/evprof/pattern.h
for pair in "MAX_COUNT:a count above" "MAX_STEPS:more than" "MAX_DEPTH:groups nested deeper than" \
    "MAX_BYTES:longer than"; do
    v=$(sed -n "s/^#define EV_PATTERN_${pair%%:*} \([0-9]*\).*/\1/p" "$hdr")
    check "docs/PROF.md states EV_PATTERN_${pair%%:*} ($v)" \
        grep -q "${pair#*:} $v\|$v in .{n,m}.\|deeper than $v\|longer than $v bytes\|than $v steps" docs/PROF.md
    check "docs/evprof.1 states EV_PATTERN_${pair%%:*} ($v)" grep -q "$v" docs/evprof.1
done

echo "hostile_pattern: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
