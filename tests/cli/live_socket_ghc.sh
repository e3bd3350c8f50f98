#!/usr/bin/env bash
# `--connect` on a real GHC program. tests/data/live/Main.hs is linked with
# tests/data/live/socket_writer.c, an eventlog writer of our own that serves
# the log on a socket as eventlog-socket does (a C main gives the RTS the
# writer; with +RTS -l it waits for one client, then sends it the whole log;
# it also copies every byte sent to $EVSOCK_COPY). Checks:
# - `evprof report --follow --connect unix:PATH` equals the batch report of
#   the bytes the program sent, byte for byte; the same over tcp:HOST:PORT;
# - `evprof top --ndjson --connect unix:PATH --save FILE`: FILE is what the
#   program sent; at least two frames; ticks seen mid-run (a buffer the RTS
#   wrote while the program ran: GHC 9.0 writes a buffer only when it is full,
#   so the program runs until that frame has come, then gets SIGINT and ends
#   normally) grow to the final ticks, which equal the batch report's, cost
#   centre by cost centre;
# - the profile commands name the --connect address in their messages.
# The GHC part is SKIPPED (77) without ghc or its profiling libraries.
#
# Usage: tests/cli/live_socket_ghc.sh path/to/evprof   (run from the project root)
set -u
evprof=$(realpath "${1:?usage: $0 path/to/evprof}")
live=$(realpath tests/data/live)
feed="${PYTHON:-python3} $(realpath tests/support/feed_log.py)"
log=$(realpath tests/data/ghc/chain-p.eventlog)
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# ---- the source's name in messages (no GHC needed) ----------------------
# a log cut inside an event: every command says where, naming the address
head -c 20000 "$log" >"$tmp/cut.eventlog"
for cmd in report folded graph gc; do
    $feed socket "$tmp/cut.eventlog" "$tmp/cut.sock" &
    timeout 60 "$evprof" "$cmd" --follow --connect "unix:$tmp/cut.sock" >/dev/null 2>"$tmp/err"
    rc=$?
    wait
    check "$cmd --connect, cut log: exit 1 (got $rc)" [ $rc -eq 1 ]
    check "$cmd --connect, cut log: the message names the address" \
        grep -q "^evprof: unix:$tmp/cut.sock: truncated at byte 20000" "$tmp/err"
    check "$cmd --connect: no option taken for the source's name" \
        bash -c "! grep -q -- 'evprof: --' '$tmp/err'"
done

# a log without samples: the hints name the source as a command takes it
$feed socket "$(realpath tests/data/ghc-9.0.2/nfib-hc.eventlog)" "$tmp/hc.sock" &
timeout 60 "$evprof" report --follow --connect "unix:$tmp/hc.sock" >/dev/null 2>"$tmp/err"
wait
check "report --connect, no samples: the hint says --connect ADDR" \
    grep -q "try 'evprof heap --connect unix:$tmp/hc.sock'" "$tmp/err"

finish() {
    echo "live_socket_ghc: $passed passed, $failed failed"
    [ $failed -eq 0 ]
    exit
}

# ---- a real GHC program -------------------------------------------------
if ! command -v ghc >/dev/null 2>&1; then
    echo "SKIPPED: ghc is not installed"
    [ $failed -eq 0 ] && exit 77
    finish
fi
cp "$live/Main.hs" "$live/socket_writer.c" "$tmp/"
if ! (cd "$tmp" && ghc -O -prof -fprof-auto -threaded -no-hs-main Main.hs socket_writer.c \
        -o prog >"$tmp/ghc.log" 2>&1); then
    echo "SKIPPED: ghc -prof failed (no profiling libraries?):"
    tail -5 "$tmp/ghc.log"
    [ $failed -eq 0 ] && exit 77
    finish
fi
rts="+RTS -l -p -V0.00005 -RTS"

# report over a Unix socket: the output is the batch report of what was sent
(cd "$tmp" && EVSOCK_UNIX="$tmp/a.sock" EVSOCK_COPY="$tmp/a.sent" timeout 120 ./prog 300 $rts \
    >"$tmp/a.out" 2>"$tmp/a.err") &
