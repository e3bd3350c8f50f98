#!/usr/bin/env bash
# The Prometheus exposition (issue 31): `evprof metrics FILE` and `evprof
# top --metrics`. Every exposition made here passes `promtool check
# metrics` (SKIPPED where promtool is not installed: Debian's prometheus
# package) and tests/cli/prom.py's stricter reader (no series twice,
# histograms cumulative); the figures equal the batch commands' (gc,
# report, heap, ticky) on GHC 9.0.2 logs and on the hostile log of
# tests/data/metrics; -o replaces a file whole or not at all; `top
# --metrics` serves them over HTTP while it follows a FIFO, its last
# scrape equals `metrics FILE` of the same bytes and its NDJSON line of
# the same moment, and it answers 404, 405 and 431.
#
# Usage: tests/cli/metrics.sh path/to/evprof   (run from the project root)
set -u
evprof=$(realpath "${1:?usage: $0 path/to/evprof}")
tmp=$(mktemp -d)
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
prom="${PYTHON:-python3} tests/cli/prom.py"
g9=tests/data/ghc-9.0.2
ge=tests/data/ghc-events
hostile=tests/data/metrics/hostile.eventlog

have_promtool=0
if command -v promtool >/dev/null 2>&1; then
    have_promtool=1
else
    echo "SKIPPED: promtool is not installed (apt-get install prometheus): its checks"
fi

# exposition FILE WHAT: promtool and prom.py lint (the latter for one
# Python start: checks.bash's defer, verdicts at the end; FILE must stay)
exposition() {
    if [ $have_promtool -eq 1 ]; then
        check "$2: promtool check metrics" promtool check metrics <"$1"
    fi
    defer "$2: prom.py lint" lint "$1"
}
cat >"$tmp/lint.py" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
import prom
from verdicts import serve
def lint(path):
    try:
        probs = prom.lint(prom.parse(open(path, "rb").read()))
    except prom.Bad as e:
        probs = [str(e)]
    assert not probs, "; ".join(probs[:5])
serve({"lint": lint})
PY

# ---- metrics FILE --------------------------------------------------------

