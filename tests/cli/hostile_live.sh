#!/usr/bin/env bash
# What the reliability campaign found wrong with live sources (issue 27):
# --idle-timeout never fired on FIFOs and sockets (point 19); a followed
# file replaced by rename was never noticed (point 21). Each case runs
# under `timeout`, so that a hang fails instead of blocking the suite.
#
# Usage: tests/cli/hostile_live.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
log=tests/data/ghc/chain-p.eventlog
tmp=$(mktemp -d)
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# run NAME CMD...: CMD under a 20 s timeout; $status, $secs, $tmp/NAME.{out,err}
run() {
    local name=$1
    shift
    local start=$(date +%s.%N)
    timeout 20 "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    status=$?
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
}
within() { awk -v s="$secs" -v lo="$1" -v hi="$2" 'BEGIN { exit !(s >= lo && s < hi) }'; }

# the same bytes, cut, read as a finished file: what a stopped read gives
head -c 300000 "$log" >"$tmp/cut.eventlog"
"$evprof" gc "$tmp/cut.eventlog" >"$tmp/batch.out" 2>/dev/null
check "the cut log's batch gc: some output" [ -s "$tmp/batch.out" ]

# ---- point 19: --idle-timeout on FIFOs and sockets -----------------------
mkfifo "$tmp/fifo"
# a FIFO no writer ever opens: the idle timeout, an error, no output
for cmd in "report" "gc" "info" "dump" "top --ndjson"; do
    name=nowriter-${cmd%% *}
    if [ "$cmd" = "top --ndjson" ]; then
        run "$name" "$evprof" top --ndjson --idle-timeout 0.5 "$tmp/fifo"
    else
        # shellcheck disable=SC2086
        run "$name" "$evprof" $cmd --follow --idle-timeout 0.5 "$tmp/fifo"
    fi
    check "$cmd: a FIFO without a writer: exit 1 (got $status)" [ "$status" = 1 ]
    check "$cmd: a FIFO without a writer: stops after the idle timeout ($secs s)" within 0.4 10
    check "$cmd: a FIFO without a writer: says so" \
        grep -q "fifo: nothing was written within the idle timeout" "$tmp/$name.err"
done
check "report: a FIFO without a writer: no output" [ ! -s "$tmp/nowriter-report.out" ]

# a writer that stalls after 300 000 bytes: the cut log, as the batch run of them
{ cat "$tmp/cut.eventlog"; exec sleep 30; } >"$tmp/fifo" &
pids+=($!)
run stalled "$evprof" gc --follow --idle-timeout 0.5 "$tmp/fifo"
kill "${pids[-1]}" 2>/dev/null
check "a stalled FIFO writer: exit 1 (got $status)" [ "$status" = 1 ]
check "a stalled FIFO writer: stops after the idle timeout ($secs s)" within 0.4 10
check "a stalled FIFO writer: says it stopped there" grep -q "did not grow for the idle timeout" "$tmp/stalled.err"
check "a stalled FIFO writer: says the log is cut" grep -q "truncated at byte 300000" "$tmp/stalled.err"
check "a stalled FIFO writer: the batch output of the bytes read" cmp -s "$tmp/batch.out" "$tmp/stalled.out"

# top on a stalled FIFO writer: its last frame, then the cut log
{ cat "$tmp/cut.eventlog"; exec sleep 30; } >"$tmp/fifo" &
pids+=($!)
run topstalled "$evprof" top --ndjson --interval 0.2 --idle-timeout 0.5 "$tmp/fifo"
kill "${pids[-1]}" 2>/dev/null
check "top on a stalled FIFO writer: exit 1 (got $status)" [ "$status" = 1 ]
check "top on a stalled FIFO writer: stops ($secs s)" within 0.4 10
check "top on a stalled FIFO writer: a last frame, finished" \
    grep -q '"bytes":300000,.*"finished":true' "$tmp/topstalled.out"

