#!/usr/bin/env bash
# Rebuilds the test programs with the installed GHC 9.0.2 and re-runs them,
# replacing the logs and GHC's own reports here. Outputs of two runs differ
# (timing), so a log must always be committed with the report of its run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/src/*.hs "$work"
cd "$work"
python3 "$here/gen_chain.py" Chain.hs
build() { out=$1; shift; ghc -rtsopts -outputdir "o-$out" -o "$out" "$@" >/dev/null; }
build deep   -O  -prof Deep.hs
build mutual -O0 -prof -fprof-auto Mutual.hs
build odd    -O  -prof -fprof-auto-top Odd.hs Helpers.hs
build chain  -O0 -prof Chain.hs
build par    -O  -prof -threaded Par.hs
run() {   # NAME PROG [RTS flags...]: one -p run and one -pj run
  name=$1 prog=$2; shift 2
  for mode in p pj; do
    "./$prog" +RTS -$mode -l "$@" -RTS >/dev/null
    mv "$prog.eventlog" "$here/$name-$mode.eventlog"
    mv "$prog.prof" "$here/$name-$mode.prof"
  done
}
run deep deep
run mutual mutual
run odd odd
run chain chain
run par-N2 par -N2
