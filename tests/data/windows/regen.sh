#!/usr/bin/env bash
# Rebuilds Windows.hs and re-runs it, replacing the logs here:
#   GHC 9.0.2, -O1 -prof -threaded -rtsopts, +RTS -N2 -hy -i0.01 -l
#       -> windows-N2.eventlog (heap censuses by type, collections on two
#          capabilities, six `step` marks)
#   GHC 9.6.6 (scripts/ghc.sh 9.6, skipped when it is not set up), -O1 -ticky,
#       +RTS -lTu -> ticky-9.6.eventlog (ticky counters and the same marks)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/Windows.hs "$work"
cd "$work"
ghc -O1 -prof -threaded -rtsopts -outputdir o90 Windows.hs -o windows >/dev/null
./windows +RTS -N2 -hy -i0.01 -l -RTS >/dev/null
mv windows.eventlog "$here/windows-N2.eventlog"
if bash "$root/scripts/ghc.sh" 9.6 check; then
    bash "$root/scripts/ghc.sh" 9.6 run "$work" \
        'ghc -O1 -ticky -rtsopts -outputdir o96 Windows.hs -o ticky96 >/dev/null &&
         ./ticky96 +RTS -lTu -RTS >/dev/null'
    mv ticky96.eventlog "$here/ticky-9.6.eventlog"
else
    echo "regen.sh: GHC 9.6 is not set up (scripts/ghc.sh 9.6 setup): ticky-9.6.eventlog kept" >&2
fi
