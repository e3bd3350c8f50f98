#!/usr/bin/env bash
# `evprof merge` read by ghc-events (the Haskell library of GHC's own
# eventlog tools): tests/support/ghc_events_count.hs, built here with ghc
# and Debian's libghc-ghc-events-dev, reads each merged log; its sample
# count is the sum of the logs' (each read by ghc-events too), its
# capabilities and threads the sums (kept apart), its event count at most
# evprof info's (which counts the block markers). Exit 77 (SKIPPED)
# without ghc or ghc-events.
# Usage: tests/cli/runs_ghc_events.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
if ! command -v ghc >/dev/null || ! ghc-pkg list ghc-events 2>/dev/null | grep -q ghc-events; then
    echo "SKIPPED: ghc or the ghc-events package (libghc-ghc-events-dev) is not installed"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

cp tests/support/ghc_events_count.hs "$tmp/"
if ! (cd "$tmp" && ghc -O0 -package ghc-events -outputdir build -o count \
      ghc_events_count.hs >build.log 2>&1); then
    cat "$tmp/build.log"
    echo "SKIPPED: the ghc-events reader does not build"
    exit 77
fi
count=$tmp/count
field() { sed -n "s/^$1 //p"; }

data=tests/data/ghc
nfib=tests/data/ghc-9.0.2
pairs=("$data/deep-p.eventlog $data/deep-pj.eventlog"
       "$nfib/nfib-p.eventlog $nfib/nfib-N2.eventlog"
       "$data/chain-p.eventlog $data/odd-p.eventlog $data/par-N2-p.eventlog")
for pair in "${pairs[@]}"; do
    read -r -a logs <<<"$pair"
    samples=0 caps=0 threads=0
    for f in "${logs[@]}"; do
        out=$("$count" "$f") || bad "ghc-events reads $f"
        samples=$((samples + $(field samples <<<"$out")))
        caps=$((caps + $(field capabilities <<<"$out")))
        threads=$((threads + $(field threads <<<"$out")))
    done
    "$evprof" merge "${logs[@]}" -o "$tmp/m.eventlog" || bad "merge $pair"
    if out=$("$count" "$tmp/m.eventlog"); then
        ok
        echo "ghc-events on merge($pair): $(tr '\n' ' ' <<<"$out")"
    else
        bad "ghc-events reads merge($pair): $out"
    fi
    check "merge($pair): ghc-events counts $samples samples" test "$(field samples <<<"$out")" = "$samples"
    check "merge($pair): ghc-events sees $caps capabilities" test "$(field capabilities <<<"$out")" = "$caps"
    check "merge($pair): ghc-events sees $threads threads, kept apart" \
        test "$(field threads <<<"$out")" = "$threads"
    n=$("$evprof" info "$tmp/m.eventlog" | sed -n 's/^events: *\([0-9]*\).*/\1/p')
    check "merge($pair): ghc-events counts evprof's $n events (less the block markers)" \
        test "$(field events <<<"$out")" -le "$n"
done
echo "runs_ghc_events: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