pids+=($!)
timeout 120 "$evprof" report --follow --idle-timeout 60 --connect "unix:$tmp/a.sock" \
    >"$tmp/a.report" 2>"$tmp/a.report.err"
rc=$?
wait "${pids[-1]}"
prc=$?
check "report --connect unix: exit 0 (got $rc; $(head -c 300 "$tmp/a.report.err"))" [ $rc -eq 0 ]
check "the program: exit 0 (got $prc; $(head -c 300 "$tmp/a.err"))" [ $prc -eq 0 ]
"$evprof" report "$tmp/a.sent" >"$tmp/a.batch" 2>/dev/null
check "the sent log is complete (batch report: exit 0)" [ $? -eq 0 ]
check "report --connect unix: = the batch report of the sent bytes" cmp -s "$tmp/a.report" "$tmp/a.batch"
check "the report has ticks of the program's cost centres" grep -qE '^sorty +Main .* [1-9][0-9]*$' "$tmp/a.report"

# started before the program (issue 27, point 9): without --follow, the
# socket that does not exist yet is waited for
timeout 120 "$evprof" report --idle-timeout 60 --connect "unix:$tmp/c.sock" \
    >"$tmp/c.report" 2>"$tmp/c.report.err" &
epid=$!
pids+=($epid)
sleep 1.5
(cd "$tmp" && EVSOCK_UNIX="$tmp/c.sock" EVSOCK_COPY="$tmp/c.sent" timeout 120 ./prog 300 $rts \
    >"$tmp/c.out" 2>"$tmp/c.err")
prc=$?
wait "$epid"
rc=$?
check "report --connect before the program: exit 0 (got $rc; $(head -c 300 "$tmp/c.report.err"))" [ $rc -eq 0 ]
check "the program started later: exit 0 (got $prc)" [ $prc -eq 0 ]
check "report --connect before the program: says it waited" grep -q "waiting for unix:" "$tmp/c.report.err"
"$evprof" report "$tmp/c.sent" >"$tmp/c.batch" 2>/dev/null
check "report --connect before the program: = the batch report" cmp -s "$tmp/c.report" "$tmp/c.batch"

