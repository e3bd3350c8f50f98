#!/usr/bin/env bash
# What the reliability campaign found wrong with `pprof --push URL`
# (issue 27, point 22): a query string or fragment lost Pyroscope's
# parameters yet exited 0; an escape byte and user:secret@ credentials
# were echoed raw in messages; schemes other than http(s) went to libcurl;
# the 300 s timeout could not be set. Against the local receiver
# (tests/support/pyroscope_receiver.py) and a server that never answers.
#
# Usage: tests/cli/hostile_push.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
log=tests/data/ghc/par-N2-p.eventlog
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
export PYTHONPATH=tests/support

"$PYTHON" tests/support/pyroscope_receiver.py "$tmp/port" "$tmp/got.log" 200 &
pids+=($!)
for _ in $(seq 100); do [ -s "$tmp/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/port")
base=http://127.0.0.1:$port
# the last request the receiver got: its errors, path and query as JSON
last() { tail -1 "$tmp/got.log"; }
requests() { [ -s "$tmp/got.log" ] && wc -l <"$tmp/got.log" || echo 0; }

# ---- a query of its own: kept, Pyroscope's parameters added --------------
"$evprof" pprof --push "$base/?tenant=team%20a&x=1" "$log" 2>"$tmp/err"
check "query: exit 0" [ $? -eq 0 ]
check "query: the request is Pyroscope's, the query kept" "$PYTHON" -c '
import json, sys
r = json.loads(sys.argv[1])
assert not r["errors"], r["errors"]
q = r["got"]["query"]
assert r["got"]["path"] == "/ingest", r["got"]["path"]
assert q["tenant"] == "team a" and q["x"] == "1" and q["name"] == "par", q
assert q["format"] == "pprof" and int(q["until"]) > int(q["from"]), q
' "$(last)"
# a path prefix (a reverse proxy) keeps its path
"$evprof" pprof --push "$base/pyroscope/?tenant=b" "$log" 2>"$tmp/err"
check "path and query: exit 0" [ $? -eq 0 ]
check "path and query: posted to PATH/ingest" "$PYTHON" -c '
import json, sys
r = json.loads(sys.argv[1])
assert r["got"]["path"] == "/pyroscope/ingest", r["got"]["path"]
assert r["got"]["query"]["tenant"] == "b" and r["got"]["query"]["name"] == "par"
' "$(last)"

# ---- refused before anything is read or sent: exit 2, a clear reason ----
# (each URL, what the message says)
before=$(requests)
while IFS='|' read -r url why; do
    "$evprof" pprof --push "$url" "$log" >"$tmp/out" 2>"$tmp/err"
    check "'$url': exit 2" [ $? -eq 2 ]
    check "'$url': says why" grep -qF "$why" "$tmp/err"
    check "'$url': nothing on stdout" [ ! -s "$tmp/out" ]
done <<EOF
$base/#frag|a fragment ('#...') is never sent to the server: remove it
$base/?x=1#frag|a fragment ('#...') is never sent to the server
$base/?name=other|the query sets 'name', which evprof sets for Pyroscope (give --app)
$base/?a=1&FROM=2|the query sets 'from', which evprof sets
$base/?until=9|the query sets 'until'
$base/?%66ormat=json|the query sets 'format'
ftp://127.0.0.1:$port/|not an http:// or https:// URL (the scheme is ftp)
file:///etc/passwd|not an http:// or https:// URL (the scheme is file)
gopher://127.0.0.1:$port/|not an http:// or https:// URL
dict://127.0.0.1:$port/|not an http:// or https:// URL
127.0.0.1:$port|not a URL
EOF
check "refused URLs: the receiver got no request" [ "$(requests)" -eq "$before" ]

# ---- credentials and control bytes never shown raw ----------------------
"$evprof" pprof --push "http://alice:s3cr3t@127.0.0.1:1/" "$log" >/dev/null 2>"$tmp/err"
check "credentials, no server: exit 1" [ $? -eq 1 ]
check "credentials, no server: the password not shown" bash -c "! grep -q 's3cr3t' '$tmp/err'"
check "credentials, no server: nor the user" bash -c "! grep -q 'alice' '$tmp/err'"
check "credentials, no server: shown as ***" grep -qF "cannot push to http://***@127.0.0.1:1/:" "$tmp/err"
"$evprof" pprof --push "http://alice:s3cr3t@127.0.0.1:$port/#x" "$log" >/dev/null 2>"$tmp/err"
check "credentials in a refused URL: exit 2" [ $? -eq 2 ]
check "credentials in a refused URL: not shown" bash -c "! grep -q 's3cr3t\\|alice' '$tmp/err'"
"$evprof" pprof --push $'http://127.0.0.1:\e[31m99/' "$log" >/dev/null 2>"$tmp/err"
check "ESC in the URL: exit 2" [ $? -eq 2 ]
check "ESC in the URL: no raw escape byte" bash -c "! grep -q $'\\e' '$tmp/err'"
check "ESC in the URL: shown visibly" grep -qF 'http://127.0.0.1:\x1b[31m99/' "$tmp/err"
"$evprof" pprof --push $'http://u:p\e]0;x\a@127.0.0.1:1/' "$log" >/dev/null 2>"$tmp/err"
check "controls in the credentials: no raw escape byte" bash -c "! grep -q $'\\e\\|\\a' '$tmp/err'"
# the user and password do reach the server (HTTP authentication)
"$evprof" pprof --push "http://alice:s3cr3t@127.0.0.1:$port/" "$log" 2>"$tmp/err"
check "credentials: pushed, exit 0" [ $? -eq 0 ]
check "credentials: the request is Pyroscope's" "$PYTHON" -c '
import json, sys
r = json.loads(sys.argv[1])
assert not r["errors"] and r["got"]["path"] == "/ingest", r
' "$(last)"

# ---- --push-timeout: a server that accepts and never answers -------------
"$PYTHON" - "$tmp/silent.port" <<'PY' &
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(4)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
conns = []
while True:
    c, _ = s.accept()
    conns.append(c)         # read nothing, answer nothing
PY
pids+=($!)
for _ in $(seq 100); do [ -s "$tmp/silent.port" ] && break; sleep 0.1; done
start=$(date +%s.%N)
timeout 60 "$evprof" pprof --push "http://127.0.0.1:$(cat "$tmp/silent.port")" --push-timeout 1 \
    "$log" >/dev/null 2>"$tmp/err"
status=$?
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
check "--push-timeout 1, a silent server: exit 1 (got $status)" [ "$status" -eq 1 ]
check "--push-timeout 1, a silent server: gives up after about 1 s ($secs s)" \
    awk -v s="$secs" 'BEGIN { exit !(s >= 0.9 && s < 10) }'
check "--push-timeout 1, a silent server: says it timed out" grep -qi "timed out\|timeout" "$tmp/err"
for bad in 0 -1 abc 1e99; do
    "$evprof" pprof --push "$base" --push-timeout "$bad" "$log" >/dev/null 2>&1
    check "--push-timeout '$bad': exit 2" [ $? -eq 2 ]
done
"$evprof" pprof --push-timeout 5 -o "$tmp/p.pb.gz" "$log" >/dev/null 2>"$tmp/err"
check "--push-timeout without --push: exit 2" [ $? -eq 2 ]
"$evprof" pprof --help | grep -q -- "--push-timeout SECONDS"
check "--push-timeout in --help" [ $? -eq 0 ]

echo "hostile_push: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
