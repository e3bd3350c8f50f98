#!/usr/bin/env bash
# GHC's other outputs given where an eventlog is wanted: every command says
# what the file is and what evprof wants instead (the decoder's one message,
# eventlog/sniff.c), and diff --ticky reads GHC's +RTS -r text as ticky
# does. The files are GHC's own, of real runs (tests/data/ghc-9.0.2,
# ghc-9.6).
# Run from the project root:  bash tests/cli/not_eventlog.sh build/evprof
set -u
evprof=${1:?usage: not_eventlog.sh path/to/evprof}
g9=tests/data/ghc-9.0.2 g96=tests/data/ghc-9.6
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# said CODE WHAT TEXT -- COMMAND...: exit CODE and TEXT (fixed) in stderr
said() {
    local want=$1 what=$2 text=$3
    shift 4
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    local got=$?
    if [ "$got" -eq "$want" ] && grep -qF -e "$text" "$tmp/err"; then ok; else
        bad "$what: exit $got (want $want), stderr: $(head -c 400 "$tmp/err") (want: $text)"
    fi
}

not_log='not an eventlog (no "hdrb" magic at byte 0): '
# ---- each kind of GHC output, 9.0.2 and 9.6.6 ---------------------------------
said 1 ".prof (9.0.2)" "nfib-p.prof: this is GHC's .prof time-profile report (+RTS -p), ${not_log}the same run wrote its eventlog (its +RTS options have -l): give evprof nfib.eventlog" \
    -- "$evprof" report "$g9/nfib-p.prof"
said 1 "-pj (9.0.2)" "nfib-pj.prof.json: this is GHC's JSON time profile (+RTS -pj), ${not_log}the same run wrote its eventlog" \
    -- "$evprof" report "$g9/nfib-pj.prof.json"
said 1 "-pj (9.6, named .prof)" "sim-pj.prof: this is GHC's JSON time profile (+RTS -pj), ${not_log}the same run wrote its eventlog (its +RTS options have -l): give evprof sim.eventlog" \
    -- "$evprof" report "$g96/sim-pj.prof"
said 1 ".prof (9.6, -fprof-late)" "sim-late-p.prof: this is GHC's .prof time-profile report (+RTS -p)" \
    -- "$evprof" folded "$g96/sim-late-p.prof"
said 1 ".hp (9.0.2 -hy)" "nfib-hy.hp: this is a .hp heap profile (+RTS -h), ${not_log}the same run wrote its eventlog (its +RTS options have -l): give evprof nfib.eventlog" \
    -- "$evprof" heap "$g9/nfib-hy.hp"
# (a non-profiled RTS writes only the program's name as JOB)
said 1 ".hp (9.6 -hT, non-profiled)" "parse-hT.hp: this is a .hp heap profile (+RTS -h), ${not_log}run the program with +RTS -l and the -h option it ran with, and give evprof the eventlog it writes, parse-np.eventlog" \
    -- "$evprof" heap "$g96/parse-hT.hp"
said 1 "-s to stderr (9.0.2: no command line)" "nfib-s.stats: this is GHC's runtime statistics (+RTS -s or -S), ${not_log}run the program with +RTS -l and give evprof the eventlog it writes, PROG.eventlog ('evprof gc' makes this summary from it)" \
    -- "$evprof" gc "$g9/nfib-s.stats"
said 1 "-s to a file (9.6)" "sim-s.stats: this is GHC's runtime statistics (+RTS -s or -S), ${not_log}the same run wrote its eventlog (its +RTS options have -l): give evprof sim-np.eventlog" \
    -- "$evprof" gc "$g96/sim-s.stats"
said 1 "-r (9.0.2)" "nfib.ticky: this is GHC's ticky-ticky report (+RTS -r), ${not_log}evprof ticky and evprof diff --ticky read it; the other commands want an eventlog: run the program with +RTS -l (-lT adds the ticky counters, GHC 9.2 and later) and give evprof nfib-ticky.eventlog" \
    -- "$evprof" report "$g9/nfib.ticky"
said 1 "-r (9.6)" "collatz-r.ticky: this is GHC's ticky-ticky report (+RTS -r)" \
    -- "$evprof" info "$g96/collatz-r.ticky"
# a .hp without -l in its run: the same -h option, with -l
sed '1s/ -l / /' "$g96/parse-hc.hp" >"$tmp/noel.hp"
said 1 ".hp of a run without -l" "noel.hp: this is a .hp heap profile (+RTS -h), ${not_log}run the program with +RTS -hc -l and give evprof the eventlog it writes, parse.eventlog" \
    -- "$evprof" heap "$tmp/noel.hp"
