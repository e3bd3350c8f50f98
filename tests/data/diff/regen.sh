#!/bin/bash
# Rebuilds the diff example's logs (docs/DIFF.md): the same program before
# and after an optimisation, built and run with the same GHC and flags.
# Needs ghc (Debian ghc 9.0.2 + ghc-prof). Run from this folder.
set -eu
n=${1:-200000}
for v in before after; do
    out=$(mktemp -d)
    (cd "$v" && ghc -O -prof -fprof-auto -rtsopts -outputdir "$out" -o "$out/freq" Freq.hs)
    (cd "$out" && ./freq "$n" +RTS -p -l -RTS)
    cp "$out/freq.eventlog" "freq-$v.eventlog"
    cp "$out/freq.prof" "freq-$v.prof"
    if [ "$v" = before ]; then
        # the same build on half the input
        (cd "$out" && ./freq $((n / 2)) +RTS -p -l -RTS)
        cp "$out/freq.eventlog" "freq-$v-100k.eventlog"
        cp "$out/freq.prof" "freq-$v-100k.prof"
    fi
    rm -rf "$out"
done
