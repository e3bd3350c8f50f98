#!/usr/bin/env bash
# Rebuilds the new-user programs of issue 27 (src/) and runs each once, so
# that every log here comes with GHC's own outputs of the same run (.prof
# of +RTS -p, .stats of +RTS -s). `regen.sh` makes the GHC 9.0.2 runs;
# `regen.sh 96` the GHC 9.6.6 ones, in the chroot of scripts/ghc.sh 9.6.
# Every file it makes replaces the one here; README.md says what each is
# for. Needs python3 (to cut the killed log at a record boundary).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$here"/src/*.hs "$work"

# cut_log IN OUT BYTES: the records of IN that end within its first BYTES,
# header included: the shape of a log whose writer stopped between two
# records (no end marker)
cut_log() {
    python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
src, dst, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = open(src, "rb").read()
p = d.index(b"hetb") + 4
sizes = {}
while d[p:p + 4] == b"etb\0":
    tid, size = struct.unpack(">Hh", d[p + 4:p + 8])
    dlen = struct.unpack(">I", d[p + 8:p + 12])[0]
    q = p + 12 + dlen
    q += 4 + struct.unpack(">I", d[q:q + 4])[0]
    assert d[q:q + 4] == b"ete\0"
    sizes[tid] = size
    p = q + 4
assert d[p:p + 12] == b"hetehdredatb"
p += 12
while True:
    tid = struct.unpack(">H", d[p:p + 2])[0]
    if tid == 0xFFFF:
        break
    size = sizes[tid]
    n = 10 + (size if size >= 0 else 2 + struct.unpack(">H", d[p + 10:p + 12])[0])
    if p + n > limit:
        break
    p += n
open(dst, "wb").write(d[:p])
PY
}

if [ "${1:-}" = 96 ]; then
    # GHC 9.6.6 runs: build and run inside the chroot, in $work
    run96() { bash "$root/scripts/ghc.sh" 9.6 run "$work" "$1"; }
    run96 'ghc -O -rtsopts -outputdir o-leak -o leak Leak.hs >/dev/null 2>&1 &&
           ./leak 2000000 +RTS -sleak.stats -l -RTS >/dev/null'
    mv "$work/leak.eventlog" "$here/leak-9.6.eventlog"
    mv "$work/leak.stats" "$here/leak-9.6.stats"
    # a -prof run killed before it exits: 9.6 writes the RTS identifier
    # first, the samples from a buffer written when full or at exit
    run96 'ghc -O -prof -fprof-auto -rtsopts -outputdir o-parser -o parser Parser.hs >/dev/null 2>&1 &&
           { ./parser 100000 +RTS -p -l -RTS >/dev/null & p=$!; sleep 2; kill -9 $p; wait $p || true; }'
    mv "$work/parser.eventlog" "$here/parser-killed-9.6.eventlog"
    exit 0
fi

cd "$work"
prof() { out=$1; shift; ghc -O -prof -fprof-auto -rtsopts -eventlog -outputdir "o-$out" -o "$out" "$@" >/dev/null; }
plain() { out=$1; shift; ghc -O -rtsopts -eventlog -outputdir "o-$out" -o "$out" "$@" >/dev/null; }

# a naive and a fast version of one function (diff --fail-above)
prof dedup Dedup.hs
for mode in naive fast; do
    ./dedup "$mode" 8000 +RTS -p -l -RTS >/dev/null
    mv dedup.eventlog "$here/dedup-$mode.eventlog"
    mv dedup.prof "$here/dedup-$mode.prof"
done

# a parser and a Map simulation in marked phases (selection, merge)
prof parser Parser.hs
./parser 40 +RTS -p -l -RTS >/dev/null
mv parser.eventlog parser.prof "$here/"
prof sim Sim.hs
./sim 100 +RTS -p -l -RTS >/dev/null
mv sim.eventlog sim.prof "$here/"

# the parser killed before it exits: GHC 9.0 writes a capability's buffer
# when it is full (2 MiB), the RTS identifier, the cost centres and the
# samples from a buffer of their own at exit; the file it left is cut to
# its first 64 KiB at a record boundary (what it holds and lacks is the
# same)
./parser 100000 +RTS -p -l -RTS >/dev/null & pid=$!
for _ in $(seq 600); do      # until the first buffer is written
    [ "$(stat -c %s parser.eventlog 2>/dev/null || echo 0)" -gt 100000 ] && break
    sleep 0.1
done
kill -9 "$pid"
wait "$pid" || true
cut_log parser.eventlog "$here/parser-killed.eventlog" 65536

# a leaking pipeline (gc's total memory in use)
plain leak Leak.hs
./leak 2000000 +RTS -sleak.stats -l -RTS >/dev/null
mv leak.eventlog leak.stats "$here/"

# a threaded program on two capabilities (html's GC tab, --cap)
plain threads -threaded Threads.hs
./threads +RTS -N2 -sthreads-N2.stats -l -RTS >/dev/null
mv threads.eventlog "$here/threads-N2.eventlog"
mv threads-N2.stats "$here/"