for c in "np|$g9/nfib-np-N2-s.eventlog" "s|$g9/nfib-s.eventlog" "p|$g9/nfib-p.eventlog" \
         "n2|$g9/nfib-N2.eventlog" "hc|$g9/nfib-hc.eventlog" "hy|$g9/nfib-hy.eventlog" \
         "ticky|$ge/ticky-new.eventlog" "tickyold|$ge/ticky-ticky.eventlog" \
         "par|$ge/parallelTest.eventlog" "hostile|$hostile" \
         "escape|tests/data/escape/hostile.eventlog" "sleep|$ge/sleep.hy.eventlog"; do
    name=${c%%|*} log=${c#*|}
    "$evprof" metrics -n 100 "$log" >"$tmp/$name.prom" 2>"$tmp/$name.err"
    check "metrics $log: exit 0 ($(cat "$tmp/$name.err"))" [ $? -eq 0 ]
    exposition "$tmp/$name.prom" "metrics $log"
done
for f in tests/golden/metrics-*.out; do
    exposition "$f" "$f"
done
# a damaged log: the figures before the damage, exit 1, still well formed
"$evprof" metrics $ge/testlog-part.eventlog >"$tmp/part.prom" 2>"$tmp/part.err"
check "metrics of a cut log: exit 0 with a warning, or 1" [ $? -le 1 ]
exposition "$tmp/part.prom" "metrics of a cut log"

# GC figures equal `evprof gc -f json`, for the whole run and a window
"$PYTHON" - "$evprof" <<'PY'
import json, subprocess, sys
sys.path.insert(0, "tests/cli")
import prom
evprof = sys.argv[1]
fails = []
def check(what, cond):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails.append(what)
cases = [
    ("tests/data/ghc-9.0.2/nfib-np-N2-s.eventlog", []),
    ("tests/data/ghc-9.0.2/nfib-s.eventlog", []),
    ("tests/data/ghc-9.0.2/nfib-N2.eventlog", []),
    ("tests/data/ghc-events/parallelTest.eventlog", ["--from", "0.01", "--to", "0.05"]),
    ("tests/data/metrics/hostile.eventlog", []),
    ("tests/data/metrics/hostile.eventlog", ["--from", "0.03", "--to", "0.08", "--cap", "0"]),
    ("tests/data/metrics/hostile.eventlog", ["--from", "0.06", "--cap", "1"]),
]
for log, win in cases:
    p = prom.parse(subprocess.run([evprof, "metrics"] + win + [log], capture_output=True).stdout)
    g = json.loads(subprocess.run([evprof, "gc", "-f", "json"] + win + [log],
                                  capture_output=True).stdout)
    what = "%s %s" % (log.split("/")[-1], " ".join(win))
    v = lambda name, **l: prom.value(p, name, **l)
    check("%s: allocated %d" % (what, g["allocated_bytes"]),
          v("ghc_allocated_bytes_total") == g["allocated_bytes"])
    check("%s: copied %d" % (what, g["copied_bytes"]), v("ghc_copied_bytes_total") == g["copied_bytes"])
    check("%s: maximum residency" % what, v("ghc_max_residency_bytes") == g["max_live_bytes"])
    check("%s: total memory in use" % what,
          v("ghc_max_mem_in_use_bytes") == g["max_mem_in_use_bytes"])
    for gen in g["generations"]:
        n = str(gen["gen"])
        check("%s: gen %s collections %d" % (what, n, gen["collections"]),
              v("ghc_gc_collections_total", generation=n) == gen["collections"])
        check("%s: gen %s max pause" % (what, n),
              round(v("ghc_gc_pause_max_seconds", generation=n) * 1e9) == gen["max_pause_ns"])
    check("%s: pauses counted (%d)" % (what, g["gcs"]), v("ghc_gc_pause_seconds_count") ==
          g["gcs"] - (g.get("collections_without_pause") or 0))
    check("%s: pauses summed" % what, round(v("ghc_gc_pause_seconds_sum") * 1e9) ==
          sum(x["elapsed_ns"] for x in g["generations"]))
    for c in g["capabilities"]:
        cap = str(c["cap"])
        check("%s: cap %s mutator" % (what, cap),
              round(v("ghc_mutator_seconds_total", capability=cap) * 1e9) == c["mutator_elapsed_ns"])
        check("%s: cap %s GC" % (what, cap),
              round(v("ghc_gc_seconds_total", capability=cap) * 1e9) == c["gc_elapsed_ns"])
        if c["sparks"] is not None and g["threaded"] and "ghc_sparks_created_total" in p["families"]:
            for k in ("created", "dud", "overflowed", "converted", "gcd", "fizzled"):
                check("%s: cap %s sparks %s" % (what, cap, k),
                      v("ghc_sparks_%s_total" % k, capability=cap) == c["sparks"][k])
sys.exit(1 if fails else 0)
PY
check "GC figures equal gc -f json (above)" [ $? -eq 0 ]

# ticks per cost centre equal the report's summary; bands the last census
# of heap -f csv; ticky entries and allocations ticky -f csv
"$PYTHON" - "$evprof" <<'PY'
import csv, io, json, re, subprocess, sys
sys.path.insert(0, "tests/cli")
import prom
evprof = sys.argv[1]
fails = []
def check(what, cond):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails.append(what)
def run(*a):
    return subprocess.run([evprof] + list(a), capture_output=True).stdout
for log, win in [("tests/data/ghc-9.0.2/nfib-p.eventlog", []),
                 ("tests/data/ghc-9.0.2/nfib-N2.eventlog", []),
                 ("tests/data/ghc-9.0.2/nfib-N2.eventlog", ["--cap", "0"]),
                 ("tests/data/ghc-events/time-prof.eventlog", ["--from", "0.05"]),
                 ("tests/data/metrics/hostile.eventlog", [])]:
    p = prom.parse(run("metrics", "-n", "1000", *win, log))
    rep = run("report", *win, log).decode("utf-8")
    what = "%s %s" % (log.split("/")[-1], " ".join(win))
    m = re.search(r"\((\d+) ticks @", rep)
    check("%s: %s ticks" % (what, m.group(1)), prom.value(p, "ghc_profile_ticks_total") == int(m.group(1)))
    # the summary's rows, one series per Module.label and source location
    # (rows that read the same once shown summed, as the exposition sums them)
    lines = rep.splitlines()
    head = next(k for k, l in enumerate(lines) if l.startswith("COST CENTRE"))
    cols = [lines[head].index(h) for h in ("MODULE", "SRC", "%time")]
    rows = {}
    for l in lines[head + 2:]:
        if not l.strip():
            break
        label, module = l[:cols[0]].rstrip(), l[cols[0]:cols[1]].rstrip()
        key = (module + "." + label, l[cols[1]:cols[2]].rstrip())
        rows[key] = rows.get(key, 0) + int(l.split()[-1])
    check("%s: summary rows (%d)" % (what, len(rows)), len(rows) >= 1)
    for (k, src), t in rows.items():
        try:
            got = prom.value(p, "ghc_cost_centre_ticks_total", cost_centre=k, src=src)
        except KeyError:
            got = None
        check("%s: %s (%s) %d ticks" % (what, k, src, t), got == t)
# namesakes (one Module.label at several source locations: GHC 9.0.2,
# -fprof-auto-calls, tests/data/namesakes) are series of their own, each
# with its cost centre's ticks (report --json), together the ticks of the
# name; every cost centre listed, the series sum to the total
log = "tests/data/namesakes/Lexer-calls.nt.p.1.eventlog"
p = prom.parse(run("metrics", "-n", "1000", log))
js = json.loads(run("report", "--json", log))
ticks = {}
todo = [js["profile"]]
while todo:
    st = todo.pop()
    ticks[st["id"]] = ticks.get(st["id"], 0) + st["ticks"]
    todo.extend(st.get("children", []))
for name in ("lexer", "source.expr"):
    want = {c["src_loc"]: ticks[c["id"]] for c in js["cost_centres"]
            if c["label"] == name and c["module"] == "Main" and ticks.get(c["id"])}
    got = {l.get("src"): v for n, l, v in p["samples"]  # 0: on stacks, never their leaf
           if n == "ghc_cost_centre_ticks_total" and l["cost_centre"] == "Main." + name and v}
    check("namesakes: %d series of Main.%s, one per source location, each its ticks" %
          (len(want), name), len(want) > 1 and got == want)
    check("namesakes: Main.%s's series sum to the name's %d ticks" % (name, sum(want.values())),
          sum(got.values()) == sum(want.values()))
check("namesakes: the series sum to the total",
      sum(v for n, l, v in p["samples"] if n == "ghc_cost_centre_ticks_total") ==
      prom.value(p, "ghc_profile_ticks_total"))
for log in ["tests/data/ghc-9.0.2/nfib-hc.eventlog", "tests/data/ghc-9.0.2/nfib-hy.eventlog",
            "tests/data/ghc-events/sleep.hy.eventlog"]:
    p = prom.parse(run("metrics", "-n", "1000", log))
    rows = list(csv.DictReader(io.StringIO(run("heap", "-f", "csv", log).decode())))
    last = rows[-1]["census"]
    census = {r["band"]: int(r["bytes"]) for r in rows if r["census"] == last}
    got = {l["band"]: v for n, l, v in p["samples"] if n == "ghc_heap_band_bytes"}
    check("%s: the last census's %d bands" % (log.split("/")[-1], len(census)), got == census)
    check("%s: the census total" % log.split("/")[-1],
          prom.value(p, "ghc_heap_census_bytes") == sum(census.values()))
for log in ["tests/data/ghc-events/ticky-new.eventlog", "tests/data/ghc-events/ticky-ticky.eventlog"]:
    p = prom.parse(run("metrics", "-n", "1000", log))
    rows = list(csv.DictReader(io.StringIO(run("ticky", "-f", "csv", log).decode())))
    want = {}
    for r in rows:
        if int(r["entries"]) or int(r["alloc"]):
            e = want.setdefault(r["name"], [0, 0])
            e[0] += int(r["entries"])
            e[1] += int(r["alloc"])
    got = {}
    for n, l, v in p["samples"]:
        if n == "ghc_ticky_entries_total":
            got.setdefault(l["counter"], [0, 0])[0] = v
        if n == "ghc_ticky_alloc_bytes_total":
            got.setdefault(l["counter"], [0, 0])[1] = v
    check("%s: %d counters' entries and allocations" % (log.split("/")[-1], len(want)),
          got == want and len(want) > 0)
# --top bounds every list
p = prom.parse(run("metrics", "-n", "2", "tests/data/metrics/hostile.eventlog"))
for fam in ("ghc_cost_centre_ticks_total", "ghc_cost_centre_inherited_ticks_total",
            "ghc_heap_band_bytes", "ghc_ticky_entries_total", "ghc_ticky_alloc_bytes_total"):
    check("-n 2: two %s" % fam, sum(1 for n, l, v in p["samples"] if n == fam) == 2)
sys.exit(1 if fails else 0)
PY
check "profile, heap and ticky figures equal the batch commands' (above)" [ $? -eq 0 ]

# -o: replaced whole; a failed read leaves the old file; not over the input
echo old >"$tmp/x.prom"
chmod 640 "$tmp/x.prom"
"$evprof" metrics $g9/nfib-s.eventlog -o "$tmp/x.prom"
check "-o: exit 0" [ $? -eq 0 ]
"$evprof" metrics $g9/nfib-s.eventlog >"$tmp/x.stdout"
check "-o: the same as standard output" cmp -s "$tmp/x.prom" "$tmp/x.stdout"
check "-o: the file's mode kept" [ "$(stat -c %a "$tmp/x.prom")" = 640 ]
cp "$tmp/x.prom" "$tmp/before"
printf 'not a log' >"$tmp/bad.eventlog"
"$evprof" metrics "$tmp/bad.eventlog" -o "$tmp/x.prom" 2>"$tmp/err"
check "a bad log: exit 1" [ $? -eq 1 ]
check "a bad log: the old file stays" cmp -s "$tmp/x.prom" "$tmp/before"
check "a bad log: no temporary file left" [ "$(ls "$tmp" | grep -c '^\.x\.prom\|x\.prom\.')" -eq 0 ]
"$evprof" metrics --memory-limit 40M $g9/nfib-p.eventlog -o "$tmp/x.prom" 2>"$tmp/err"
check "--memory-limit: taken (exit 0)" [ $? -eq 0 ]
cp $g9/nfib-s.eventlog "$tmp/in.eventlog"
"$evprof" metrics "$tmp/in.eventlog" -o "$tmp/in.eventlog" 2>"$tmp/err"
check "-o over the input: usage error" [ $? -eq 2 ]
check "-o over the input: the log stays" cmp -s "$tmp/in.eventlog" $g9/nfib-s.eventlog
"$evprof" metrics -n 0 $g9/nfib-s.eventlog >/dev/null 2>&1
check "-n 0: usage error" [ $? -eq 2 ]
"$evprof" metrics $g9/nfib-s.eventlog $g9/nfib-p.eventlog >/dev/null 2>&1
check "two logs: usage error" [ $? -eq 2 ]
"$evprof" metrics --between MARK tests/data/markers/*.eventlog >/dev/null 2>"$tmp/err"
rc=$?
check "several --between windows: refused (exit $rc)" [ $rc -ne 0 ]

# ---- top --metrics -------------------------------------------------------

free_port() { "$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() {   # wait_port ERRFILE: the port evprof says it serves on
    for _ in $(seq 100); do
        p=$(sed -n 's|^evprof top: serving http://127.0.0.1:\([0-9]*\)/metrics$|\1|p' "$1")
        [ -n "$p" ] && { echo "$p"; return 0; }
        sleep 0.1
    done
    return 1
}

# a FIFO fed slowly: scrapes while it follows; with --ndjson the frames too
log=$g9/nfib-p.eventlog
mkfifo "$tmp/fifo"
"$evprof" top --ndjson --interval 0.2 --metrics 127.0.0.1:0 --metrics-linger 30 \
    "$tmp/fifo" >"$tmp/top.json" 2>"$tmp/top.err" &
toppid=$!
pids="$pids $toppid"
port=$(wait_port "$tmp/top.err")
check "top --metrics: says where it serves ($(head -c 200 "$tmp/top.err"))" [ -n "$port" ]
url=http://127.0.0.1:$port/metrics
"$PYTHON" - "$url" "$tmp" <<'PY' &
# while the log comes: scrape every 0.1 s, keep each exposition
import sys, time, urllib.request
url, tmp = sys.argv[1], sys.argv[2]
for i in range(30):
    with urllib.request.urlopen(url, timeout=5) as r:
        open("%s/scrape-%02d.prom" % (tmp, i), "wb").write(r.read())
    time.sleep(0.1)
PY
scraper=$!
"$PYTHON" tests/support/feed_log.py fifo "$log" "$tmp/fifo" --seed 3 --max-chunk 16384 --max-pause 0.2
wait $scraper
check "scrapes while following" [ "$(ls "$tmp"/scrape-*.prom | wc -l)" -eq 30 ]
n=0
for f in "$tmp"/scrape-*.prom; do
    if [ $have_promtool -eq 1 ] && ! promtool check metrics <"$f" >/dev/null 2>&1; then
        bad "promtool on $f"; n=1
    fi
done
$prom lint "$tmp"/scrape-*.prom || { bad "prom.py lint of the scrapes (above)"; n=1; }
[ $n -eq 0 ] && ok
# the end of the read: the last frame is published (finished 1)
for _ in $(seq 100); do
    curl -s "$url" >"$tmp/last.prom" 2>/dev/null || "$PYTHON" -c "import sys,urllib.request;sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1]).read())" "$url" >"$tmp/last.prom"
    grep -q '^evprof_read_finished{.*} 1$' "$tmp/last.prom" && break
    sleep 0.1
done
exposition "$tmp/last.prom" "the last scrape"
check "the last scrape: finished" grep -q '^evprof_read_finished{.*} 1$' "$tmp/last.prom"

"$PYTHON" - "$url" "$tmp" "$evprof" "$log" <<'PY'
import http.client, json, socket, subprocess, sys, urllib.parse
sys.path.insert(0, "tests/cli")
import prom
url, tmp, evprof, log = sys.argv[1:5]
fails = []
def check(what, cond):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails.append(what)
u = urllib.parse.urlparse(url)
def req(method, path, body=None, headers={}):
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, dict(r.getheaders()), data
st, h, body = req("GET", "/metrics")
check("GET /metrics: 200", st == 200)
check("content type 0.0.4", h.get("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
st, h, _ = req("GET", "/metrics?name[]=x")
check("a query string: 200", st == 200)
for path in ("/", "/metrics/", "/metric", "/favicon.ico", "/../metrics"):
    st, h, _ = req("GET", path)
    check("GET %s: 404 (%d)" % (path, st), st == 404)
for m in ("POST", "PUT", "HEAD", "DELETE", "OPTIONS"):
    st, h, _ = req(m, "/metrics", body=b"x" if m in ("POST", "PUT") else None)
    check("%s /metrics: 405 (%d)" % (m, st), st == 405 and (m == "HEAD" or h.get("Allow") == "GET"))
st, h, _ = req("GET", "/metrics", headers={"X-Pad": "y" * 10000})
check("10 kB of headers: 431 (%d)" % st, st == 431)
s = socket.create_connection((u.hostname, u.port), timeout=5)
s.sendall(b"BREW /pot HTCPCP/1.0\r\n\r\n")
check("garbage: 400", s.recv(100).startswith(b"HTTP/1.1 400 "))
s.close()
# the last scrape equals `metrics FILE` of the same bytes, and the NDJSON
# line of the same frame
last = prom.parse(open(tmp + "/last.prom", "rb").read())
batch = prom.parse(subprocess.run([evprof, "metrics", log], capture_output=True).stdout)
own = ("evprof_cpu_seconds_total", "evprof_max_resident_memory_bytes", "evprof_refreshes_total")
a = sorted((n, sorted(l.items()), v) for n, l, v in last["samples"] if n not in own)
b = sorted((n, sorted(l.items()), v) for n, l, v in batch["samples"])
check("the last scrape == metrics FILE (%d samples)" % len(b), a == b and len(b) > 50)
frames = [json.loads(l) for l in open(tmp + "/top.json")]
f = frames[-1]
check("%d NDJSON frames, the last finished" % len(frames), len(frames) >= 3 and f["finished"])
v = lambda name, **l: prom.value(last, name, **l)
check("NDJSON and scrape: allocated", f["gc"]["allocated"] == v("ghc_allocated_bytes_total"))
check("NDJSON and scrape: copied", f["gc"]["copied_bytes"] == v("ghc_copied_bytes_total"))
check("NDJSON and scrape: collections", f["gc"]["collections"] ==
      sum(x for n, l, x in last["samples"] if n == "ghc_gc_collections_total"))
check("NDJSON and scrape: pauses", f["gc"]["paused"] == v("ghc_gc_pause_seconds_count"))
check("NDJSON and scrape: ticks", f["ticks"] == v("ghc_profile_ticks_total"))
check("NDJSON and scrape: heap size", f["gc"]["heap_size"] == v("ghc_heap_size_bytes"))
check("NDJSON and scrape: refreshes", f["seq"] == v("evprof_refreshes_total"))
check("NDJSON and scrape: program and pid", v("ghc_allocated_bytes_total", program=f["program"],
                                                pid=str(f["pid"])) == f["gc"]["allocated"])
for r in f["top"]:
    key = r["module"] + "." + r["label"]
    check("NDJSON and scrape: %s ticks" % key, v("ghc_cost_centre_ticks_total", cost_centre=key) == r["ticks"])
sys.exit(1 if fails else 0)
PY
check "the endpoint's answers and figures (above)" [ $? -eq 0 ]
kill -INT $toppid
wait $toppid
rc=$?
check "Ctrl-C ends the linger: exit 0, the read was complete (got $rc)" [ $rc -eq 0 ]
closed() { ! "$PYTHON" -c "import socket,sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=2)" "$1" 2>/dev/null; }
check "the port is closed after exit" closed "$port"

# --metrics alone: no view (nothing on standard output); SIGTERM stops it
# while it waits for a FIFO's writer, exit 130 as for Ctrl-C
mkfifo "$tmp/fifo2"
port=$(free_port)
"$evprof" top --metrics "$port" "$tmp/fifo2" >"$tmp/headless.out" 2>"$tmp/headless.err" &
toppid=$!
pids="$pids $toppid"
got=$(wait_port "$tmp/headless.err")
check "a bare port binds 127.0.0.1:$port (got $got)" [ "$got" = "$port" ]
curl -s "http://127.0.0.1:$port/metrics" >"$tmp/empty.prom" 2>/dev/null ||
    "$PYTHON" -c "import sys,urllib.request;sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1]).read())" "http://127.0.0.1:$port/metrics" >"$tmp/empty.prom"
exposition "$tmp/empty.prom" "before the first frame"
sleep 1.3
kill -TERM $toppid
wait $toppid
rc=$?
check "SIGTERM: exit 130 (got $rc)" [ $rc -eq 130 ]
check "--metrics alone: nothing on standard output" [ ! -s "$tmp/headless.out" ]

# the address: refused as a usage error; a port in use: exit 1, a message
"$evprof" top --metrics nonsense $g9/nfib-s.eventlog >/dev/null 2>"$tmp/err"
check "--metrics nonsense: usage error" [ $? -eq 2 ]
check "--metrics nonsense: says so" grep -q "HOST:PORT" "$tmp/err"
for opt in "--metrics-top 10" "--metrics-linger 1"; do
    "$evprof" top $opt $g9/nfib-s.eventlog >/dev/null 2>"$tmp/err"
    check "$opt without --metrics: usage error" [ $? -eq 2 ]
done
"$PYTHON" -c 'import socket,time,sys; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(20)' >"$tmp/busy" &
busy=$!
pids="$pids $busy"
for _ in $(seq 50); do [ -s "$tmp/busy" ] && break; sleep 0.1; done
"$evprof" top --metrics "127.0.0.1:$(cat "$tmp/busy")" $g9/nfib-s.eventlog >/dev/null 2>"$tmp/err"
check "a port in use: exit 1" [ $? -eq 1 ]
check "a port in use: says so ($(cat "$tmp/err"))" grep -q "cannot listen: Address already in use" "$tmp/err"
kill $busy 2>/dev/null

verdicts "$tmp/lint.py"
echo "metrics: $passed passed, $failed failed"
[ $failed -eq 0 ]
