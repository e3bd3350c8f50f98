#!/usr/bin/env bash
# `evprof pprof` files read by the real pprof (go tool pprof, from Debian's
# Go toolchain): every file parses (-raw), the totals it shows equal the
# report's ticks (samples) and ticks x interval (cpu), the functions carry
# file and line, -diff_base between two evprof profiles gives their
# difference, and a heap census totals what `evprof heap` says.
# Says SKIPPED (exit 77) where Go is not installed.
#
# Usage: tests/cli/pprof_go.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
data=tests/data/ghc
heap=tests/data/heap

go=
# $PPROF_GO: the go binary to use (a missing one tests the skip)
for g in ${PPROF_GO:-go /usr/lib/go/bin/go /usr/lib/go-*/bin/go}; do
    if command -v "$g" >/dev/null 2>&1; then go=$(command -v "$g"); break; fi
done
if [ -z "$go" ] || ! "$go" tool pprof -h >/dev/null 2>&1; then
    echo "SKIPPED: go tool pprof is not installed (Debian: golang-go)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp GOCACHE=$tmp/gocache PPROF_TMPDIR=$tmp
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

ticks_of() { grep -o '([0-9]* ticks @' | grep -o '[0-9]*'; }
interval_of() { grep -o 'ticks @ [0-9]* us' | grep -o '[0-9]* us' | grep -o '[0-9]*'; }
# pprof's "... of N total" line of -top
total_of() { grep -o 'of [0-9]*[a-zA-Z]* total' | grep -o '[0-9]*'; }

for f in "$data"/par-N2-p.eventlog "$data"/deep-p.eventlog "$data"/chain-p.eventlog \
         "$data"/odd-p.eventlog; do
    "$evprof" pprof "$f" -o "$tmp/p.pb.gz"
    "$go" tool pprof -raw "$tmp/p.pb.gz" >"$tmp/raw" 2>"$tmp/err"
    check "$f: go tool pprof -raw reads it" [ $? -eq 0 ]
    check "$f: pprof sees samples/count and cpu/nanoseconds" \
        grep -q '^samples/count cpu/nanoseconds' "$tmp/raw"
    rep=$("$evprof" report "$f" | head -5)
    ticks=$(echo "$rep" | ticks_of)
    us=$(echo "$rep" | interval_of)
    got=$("$go" tool pprof -top -sample_index=samples "$tmp/p.pb.gz" 2>/dev/null | total_of)
    check "$f: pprof's total $got samples = the report's $ticks ticks" [ "$got" = "$ticks" ]
    got=$("$go" tool pprof -top -sample_index=cpu -unit=ns "$tmp/p.pb.gz" 2>/dev/null | total_of)
    check "$f: pprof's cpu total $got ns = $ticks ticks x $us us" \
        [ "$got" = "$((ticks * us * 1000))" ]
done

# file and line of a function, as pprof lists it
"$evprof" pprof "$data"/par-N2-p.eventlog -o "$tmp/par.pb.gz"
"$go" tool pprof -raw "$tmp/par.pb.gz" >"$tmp/raw" 2>/dev/null
check "pprof shows Main.crunch at Par.hs:11" grep -q 'Main.crunch Par.hs:11 s=11(crunch)' "$tmp/raw"
check "pprof shows the period" grep -q '^Period: 1000000$' "$tmp/raw"

# -diff_base: the whole run minus capability 0 is capability 1
"$evprof" pprof --all "$data"/par-N2-p.eventlog -o "$tmp/all.pb.gz"
"$evprof" pprof --all --cap 0 "$data"/par-N2-p.eventlog -o "$tmp/c0.pb.gz"
cap1=$("$evprof" report --all --cap 1 "$data"/par-N2-p.eventlog | ticks_of)
"$go" tool pprof -top -sample_index=samples -diff_base "$tmp/c0.pb.gz" "$tmp/all.pb.gz" \
    >"$tmp/diff" 2>&1
check "-diff_base: exit 0" [ $? -eq 0 ]
got=$(grep -o 'accounting for [0-9]*' "$tmp/diff" | grep -o '[0-9]*$')
check "-diff_base all cap0 = capability 1's $cap1 ticks (got $got)" [ "$got" = "$cap1" ]
got=$("$go" tool pprof -top -diff_base "$tmp/all.pb.gz" "$tmp/all.pb.gz" 2>/dev/null |
      grep -o 'accounting for [0-9]*' | grep -o '[0-9]*$')
check "-diff_base of a profile against itself is 0 (got $got)" [ "$got" = "0" ]

# a heap census: pprof's total = the census total of evprof heap's CSV
"$evprof" pprof --heap --census 5 "$heap"/leak-hc.eventlog -o "$tmp/h.pb.gz"
want=$("$evprof" heap --format csv "$heap"/leak-hc.eventlog | awk -F, '$1 == 5 { s += $NF } END { print s }')
got=$("$go" tool pprof -top -sample_index=inuse_space -unit=bytes "$tmp/h.pb.gz" 2>/dev/null |
      total_of)
check "heap census 5: pprof's $got bytes = evprof heap's $want" [ "$got" = "$want" ]

echo "pprof_go: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
