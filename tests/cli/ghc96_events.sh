#!/usr/bin/env bash
# GHC 9.6 logs read by ghc-events (the Haskell library of GHC's own
# eventlog tools, Debian's libghc-ghc-events-dev) and by evprof: `evprof
# dump` is ghc-events' text (tests/support/ghc_events_show.hs; the 0.17
# library's form, tests/support/ghc_events_017.py) on every committed log
# of tests/data/ghc-9.6, and on fresh runs made now in the chroot of
# scripts/ghc.sh 9.6: a -finfo-table-map build's -hi run (profiled) and -hT
# run (not), whose IPE events declare one byte more than GHC writes;
# their .hp as evprof writes it is GHC's but the times. SKIPPED (77)
# without ghc-events; the fresh runs SKIPPED without the chroot.
#
# Usage: tests/cli/ghc96_events.sh path/to/evprof   (run from the project root)
set -u
evprof=$(realpath "${1:?usage: $0 path/to/evprof}")
if ! command -v ghc >/dev/null || ! ghc-pkg list ghc-events 2>/dev/null | grep -q ghc-events; then
    echo "SKIPPED: ghc or the ghc-events package (libghc-ghc-events-dev) is not installed"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
cp tests/support/ghc_events_show.hs "$tmp/"
if ! (cd "$tmp" && ghc -O0 -package ghc-events -outputdir o -o show ghc_events_show.hs >build.log 2>&1); then
    cat "$tmp/build.log"
    echo "SKIPPED: the ghc-events reader does not build"
    exit 77
fi

same_text() {   # LOG: dump is ghc-events' text
    local f=$1 n
    n=$(basename "$f")
    if ! "$tmp/show" "$f" >"$tmp/ge.txt" 2>"$tmp/ge.err"; then
        echo "note: $n: ghc-events cannot read it: $(head -c 120 "$tmp/ge.err")"
        return
    fi
    "$evprof" dump "$f" 2>"$tmp/err" | "$PYTHON" tests/support/ghc_events_017.py >"$tmp/ev.txt"
    if cmp -s "$tmp/ge.txt" "$tmp/ev.txt"; then ok; else
        bad "$n: dump differs from ghc-events"
        diff "$tmp/ge.txt" "$tmp/ev.txt" | head -5
    fi
}
for f in tests/data/ghc-9.6/*.eventlog; do same_text "$f"; done

if ! bash scripts/ghc.sh 9.6 check; then
    echo "SKIPPED: fresh GHC 9.6 runs (no chroot: scripts/ghc.sh 9.6 setup)"
    echo "ghc96_events: $passed passed, $failed failed"
    [ "$failed" -eq 0 ] && exit 77
    exit 1
fi
mkdir "$tmp/run"
cp tests/data/ghc-9.6/src/Parse.hs "$tmp/run/"
if ! bash scripts/ghc.sh 9.6 run "$tmp/run" 'set -e
ghc -O -prof -fprof-auto -finfo-table-map -rtsopts -outputdir o -o parse Parse.hs >/dev/null
ghc -O -finfo-table-map -rtsopts -outputdir o-np -o parse-np Parse.hs >/dev/null
./parse 20000 +RTS -hi -l -i0.01 -RTS >/dev/null
./parse-np 20000 +RTS -hT -l -i0.01 -RTS >/dev/null' >"$tmp/run.log" 2>&1; then
    tail -5 "$tmp/run.log"
    bad "the fresh GHC 9.6 runs"
fi
untimed() { sed -E 's/^(BEGIN|END)_SAMPLE [0-9.]+$/\1_SAMPLE t/' "$1"; }
for p in parse parse-np; do
    f=$tmp/run/$p.eventlog
    [ -f "$f" ] || { bad "$p: no log"; continue; }
    same_text "$f"
    "$evprof" info "$f" >"$tmp/info"
    check "$p: fresh log complete" grep -q '^status: *complete' "$tmp/info"
    check "$p: its IPE events declare a length off, said once" \
        [ "$(grep -c 'IPE events (169) declare a payload length' "$tmp/info")" -eq 1 ]
    "$evprof" heap "$f" -o "$tmp/$p.hp" 2>/dev/null
    check "$p: the .hp is GHC's but the times" cmp -s <(untimed "$tmp/run/$p.hp") <(untimed "$tmp/$p.hp")
done
echo "ghc96_events: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
