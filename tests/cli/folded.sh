#!/usr/bin/env bash
# `evprof folded` from the command line: the counts add up to the report's
# total on every time-profile log (with the shared filters too), every line
# parses the way flamegraph.pl and speedscope parse it, names are cleaned
# as documented, -o is atomic, and bad input gives the right exit codes.
#
# Usage: tests/cli/folded.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
data=tests/data/ghc
corpus=tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

logs=("$corpus"/ghc-9.0.2/nfib-p.eventlog "$corpus"/ghc-9.0.2/nfib-pj.eventlog
      "$corpus"/ghc-9.0.2/nfib-N2.eventlog "$corpus"/ghc-events/time-prof.eventlog
      "$data"/deep-p.eventlog "$data"/mutual-p.eventlog "$data"/odd-p.eventlog
      "$data"/chain-p.eventlog "$data"/par-N2-p.eventlog
      "$corpus"/ghc-9.6/sim-p.eventlog "$corpus"/ghc-9.6/sim-late-pj.eventlog
      "$corpus"/ghc-9.6/workers-N2-p.eventlog)

# The format as the tools read it: speedscope /^(.*) (\d+)$/ (integer
# counts), flamegraph.pl /^(.*)\s+?(\d+(?:\.\d*)?)$/ and its differential
# check on what remains; no control characters, empty frames or duplicates.
# One Python start for every file (checks.bash's defer; verdicts at the
# end): parses FILE; adds_up FILE WANT: it parses and its counts sum to WANT.
cat >"$tmp/check.py" <<'PY'
import re, sys
from verdicts import serve
speedscope = re.compile(r'^(.*) (\d+)$')
flamegraph = re.compile(r'^(.*)\s+?(\d+(?:\.\d*)?)$')

def total(path):
    data = open(path, 'rb').read()
    assert data == b'' or data.endswith(b'\n'), 'last line ends with a newline'
    text = data.decode('utf-8')
    total, seen = 0, set()
    for line in text.split('\n')[:-1]:
        m = speedscope.match(line)
        assert m, 'speedscope cannot read: %r' % line
        f = flamegraph.match(line)
        assert f and f.group(1) == m.group(1) and f.group(2) == m.group(2), line
        assert not flamegraph.match(m.group(1)), 'flamegraph.pl sees two counts: %r' % line
        assert not re.search(r'[\x00-\x1f\x7f]', line), 'control character: %r' % line
        frames = m.group(1).split(';')
        assert all(frames), 'empty frame: %r' % line
        assert m.group(1) not in seen, 'stack printed twice: %r' % line
        seen.add(m.group(1))
        assert int(m.group(2)) > 0
        total += int(m.group(2))
    return total

def parses(path):
    total(path)

def adds_up(path, want):
    got = total(path)
    assert str(got) == want, 'got %d' % got

serve(globals())
PY
n=0     # each deferred check's own copy of the output

ticks_of() { grep -o '([0-9]* ticks @' | grep -o '[0-9]*'; }

for f in "${logs[@]}"; do
    n=$((n + 1))
    "$evprof" folded "$f" >"$tmp/out$n" 2>"$tmp/err"
    check "$f: exit 0" [ $? -eq 0 ]
    defer "$f: lines parse as flamegraph.pl and speedscope read them" parses "$tmp/out$n"
    want=$("$evprof" report "$f" | ticks_of)
    defer "$f: counts add up to the report's $want ticks" adds_up "$tmp/out$n" "$want"
    "$evprof" folded --all "$f" >"$tmp/all$n"
    want=$("$evprof" report --all "$f" | ticks_of)
    defer "$f: --all adds up to report --all ($want)" adds_up "$tmp/all$n" "$want"
done

# the shared filters: the same window and capability as the report
f="$corpus/ghc-9.0.2/nfib-N2.eventlog"
for args in "--cap 0" "--cap 1" "--from 0.05" "--to 0.1" "--from 0.02 --to 0.08 --cap 1"; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    "$evprof" folded $args "$f" >"$tmp/out$n"
    # shellcheck disable=SC2086
    want=$("$evprof" report $args "$f" | ticks_of)
    defer "folded $args: ticks == report's $want" adds_up "$tmp/out$n" "$want"
done
"$evprof" folded --from 0.0005 --to 0.001 "$data/deep-p.eventlog" >"$tmp/out" 2>/dev/null
check "empty window inside the log: exit 0" [ $? -eq 0 ]
check "empty window: no lines" [ ! -s "$tmp/out" ]
"$evprof" folded --from 1000 "$data/deep-p.eventlog" >"$tmp/out" 2>/dev/null
check "window after the log: a usage error (exit 2)" [ $? -eq 2 ]
check "window after the log: no lines" [ ! -s "$tmp/out" ]

