#!/usr/bin/env bash
# The GHC 9.10 data set made anew: tests/data/ghc-9.10/regen.sh --into a
# temporary folder rebuilds the programs from source with the chroot's
# GHC 9.10.3 (scripts/ghc.sh 9.10), re-runs every row and, with
# ghc-events on the host, writes the digests of ghc-events' text; then
# tests/cli/ghc910.sh checks the fresh runs as it checks the committed
# ones (info, dump, heap, ticky against -r, gc, report, phases), and
# scripts/prof_bounds.py prints how far GHC's .prof and -pj of the fresh
# runs are from their samples (figures, not checks: docs/PROF.md). SKIPPED
# (77) without the chroot.
#
# Usage: tests/cli/ghc910_fresh.sh path/to/evprof   (from the project root)
set -u
evprof=$(realpath "${1:?usage: $0 path/to/evprof}")
if ! bash scripts/ghc.sh 9.10 check; then
    echo "SKIPPED: no GHC 9.10 chroot (scripts/ghc.sh 9.10 setup)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

mkdir "$tmp/runs"
if ! bash tests/data/ghc-9.10/regen.sh --into "$tmp/runs" >"$tmp/regen.log" 2>&1; then
    tail -5 "$tmp/regen.log"
    bad "regen.sh --into: the GHC 9.10 runs"
fi
# the rows regen.sh makes: all but the -s runs of regen-gc.sh (its header
# names them; it writes into the tree, not --into, and gc's tests read them)
gc_rows=$(sed -n 's|^#   ghc-9.10/\([^.]*\)\.{eventlog,stats}.*|\1|p' tests/data/ghc-9.10/regen-gc.sh)
want=0 made=0
for f in tests/data/ghc-9.10/*.eventlog; do
    r=$(basename "$f" .eventlog)
    case " $(echo $gc_rows) " in *" $r "*) continue ;; esac
    want=$((want + 1))
    [ -s "$tmp/runs/$r.eventlog" ] && made=$((made + 1))
done
# GHC's own outputs beside them, one per row that has one
for o in tests/data/ghc-9.10/*.prof tests/data/ghc-9.10/*.hp tests/data/ghc-9.10/*.stats \
         tests/data/ghc-9.10/*.ticky; do
    r=$(basename "$o"); r=${r%.*}
    case " $(echo $gc_rows) " in *" $r "*) continue ;; esac
    check "$(basename "$o") made" [ -s "$tmp/runs/$(basename "$o")" ]
done
check "regen-gc.sh's rows named ($(echo $gc_rows))" [ -n "$gc_rows" ]
check "every row's log made ($made of $want)" [ "$made" -eq "$want" ]
bash tests/cli/ghc910.sh "$evprof" "$tmp/runs" >"$tmp/checks.log" 2>&1
grep -E '^(FAIL|SKIPPED|note)' "$tmp/checks.log"
if read -r p f < <(sed -n 's/^ghc910: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$tmp/checks.log") &&
   [ -n "$f" ]; then
    passed=$((passed + p)) failed=$((failed + f))
else
    tail -5 "$tmp/checks.log"
    bad "ghc910.sh on the fresh runs did not finish"
fi

pairs=()
for r in sim-p sim-pj workers-N2-p workers-N2-pj; do
    pairs+=("$tmp/runs/$r.eventlog:$tmp/runs/$r.prof")
done
"$PYTHON" scripts/prof_bounds.py "$evprof" "${pairs[@]}" 2>&1 | sed -n '/^worst/,$p' |
    sed 's/^/note: fresh runs: /'

echo "ghc910_fresh: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
