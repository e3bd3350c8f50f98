#!/usr/bin/env bash
# Rebuilds the programs of this folder and re-runs them, replacing the logs
# and GHC's own reports here (a log is always committed with the report of
# its own run: two runs differ in timing).
#   Phases.hs   GHC 9.0.2, -prof -fprof-auto, +RTS -p -l -A4m
#               -> phases.eventlog, phases.prof
#               GHC 9.6.6 (scripts/ghc.sh 9.6, skipped when it is not set up)
#               -> phases-9.6.eventlog, phases-9.6.prof
#   Threads.hs  GHC 9.0.2, -threaded -prof -fprof-auto, +RTS -N2 -p -l -lf
#               -> threads-N2.eventlog, threads-N2.prof
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/*.hs "$work"
cd "$work"
ghc -O1 -prof -fprof-auto -rtsopts -outputdir o-phases Phases.hs -o phases >/dev/null
./phases +RTS -p -l -A4m -RTS
mv phases.eventlog phases.prof "$here/"
ghc -O1 -threaded -prof -fprof-auto -rtsopts -outputdir o-threads Threads.hs -o threads >/dev/null
./threads +RTS -N2 -p -l -lf -RTS >/dev/null
mv threads.eventlog "$here/threads-N2.eventlog"
mv threads.prof "$here/threads-N2.prof"
if bash "$root/scripts/ghc.sh" 9.6 check; then
    bash "$root/scripts/ghc.sh" 9.6 run "$work" \
        'ghc -O1 -prof -fprof-auto -rtsopts -outputdir o96 Phases.hs -o phases96 >/dev/null &&
         ./phases96 +RTS -p -l -A4m -RTS'
    mv phases96.eventlog "$here/phases-9.6.eventlog"
    mv phases96.prof "$here/phases-9.6.prof"
else
    echo "regen.sh: GHC 9.6 is not set up (scripts/ghc.sh 9.6 setup): phases-9.6.* kept" >&2
fi