# names: ';' -> ':', tab -> \t (the visible form), the rest as it is
"$evprof" folded "$data/odd-p.eventlog" >"$tmp/odd"
check "odd: semicolon replaced" grep -qF 'MAIN;Main.CAF;Main.main;Main.semi:colon;Helpers.churn 43' "$tmp/odd"
check "odd: tab shown as \\t" grep -qF ';Main.tab\there;' "$tmp/odd"
check "odd: quote, backslash, UTF-8 kept" grep -qF ';Main.quote"d;' "$tmp/odd"
check "odd: backslash kept" grep -qF ';Main.back\slash;' "$tmp/odd"
check "odd: UTF-8 kept" grep -qF ';Main.λ-café;' "$tmp/odd"
check "odd: trailing digits kept" grep -qF ';Main.trailing_42;Helpers.churn 41' "$tmp/odd"
"$evprof" folded --frame-format src "$data/odd-p.eventlog" >"$tmp/src"
check "--frame-format src" grep -qF 'MAIN;Main.CAF (<entire-module>);Main.main (Odd.hs:(9,1)-(16,43));' "$tmp/src"
defer "--frame-format src parses" parses "$tmp/src"
"$evprof" folded -F label "$data/odd-p.eventlog" >"$tmp/label"
check "--frame-format label" grep -qF 'MAIN;CAF;main;semi:colon;churn 43' "$tmp/label"

# stacks past GHC's 255 frames start at the marker
"$evprof" folded "$data/chain-p.eventlog" >"$tmp/chain"
check "chain: cut stacks start at the marker" grep -q '^<stack cut at 255 frames>;Main\.c' "$tmp/chain"
frames=$(grep '^<stack cut' "$tmp/chain" | head -1 | sed 's/ [0-9]*$//' | tr ';' '\n' | wc -l)
check "chain: marker + 255 frames ($frames)" [ "$frames" -eq 256 ]

# -o: written whole, nothing on stdout, no temporary left
"$evprof" folded "$data/deep-p.eventlog" -o "$tmp/d.folded" >"$tmp/stdout"
check "-o exit 0" [ $? -eq 0 ]
check "-o leaves stdout empty" [ ! -s "$tmp/stdout" ]
"$evprof" folded "$data/deep-p.eventlog" >"$tmp/direct"
check "-o file equals stdout" cmp -s "$tmp/d.folded" "$tmp/direct"
check "-o leaves no temporary" [ "$(ls "$tmp" | grep -c evprof-)" -eq 0 ]
"$evprof" folded "$data/deep-p.eventlog" -o "$tmp/no/such/dir/x.folded" 2>"$tmp/err"
check "-o into a missing directory: exit 1" [ $? -eq 1 ]
if [ -w /dev/full ]; then
    "$evprof" folded "$data/deep-p.eventlog" >/dev/full 2>"$tmp/err"
    check "write error: exit 1" [ $? -eq 1 ]
fi

# usage errors exit 2
for args in "--frame-format xml" "--cap z" "--from 2 --to 1" "--bogus"; do
    # shellcheck disable=SC2086
    "$evprof" folded $args "$data/deep-p.eventlog" >/dev/null 2>&1
    check "folded $args: exit 2" [ $? -eq 2 ]
done
"$evprof" folded >/dev/null 2>&1
check "no FILE: exit 2" [ $? -eq 2 ]
"$evprof" folded --help >"$tmp/help"
check "--help: exit 0" [ $? -eq 0 ]
check "--help names --frame-format" grep -q -- "--frame-format" "$tmp/help"

# no samples: exit 1 and how to get them; a truncated log: the stacks
# before the damage, the error, exit 1
"$evprof" folded "$corpus/ghc-9.0.2/nfib-s.eventlog" >/dev/null 2>"$tmp/err"
check "no samples: exit 1" [ $? -eq 1 ]
check "no samples: says how" grep -q "+RTS -p -l" "$tmp/err"
f="$data/mutual-p.eventlog"; head -c $(( $(wc -c < "$f") - 7 )) "$f" >"$tmp/cut.eventlog"
"$evprof" folded "$tmp/cut.eventlog" >"$tmp/out" 2>"$tmp/err"
check "truncated: exit 1" [ $? -eq 1 ]
check "truncated: says so" grep -q "truncated at byte" "$tmp/err"
check "truncated: still stacks" grep -q "^MAIN;" "$tmp/out"

verdicts "$tmp/check.py"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
