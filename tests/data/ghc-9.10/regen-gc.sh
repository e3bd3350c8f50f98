#!/usr/bin/env bash
# The runs of `evprof gc`'s non-moving collector lines and TASKS
# (README-gc.md): src/Nonmoving.hs built with GHC 9.10.3 and 9.6.6 (the
# chroots of scripts/ghc.sh) and with the host's GHC 9.0.2, each run ONCE
# with +RTS -s<file> -l, so that every log comes with the -s summary GHC
# printed for the same run (two runs differ in timing and counts: never
# pair a log with another run's .stats). Writes
#   ghc-9.10/nonmoving-N2-s.{eventlog,stats}  -N2 --nonmoving-gc
#   ghc-9.10/copying-N2-s.{eventlog,stats}    -N2 (the copying collector)
#   ghc-9.6/nonmoving-N2-s.{eventlog,stats}   -N2 --nonmoving-gc
#   gc/nonmoving-N2.{eventlog,stats}          -N2 --nonmoving-gc, GHC 9.0.2
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data=$(cd "$here/.." && pwd)
root=$(cd "$here/../../.." && pwd)
ghcs="bash $root/scripts/ghc.sh"
for v in 9.10 9.6; do
    $ghcs "$v" check || { echo "regen-gc.sh: no GHC $v chroot (scripts/ghc.sh $v setup)" >&2; exit 77; }
done
command -v ghc >/dev/null || { echo "regen-gc.sh: no host GHC 9.0.2" >&2; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here/src/Nonmoving.hs" "$work"

b='ghc -O -rtsopts -threaded -outputdir'
$ghcs 9.10 run "$work" "$b o910 -o nm910 Nonmoving.hs" >/dev/null
$ghcs 9.6 run "$work" "$b o96 -o nm96 Nonmoving.hs" >/dev/null
(cd "$work" && $b o90 -eventlog -o nm90 Nonmoving.hs >/dev/null)

# one VERSION NAME DIR PROG RTS-FLAGS...: DIR/NAME.eventlog and .stats
one() {
    local v=$1 name=$2 dir=$3 prog=$4
    shift 4
    rm -f "$work/$prog.eventlog"
    local cmd="./$prog +RTS -s$name.stats -l $* -RTS"
    if [ "$v" = 9.0 ]; then
        (cd "$work" && $cmd >/dev/null)
    else
        $ghcs "$v" run "$work" "$cmd" >/dev/null
    fi
    mv "$work/$prog.eventlog" "$dir/$name.eventlog"
    mv "$work/$name.stats" "$dir/$name.stats"
}
one 9.10 nonmoving-N2-s "$here" nm910 -N2 --nonmoving-gc
one 9.10 copying-N2-s "$here" nm910 -N2
one 9.6 nonmoving-N2-s "$data/ghc-9.6" nm96 -N2 --nonmoving-gc
one 9.0 nonmoving-N2 "$data/gc" nm90 -N2 --nonmoving-gc
ls -l "$here"/*-N2-s.eventlog "$data/ghc-9.6/nonmoving-N2-s.eventlog" "$data/gc/nonmoving-N2.eventlog"

# the 9.6 log's line in ../ghc-9.6/ghc-events.sha256 (ghc-events' text as
# a SHA-256, as ../ghc-9.6/regen.sh makes the others')
if ghc-pkg list ghc-events 2>/dev/null | grep -q ghc-events; then
    cp "$root/tests/support/ghc_events_show.hs" "$work/"
    (cd "$work" && ghc -O0 -package ghc-events -outputdir o-show -o show ghc_events_show.hs >/dev/null)
    sum=$("$work/show" "$data/ghc-9.6/nonmoving-N2-s.eventlog" | sha256sum | cut -d' ' -f1)
    f=$data/ghc-9.6/ghc-events.sha256
    { grep -v '  nonmoving-N2-s\.eventlog$' "$f"; echo "$sum  nonmoving-N2-s.eventlog"; } |
        LC_ALL=C sort -k2 >"$work/sums"
    mv "$work/sums" "$f"
else
    echo "regen-gc.sh: no ghc-events: ../ghc-9.6/ghc-events.sha256 not updated" >&2
fi
