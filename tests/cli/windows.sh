#!/usr/bin/env bash
# Several --between windows on every command (issue 28, the selection
# stage): the output under --between LABEL is the sum of the outputs of its
# windows one at a time (--from marker:LABEL#2k-1 --to marker:LABEL#2k), or
# their concatenation for what is a list of events or censuses. On real GHC
# runs: tests/data/windows (three `step` windows; heap censuses, collections
# on two capabilities, ticky counters) and tests/data/markers (two `phase`
# windows of a profiled run).
#   report, folded, speedscope  ticks per stack and per capability add up
#   gc     allocation, copying, collections, MUT/GC/total time, per
#          generation and capability: sums
#   heap   the censuses (time, band, bytes) are those of the windows
#   ticky  each counter's entries and allocation: sums
#   info   the events and the counts per type: sums
#   dump   the lines are those of the windows, in time order
#   all    every file equals its command's output under the same windows
#
# Usage: tests/cli/windows.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
PYTHON=${PYTHON:-python3}

heapy=tests/data/windows/windows-N2.eventlog
ticky=tests/data/windows/ticky-9.6.eventlog
prof=tests/data/markers/markers.eventlog

# run NAME LOG LABEL NWIN CMD...: NAME.all under --between LABEL, NAME.1 ..
# NAME.NWIN under each window alone
run() {
    local name=$1 log=$2 label=$3 n=$4; shift 4
    "$evprof" "$@" --between "$label" "$log" >"$tmp/$name.all" 2>"$tmp/$name.err.all"
    check "$name --between $label: exit 0" [ $? -eq 0 ]
    for k in $(seq 1 "$n"); do
        "$evprof" "$@" --from "marker:$label#$((2 * k - 1))" --to "marker:$label#$((2 * k))" \
            "$log" >"$tmp/$name.$k" 2>"$tmp/$name.err.$k"
        check "$name window $k: exit 0" [ $? -eq 0 ]
    done
}

run gc "$heapy" step 3 gc -f json
run gctext "$heapy" step 3 gc
run heap "$heapy" step 3 heap -f csv
run info "$heapy" step 3 info -f json
run dump "$heapy" step 3 dump
run ticky "$ticky" step 3 ticky -f csv
run folded "$prof" phase 2 folded
run report "$prof" phase 2 report --json
run speedscope "$prof" phase 2 speedscope
check "gc: the text names the three windows" grep -q "^  Windows: 3, " "$tmp/gctext.all"

# all: each of its files is its command's output under the same windows
"$evprof" all -d "$tmp/all" --between step "$heapy" >/dev/null 2>&1
"$evprof" gc --between step "$heapy" >"$tmp/all-gc" 2>/dev/null
"$evprof" heap --between step -o "$tmp/all-heap.hp" "$heapy" 2>/dev/null
"$evprof" info --between step "$heapy" >"$tmp/all-info" 2>/dev/null
check "all --between: the GC summary is gc's" cmp -s "$tmp/all/windows-N2.gc.txt" "$tmp/all-gc"
check "all --between: the .hp is heap's" cmp -s "$tmp/all/windows-N2.hp" "$tmp/all-heap.hp"
check "all --between: info's text is info's" cmp -s "$tmp/all/windows-N2.info.txt" "$tmp/all-info"

out=$("$PYTHON" - "$tmp" <<'PY'
import csv, io, json, sys
from collections import Counter
t = sys.argv[1]
fails = []
def read(name):
    return open(f"{t}/{name}").read()
def check(what, ok):
    print(("ok " if ok else "FAIL: ") + what)

# gc: sums over the windows
whole = json.loads(read("gc.all"))
parts = [json.loads(read(f"gc.{k}")) for k in (1, 2, 3)]
for key in ("allocated_bytes", "copied_bytes", "gcs", "elapsed_ns", "gc_elapsed_ns",
            "mutator_elapsed_ns"):
    check(f"gc {key}: the windows' sum", whole[key] == sum(p[key] for p in parts))
def gens(d):
    return [g["collections"] for g in d["generations"]]
check("gc: collections per generation add up",
      gens(whole) == [sum(x) for x in zip(*map(gens, parts))])
def caps(d, key):
    return {c["cap"]: c[key] for c in d["capabilities"]}
for key in ("allocated_bytes", "mutator_elapsed_ns", "gc_elapsed_ns", "gcs", "led"):
    s = Counter()
    for p in parts:
        s.update(caps(p, key))
    check(f"gc: per capability {key} add up", caps(whole, key) == dict(s))
check("gc: three windows in the JSON", len(whole["window"].get("windows_ns", [])) == 3)

# heap: the censuses of the windows (the census column numbers them)
def rows(name):
    return [(r["time"], r["band"], r["bytes"]) for r in csv.DictReader(io.StringIO(read(name)))]
hw = rows("heap.all")
check("heap: some censuses in the windows", len(hw) > 0)
check("heap: the censuses are the windows'", hw == rows("heap.1") + rows("heap.2") + rows("heap.3"))

# ticky: per counter sums
def counters(name):
    return {r["id"]: (int(r["entries"]), int(r["alloc"]))
            for r in csv.DictReader(io.StringIO(read(name)))}
tw = counters("ticky.all")
ts = [counters(f"ticky.{k}") for k in (1, 2, 3)]
check("ticky: some entries in the windows", sum(e for e, _ in tw.values()) > 0)
check("ticky: each counter's entries and allocation add up",
      all(tw[i] == tuple(map(sum, zip(*[p.get(i, (0, 0)) for p in ts]))) for i in tw))

# info: events and counts per type
iw = json.loads(read("info.all"))
ip = [json.loads(read(f"info.{k}")) for k in (1, 2, 3)]
check("info: the events add up", iw["events"] == sum(p["events"] for p in ip))
def types(d):
    return {e["id"]: e["count"] for e in d["event_types"]}
s = Counter()
for p in ip:
    s.update(types(p))
check("info: the counts per type add up", types(iw) == dict(s))
check("info: the selection is said", iw.get("selection", {}).get("windows") == 3)

# dump: the events of the windows, in time order
def events(name):
    lines = read(name).splitlines()
    return [l for l in lines[lines.index("Events:") + 1:] if l] if "Events:" in lines else []
dw = events("dump.all")
check("dump: some events", len(dw) > 0)
check("dump: the lines are the windows'", dw == events("dump.1") + events("dump.2") + events("dump.3"))

# folded: ticks per stack
def stacks(name):
    c = Counter()
    for l in read(name).splitlines():
        st, _, n = l.rpartition(" ")
        c[st] += int(n)
    return c
fw = stacks("folded.all")
check("folded: ticks per stack add up", fw == stacks("folded.1") + stacks("folded.2"))
check("folded: some ticks", sum(fw.values()) > 0)

# report --json: the total ticks
def ticks(name):
    return json.loads(read(name))["total_ticks"]
check("report --json: total ticks add up",
      ticks("report.all") == ticks("report.1") + ticks("report.2"))

# speedscope: samples per capability's profile
def samples(name):
    d = json.loads(read(name))
    return {p["name"].split()[-1]: len(p["samples"]) for p in d["profiles"]}
sw, s1, s2 = samples("speedscope.all"), samples("speedscope.1"), samples("speedscope.2")
check("speedscope: samples per capability add up",
      sw == {k: s1.get(k, 0) + s2.get(k, 0) for k in set(s1) | set(s2)})
PY
)
while IFS= read -r line; do
    case $line in
        ok\ *) ok ;;
        FAIL:*) bad "${line#FAIL: }" ;;
    esac
done <<<"$out"
echo "windows: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
