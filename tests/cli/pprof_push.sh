#!/usr/bin/env bash
# `evprof pprof --push URL`: the request a Pyroscope server expects, sent to
# a local receiver (tests/support/pyroscope_receiver.py) that checks it:
# POST URL/ingest with name (the program's, or --app), from and until (Unix
# seconds from the log's wall clock) and format=pprof, a multipart form
# whose "profile" part is the gzip-compressed profile (the same bytes as
# -o writes), with the report's ticks. A server error or no server is
# exit 1 with a message.
#
# Usage: tests/cli/pprof_push.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
data=tests/data/ghc
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
export PYTHONPATH=tests/support

# receiver NAME STATUS: starts one; sets $url
receiver() {
    "$PYTHON" tests/support/pyroscope_receiver.py "$tmp/$1.port" "$tmp/$1.log" "$2" &
    pids+=($!)
    for _ in $(seq 100); do [ -s "$tmp/$1.port" ] && break; sleep 0.1; done
    url=http://127.0.0.1:$(cat "$tmp/$1.port")
}
ticks_of() { grep -o '([0-9]* ticks @' | grep -o '[0-9]*'; }

receiver ok 200
log=$data/par-N2-p.eventlog
"$evprof" pprof --push "$url" "$log" >"$tmp/out" 2>"$tmp/err"
check "push: exit 0" [ $? -eq 0 ]
check "push without -o writes nothing to stdout" [ ! -s "$tmp/out" ]
ticks=$("$evprof" report "$log" | ticks_of)
wall=$("$evprof" dump "$log" | grep -m1 'wall clock time')
first=$("$evprof" info "$log" | grep -o 'events from [0-9.]* s' | grep -o '[0-9.]*')
check "the receiver found the request right, name=par, the report's ticks" "$PYTHON" -c '
import json, math, re, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert len(r) == 1, r
e, g = r[0]["errors"], r[0]["got"]
assert not e, e
q = g["query"]
assert q["name"] == "par" and q["format"] == "pprof", q
assert g["samples"] == int(sys.argv[2]), g
# from/until: the log'"'"'s span on the wall clock, in whole seconds
t, s, ns = map(int, re.match(r"(\d+): .*wall clock time (\d+)s (\d+)ns", sys.argv[3]).groups())
start = g["time_nanos"]
assert abs(start - (s * 10**9 + ns - t + round(float(sys.argv[4]) * 1e9))) < 1000, start
assert int(q["from"]) == start // 10**9, (q, start)
assert int(q["until"]) == -(-(start + g["duration_nanos"]) // 10**9), q
assert g["parts"] == ["profile"] and g["content_type"] == "multipart/form-data", g
' "$tmp/ok.log" "$ticks" "$wall" "$first"

# --app and -o: the file holds the bytes that were pushed
"$evprof" pprof --push "$url/" --app 'my app{env=test}' -o "$tmp/p.pb.gz" "$log" 2>"$tmp/err"
check "push with -o: exit 0" [ $? -eq 0 ]
check "--app names the application" "$PYTHON" -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert len(r) == 2 and not r[1]["errors"], r[-1]
assert r[1]["got"]["query"]["name"] == "my app{env=test}", r[1]["got"]["query"]
' "$tmp/ok.log"
check "-o holds the bytes that were pushed" cmp -s "$tmp/p.pb.gz" "$tmp/ok.log.2.pb.gz"

# a heap census goes the same way
"$evprof" pprof --push "$url" tests/data/heap/leak-hT.eventlog 2>"$tmp/err"
check "heap push: exit 0" [ $? -eq 0 ]
prog=$("$evprof" info tests/data/heap/leak-hT.eventlog | sed -n 's|^program: *||p')
check "heap push: named after the program ${prog##*/}" "$PYTHON" -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert len(r) == 3 and not r[2]["errors"], r[-1]
assert r[2]["got"]["query"]["name"] == sys.argv[2], r[2]["got"]
' "$tmp/ok.log" "${prog##*/}"

# the receiver catches a request that is not Pyroscope's (so the test can fail)
curl_ok=$(command -v curl || true)
if [ -n "$curl_ok" ]; then
    curl -s -o /dev/null --data-binary @"$tmp/p.pb.gz" "$url/ingest?name=x&from=1&until=2"
    check "the receiver flags a raw body without format=pprof" "$PYTHON" -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
assert r[-1]["errors"], r[-1]
' "$tmp/ok.log"
fi

# a server that refuses: exit 1, a message naming the status
receiver fail 500
"$evprof" pprof --push "$url" "$log" 2>"$tmp/err"
check "HTTP 500: exit 1" [ $? -eq 1 ]
check "HTTP 500: says so" grep -q 'cannot push to .*HTTP 500' "$tmp/err"
# no server at all
port=$(cat "$tmp/fail.port")
kill "${pids[-1]}"; wait "${pids[-1]}" 2>/dev/null
"$evprof" pprof --push "http://127.0.0.1:$port" "$log" 2>"$tmp/err"
check "no server: exit 1" [ $? -eq 1 ]
check "no server: says so" grep -q 'cannot push to' "$tmp/err"

echo "pprof_push: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
