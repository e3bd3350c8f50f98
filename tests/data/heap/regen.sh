#!/usr/bin/env bash
# Rebuilds the heap-profile test programs with the installed GHC 9.0.2 and
# re-runs them, replacing every eventlog here and GHC's own .hp of the same
# run (outputs of two runs differ: a log is only ever compared with the .hp
# written beside it). See README.md for what each run covers.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/src/*.hs "$work"
cd "$work"
ghc -O -prof -fprof-auto -rtsopts -outputdir o-leak -o leak Leak.hs >/dev/null
ghc -O -eventlog -rtsopts -outputdir o-leak-np -o leak-np Leak.hs >/dev/null
ghc -O0 -prof -fprof-cafs -rtsopts -outputdir o-long -o long Long.hs >/dev/null
run() {   # NAME PROG ARGS...: one run; keeps PROG.eventlog and PROG.hp as NAME.*
  name=$1 prog=$2; shift 2
  rm -f "$prog.eventlog" "$prog.hp"
  "./$prog" "$@" >/dev/null
  mv "$prog.eventlog" "$here/$name.eventlog"
  mv "$prog.hp" "$here/$name.hp"
}
for mode in hc hy hd hm hr hb; do
  run "leak-$mode" leak 25 +RTS -$mode -l -i0.01 -RTS
done
run leak-hT leak-np 25 +RTS -hT -l -i0.01 -RTS
run long-hc long +RTS -hc -l -i0.01 -RTS
run long-hc-L40 long x +RTS -hc -l -L40 -i0.01 -RTS y