# -ol names the eventlog
sed '3s/-p -l/-p -l -olrun1.eventlog/' "$g9/nfib-p.prof" >"$tmp/ol.prof"
said 1 ".prof of a run with -ol" "give evprof run1.eventlog" -- "$evprof" report "$tmp/ol.prof"
# evprof's own report is not GHC's
"$evprof" report "$g9/nfib-p.eventlog" >"$tmp/evprof.prof"
said 1 "evprof report's output" "evprof.prof: this is evprof report's output, ${not_log}give evprof the eventlog it was made from" \
    -- "$evprof" report "$tmp/evprof.prof"
# anything else: the magic, as before
said 1 "a text that is none of them" "Main.hs: not a GHC eventlog: bad magic 0x" \
    -- "$evprof" report "$g9/Main.hs"

# ---- every command that reads an eventlog says it ------------------------------
prof="$g9/nfib-p.prof"
what="nfib-p.prof: this is GHC's .prof time-profile report (+RTS -p), not an eventlog"
for c in report folded speedscope pprof html gc heap phases info dump metrics; do
    said 1 "$c" "$what" -- "$evprof" $c "$prof"
done
said 1 "graph" "$what" -- "$evprof" graph -f dot "$prof"
said 1 "merge" "$what" -- "$evprof" merge -o "$tmp/m.eventlog" "$prof" "$g9/nfib-p.eventlog"
said 1 "all" "$what" -- "$evprof" all -d "$tmp/all" "$prof"
said 1 "diff" "$what" -- "$evprof" diff "$prof" "$g9/nfib-p.eventlog"
said 1 "the default command" "$what" -- "$evprof" "$prof"
said 1 "standard input" "<stdin>: this is GHC's .prof time-profile report (+RTS -p), not an eventlog" \
    -- bash -c "\"$evprof\" report - <'$prof'"
said 1 "ticky" "nfib-p.prof: this is GHC's .prof time-profile report (+RTS -p), neither an eventlog nor a +RTS -r file" \
    -- "$evprof" ticky "$prof"
"$evprof" info "$g96/parse-hc.hp" >"$tmp/out" 2>/dev/null
check "info: no page of an eventlog's facts for a file that is none" [ ! -s "$tmp/out" ]
"$evprof" info -f json "$g96/parse-hc.hp" >"$tmp/out" 2>/dev/null
check "info --format json: none either" [ ! -s "$tmp/out" ]

# ---- diff --ticky reads GHC's +RTS -r text on either side, as ticky does ------
for pair in "$g96/collatz-r.ticky $g96/collatz-lT.eventlog" \
            "$g96/collatz-lT.eventlog $g96/collatz-r.ticky" \
            "$g96/collatz-r.ticky $g96/collatz-r.ticky"; do
    set -- $pair
    for k in --ticky ""; do
        "$evprof" diff $k -f json "$1" "$2" >"$tmp/d.json" 2>"$tmp/err"
        check "diff $k $1 $2: exit 0 ($(head -c 200 "$tmp/err"))" [ $? -eq 0 ]
        check "diff $k $1 $2: the -r file's counters, as ticky reads them" "$PYTHON" - \
            "$tmp/d.json" "$evprof" "$1" "$2" <<'PY'
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
assert d['kind'] == 'ticky', d['kind']
def table(path):
    t = json.loads(subprocess.run([sys.argv[2], 'ticky', '-f', 'json', path], check=True,
                                  capture_output=True).stdout)
    return {c['name']: (c['entries'], c['alloc']) for c in t['counters']}
a, b = table(sys.argv[3]), table(sys.argv[4])
assert len(a) >= 8 and a == b, (a, b)       # the log's last sample ends the run: GHC's -r
for c in d['counters']:
    assert (c['entries']['base'], c['alloc_bytes']['base']) == a[c['name']], c
    assert (c['entries']['new'], c['alloc_bytes']['new']) == b[c['name']], c
assert {c['name'] for c in d['counters']} == set(a)
PY
    done
done
said 2 "diff --heap of a -r file" "collatz-r.ticky is GHC's ticky-ticky report (+RTS -r): it holds ticky counters only, which diff compares with --ticky, not --heap" \
    -- "$evprof" diff --heap "$g96/collatz-r.ticky" "$g96/parse-hc.eventlog"
said 2 "diff --ticky of a -r file with a window" "collatz-r.ticky is GHC's +RTS -r text, which has totals only" \
    -- "$evprof" diff --ticky --from 0.01 "$g96/collatz-r.ticky" "$g96/collatz-lT.eventlog"
said 1 "diff --ticky of a .prof" "nfib-p.prof: this is GHC's .prof time-profile report (+RTS -p), not an eventlog" \
    -- "$evprof" diff --ticky "$prof" "$g96/collatz-r.ticky"

echo "not_eventlog: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