# sockets that play eventlog-socket and stall: TCP and Unix
serve() {   # serve ADDRFILE BYTES: listens, sends BYTES of the cut log, stalls
    "$PYTHON" - "$1" "$2" "$tmp/cut.eventlog" "$3" <<'PY' &
import os, socket, sys, time
addrfile, kind, log, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
if kind == "tcp":
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    addr = "tcp:127.0.0.1:%d" % s.getsockname()[1]
else:
    path = addrfile + ".sock"
    s = socket.socket(socket.AF_UNIX)
    s.bind(path)
    addr = "unix:" + path
s.listen(1)
open(addrfile + ".tmp", "w").write(addr)
os.rename(addrfile + ".tmp", addrfile)
c, _ = s.accept()
c.sendall(open(log, "rb").read()[:n])
time.sleep(30)
PY
    pids+=($!)
    for _ in $(seq 100); do [ -s "$1" ] && break; sleep 0.1; done
}
for kind in tcp unix; do
    serve "$tmp/$kind.addr" "$kind" 300000
    run "sock-$kind" "$evprof" gc --connect "$(cat "$tmp/$kind.addr")" --idle-timeout 0.5
    kill "${pids[-1]}" 2>/dev/null
    check "a stalled --connect $kind stream: exit 1 (got $status)" [ "$status" = 1 ]
    check "a stalled --connect $kind stream: stops ($secs s)" within 0.4 10
    check "a stalled --connect $kind stream: the cut log" grep -q "truncated at byte 300000" "$tmp/sock-$kind.err"
    check "a stalled --connect $kind stream: the batch output" cmp -s "$tmp/batch.out" "$tmp/sock-$kind.out"
    serve "$tmp/$kind.addr0" "$kind" 0
    run "sock0-$kind" "$evprof" report --connect "$(cat "$tmp/$kind.addr0")" --idle-timeout 0.5
    kill "${pids[-1]}" 2>/dev/null
    check "a --connect $kind stream that sends nothing: exit 1 (got $status)" [ "$status" = 1 ]
    check "a --connect $kind stream that sends nothing: stops ($secs s)" within 0.4 10
    check "a --connect $kind stream that sends nothing: says so" \
        grep -q "nothing was written within the idle timeout" "$tmp/sock0-$kind.err"
done

# ---- point 21: a followed file replaced by rename ------------------------
# renamed over (the program's new run, a log rotated), moved away, removed:
# the read stops at the end of what it read, with the error, the results
# of what was read, exit 1; without an idle timeout (it would hang)
for how in over moved removed; do
    cp "$tmp/cut.eventlog" "$tmp/f.eventlog"
    (
        sleep 0.5
        case $how in
        over) head -c 100 "$log" >"$tmp/new.eventlog"; mv "$tmp/new.eventlog" "$tmp/f.eventlog" ;;
        moved) mv "$tmp/f.eventlog" "$tmp/g.eventlog" ;;
        removed) rm "$tmp/f.eventlog" ;;
        esac
    ) &
    pids+=($!)
    run "replaced-$how" "$evprof" gc --follow "$tmp/f.eventlog"
    check "followed file $how: exit 1 (got $status)" [ "$status" = 1 ]
    check "followed file $how: noticed ($secs s)" within 0.4 10
    case $how in
    over) want="the followed file was replaced (another file has its name now)" ;;
    *) want="the followed file was renamed or removed" ;;
    esac
    check "followed file $how: says so" grep -qF "f.eventlog: $want" "$tmp/replaced-$how.err"
    check "followed file $how: the output of what was read" cmp -s "$tmp/batch.out" "$tmp/replaced-$how.out"
    rm -f "$tmp/g.eventlog"
done
# top notices it too
cp "$tmp/cut.eventlog" "$tmp/f.eventlog"
( sleep 0.5; mv "$tmp/cut.eventlog" "$tmp/f.eventlog" ) &
pids+=($!)
run topreplaced "$evprof" top --ndjson --interval 0.2 "$tmp/f.eventlog"
check "top: followed file replaced: exit 1 (got $status)" [ "$status" = 1 ]
check "top: followed file replaced: says so" grep -q "the followed file was replaced" "$tmp/topreplaced.err"
# a file that only grows is still followed to its end marker
head -c 300000 "$log" >"$tmp/grow.eventlog"
( sleep 0.5; tail -c +300001 "$log" >>"$tmp/grow.eventlog" ) &
pids+=($!)
run grows "$evprof" gc --follow --idle-timeout 5 "$tmp/grow.eventlog"
"$evprof" gc "$log" >"$tmp/whole.out" 2>/dev/null
check "a followed file that grows: exit 0 (got $status)" [ "$status" = 0 ]
check "a followed file that grows: the whole log's output" cmp -s "$tmp/whole.out" "$tmp/grows.out"

echo "hostile_live: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
