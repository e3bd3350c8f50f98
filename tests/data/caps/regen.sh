#!/usr/bin/env bash
# Rebuilds Caps.hs with the installed GHC 9.0.2 (non-threaded and
# -threaded, both -prof -fprof-auto) and re-runs it with +RTS -pj -l under
# each capability setting, replacing the logs and GHC's -pj JSON here. A
# log must always be committed with GHC's output of the same run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/Caps.hs" "$work"
cd "$work"
ghc -O -prof -fprof-auto -rtsopts -outputdir o-nt -o caps Caps.hs >/dev/null
ghc -O -prof -fprof-auto -rtsopts -threaded -outputdir o-thr -o caps-thr Caps.hs >/dev/null
run() {   # NAME PROG [ARGS and +RTS flags...]
  name=$1 prog=$2; shift 2
  "./$prog" "$@" >/dev/null
  mv "$prog.eventlog" "$here/$name.eventlog"
  mv "$prog.prof" "$here/$name.prof"
}
run nt       caps     +RTS -pj -l -RTS
run N1       caps-thr +RTS -pj -l -N1 -RTS
run N2       caps-thr +RTS -pj -l -N2 -RTS
run N        caps-thr +RTS -pj -l -N -RTS
run maxN4    caps-thr +RTS -pj -l -maxN4 -RTS
run N1-grow  caps-thr grow +RTS -pj -l -N1 -RTS
