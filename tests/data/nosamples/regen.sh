#!/usr/bin/env bash
# Remakes the logs of README.md: P.hs built with -prof by GHC 9.10.3 (the
# chroot of scripts/ghc.sh 9.10) and 9.0.2 (the host's ghc), run so that
# the log has no time-profile samples for each reason evprof tells apart.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/P.hs" "$work/"
bash "$root/scripts/ghc.sh" 9.10 run "$work" '
  ghc -O -prof -fprof-auto -rtsopts P.hs -o p >/dev/null &&
  ./p +RTS -l -olnop-9.10.eventlog -RTS >/dev/null &&
  ./p +RTS -p -l --no-automatic-time-samples -olnoauto-9.10.eventlog -RTS >/dev/null &&
  ./p +RTS -p -l -V0 -olV0-9.10.eventlog -RTS >/dev/null'
(cd "$work" && ghc -O -prof -fprof-auto -rtsopts P.hs -o p90 -outputdir o90 >/dev/null &&
     ./p90 +RTS -l -olnop-9.0.eventlog -RTS >/dev/null)
cp "$work"/*.eventlog "$here/"
