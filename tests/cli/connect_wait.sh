#!/usr/bin/env bash
# --connect started before the program (issue 27, point 9): a Unix socket
# that does not exist yet, or a port nothing listens on yet, is waited
# for, as --follow waits for a file, until --idle-timeout or Ctrl-C; then
# the log it serves is read as any other. The server here is a few lines
# of Python serving a real GHC log (tests/cli/live_socket_ghc.sh does the
# same with a real GHC program).
#
# Usage: tests/cli/connect_wait.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
log=tests/data/newuser/parser.eventlog
command -v "${PYTHON:-python3}" >/dev/null || { echo "SKIPPED: needs python3"; exit 77; }
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

serve() {   # ADDR DELAY: after DELAY seconds, listen on ADDR, send the log once
    "$PYTHON" - "$1" "$2" "$log" <<'PY' &
import socket, sys, time
addr, delay, path = sys.argv[1], float(sys.argv[2]), sys.argv[3]
time.sleep(delay)
if addr.startswith("unix:"):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(addr[5:])
else:
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", int(addr.rsplit(":", 1)[1])))
s.listen(1)
c, _ = s.accept()
c.sendall(open(path, "rb").read())
c.close()
PY
    pids+=($!)
}
"$evprof" report "$log" >"$tmp/batch"

# a Unix socket made 1.5 s after evprof started: waited for, said once
serve "unix:$tmp/a.sock" 1.5
timeout 60 "$evprof" report --connect "unix:$tmp/a.sock" >"$tmp/a.out" 2>"$tmp/a.err"
rc=$?
check "unix socket made later: exit 0 (got $rc: $(head -c 300 "$tmp/a.err"))" [ $rc -eq 0 ]
check "unix socket made later: the batch report" cmp -s "$tmp/a.out" "$tmp/batch"
check "unix socket made later: the wait is said" grep -q "waiting for unix:.*a.sock to accept a connection" "$tmp/a.err"

# TCP: a port nothing listens on yet
port=$("$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
serve "tcp:127.0.0.1:$port" 1
timeout 60 "$evprof" folded --connect "tcp:127.0.0.1:$port" >"$tmp/t.out" 2>"$tmp/t.err"
rc=$?
check "tcp port listened on later: exit 0 (got $rc: $(head -c 300 "$tmp/t.err"))" [ $rc -eq 0 ]
"$evprof" folded "$log" >"$tmp/t.batch"
check "tcp port listened on later: the batch folded stacks" cmp -s "$tmp/t.out" "$tmp/t.batch"

# bounded by --idle-timeout: nothing ever listens
start=$(date +%s%N)
timeout 60 "$evprof" report --idle-timeout 0.5 --connect "unix:$tmp/never.sock" >"$tmp/n.out" 2>"$tmp/n.err"
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
check "no socket ever: exit 1 (got $rc)" [ $rc -eq 1 ]
check "no socket ever: said, with the timeout" grep -q "cannot connect: No such file or directory (nothing accepted within --idle-timeout)" "$tmp/n.err"
check "no socket ever: ends after the timeout, not at once (${ms} ms)" [ "$ms" -ge 450 ] && [ "$ms" -lt 20000 ]
check "no socket ever: no output" [ ! -s "$tmp/n.out" ]

# a bad address is still refused at once
timeout 10 "$evprof" report --connect "bogus" >/dev/null 2>"$tmp/b.err"
check "a bad address: an error at once" [ $? -ne 0 ] && [ $? -ne 124 ]

echo "connect_wait: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
