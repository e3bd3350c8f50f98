#!/usr/bin/env bash
# How far GHC's own .prof / -pj of a run is from the eventlog's samples,
# measured on real runs: builds tests/data/ghc-9.6/src's Sim, Parse and
# Workers and tests/data/ghc/src's Mutual with the host's GHC 9.0.2 and
# the chroot's GHC 9.6.6 (scripts/ghc.sh 9.6; skipped when absent), and
# Rounds (worker threads in a hot loop; PROF_BOUNDS_PROGS="Rounds" runs
# only it), each
# -prof -fprof-auto, non-threaded and -threaded; runs each RUNS times
# (default 3) with +RTS -p -l and +RTS -pj -l, non-threaded, -N1 and
# -N2; then scripts/prof_bounds.py prints the differences per run and
# the worst per GHC version, RTS and capabilities. docs/PROF.md quotes
# its figures.
#
# Usage: scripts/prof_bounds.sh path/to/evprof [RUNS]   (from the project root)
set -u
evprof=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
runs=${2:-3}
root=$(pwd)
work=$(mktemp -d)
if [ -n "${PROF_BOUNDS_KEEP:-}" ]; then echo "prof_bounds: runs kept in $work" >&2
else trap 'rm -rf "$work"' EXIT; fi
pairs=()
progs=${PROF_BOUNDS_PROGS:-"Sim Parse Workers Mutual Rounds"}
args_Sim=300000 args_Parse=20000 args_Workers=2 args_Mutual= args_Rounds=

measure() {   # GHC-TAG RUNNER...: build and run in $work/$tag
    local tag=$1; shift
    local dir=$work/$tag
    mkdir -p "$dir"
    cp "$root"/tests/data/ghc-9.6/src/{Sim,Parse,Workers,Rounds}.hs "$root"/tests/data/ghc/src/Mutual.hs "$dir/"
    local script="set -e"
    for p in $progs; do
        script="$script
ghc -O -prof -fprof-auto -rtsopts -outputdir o-$p -o $p $p.hs >/dev/null
ghc -O -prof -fprof-auto -rtsopts -threaded -outputdir o-$p-thr -o $p-thr $p.hs >/dev/null"
    done
    for p in $progs; do
        eval "a=\$args_$p"
        for i in $(seq "$runs"); do
            for mode in p pj; do
                for cfg in "$p:" "$p-thr:-N1" "$p-thr:-N2"; do
                    bin=${cfg%%:*} n=${cfg#*:}
                    name=$bin${n:+$n}-$mode-$i
                    script="$script
./$bin $a +RTS -$mode -l $n -RTS >/dev/null && mv $bin.eventlog $name.eventlog && mv $bin.prof $name.prof"
                done
            done
        done
    done
    "$@" "$dir" "$script" || return 1
    for f in "$dir"/*-[0-9].eventlog; do
        pairs+=("$f:${f%.eventlog}.prof")
    done
}

host() { (cd "$1" && sh -c "$2"); }
ghc96() { bash "$root/scripts/ghc.sh" 9.6 run "$1" "$2"; }

measure 9.0.2 host || echo "prof_bounds: the GHC 9.0.2 runs failed" >&2
if bash "$root/scripts/ghc.sh" 9.6 check; then
    measure 9.6.6 ghc96 || echo "prof_bounds: the GHC 9.6 runs failed" >&2
else
    echo "prof_bounds: no GHC 9.6 chroot (scripts/ghc.sh 9.6 setup): 9.0.2 only" >&2
fi
python3 "$root/scripts/prof_bounds.py" "$evprof" "${pairs[@]}"
