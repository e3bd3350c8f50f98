#!/usr/bin/env bash
# Rebuilds the programs in src/ with GHC 9.6.6 (Debian 13's, in the chroot
# of scripts/ghc.sh 9.6) and re-runs them, replacing every log here and
# GHC's own output of the same run (.prof, -pj JSON, .hp, -s, -r): two
# runs differ in timing, so a log is only ever compared with the output
# written beside it. README.md says what each run covers.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
ghc96="bash $root/scripts/ghc.sh" 9.6
$ghc96 check || { echo "regen.sh: no GHC 9.6 chroot (scripts/ghc.sh 9.6 setup)" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/src/*.hs "$work"
run96() { $ghc96 run "$work" "$*"; }

b='ghc -rtsopts -outputdir'
run96 "set -e
$b o-sim -O -prof -fprof-auto -o sim Sim.hs
$b o-late -O -prof -fprof-late -o sim-late Sim.hs
$b o-sim-np -O -o sim-np Sim.hs
$b o-parse -O -prof -fprof-auto -finfo-table-map -o parse Parse.hs
$b o-parse-np -O -finfo-table-map -o parse-np Parse.hs
$b o-workers -O -prof -fprof-auto -threaded -o workers Workers.hs
$b o-workers-np -O -threaded -o workers-np Workers.hs
$b o-collatz -O -ticky -o collatz Collatz.hs" >/dev/null

# one run: NAME PROG ARGS...; keeps PROG.eventlog as NAME.eventlog and
# GHC's own outputs of the same run (PROG.prof, .hp, -s/-r files named
# after NAME) beside it
one() {
    name=$1 prog=$2; shift 2
    rm -f "$work/$prog.eventlog" "$work/$prog.prof" "$work/$prog.hp"
    run96 "./$prog $*" >"$work/$name.stdout"
    [ ! -f "$work/$prog.eventlog" ] || mv "$work/$prog.eventlog" "$here/$name.eventlog"
    [ ! -f "$work/$prog.prof" ] || mv "$work/$prog.prof" "$here/$name.prof"
    [ ! -f "$work/$prog.hp" ] || mv "$work/$prog.hp" "$here/$name.hp"
    for f in "$work/$name".stats "$work/$name".ticky; do
        [ ! -f "$f" ] || mv "$f" "$here/"
    done
}
one sim-p sim +RTS -p -l -RTS
one sim-pj sim +RTS -pj -l -RTS
one sim-late-p sim-late +RTS -p -l -RTS
one sim-late-pj sim-late +RTS -pj -l -RTS
one parse-hc parse +RTS -hc -l -i0.005 -RTS
one parse-hy parse +RTS -hy -l -i0.005 -RTS
one parse-hi parse +RTS -hi -l -i0.005 -RTS
one parse-hT parse-np +RTS -hT -l -i0.005 -RTS
one sim-s sim-np +RTS -ssim-s.stats -l -RTS
one workers-N2-p workers +RTS -p -l -N2 -RTS
one workers-N2-pj workers +RTS -pj -l -N2 -RTS
one workers-N2-s workers-np +RTS -sworkers-N2-s.stats -l -N2 -RTS
# ticky: -lT and -r cannot be combined (the RTS aborts): two runs of a
# deterministic program, the log of one and GHC's table of the other
one collatz-lT collatz last-sample +RTS -lT -l -RTS
one collatz-r collatz +RTS -rcollatz-r.ticky -RTS
# without the last sample: GHC's last one comes at the collection after the
# last -i tick, and the end of the run is not in the log's counts
one collatz-short collatz +RTS -lT -l -RTS
ls -l "$here"/*.eventlog

# ghc-events' text of every log (tests/support/ghc_events_show.hs, with the
# host's GHC and Debian's libghc-ghc-events-dev) as a SHA-256, for
# tests/cli/ghc96.sh to hold `evprof dump` to without ghc-events; a log
# ghc-events cannot read is listed with its message instead
if command -v ghc >/dev/null && ghc-pkg list ghc-events 2>/dev/null | grep -q ghc-events; then
    cp "$root/tests/support/ghc_events_show.hs" "$work/"
    (cd "$work" && ghc -O0 -package ghc-events -outputdir o-show -o show ghc_events_show.hs >/dev/null)
    : >"$here/ghc-events.sha256"
    for f in "$here"/*.eventlog; do
        n=$(basename "$f")
        if "$work/show" "$f" >"$work/text" 2>"$work/err"; then
            echo "$(sha256sum <"$work/text" | cut -d' ' -f1)  $n" >>"$here/ghc-events.sha256"
        else
            echo "unreadable  $n  $(tr '\n' ' ' <"$work/err" | cut -c1-120)" >>"$here/ghc-events.sha256"
        fi
    done
fi
