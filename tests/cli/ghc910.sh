#!/usr/bin/env bash
# The GHC 9.10.3 runs of tests/data/ghc-9.10 through the command line, held
# to GHC's own outputs of the same runs and to ghc-events' text of the
# logs, without any GHC (the client test ghc910_fresh.sh makes the runs
# anew in the chroot and runs this on them):
# - info reads every log whole; where IPE events are, it says once that
#   they declare a length other than what GHC wrote, naming the versions
#   measured; the non-moving run's NONMOVING_HEAP_CENSUS (207) and
#   NONMOVING_PRUNED_SEGMENTS (208) are read by the header's sizes (14, 8);
# - dump is ghc-events 0.17's text (the SHA-256 in ghc-events.sha256, made
#   by regen.sh) but for the events 0.17 predates
#   (tests/support/ghc_events_unread.py), which are the spec's reading of
#   their bytes, in ghc-events' current wording;
# - heap -o writes GHC's .hp but the times for -hi, -hT and -he (era
#   profiling, breakdown 9), and for -hc but the cost-centre stack numbers;
#   the human views title -hi bands by their IPE entries;
# - ticky's table of the -lT run is GHC's -r table of the other run, and
#   ticky reads that -r file to the same table;
# - gc prints GHC's own -s lines (those it prints today; not the
#   non-moving collector's) for the non-threaded and the -N2
#   --nonmoving-gc runs;
# - report --json counts the -pj run's every tick as GHC's JSON does; the
#   --no-automatic-time-samples run has no sample, as GHC's .prof 0 ticks;
# - the traceMarker phases select their ticks.
#
# Usage: tests/cli/ghc910.sh path/to/evprof [DIR]   (from the project root;
#        DIR: the runs, tests/data/ghc-9.10 unless given)
set -u
evprof=${1:?usage: $0 path/to/evprof [DIR]}
d=${2:-tests/data/ghc-9.10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
unread="$PYTHON tests/support/ghc_events_unread.py"

# ---- info: every log whole; the IPE length note once where IPE is -------
for f in "$d"/*.eventlog; do
    n=$(basename "$f")
    "$evprof" info "$f" >"$tmp/info" 2>"$tmp/err"
    check "$n: info exit 0" [ $? -eq 0 ]
    check "$n: complete" grep -q '^status: *complete (end marker present)$' "$tmp/info"
    check "$n: GHC 9.10.3" grep -q '^rts: *GHC-9\.10\.3 ' "$tmp/info"
    check "$n: no warning" [ ! -s "$tmp/err" ]
    ipe=$(awk '$1 == 169 { print $(NF - 1) }' "$tmp/info")
    notes=$(grep -c 'IPE events (169) declare a payload length' "$tmp/info")
    if [ -n "$ipe" ]; then
        check "$n: the declared-length note once, for all $ipe IPE events, naming 9.10.3" \
            grep -q "^note: $ipe of $ipe IPE events (169) declare a payload length that is not what GHC wrote (GHC #24287: GHC 9.6.6 and 9.10.3 declare one byte more" "$tmp/info"
        check "$n: one note" [ "$notes" -eq 1 ]
    else
        check "$n: no IPE, no note" [ "$notes" -eq 0 ]
    fi
done
"$evprof" info -f json "$d/parse-hi.eventlog" >"$tmp/info.json"
check "info JSON: the IPE count of declared lengths off" "$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["event_types"] if t["id"] == 169][0]
assert t["declared_length_off"] == t["count"] > 0, t
assert d["status"] == "complete", d["status"]' "$tmp/info.json"
# 207 and 208 by the header's sizes: every record 10 bytes of header and
# the declared payload (14: the u16 block size of GHC 9.10, #23340; 8)
nm=$d/workers-nonmoving-N2-s.eventlog
"$evprof" info -f json "$nm" >"$tmp/nm.json"
check "info: 207 (14 bytes) and 208 (8 bytes) by the header's sizes, as many as the spec reads" \
    "$PYTHON" - "$tmp/nm.json" "$nm" <<'PY'
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
t = {e["id"]: e for e in d["event_types"]}
lines = subprocess.run([sys.executable, "tests/support/ghc_events_unread.py", "--spec", sys.argv[2]],
                       check=True, capture_output=True, text=True).stdout.splitlines()
census = sum(" nonmoving heap census " in l for l in lines)
pruned = sum(" nonmoving segments pruned: " in l for l in lines)
assert census > 0 and pruned > 0, (census, pruned)
assert t[207]["count"] == census and t[207]["bytes"] == census * (10 + 14), t[207]
assert t[208]["count"] == pruned and t[208]["bytes"] == pruned * (10 + 8), t[208]
assert t[207]["name"] == "NONMOVING_HEAP_CENSUS" and t[208]["name"] == "NONMOVING_PRUNED_SEGMENTS"
PY
"$evprof" info "$d/parse-he.eventlog" >"$tmp/info"
check "info: the -he run is a heap profile by era" \
    grep -qE '^  heap profile +yes: [0-9]+ censuses by era \(-he\)' "$tmp/info"
check "info: the ticky hint does not ask a 9.10 build for -eventlog (deprecated since 9.4)" \
    grep -qE '^  ticky counters +no: build with -ticky and run with \+RTS -lT$' "$tmp/info"

# ---- dump: ghc-events' text, and the spec where 0.17 cannot read ---------
if [ -f "$d/ghc-events.sha256" ]; then
    while read -r sum name rest; do
        f=$d/$name
        "$evprof" dump "$f" >"$tmp/dump" 2>"$tmp/err"
        check "$name: dump exit 0" [ $? -eq 0 ]
        if [ "$sum" = unreadable ]; then
            echo "note: $name: ghc-events 0.17 cannot read it ($rest); dump not compared with it"
            continue
        fi
        have=$("$PYTHON" tests/support/ghc_events_017.py <"$tmp/dump" |
               $unread --drop 2>"$tmp/left" | sha256sum | cut -d' ' -f1)
        check "$name: dump is ghc-events' text${rest:+ ($rest)}" [ "$have" = "$sum" ]
        [ ! -s "$tmp/left" ] || echo "note: $name: $(tr '\n' ' ' <"$tmp/left")(checked below)"
    done <"$d/ghc-events.sha256"
    check "every 9.10 log has ghc-events' digest" \
        [ "$(wc -l <"$d/ghc-events.sha256")" -eq "$(ls "$d"/*.eventlog | wc -l)" ]
else
    echo "SKIPPED: $d has no ghc-events.sha256 (made by regen.sh where ghc-events is)"
fi
# what 0.17 does not read, by the spec: 207 and 208 of the non-moving run,
# 210 to 212 of the ticky run
spec_lines() {   # LOG: dump's lines of those events equal the spec's
    local f=$1 n
    n=$(basename "$f")
    $unread --spec "$f" >"$tmp/spec" || { bad "$n: the spec reader failed"; return; }
    "$evprof" dump "$f" | grep -E '^[0-9]+: (cap [0-9]+: )?(nonmoving heap census |nonmoving segments pruned: |ticky counter definition |ticky counter sample |ticky begin counter sample)' >"$tmp/ours"
    if cmp -s "$tmp/spec" "$tmp/ours"; then ok; else
        bad "$n: dump's 207, 208, 210-212 lines are not the spec's"
        diff "$tmp/spec" "$tmp/ours" | head -5
    fi
}
for f in "$d"/*.eventlog; do spec_lines "$f"; done
$unread --spec "$nm" >"$tmp/spec.nm"
check "the non-moving run has censuses of 9.10's block sizes (8, 16, 24: not powers of two)" \
    grep -q ' nonmoving heap census 24: ' "$tmp/spec.nm"
check "the non-moving run has pruned-segment events" grep -q ' nonmoving segments pruned: ' "$tmp/spec.nm"
$unread --spec "$d/collatz-lT.eventlog" >"$tmp/spec.ticky"
check "the ticky run has counter definitions and samples by the spec" \
    bash -c "grep -q ' ticky counter definition ' '$tmp/spec.ticky' &&
             grep -q ' ticky counter sample ' '$tmp/spec.ticky'"
"$evprof" dump "$d/parse-he.eventlog" >"$tmp/dump"
check "dump: the -he run's profile is broken down by era (breakdown 9)" \
    grep -qE '^[0-9]+: start heap profiling 0 at sampling period 5000000 broken down by era$' "$tmp/dump"

# ---- heap: GHC's .hp but the times ---------------------------------------
untimed() { sed -E 's/^(BEGIN|END)_SAMPLE [0-9.]+$/\1_SAMPLE t/' "$1"; }
for r in parse-hi parse-hT parse-he parse-hc; do
    "$evprof" heap "$d/$r.eventlog" -o "$tmp/$r.hp" 2>"$tmp/err"
    check "$r: heap -o exit 0" [ $? -eq 0 ]
    check "$r: no warning on the .hp" [ ! -s "$tmp/err" ]
    [ $r != parse-hc ] || continue
    if untimed "$d/$r.hp" | cmp -s - <(untimed "$tmp/$r.hp"); then ok; else
        bad "$r: the .hp is GHC's but the times"
        diff <(untimed "$d/$r.hp") <(untimed "$tmp/$r.hp") | head -5
    fi
done
# -hc: GHC writes each stack's number, "(279)main", which the log lacks;
# two stacks whose names are one once cut at -L are one band (docs/HEAP.md)
check "parse-hc: the .hp is GHC's but the times, the stack numbers, one band per name" \
    "$PYTHON" - "$d/parse-hc.hp" "$tmp/parse-hc.hp" <<'PY'
import re, sys
def samples(path, strip):
    out, cur = [], None
    for l in open(path).read().splitlines():
        if l.startswith('BEGIN_SAMPLE '):
            cur = {}
        elif l.startswith('END_SAMPLE '):
            out.append(cur)
            cur = None
        elif cur is not None:
            name, b = l.rsplit('\t', 1)
            if strip:
                name = re.sub(r'^\(\d+\)', '', name)
            cur[name] = cur.get(name, 0) + int(b)
    return out
ghc, ours = samples(sys.argv[1], 1), samples(sys.argv[2], 0)
assert len(ghc) == len(ours) >= 10, (len(ghc), len(ours))
for i, (a, b) in enumerate(zip(ghc, ours)):
    assert a == b, (i, sorted(set(a.items()) ^ set(b.items()))[:4])
PY
check "-hi .hp: bands are addresses" bash -c "! grep -q '_info' '$tmp/parse-hi.hp'"
check "-he .hp: bands are eras, more than one" \
    bash -c "grep -vE '^(JOB|DATE|SAMPLE_UNIT|VALUE_UNIT|BEGIN_SAMPLE|END_SAMPLE) ' '$tmp/parse-he.hp' |
             cut -f1 | sort -u | grep -cvE '^[1-9][0-9]*$' | grep -qx 0 &&
             [ \$(grep -cP '^2\t' '$tmp/parse-he.hp') -gt 0 ]"
"$evprof" heap --top 0 "$d/parse-hi.eventlog" >"$tmp/sum" 2>"$tmp/err"
check "-hi summary: a thunk titled by its entry" \
    grep -qE '^sat_s[0-9A-Za-z]+_info \(THUNK[_0-9]* :: [^,]+, [^,]+, Main, Parse\.hs:[0-9]+:' "$tmp/sum"
check "-hi summary: the address where there is no entry" grep -qE '^0x[0-9a-f]+ ' "$tmp/sum"

# ---- ticky: the -lT run's table is GHC's -r of the other run -------------
"$evprof" ticky -f csv "$d/collatz-lT.eventlog" >"$tmp/ticky.csv"
check "ticky: every counter of GHC's -r, the same entries, alloc, allocd" "$PYTHON" - \
    "$tmp/ticky.csv" "$d/collatz-r.ticky" <<'PY'
import csv, re, sys
ours = {r['name']: (int(r['entries']), int(r['alloc']), int(r['allocd']))
        for r in csv.DictReader(open(sys.argv[1]))}
ghc, on = {}, False
for line in open(sys.argv[2]):
    if line.startswith('    Entries'):
        on = True
        continue
    if on and line.startswith('-----'):
        if ghc:
            break
        continue
    if on:
        m = re.match(r'\s*(\d+)\s+(\d+)\s+(\d+)\s+\d+ (.{60}) (.*)$', line.rstrip('\n'))
        if m:
            ghc[m.group(5)] = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
assert len(ghc) >= 8, ghc
assert ours == ghc, (sorted(set(ours.items()) ^ set(ghc.items())))
PY
"$evprof" ticky -f csv "$d/collatz-r.ticky" >"$tmp/ticky-r.csv"
check "ticky reads GHC's -r file into the same table as the -lT run's" "$PYTHON" -c '
import csv, sys
rows = lambda p: {r["name"]: (r["entries"], r["alloc"], r["allocd"]) for r in csv.DictReader(open(p))}
a, b = rows(sys.argv[1]), rows(sys.argv[2])
assert a == b and len(a) >= 8, sorted(set(a.items()) ^ set(b.items()))' "$tmp/ticky.csv" "$tmp/ticky-r.csv"

# ---- gc: GHC's own -s lines, those gc prints today -------------------------
for r in sim-s workers-nonmoving-N2-s; do
    "$evprof" gc "$d/$r.eventlog" >"$tmp/gc" 2>"$tmp/err"
    check "$r: gc exit 0" [ $? -eq 0 ]
    check "$r: gc prints GHC's lines: allocated, copied, residency, slop, MiB, Gen rows" \
        "$PYTHON" - "$d/$r.stats" "$tmp/gc" <<'PY'
import re, sys
ghc = open(sys.argv[1]).read().splitlines()
ours = set(open(sys.argv[2]).read().splitlines())
want = [l for l in ghc if re.search(r' bytes (allocated in the heap|copied during GC|maximum '
                                    r'residency|maximum slop)$| bytes maximum residency \(', l)]
assert len(want) == 4, want
for l in want:
    assert l in ours, l
mib = [l for l in ghc if 'MiB total memory in use' in l][0]
mib = re.sub(r'\(\d+ MiB lost', '(n/a MB lost', mib)
assert mib in ours, mib
rows = [l.split() for l in ghc if re.match(r'  Gen +\d+ +\d+ colls,', l)]
assert rows, ghc
for w in rows:   # Gen N C colls, P par CPU ELAPSED AVG MAX: GHC's but CPU n/a
    row = '  Gen %2s     %5s colls, %5s par   %7s  %7s     %s    %s' % (
        w[1], w[2], w[4], 'n/a', w[7], w[8], w[9])
    assert row in ours, row
for l in ghc:
    if 'Parallel GC work balance' in l or l.startswith('  SPARKS:'):
        assert l in ours, l
PY
    check "$r: the notes name the GHC versions measured" \
        grep -q '^    (GHC 9.0.2, 9.6.6, 9.10.3): n/a; the wall-clock line' "$tmp/gc"
    check "$r: no note fixed to GHC 9.0" bash -c "! grep -q '9\.0 event' '$tmp/gc'"
done

# ---- the time profile: every tick as GHC's -pj; no samples, 0 ticks -------
for r in sim-pj workers-N2-pj; do
    "$evprof" report --json "$d/$r.eventlog" >"$tmp/r.json"
    check "$r: report --json's total ticks are GHC's -pj" "$PYTHON" -c '
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert a["total_ticks"] == b["total_ticks"] > 0, (a["total_ticks"], b["total_ticks"])' \
        "$tmp/r.json" "$d/$r.prof"
done
check "sim-no-samples: GHC's .prof has 0 ticks" \
    grep -qE '^	total time  = +0\.00 secs +\(0 ticks @ 1000 us, 1 processor\)$' "$d/sim-no-samples.prof"
"$evprof" info -f json "$d/sim-no-samples.eventlog" >"$tmp/ns.json"
check "sim-no-samples: PROF_BEGIN and cost centres, no sample" "$PYTHON" -c '
import json, sys
t = {e["id"]: e["count"] for e in json.load(open(sys.argv[1]))["event_types"]}
assert t.get(168) == 1 and t.get(161, 0) > 100 and 167 not in t, t' "$tmp/ns.json"

# ---- traceMarker phases ----------------------------------------------------
ticks() { sed -n 's/.*(\([0-9]*\) ticks @.*/\1/p' "$1"; }
"$evprof" info "$d/sim-p.eventlog" >"$tmp/info"
check "sim-p: the four marks" bash -c "[ \$(grep -cE '^ +1 +[0-9.]+ +(simulate|report) (start|end)$' '$tmp/info') -eq 4 ]"
"$evprof" report "$d/sim-p.eventlog" >"$tmp/all"
"$evprof" report --from 'marker:simulate start' --to 'marker:simulate end' "$d/sim-p.eventlog" >"$tmp/sim"
"$evprof" report --from 'marker:report start' --to 'marker:report end' "$d/sim-p.eventlog" >"$tmp/rep" 2>/dev/null
"$evprof" report --from 'marker:simulate start' --to 'marker:report end' "$d/sim-p.eventlog" >"$tmp/both"
t_all=$(ticks "$tmp/all") t_sim=$(ticks "$tmp/sim") t_rep=$(ticks "$tmp/rep") t_both=$(ticks "$tmp/both")
check "phases: simulate ($t_sim) + report (${t_rep:-0}) <= both ($t_both) <= all ($t_all)" \
    [ $((t_sim + ${t_rep:-0})) -le "$t_both" -a "$t_both" -le "$t_all" ]
check "phases: the simulation holds most ticks" [ $((t_sim * 10)) -ge $((t_all * 9)) ]
check "phases: fill on top of the simulate window" \
    bash -c "grep -A2 '^COST CENTRE' '$tmp/sim' | grep -q '^fill '"

echo "ghc910: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
