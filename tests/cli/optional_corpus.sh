#!/bin/bash
# The logs too large for the repository (../shared/corpus beside the
# project, when there): every command reads them without damage. Without
# them this test exits 77, which CTest shows as skipped (never as passed).
# Run from the project root:  bash tests/cli/optional_corpus.sh build/evprof
evprof=${1:-build/evprof}
shared=../shared/corpus
optional="$shared/ghc-events/stop.hT.eventlog"

have=""
for f in $optional; do [ -f "$f" ] && have="$have $f"; done
if [ -z "$have" ]; then
    echo "SKIPPED: no $shared beside the project (optional large logs: $optional)"
    exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
for f in $have; do
    for cmd in info dump heap; do
        "$evprof" $cmd "$f" >"$tmp/out" 2>"$tmp/err"
        st=$?
        if [ $st -ne 0 ] || [ -s "$tmp/err" ]; then
            echo "FAIL: evprof $cmd $f: exit $st $(head -1 "$tmp/err")"
            failed=$((failed + 1))
        fi
    done
done
echo "optional corpus: $failed failure(s)"
[ $failed -eq 0 ]
