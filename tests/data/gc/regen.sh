#!/usr/bin/env bash
# Rebuilds the GC test programs with the installed GHC 9.0.2 and runs each
# ONCE with +RTS -s<file> -l, so that every NAME.eventlog comes with the
# NAME.stats GHC printed for the same run (two runs differ in timing and
# even in counts, so never pair a log with another run's .stats).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/src/*.hs "$work"
cd "$work"
build() { out=$1; shift; ghc -O -rtsopts -eventlog -outputdir "o-$out" -o "$out" "$@" >/dev/null; }
build alloc Alloc.hs
build tiny Tiny.hs
build pargc -threaded ParGC.hs
build sparks -threaded Sparks.hs
run() {   # NAME PROG [RTS flags...]: one run, its eventlog and its -s summary
  name=$1 prog=$2; shift 2
  "./$prog" +RTS -s"$name.stats" -l "$@" -RTS >/dev/null
  mv "$prog.eventlog" "$here/$name.eventlog"
  mv "$name.stats" "$here/$name.stats"
}
run alloc alloc
run tiny-A64k tiny -A64k
run pargc-N2 pargc -N2
run pargc-N2-G3-qg1 pargc -N2 -G3 -qg1
run sparks-N2 sparks -N2
# no GC events at all: -l-a turns every event class off
./alloc +RTS -l-a -RTS >/dev/null
mv alloc.eventlog "$here/alloc-l-a.eventlog"
