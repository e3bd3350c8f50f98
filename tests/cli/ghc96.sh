#!/usr/bin/env bash
# The GHC 9.6.6 runs of tests/data/ghc-9.6 through the command line, held
# to GHC's own outputs of the same runs and to ghc-events' text of the
# logs, without any GHC (the client test ghc96_live.sh remakes runs):
# info reads every log whole and says once that IPE events declare a
# length other than what GHC wrote; dump is ghc-events' text (the SHA-256
# of ghc-events' output, in ghc-events.sha256, made by regen.sh); heap -o
# writes GHC's .hp (but the times) for -hi, -hy and -hT, the human views
# title -hi bands by their IPE entries (summary, CSV, JSON, html, pprof),
# the address where there is none; ticky's table of the -lT run is GHC's
# -r table of the other run; the traceMarker phases select their ticks.
#
# Usage: tests/cli/ghc96.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
d=tests/data/ghc-9.6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# ---- info: every log whole; the IPE length note once where IPE is -------
for f in "$d"/*.eventlog; do
    n=$(basename "$f")
    "$evprof" info "$f" >"$tmp/info" 2>"$tmp/err"
    check "$n: info exit 0" [ $? -eq 0 ]
    check "$n: complete" grep -q '^status: *complete (end marker present)$' "$tmp/info"
    check "$n: GHC 9.6.6" grep -q '^rts: *GHC-9\.6\.6 ' "$tmp/info"
    check "$n: no warning" [ ! -s "$tmp/err" ]
    ipe=$(awk '$1 == 169 { print $(NF - 1) }' "$tmp/info")
    notes=$(grep -c 'IPE events (169) declare a payload length' "$tmp/info")
    if [ -n "$ipe" ]; then
        check "$n: the declared-length note once, for all $ipe IPE events" \
            grep -q "^note: $ipe of $ipe IPE events (169) declare a payload length that is not what GHC wrote (GHC #24287" "$tmp/info"
        check "$n: one note" [ "$notes" -eq 1 ]
    else
        check "$n: no IPE, no note" [ "$notes" -eq 0 ]
    fi
done
"$evprof" info --format json "$d/parse-hi.eventlog" >"$tmp/info.json" 2>/dev/null ||
    "$evprof" info -f json "$d/parse-hi.eventlog" >"$tmp/info.json"
check "info JSON: the IPE count of declared lengths off" "$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["event_types"] if t["id"] == 169][0]
assert t["declared_length_off"] == t["count"] > 0, t
assert d["status"] == "complete", d["status"]' "$tmp/info.json"

# ---- dump: ghc-events' text --------------------------------------------
while read -r sum name rest; do
    f=$d/$name
    "$evprof" dump "$f" >"$tmp/dump" 2>"$tmp/err"
    check "$name: dump exit 0" [ $? -eq 0 ]
    if [ "$sum" = unreadable ]; then
        echo "note: $name: ghc-events 0.17 cannot read it ($rest); dump not compared"
        continue
    fi
    have=$("$PYTHON" tests/support/ghc_events_017.py <"$tmp/dump" | sha256sum | cut -d' ' -f1)
    check "$name: dump is ghc-events' text" [ "$have" = "$sum" ]
done <"$d/ghc-events.sha256"
check "every 9.6 log has ghc-events' digest" \
    [ "$(wc -l <"$d/ghc-events.sha256")" -eq "$(ls "$d"/*.eventlog | wc -l)" ]

# ---- heap: GHC's .hp but the times ---------------------------------------
untimed() { sed -E 's/^(BEGIN|END)_SAMPLE [0-9.]+$/\1_SAMPLE t/' "$1"; }
for r in parse-hi parse-hy parse-hT; do
    "$evprof" heap "$d/$r.eventlog" -o "$tmp/$r.hp" 2>"$tmp/err"
    check "$r: heap -o exit 0" [ $? -eq 0 ]
    check "$r: no warning on the .hp" [ ! -s "$tmp/err" ]
    if untimed "$d/$r.hp" | cmp -s - <(untimed "$tmp/$r.hp"); then ok; else
        bad "$r: the .hp is GHC's but the times"
        diff <(untimed "$d/$r.hp") <(untimed "$tmp/$r.hp") | head -5
    fi
done
check "-hi .hp: bands are addresses" bash -c "! grep -q '_info' '$tmp/parse-hi.hp'"

# ---- -hi: the human views title a band by its IPE entry ------------------
hi=$d/parse-hi.eventlog
"$evprof" heap --top 0 "$hi" >"$tmp/sum" 2>"$tmp/err"
check "summary: a thunk titled by its entry" \
    grep -qE '^sat_s[0-9A-Za-z]+_info \(THUNK[_0-9]* :: [^,]+, [^,]+, Main, Parse\.hs:[0-9]+:' "$tmp/sum"
check "summary: a constructor titled (empty source location left out)" \
    grep -qE '^Add_con_info \(CONSTR_2_0, Main\) ' "$tmp/sum"
check "summary: the address where there is no entry" grep -qE '^0x[0-9a-f]+ ' "$tmp/sum"
n_addr=$(grep -cE '^0x[0-9a-f]+ ' "$tmp/sum")
check "summary: says how many bands have no entry ($n_addr)" \
    grep -q "^note: $n_addr info-table bands have no IPE entry" "$tmp/sum"
"$evprof" heap -f csv "$hi" >"$tmp/hi.csv"
"$evprof" heap -f json "$hi" >"$tmp/hi.json" 2>/dev/null
"$evprof" html "$hi" -o "$tmp/hi.html" 2>/dev/null
"$evprof" pprof --heap "$hi" -o "$tmp/hi.pb.gz" 2>/dev/null
check "csv, json, html, pprof: the same titles" "$PYTHON" - "$tmp" "$d/parse-hi.hp" <<'PY'
import csv, gzip, json, re, sys
sys.path.insert(0, 'tests/support')
import pprof_read
tmp, hp = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(tmp + '/hi.csv')))
titles = {r['band'] for r in rows}
assert any(re.match(r'sat_s\w+_info \(THUNK', t) for t in titles), sorted(titles)[:5]
assert any(t.startswith('0x') for t in titles)
addresses = set(re.findall(r'^(0x[0-9a-f]+)\t', open(hp).read(), re.M))
j = json.load(open(tmp + '/hi.json'))
for r in j['rows']:
    assert r['band'] in titles
    if not r['band'].startswith('0x'):
        assert r['address'] in addresses, r     # the .hp's name beside the title
    else:
        assert 'address' not in r and r['band'] in addresses
page = open(tmp + '/hi.html', encoding='utf-8').read()
shown = [t for t in titles if json.dumps(t)[1:-1] in page]
assert any(t.startswith('sat_') for t in shown), 'the page names no band by its entry'
p = pprof_read.read(open(tmp + '/hi.pb.gz', 'rb').read())
names = {k for ks in pprof_read.stacks(p) for k in ks}
assert names <= titles, sorted(names - titles)[:3]
assert any(n.startswith('sat_') for n in names)
PY

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

# ---- traceMarker phases ----------------------------------------------------
ticks() { sed -n 's/.*(\([0-9]*\) ticks @.*/\1/p' "$1"; }
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

echo "ghc96: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
