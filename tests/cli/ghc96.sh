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
    # a 9.6 log has what ticky needs but -ticky and -lT: no version hint
    if ! grep -q '^  ticky counters   yes' "$tmp/info"; then
        check "$n: the ticky hint asks for -ticky and -lT, not a newer GHC" \
            grep -q '^  ticky counters   no: build with -ticky and run with +RTS -lT$' "$tmp/info"
    fi
done
"$evprof" info tests/data/ghc-9.0.2/nfib-p.eventlog >"$tmp/info"
check "9.0.2 log: the ticky hint says 9.0 writes none, and what to do instead" grep -q \
    "^  ticky counters   no: GHC 9.0 writes no ticky counters to the eventlog (9.2 and later do, with +RTS -lT): build with -ticky, run with +RTS -r and give evprof ticky the .ticky file it writes$" "$tmp/info"
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
"$evprof" ticky "$d/collatz-lT.eventlog" >"$tmp/ticky.txt" 2>"$tmp/err"
check "ticky: a log whose last sample ends the run has no note" \
    bash -c "! grep -q 'the counts stop' '$tmp/ticky.txt' '$tmp/err'"

# ---- ticky: a run without the last sample falls short of -r, and says so ---
# GHC 9.6 samples at the collection after each -i tick: collatz-short's last
# sample (0.124 s) came before its threads ended (0.136 s). The note's times
# are the log's own: the last 211 and the last STOP_THREAD, from dump.
"$evprof" dump "$d/collatz-short.eventlog" >"$tmp/short.dump"
until_ns=$(sed -n 's/^\([0-9]*\): ticky counter sample .*/\1/p' "$tmp/short.dump" | tail -1)
end_ns=$(sed -n 's/^\([0-9]*\): cap [0-9]*: stopping thread .*/\1/p' "$tmp/short.dump" | sort -n | tail -1)
"$evprof" ticky "$d/collatz-short.eventlog" >"$tmp/short.txt"
"$evprof" ticky -f json "$d/collatz-short.eventlog" >"$tmp/short.json" 2>"$tmp/short.err"
"$evprof" ticky -f csv "$d/collatz-short.eventlog" >"$tmp/short.csv" 2>/dev/null
"$evprof" diff --ticky "$d/collatz-r.ticky" "$d/collatz-short.eventlog" >"$tmp/short.diff"
"$evprof" diff --ticky -f json "$d/collatz-r.ticky" "$d/collatz-short.eventlog" >"$tmp/short-diff.json"
check "ticky short: the counts fall short of GHC's -r (\$wdigits)" grep -q \
    '^\$wdigits{v r2QA} (Main) (fun) *108,894 *59,567 ' "$tmp/short.diff"
check "ticky short: the table names the stop and the share after it" "$PYTHON" - \
    "$tmp/short.txt" "$tmp/short.json" "$tmp/short.csv" "$tmp/short.err" "$tmp/short.diff" \
    "$tmp/short-diff.json" "$until_ns" "$end_ns" <<'PY'
import csv, json, sys
txt, js, cs, err, dtxt, djs = (open(p).read() for p in sys.argv[1:7])
until, end = int(sys.argv[7]), int(sys.argv[8])
pct = (end - until) / end * 100
assert 5 < pct < 15, pct
note = ("the counts stop at %.6f s, GHC's last ticky sample; the program's threads ran "
        "until %.6f s: %.1f%% of the run (%.3f ms) came after and is not counted"
        % (until / 1e9, end / 1e9, pct, (end - until) / 1e6))
flat = ' '.join(txt.split('note:', 1)[1].split())
assert flat.startswith(note), (flat, note)
c = json.loads(js)['coverage']
assert (c['counted_until_ns'], c['run_end_ns'], c['run_end_from'], c['short']) == \
    (until, end, 'threads', True), c
assert c['note'].startswith(note) and note in err
rows = list(csv.DictReader(open(sys.argv[3])))
assert rows and all((int(r['counted_until_ns']), int(r['run_end_ns'])) == (until, end) for r in rows)
assert "\tnote: new's ticky counts stop at %.6f s" % (until / 1e9) in dtxt, dtxt[:600]
assert "base's" not in dtxt
d = json.loads(djs)['coverage']
assert d['base'] is None and d['new']['short'] is True and d['new']['counted_until_ns'] == until
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
