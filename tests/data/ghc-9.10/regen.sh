#!/usr/bin/env bash
# Rebuilds the programs of ../ghc-9.6/src (the same sources as the 9.6
# runs) with GHC 9.10.3 (Debian unstable's, in the chroot of scripts/ghc.sh
# 9.10) and re-runs them, replacing every log here and GHC's own output of
# the same run (.prof, -pj JSON, .hp, -s, -r): two runs differ in timing,
# so a log is only ever compared with the output written beside it.
# README.md says what each run covers.
#
#   regen.sh              the runs and digests, here
#   regen.sh --into DIR   the same into DIR, leaving these files alone (the
#                         client test tests/cli/ghc910_fresh.sh)
#   regen.sh --digests    only ghc-events.sha256, from the logs here (needs
#                         ghc-events, not the chroot)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=$here
case "${1:-}" in
    --into) out=$(cd "${2:?regen.sh --into DIR}" && pwd) ;;
    --digests | "") ;;
    *) sed -n '2,13p' "$0" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ghc-events' text of every log (tests/support/ghc_events_show.hs, with the
# host's GHC and Debian 12's libghc-ghc-events-dev, 0.17) as a SHA-256, for
# tests/cli/ghc910.sh to hold `evprof dump` to without ghc-events. 0.17
# predates some events of 9.10 logs (tests/support/ghc_events_unread.py):
# it misreads the non-moving heap census (207) and shows 208 as its
# description, so the digest leaves their lines out and the row says so;
# it stops on the ticky counter definitions (210) of the -lT run, so that
# row's digest is of 0.17's text of the log without its ticky events
# (--strip); it leaves out the capability-less events from an era
# profile's begin on (+RTS -he). The test reads what is left out by the
# spec (--spec) and against GHC's .hp. A log ghc-events cannot read even
# so is listed with its message.
digests() {
    cp "$root/tests/support/ghc_events_show.hs" "$work/"
    (cd "$work" && ghc -O0 -package ghc-events -outputdir o-show -o show ghc_events_show.hs >/dev/null)
    local unread="python3 $root/tests/support/ghc_events_unread.py" f n without
    : >"$out/ghc-events.sha256"
    for f in "$out"/*.eventlog; do
        n=$(basename "$f") without=""
        if ! "$work/show" "$f" >"$work/text" 2>"$work/err"; then
            $unread --strip "$f" "$work/stripped.eventlog"
            if ! "$work/show" "$work/stripped.eventlog" >"$work/text" 2>/dev/null; then
                echo "unreadable  $n  $(tr '\n' ' ' <"$work/err" | cut -c1-120)" >>"$out/ghc-events.sha256"
                continue
            fi
            without=" 210 211 212"
        fi
        $unread --drop <"$work/text" >"$work/kept" 2>/dev/null
        cmp -s "$work/text" "$work/kept" || without=" 207 208$without"
        ! grep -q '^[0-9]*: capset [0-9]*: args: \[.*"-he"' "$work/text" || without="$without era"
        echo "$(sha256sum <"$work/kept" | cut -d' ' -f1)  $n${without:+  without$without}" \
            >>"$out/ghc-events.sha256"
    done
}
have_ghc_events() { command -v ghc >/dev/null && ghc-pkg list ghc-events 2>/dev/null | grep -q ghc-events; }
if [ "${1:-}" = --digests ]; then
    have_ghc_events || { echo "regen.sh: no ghc-events (libghc-ghc-events-dev)" >&2; exit 77; }
    digests
    exit 0
fi

ghc910="bash $root/scripts/ghc.sh 9.10"
$ghc910 check || { echo "regen.sh: no GHC 9.10 chroot (scripts/ghc.sh 9.10 setup)" >&2; exit 77; }
cp "$here"/../ghc-9.6/src/{Sim,Parse,Workers,Collatz}.hs "$work"
run910() { $ghc910 run "$work" "$*"; }

# no -eventlog: since GHC 9.4 every RTS has the eventlog
b='ghc -rtsopts -outputdir'
run910 "set -e
$b o-sim -O -prof -fprof-auto -o sim Sim.hs
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
    run910 "./$prog $*" >"$work/$name.stdout"
    [ ! -f "$work/$prog.eventlog" ] || mv "$work/$prog.eventlog" "$out/$name.eventlog"
    [ ! -f "$work/$prog.prof" ] || mv "$work/$prog.prof" "$out/$name.prof"
    [ ! -f "$work/$prog.hp" ] || mv "$work/$prog.hp" "$out/$name.hp"
    for f in "$work/$name".stats "$work/$name".ticky; do
        [ ! -f "$f" ] || mv "$f" "$out/"
    done
}
one sim-p sim +RTS -p -l -RTS
one sim-pj sim +RTS -pj -l -RTS
one sim-no-samples sim +RTS -p -l --no-automatic-time-samples -RTS
one parse-hc parse +RTS -hc -l -i0.005 -RTS
one parse-hi parse +RTS -hi -l -i0.005 -RTS
one parse-hT parse-np +RTS -hT -l -i0.005 -RTS
one parse-he parse +RTS -he --automatic-era-increment -l -i0.005 -RTS
one sim-s sim-np +RTS -ssim-s.stats -l -RTS
one workers-N2-p workers +RTS -p -l -N2 -RTS
one workers-N2-pj workers +RTS -pj -l -N2 -RTS
# -ln adds the non-moving collector's trace class to -l's: its heap
# censuses (207) and pruned segments (208)
one workers-nonmoving-N2-s workers-np +RTS -sworkers-nonmoving-N2-s.stats -ln -N2 --nonmoving-gc -RTS
# ticky: -lT and -r cannot be combined (9.10 aborts: "The ticky-ticky
# eventlog output cannot be used in conjunction with +RTS -r<file>"): two
# runs of a deterministic program, the log of one and GHC's table of the
# other
one collatz-lT collatz last-sample +RTS -lT -l -RTS
one collatz-r collatz +RTS -rcollatz-r.ticky -RTS
ls -l "$out"/*.eventlog

if have_ghc_events; then
    digests
else
    echo "regen.sh: no ghc-events on this host (libghc-ghc-events-dev): ghc-events.sha256 left as it was" >&2
fi
