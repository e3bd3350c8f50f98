#!/usr/bin/env bash
# Many runs: the profile commands take several logs and sum them (cost
# centres matched by module, label and source location), and `evprof
# merge` makes one eventlog of several whose report is that sum.
#   - folded of A B = the line-wise sum of folded A and folded B (two runs
#     of one program, the nfib runs, two different programs, --all, src
#     frames); A A = 2 x A. Two programs that share a name at different
#     places (Main.main) make namesakes of the sum that neither log has
#     alone (docs/PROF.md, "Namesakes"): the sum names them with their
#     places, and is compared with the logs' by name (places taken off)
#   - report: the header says how many runs, each one's command line and
#     the summed ticks and time, the same for a merged log
#   - speedscope: one profile per log and capability, named by the log,
#     samples = the logs' own
#   - pprof: one profile, the summed samples
#   - merge: report/folded of the merged log = of A B; dump reads it; the
#     capabilities are kept apart; a type's size that differs is refused
# Usage: tests/cli/runs.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
data=tests/data/ghc
nfib=tests/data/ghc-9.0.2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# the line-wise sum of folded files: "stack count"
sum_folded() {
    awk '{ n = $NF; sub(/ [0-9]+$/, ""); s[$0] += n } END { for (k in s) print k " " s[k] }' "$@" |
        LC_ALL=C sort
}
sorted() { LC_ALL=C sort "$1"; }
# folded lines with the namesakes' places taken off their frames ("Main.f
# (A.hs:(1,1)-(2,9))" -> "Main.f"), then summed
by_name() {
    sed -E 's/ \((([^;()]|\([^;()]*\))*)\)(;| [0-9]+$)/\3/g' "$@" | sum_folded /dev/stdin
}

pairs=("$data/deep-p.eventlog $data/deep-pj.eventlog"
       "$nfib/nfib-p.eventlog $nfib/nfib-pj.eventlog"
       "$nfib/nfib-p.eventlog $nfib/nfib-N2.eventlog"
       "$data/deep-p.eventlog $data/mutual-p.eventlog"
       "$data/chain-p.eventlog $data/odd-p.eventlog $data/par-N2-p.eventlog"
       "tests/data/newuser/parser.eventlog tests/data/newuser/sim.eventlog")
for pair in "${pairs[@]}"; do
    read -r -a logs <<<"$pair"
    for opts in "" "--all" "--frame-format src"; do
        n=0
        for f in "${logs[@]}"; do
            "$evprof" folded $opts "$f" >"$tmp/one.$n" || bad "folded $opts $f"
            n=$((n + 1))
        done
        "$evprof" folded $opts "${logs[@]}" >"$tmp/many" || bad "folded $opts $pair: exit code"
        if [ "$opts" = "--frame-format src" ]; then
            sum_folded "$tmp"/one.* >"$tmp/sum"
            sorted "$tmp/many" >"$tmp/many.s"
        else
            by_name "$tmp"/one.* >"$tmp/sum"
            by_name "$tmp/many" >"$tmp/many.s"
        fi
        rm -f "$tmp"/one.*
        check "folded $opts $pair = the sum of each log's" \
            bash -c "[ -s '$tmp/sum' ] && cmp -s '$tmp/sum' '$tmp/many.s'"
        # the merged log says the same, names and all
        sorted "$tmp/many" >"$tmp/many.all"
        "$evprof" merge "${logs[@]}" -o "$tmp/merged.eventlog" || bad "merge $pair"
        "$evprof" folded $opts "$tmp/merged.eventlog" | LC_ALL=C sort >"$tmp/merged.s"
        check "folded $opts of merge($pair) = folded of the logs" cmp -s "$tmp/merged.s" "$tmp/many.all"
    done
    # the report: header and ticks; the tree of the merged log is the same
    total=0
    for f in "${logs[@]}"; do
        t=$("$evprof" report "$f" | sed -n 's/.*(\([0-9]*\) ticks @.*/\1/p')
        total=$((total + t))
    done
    "$evprof" report "${logs[@]}" >"$tmp/report" || bad "report $pair: exit code"
    check "report $pair: $total ticks" grep -q "($total ticks @" "$tmp/report"
    check "report $pair: says ${#logs[@]} runs of ${#logs[@]} logs" \
        grep -q "^	${#logs[@]} runs summed (${#logs[@]} logs):" "$tmp/report"
    check "report $pair: each run's command line" \
        [ "$(grep -c "^	   [^ ].* +RTS .* -RTS" "$tmp/report")" -eq "${#logs[@]}" ]
    "$evprof" merge "${logs[@]}" -o "$tmp/merged.eventlog"
    # the same header (issue 27, point 8): runs, their programs, the time
    "$evprof" report "$tmp/merged.eventlog" | sed -n '1,/^	total alloc/p' >"$tmp/merged.head"
    sed -n '1,/^	total alloc/p' "$tmp/report" | sed "s/ (${#logs[@]} logs):/ (one merged log):/" >"$tmp/many.head"
    check "report of merge($pair): the header of report A B" cmp -s "$tmp/merged.head" "$tmp/many.head"
    "$evprof" report "$tmp/merged.eventlog" | sed -n '/^COST CENTRE/,$p' >"$tmp/merged.tree"
    sed -n '/^COST CENTRE/,$p' "$tmp/report" >"$tmp/many.tree"
    check "report of merge($pair): the tables of report A B" cmp -s "$tmp/merged.tree" "$tmp/many.tree"
    check "report of merge($pair): $total ticks" \
        grep -q "($total ticks @" <("$evprof" report "$tmp/merged.eventlog")
    check "dump of merge($pair) reads" bash -c '"$1" dump "$2" >/dev/null' _ "$evprof" "$tmp/merged.eventlog"
    # capabilities kept apart: the merged log has the sum of the logs'
    caps=0
    for f in "${logs[@]}"; do
        c=$("$evprof" info "$f" | sed -n 's/^capabilities: *\([0-9]*\).*/\1/p')
        caps=$((caps + c))
    done
    check "merge($pair): $caps capabilities" \
        grep -q "^capabilities: *$caps " <("$evprof" info "$tmp/merged.eventlog")
