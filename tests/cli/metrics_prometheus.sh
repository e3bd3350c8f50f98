#!/usr/bin/env bash
# `evprof top --metrics` scraped by a real Prometheus (Debian's prometheus
# package) while it follows a real GHC 9.0.2 program: builds
# tests/data/live/Main.hs with ghc -prof -rtsopts, starts prometheus on
# 127.0.0.1 (free ports, its own storage in a temporary directory, a
# config that scrapes evprof every second), runs `evprof top --metrics
# ... -- ./prog`, and asks Prometheus' HTTP API (/api/v1/query) for the
# allocated bytes, the collections per generation and each cost centre's
# ticks once the read is over: they equal `evprof gc` and `evprof report`
# of the same run's log (--save). Also: the target was up with no scrape
# error, Prometheus stored several scrapes during the run, and the ticks
# it saw mid-run were below the final ones. SKIPPED (77) without
# prometheus, ghc or GHC's profiling libraries.
#
# Usage: tests/cli/metrics_prometheus.sh path/to/evprof   (run from the project root)
set -u
evprof=$(realpath "${1:?usage: $0 path/to/evprof}")
src=$(realpath tests/data/live/Main.hs)
for tool in prometheus ghc; do
    if ! command -v $tool >/dev/null 2>&1; then
        echo "SKIPPED: $tool is not installed"
        exit 77
    fi
