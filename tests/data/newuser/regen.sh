#!/usr/bin/env bash
# Rebuilds the new-user programs of issue 27 (src/) with the installed GHC
# 9.0.2 and runs each once, so that every log here comes with GHC's own
# outputs of the same run (.prof, .stats). `regen.sh 96` also makes the
# GHC 9.6.6 runs, in the chroot of scripts/ghc96.sh. Every file it makes
# replaces the one here; the README says what each is for.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/src/*.hs "$work"
cd "$work"
prof() { out=$1; shift; ghc -O -prof -fprof-auto -rtsopts -eventlog -outputdir "o-$out" -o "$out" "$@" >/dev/null; }
plain() { out=$1; shift; ghc -O -rtsopts -eventlog -outputdir "o-$out" -o "$out" "$@" >/dev/null; }

# a naive and a fast version of one function (diff --fail-above)
prof dedup Dedup.hs
for mode in naive fast; do
    ./dedup "$mode" 8000 +RTS -p -l -RTS >/dev/null
    mv dedup.eventlog "$here/dedup-$mode.eventlog"
    mv dedup.prof "$here/dedup-$mode.prof"
done