done

# A A = 2 x A
a=$data/deep-p.eventlog
"$evprof" folded "$a" | awk '{ n = $NF; sub(/ [0-9]+$/, ""); print $0 " " 2 * n }' |
    LC_ALL=C sort >"$tmp/twice"
"$evprof" folded "$a" "$a" | LC_ALL=C sort >"$tmp/aa"
check "folded A A = 2 x folded A" cmp -s "$tmp/twice" "$tmp/aa"
t=$("$evprof" report "$a" | sed -n 's/.*(\([0-9]*\) ticks @.*/\1/p')
s=$("$evprof" report "$a" | sed -n 's/.*total time  = *\([0-9.]*\) secs.*/\1/p')
check "report A A: twice the ticks" grep -q "($((2 * t)) ticks @" <("$evprof" report "$a" "$a")
s2=$("$evprof" report "$a" "$a" | sed -n 's/.*total time  = *\([0-9.]*\) secs.*/\1/p')
check "report A A: total time $s2 = 2 x $s" \
    awk -v a="$s" -v b="$s2" 'BEGIN { d = b - 2 * a; exit !(d < 0.015 && d > -0.015) }'
# the JSON report and the graph take several logs too
check "report --json A B" "$evprof" report --json -o "$tmp/r.json" "$a" "$data/mutual-p.eventlog"
check "graph A B" "$evprof" graph -f dot -o "$tmp/g.dot" "$a" "$data/mutual-p.eventlog"
check "graph A B: cost centres of both programs" grep -q "walk_step" "$tmp/g.dot"
check "graph A B: cost centres of both programs" grep -q "collatz" "$tmp/g.dot"

# speedscope: a profile per log and capability, named by the log
"$evprof" speedscope -o "$tmp/s.json" "$a" "$data/par-N2-p.eventlog" || bad "speedscope A B"
"$PYTHON" - "$tmp/s.json" "$a" "$data/par-N2-p.eventlog" <<'PY' || bad "speedscope A B: profiles"
import json, sys
d = json.load(open(sys.argv[1]))
names = [p["name"] for p in d["profiles"]]
want = [sys.argv[2] + " capability 0", sys.argv[3] + " capability 0",
        sys.argv[3] + " capability 1"]
