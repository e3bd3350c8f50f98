#!/usr/bin/env bash
# The heap time axis (issue 18): `evprof heap --clock mutator` estimates
# the mutator CPU seconds that GHC's own .hp uses for BEGIN_SAMPLE (elapsed
# time less the collections before, read in time order). On the -hT and
# -hd runs of tests/data/heap (GHC 9.0.2, each log with the .hp of the
# same run) the estimate is several times closer to GHC's times than the
# elapsed clock (the figures are printed: in the first half of the run
# within a millisecond, later off by up to 10-15% where the process did not
# get the CPU), and the bands are the same under either clock.
#
# Usage: tests/cli/heap_clock.sh path/to/evprof   (run from the project root)
set -u

evprof=${1:?usage: $0 path/to/evprof}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
# census times, without the opening and closing empty samples
times() { grep '^BEGIN_SAMPLE' "$1" | sed '1d;$d' | awk '{ print $2 }'; }
# the largest difference between two columns of times
maxdiff() { paste "$1" "$2" | awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > m) m = d } END { printf "%.6f\n", m }'; }

for k in hT hd; do
    log=tests/data/heap/leak-$k.eventlog
    "$evprof" heap -f hp --clock mutator "$log" >"$tmp/mut.hp"
    check "$k: --clock mutator exit 0" [ $? -eq 0 ]
    "$evprof" heap -f hp "$log" >"$tmp/ela.hp"
    times "tests/data/heap/leak-$k.hp" >"$tmp/ghc.t"
    times "$tmp/mut.hp" >"$tmp/mut.t"
    times "$tmp/ela.hp" >"$tmp/ela.t"
    check "$k: as many censuses as GHC's .hp" [ "$(wc -l <"$tmp/mut.t")" -eq "$(wc -l <"$tmp/ghc.t")" ]
    dm=$(maxdiff "$tmp/mut.t" "$tmp/ghc.t")
    de=$(maxdiff "$tmp/ela.t" "$tmp/ghc.t")
    echo "$k: largest difference from GHC's .hp times: mutator $dm s, elapsed $de s"
    check "$k: mutator clock 4x closer to GHC's than elapsed" \
        awk -v m="$dm" -v e="$de" 'BEGIN { exit !(m * 4 < e) }'
    half=$(( $(wc -l <"$tmp/ghc.t") / 2 ))
    dh=$(maxdiff <(head -n $half "$tmp/mut.t") <(head -n $half "$tmp/ghc.t"))
    echo "$k: first half of the censuses: within $dh s"
    check "$k: first half within 2 ms" awk -v d="$dh" 'BEGIN { exit !(d < 0.002) }'
    check "$k: the same bands under either clock" \
        cmp -s <(grep -v '_SAMPLE' "$tmp/mut.hp") <(grep -v '_SAMPLE' "$tmp/ela.hp")
done
# GHC 9.6.6 runs of a program whose collections take most of its time
# (tests/data/ghc-9.6's parser, its tree alive to the end): elapsed time
# runs far ahead of GHC's mutator seconds, the estimate stays near them
for r in parse-hT parse-hi parse-hc parse-hy; do
    log=tests/data/ghc-9.6/$r.eventlog
    "$evprof" heap -f hp --clock mutator "$log" >"$tmp/mut.hp" 2>/dev/null
    "$evprof" heap -f hp "$log" >"$tmp/ela.hp" 2>/dev/null
    times "tests/data/ghc-9.6/$r.hp" >"$tmp/ghc.t"
    times "$tmp/mut.hp" >"$tmp/mut.t"
    times "$tmp/ela.hp" >"$tmp/ela.t"
    check "9.6 $r: as many censuses as GHC's .hp" [ "$(wc -l <"$tmp/mut.t")" -eq "$(wc -l <"$tmp/ghc.t")" ]
    dm=$(maxdiff "$tmp/mut.t" "$tmp/ghc.t")
    de=$(maxdiff "$tmp/ela.t" "$tmp/ghc.t")
    echo "9.6 $r: GHC's last census at $(tail -1 "$tmp/ghc.t") s (mutator), the log's at $(tail -1 "$tmp/ela.t") s (elapsed); largest difference from GHC's times: mutator $dm s, elapsed $de s"
    check "9.6 $r: mutator clock 4x closer to GHC's than elapsed" \
        awk -v m="$dm" -v e="$de" 'BEGIN { exit !(m * 4 < e) }'
done
"$evprof" heap --clock cpu tests/data/heap/leak-hT.eventlog >/dev/null 2>&1
check "--clock cpu: usage error" [ $? -eq 2 ]

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
