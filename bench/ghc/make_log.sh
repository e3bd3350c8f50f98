#!/usr/bin/env bash
# bench/ghc/make_log.sh: builds bench's hard-shape GHC program and runs it
# to write a real eventlog of deep, varied stacks (docs/BENCH.md).
#
#   bench/ghc/make_log.sh WORKDIR OUT.eventlog [ITERATIONS]
#
# WORKDIR gets the generated Main.hs (bench/ghc/gen_program.awk), the
# build and the run. The program is built with -O0 -prof -fprof-auto and
# the threaded RTS (GHC 9.0's non-threaded RTS can write a corrupt log when
# sampling this fast: ../shared/spec/ghc-profiling-facts.md) and run with
# `+RTS -p -l -V0.00001`: a sample every 10 us. -O0 because the ticker
# reads the capability's saved cost-centre stack, which a loop that does
# not allocate never updates: optimised code puts its samples on a few
# stale stacks. GHC's own .prof (every entered stack, hundreds of MB) goes
# to /dev/null. ITERATIONS (default 500000) sets the size: about 160
# bytes of log per iteration. The log
# depends on timing, so two runs differ a little. Exit 3 when ghc or its
# profiling libraries are missing.
set -euo pipefail

[[ $# -ge 2 && $# -le 3 ]] || { echo "usage: $0 WORKDIR OUT.eventlog [ITERATIONS]" >&2; exit 2; }
work=$1 out=$2 iters=${3:-500000}
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v ghc >/dev/null; then
    echo "make_log.sh: ghc is missing (apt-get install ghc ghc-prof)" >&2
    exit 3
fi
mkdir -p "$work"
awk -f "$here/gen_program.awk" >"$work/Main.hs.new"
if ! cmp -s "$work/Main.hs.new" "$work/Main.hs" 2>/dev/null || [[ ! -x $work/hard ]]; then
    mv "$work/Main.hs.new" "$work/Main.hs"
    echo "== building $work/hard (ghc -O0 -prof -fprof-auto, about a minute)" >&2
    if ! (cd "$work" && ghc -O0 -prof -fprof-auto -threaded -rtsopts -eventlog \
              Main.hs -o hard >build.log 2>&1); then
        if grep -q "profiling libraries\|Perhaps you haven't installed the" "$work/build.log"; then
            echo "make_log.sh: GHC's profiling libraries are missing (apt-get install ghc-prof)" >&2
            exit 3
        fi
        echo "make_log.sh: building the program failed (see $work/build.log)" >&2
        exit 1
    fi
else
    rm -f "$work/Main.hs.new"
fi
echo "== running $work/hard $iters +RTS -p -l -V0.00001 (a few minutes)" >&2
ln -sf /dev/null "$work/hard.prof"
rm -f "$work/hard.eventlog"
(cd "$work" && ./hard "$iters" +RTS -p -l -V0.00001 -RTS >/dev/null)
mv "$work/hard.eventlog" "$out.tmp"
mv "$out.tmp" "$out"