assert names == want, names
PY
ok
# each log's profiles hold what that log alone gives
for f in "$a" "$data/par-N2-p.eventlog"; do
    "$evprof" speedscope -o "$tmp/one.json" "$f"
    "$PYTHON" - "$tmp/one.json" "$tmp/s.json" "$f" <<'PY' || bad "speedscope A B: $f's samples"
import json, sys
one, many, log = (json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3])
def stacks(doc, prof):
    fr = doc["shared"]["frames"]
    return [tuple(fr[i]["name"] for i in s) for s in prof["samples"]], prof["weights"]
mine = [p for p in many["profiles"] if p["name"].startswith(log + " ")]
assert len(mine) == len(one["profiles"])
for p, q in zip(one["profiles"], mine):
    assert stacks(one, p) == stacks(many, q), log
PY
done
ok

# pprof: one profile, the samples summed, the duration the summed spans
# (tests/support/pprof_read.py, the reader of pprof.sh)
b=$data/mutual-p.eventlog
"$evprof" pprof -o "$tmp/p.pb.gz" "$a" "$b" || bad "pprof A B"
for f in "$a" "$b"; do "$evprof" pprof -o "$tmp/p1.pb.gz" "$f"; cp "$tmp/p1.pb.gz" "$tmp/p.$(basename "$f").pb.gz"; done
PYTHONPATH=tests/support "$PYTHON" - "$tmp/p.pb.gz" "$tmp/p.$(basename "$a").pb.gz" \
    "$tmp/p.$(basename "$b").pb.gz" <<'PY' || bad "pprof A B: samples and duration"
import sys, pprof_read
def load(path):
    p = pprof_read.read(open(path, 'rb').read())
    pprof_read.check(p)
    return p
ab, a, b = (load(x) for x in sys.argv[1:])
tot = lambda p: sum(s['value'][0] for s in p['sample'])
assert tot(ab) == tot(a) + tot(b), (tot(ab), tot(a), tot(b))
assert ab['duration_nanos'] == a['duration_nanos'] + b['duration_nanos']
st = lambda p: {k: v[0] for k, v in pprof_read.stacks(p).items()}
sa, sb, sab = st(a), st(b), st(ab)
for k in set(sa) | set(sb):
    assert sab.get(k) == sa.get(k, 0) + sb.get(k, 0), k
PY
ok

# merge refuses logs whose header disagrees on a type's size, writes nothing
if "$evprof" merge -o "$tmp/no.eventlog" "$nfib/nfib-p.eventlog" \
    tests/data/ghc-events/hello-ghc-8.2.2.eventlog 2>"$tmp/err"; then
    bad "merge of different sizes: exit 0"
else
    ok
fi
check "merge: the error names the type and sizes" \
    grep -q "event type 53 (GC_STATS_GHC) has size 50 here but 58" "$tmp/err"
check "merge: nothing written" test ! -e "$tmp/no.eventlog"
# a heap profile by cost-centre stack after another program's log: its
# samples' stacks (event 163, depth at byte 9) name its own cost centres,
# moved to their merged ids (the type table's numbers, issue 28)
"$evprof" merge -o "$tmp/hc.eventlog" tests/data/ghc/deep-p.eventlog "$nfib/nfib-hc.eventlog"
"$evprof" heap -f csv "$tmp/hc.eventlog" | cut -d, -f3- | LC_ALL=C sort >"$tmp/hc.merged"
"$evprof" heap -f csv "$nfib/nfib-hc.eventlog" | cut -d, -f3- | LC_ALL=C sort >"$tmp/hc.alone"
check "merge: a later -hc log's bands are its own" cmp -s "$tmp/hc.merged" "$tmp/hc.alone"
# marker windows take one log
if "$evprof" report --between x "$a" "$a" 2>/dev/null; then bad "--between with 2 logs"; else ok; fi

# a log without samples among several: named once, the others summed
"$evprof" report examples/nfib.eventlog tests/data/ghc-9.0.2/nfib-s.eventlog >"$tmp/out" 2>"$tmp/err"
check "several logs, one without samples: it is named" \
    grep -q "nfib-s.eventlog: no time-profile samples (event 167)" "$tmp/err"
check "several logs, one without samples: the other is not" \
    [ -z "$(grep "examples/nfib.eventlog: no time-profile samples" "$tmp/err")" ]

echo "runs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