# the same over TCP (a port the kernel picks, free a moment ago)
port=$("$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
(cd "$tmp" && EVSOCK_TCP=$port EVSOCK_COPY="$tmp/t.sent" timeout 120 ./prog 300 $rts \
    >"$tmp/t.out" 2>"$tmp/t.err") &
pids+=($!)
timeout 120 "$evprof" report --follow --idle-timeout 60 --connect "tcp:127.0.0.1:$port" \
    >"$tmp/t.report" 2>"$tmp/t.report.err"
rc=$?
wait "${pids[-1]}"
prc=$?
check "report --connect tcp: exit 0 (got $rc; $(head -c 300 "$tmp/t.report.err"))" [ $rc -eq 0 ]
check "the program over tcp: exit 0 (got $prc; $(head -c 300 "$tmp/t.err"))" [ $prc -eq 0 ]
"$evprof" report "$tmp/t.sent" >"$tmp/t.batch" 2>/dev/null
check "report --connect tcp: = the batch report of the sent bytes" cmp -s "$tmp/t.report" "$tmp/t.batch"

# top --ndjson over a Unix socket; the program runs until top has shown
# ticks from a buffer written mid-run, then is interrupted (SIGINT: the RTS
# shuts down normally, writing the rest of its buffers and the end marker).
# The interrupt must reach the program once: a second SIGINT while the RTS
# shuts down makes it exit at once, without its last buffers. Plain
# `timeout` passes a signal it gets to the child and then to its whole
# process group, so the child may get it twice (seen in CI on a loaded
# machine); --foreground passes it to the child only.
(cd "$tmp" && EVSOCK_UNIX="$tmp/b.sock" EVSOCK_COPY="$tmp/b.sent" exec timeout --foreground -s INT 150 \
    ./prog 1000000 $rts >"$tmp/b.out" 2>"$tmp/b.err") &
prog_pid=$!
pids+=($prog_pid)
"$PYTHON" - "$evprof" "$tmp" "$prog_pid" <<'PY'
import json, os, signal, subprocess, sys, time
evprof, tmp, prog = sys.argv[1], sys.argv[2], int(sys.argv[3])
top = subprocess.Popen([evprof, "top", "--ndjson", "-n", "100", "--interval", "0.5",
                        "--save", tmp + "/b.saved", "--connect", "unix:" + tmp + "/b.sock"],
                       stdout=subprocess.PIPE, stderr=open(tmp + "/b.top.err", "w"), text=True)
out = open(tmp + "/b.top.json", "w")
stop_at = None
start = time.monotonic()
for line in top.stdout:
    out.write(line)
    out.flush()
    f = json.loads(line)
    now = time.monotonic()
    # one frame with mid-run ticks seen: let the program run 1 s more
    if stop_at is None and not f["finished"] and f["ticks"] > 0:
        stop_at = now + 1.0
    if stop_at is None and now - start > 120:
        stop_at = now                   # no buffer mid-run: the checks will say so
    if stop_at is not None and now >= stop_at:
        try:
            os.kill(prog, signal.SIGINT)
        except ProcessLookupError:
            pass
        stop_at = float("inf")
sys.exit(top.wait())
PY
rc=$?
wait $prog_pid
prc=$?
check "top --connect: exit 0 (got $rc; $(head -c 300 "$tmp/b.top.err"))" [ $rc -eq 0 ]
# GHC's handler of SIGINT shuts the RTS down, then ends the program by SIGINT
check "the program ended by the interrupt (status $prc)" [ $prc -eq 130 -o $prc -eq 1 ]
check "top --save wrote exactly what the program sent" cmp -s "$tmp/b.saved" "$tmp/b.sent"
"$evprof" report "$tmp/b.sent" >"$tmp/b.batch" 2>"$tmp/b.batch.err"
check "the sent log is complete (batch report: exit 0)" [ $? -eq 0 -a ! -s "$tmp/b.batch.err" ]
"$PYTHON" - "$tmp/b.top.json" "$tmp/b.batch" <<'PY'
import json, re, sys
frames = [json.loads(l) for l in open(sys.argv[1])]
report = open(sys.argv[2]).read()
fails = []
def check(what, cond):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails.append(what)
check("at least two frames (%d)" % len(frames), len(frames) >= 2)
last = frames[-1]
check("the last frame is finished, with the end marker", last["finished"] and last["end_marker"])
mid = [f for f in frames[:-1] if f["ticks"] > 0]
check("ticks mid-run (%s)" % [f["ticks"] for f in frames], len(mid) >= 1)
check("ticks grow: mid-run %s < final %d" % ([f["ticks"] for f in mid][:5], last["ticks"]),
      len(mid) >= 1 and all(f["ticks"] < last["ticks"] for f in mid))
check("ticks never decrease", all(a["ticks"] <= b["ticks"] for a, b in zip(frames, frames[1:])))
check("cost-centre names mid-run", len(mid) >= 1 and any(r["label"] == "sorty" for r in mid[0]["top"]))
m = re.search(r"\((\d+) ticks @", report)
check("final ticks %d == the batch report's %s" % (last["ticks"], m and m.group(1)),
      m and int(m.group(1)) == last["ticks"])
rows = {}
lines = report.splitlines()
i = next(k for k, l in enumerate(lines) if l.startswith("COST CENTRE")) + 2
while i < len(lines) and lines[i].strip():
    p = lines[i].split()
    rows[(p[0], p[1])] = int(p[-1])
    i += 1
got = {(r["label"], r["module"]): r["ticks"] for r in last["top"]}
check("the report has summary rows (%d)" % len(rows), len(rows) >= 3)
for k, v in rows.items():
    check("%s.%s: %d ticks as in the report (%s)" % (k[1], k[0], v, got.get(k)), got.get(k) == v)
check("collections counted", last["gc"]["collections"] > 0)
sys.exit(1 if fails else 0)
PY
check "top --connect figures (see above)" [ $? -eq 0 ]

finish