done
tmp=$(mktemp -d)
pids=""
cleanup() { for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

cp "$src" "$tmp/Main.hs"
if ! (cd "$tmp" && ghc -O -prof -fprof-auto -rtsopts Main.hs -o prog >"$tmp/ghc.log" 2>&1); then
    echo "SKIPPED: ghc -prof failed (no profiling libraries?):"
    tail -5 "$tmp/ghc.log"
    exit 77
fi

free_port() { "$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
eport=$(free_port)
pport=$(free_port)
cat >"$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: evprof
    static_configs:
      - targets: ['127.0.0.1:$eport']
EOF
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
    --web.listen-address="127.0.0.1:$pport" >"$tmp/prometheus.log" 2>&1 &
prom_pid=$!
pids="$pids $prom_pid"
api=http://127.0.0.1:$pport
ready=0
for _ in $(seq 300); do
    if "$PYTHON" -c "import sys,urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)" \
        "$api/-/ready" 2>/dev/null; then
        ready=1
        break
    fi
    sleep 0.1
done
if [ $ready -eq 0 ]; then
    echo "FAIL: prometheus did not start:"
    tail -20 "$tmp/prometheus.log"
    exit 1
fi

# 3 to 10 s on GHC 9.0 at -V0.00005: 2 MiB sample buffers are written
# mid-run, the rest at the end; the figures stay served 120 s after the
# end, until the last ones have been scraped (then Ctrl-C)
(cd "$tmp" && exec "$evprof" top --metrics "127.0.0.1:$eport" --metrics-linger 120 \
    --metrics-top 20 --interval 0.5 --save "$tmp/run.eventlog" \
    -- ./prog 2600 +RTS -p -V0.00005 -RTS >"$tmp/top.out" 2>"$tmp/top.err") &
top_pid=$!
pids="$top_pid $pids"

"$PYTHON" - "$api" "$tmp" <<'PY'
# waits until Prometheus has scraped the finished read, then keeps what
# it says
import json, sys, time, urllib.parse, urllib.request
api, tmp = sys.argv[1], sys.argv[2]
def query(q):
    u = api + "/api/v1/query?" + urllib.parse.urlencode({"query": q})
    r = json.load(urllib.request.urlopen(u, timeout=5))
    assert r["status"] == "success", r
    return r["data"]["result"]
deadline = time.time() + 240
while time.time() < deadline:
    r = query('evprof_read_finished{job="evprof"} == 1')
    if r:
        break
    time.sleep(0.5)
else:
    sys.exit("Prometheus never saw evprof_read_finished == 1")
out = {}
for q in ["ghc_allocated_bytes_total", "ghc_copied_bytes_total", "ghc_gc_collections_total",
          "ghc_profile_ticks_total", "ghc_cost_centre_ticks_total", "ghc_max_residency_bytes",
          "ghc_gc_pause_seconds_count", "up{job=\"evprof\"}",
          "count_over_time(ghc_allocated_bytes_total[10m])",
          "min_over_time(ghc_profile_ticks_total[10m])",
          "histogram_quantile(0.99, sum by (le) (ghc_gc_pause_seconds_bucket))"]:
    out[q] = query(q)
# Prometheus' own counters of samples it refused
own = urllib.request.urlopen(api + "/metrics", timeout=5).read().decode()
out["own"] = [l for l in own.splitlines() if l.startswith("prometheus_target_scrapes_")]
# every query of docs/LIVE.md's panel table: valid PromQL, and a result
# for those this program has figures for
import re
doc = open("docs/LIVE.md").read()
table = doc.split("### Panels", 1)[1].split("\n\n", 2)[2].split("\n\n", 1)[0]
out["panels"] = {}
for row in table.splitlines()[2:]:
    cells = row.split(" | ")
    for q in re.findall(r"`([^`]+)`", cells[-1]):
        u = api + "/api/v1/query?" + urllib.parse.urlencode({"query": q})
        try:
            r = json.load(urllib.request.urlopen(u, timeout=5))
            out["panels"][q] = (r["status"], len(r["data"]["result"]))
        except Exception as e:
            out["panels"][q] = ("error: %s" % e, 0)
# every series Prometheus ever stored under the name
u = api + "/api/v1/series?" + urllib.parse.urlencode({"match[]": "ghc_allocated_bytes_total"})
out["series"] = json.load(urllib.request.urlopen(u, timeout=5))["data"]
u = api + "/api/v1/targets"
out["targets"] = json.load(urllib.request.urlopen(u, timeout=5))["data"]["activeTargets"]
json.dump(out, open(tmp + "/prom.json", "w"), indent=1)
PY
check "Prometheus scraped the finished read" [ $? -eq 0 ]
kill -INT $top_pid 2>/dev/null
wait $top_pid
rc=$?
check "top exits with the program's status 0 (got $rc)" [ $rc -eq 0 ]
check "the program's output went to stderr" grep -qE '^[0-9]+$' "$tmp/top.err"
check "top --metrics alone: nothing on standard output" [ ! -s "$tmp/top.out" ]

"$evprof" gc -f json "$tmp/run.eventlog" >"$tmp/gc.json" 2>"$tmp/gc.err"
check "the saved log is complete (gc)" [ $? -eq 0 -a ! -s "$tmp/gc.err" ]
"$evprof" report "$tmp/run.eventlog" >"$tmp/report" 2>"$tmp/report.err"
check "the saved log is complete (report)" [ $? -eq 0 -a ! -s "$tmp/report.err" ]

"$PYTHON" - "$tmp" <<'PY'
import json, re, sys
tmp = sys.argv[1]
p = json.load(open(tmp + "/prom.json"))
g = json.load(open(tmp + "/gc.json"))
rep = open(tmp + "/report").read()
fails = []
def check(what, cond):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails.append(what)
def one(q, **labels):
    r = [x for x in p[q] if all(x["metric"].get(k) == v for k, v in labels.items())]
    return float(r[0]["value"][1]) if len(r) == 1 else None
t = p["targets"]
check("one target, up, no scrape error (%s)" % [(x["health"], x["lastError"]) for x in t],
      len(t) == 1 and t[0]["health"] == "up" and t[0]["lastError"] == "")
check("up == 1", one('up{job="evprof"}') == 1)
own = dict(l.rsplit(" ", 1) for l in p["own"])
for q in ("prometheus_target_scrapes_sample_duplicate_timestamp_total",
          "prometheus_target_scrapes_sample_out_of_order_total",
          "prometheus_target_scrapes_sample_out_of_bounds_total"):
    check("Prometheus refused no sample: %s %s" % (q, own.get(q)), own.get(q) == "0")
check("several scrapes stored (%s)" % one("count_over_time(ghc_allocated_bytes_total[10m])"),
      (one("count_over_time(ghc_allocated_bytes_total[10m])") or 0) >= 3)
# labels: the program and its pid, on every series
a = p["ghc_allocated_bytes_total"]
check("one series over the run, labelled from the first scrape (%s)" % p["series"],
      len(p["series"]) == 1)
check("program and pid labels (%s)" % (a and a[0]["metric"]),
      len(a) == 1 and a[0]["metric"].get("program") == "./prog" and
      a[0]["metric"].get("pid", "").isdigit())
alloc = one("ghc_allocated_bytes_total")
check("allocated bytes %s == gc's %d" % (alloc, g["allocated_bytes"]), alloc == g["allocated_bytes"])
check("copied bytes == gc's %d" % g["copied_bytes"], one("ghc_copied_bytes_total") == g["copied_bytes"])
check("maximum residency == gc's %d" % g["max_live_bytes"],
      one("ghc_max_residency_bytes") == g["max_live_bytes"])
for gen in g["generations"]:
    got = one("ghc_gc_collections_total", generation=str(gen["gen"]))
    check("gen %d: %s collections == gc's %d" % (gen["gen"], got, gen["collections"]),
          got == gen["collections"])
check("collections in all %d" % g["gcs"], sum(float(x["value"][1]) for x in
      p["ghc_gc_collections_total"]) == g["gcs"])
check("pauses counted == collections", one("ghc_gc_pause_seconds_count") == g["gcs"])
q99 = one("histogram_quantile(0.99, sum by (le) (ghc_gc_pause_seconds_bucket))")
maxp = max(x["max_pause_ns"] for x in g["generations"]) / 1e9
check("p99 pause %s s within (0, 10] and near gc's max pause %.6f s" % (q99, maxp),
      q99 is not None and 0 < q99 <= 10)
panels = p["panels"]
check("the panel table's queries (%d)" % len(panels), len(panels) >= 15)
empty_ok = ("ticky", "band", "sparks", "heap_band")    # not in this program's log
for q, (st, n) in panels.items():
    want = not any(w in q for w in empty_ok)
    check("panel %s: %s, %d series" % (q, st, n), st == "success" and (n > 0 or not want))
m = re.search(r"\((\d+) ticks @", rep)
ticks = one("ghc_profile_ticks_total")
check("ticks %s == the report's %s" % (ticks, m and m.group(1)), m and ticks == int(m.group(1)))
mid = one("min_over_time(ghc_profile_ticks_total[10m])")
check("ticks mid-run (%s) below the final %s" % (mid, ticks), mid is not None and mid < ticks)
lines = rep.splitlines()
head = next(k for k, l in enumerate(lines) if l.startswith("COST CENTRE"))
rows = {}
for l in lines[head + 2:]:
    if not l.strip():
        break
    f = l.split()
    rows[f[1] + "." + f[0]] = int(f[-1])
check("the report's summary has rows (%d)" % len(rows), len(rows) >= 3)
for k, v in rows.items():
    got = one("ghc_cost_centre_ticks_total", cost_centre=k)
    check("%s: %s ticks == the report's %d" % (k, got, v), got == v)
sys.exit(1 if fails else 0)
PY
check "Prometheus' figures equal gc's and report's (above)" [ $? -eq 0 ]

kill $prom_pid 2>/dev/null
wait $prom_pid 2>/dev/null
echo "metrics_prometheus: $passed passed, $failed failed"
[ $failed -eq 0 ]
