#!/usr/bin/env bash
# How far GHC's own .prof / -pj of a run is from the eventlog's samples,
# measured on real runs: builds the programs of the table below with each
# GHC there is (the host's 9.0.2; 9.6.6 and 9.10.3 in the chroots of
# scripts/ghc.sh, skipped when absent), each -prof -fprof-auto,
# non-threaded and -threaded; runs each RUNS times (default 3) with
# +RTS -p -l, +RTS -P -l and +RTS -pj -l, non-threaded, -N1 and -N2;
# then scripts/prof_bounds.py prints the differences per run and the
# worst per GHC version and RTS and per program. docs/PROF.md records its
# output (the figures it quotes, and the report's closing line, come from
# there).
#
# Usage: scripts/prof_bounds.sh path/to/evprof [RUNS]   (from the project root)
#
#   PROF_BOUNDS_PROGS="Mutual4 Bank"  only these programs (the table's names)
#   PROF_BOUNDS_GHCS="9.6 9.10"       only these GHCs (9.0 is the host's)
#   PROF_BOUNDS_MODES="P pj"          only these of p, P, pj
#   PROF_BOUNDS_CFGS="nt N2"          only these of nt (non-threaded), N1, N2
#   PROF_BOUNDS_OPTS="-O -O0"         builds with each of these flags (default
#                                     -O); a program built otherwise than -O
#                                     is named after it (Mutual4-O0)
#   PROF_BOUNDS_KEEP=DIR              keep the builds and runs in DIR/GHC/
#                                     (else a temporary folder)
#   PROF_BOUNDS_OUT=FILE              also write prof_bounds.py's output there
#
# Runs are named PROGRAM.CFG.MODE.I (Mutual4.nt.P.2.eventlog with its
# .prof), which prof_bounds.py reads back as the program and the run.
set -u
evprof=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
runs=${2:-3}
root=$(pwd)
if [ -n "${PROF_BOUNDS_KEEP:-}" ]; then
    mkdir -p "$PROF_BOUNDS_KEEP"
    work=$(cd "$PROF_BOUNDS_KEEP" && pwd)
    echo "prof_bounds: builds and runs kept in $work" >&2
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi

# name  source (from the project root)  arguments; the kinds of programs
# docs/PROF.md names
table="
Sim      tests/data/ghc-9.6/src/Sim.hs        300000
Parse    tests/data/ghc-9.6/src/Parse.hs      20000
Workers  tests/data/ghc-9.6/src/Workers.hs    2
Mutual   tests/data/ghc/src/Mutual.hs         -
Rounds   tests/data/ghc-9.6/src/Rounds.hs     -
Mutual4  tests/data/newprogs/src/Mutual4.hs   12000
ParSum   tests/data/newprogs/src/ParSum.hs    30
Lexer    tests/data/newprogs/src/Lexer.hs     20000
Bank     tests/data/newprogs/src/Bank.hs      20000
MapLeak  tests/data/newprogs/src/MapLeak.hs   300000
Dp       tests/data/newprogs/src/Dp.hs        4
Naive    tests/data/newprogs/src/Anagrams.hs  naive:5000
Fast     tests/data/newprogs/src/Anagrams.hs  fast:5000
"
progs=${PROF_BOUNDS_PROGS:-$(echo "$table" | awk 'NF { print $1 }')}
modes=${PROF_BOUNDS_MODES:-"p P pj"}
cfgs=${PROF_BOUNDS_CFGS:-"nt N1 N2"}
opts=${PROF_BOUNDS_OPTS:--O}
pairs=()

field() { echo "$table" | awk -v p="$1" -v f="$2" '$1 == p { print $f }'; }

measure() {   # GHC-TAG RUNNER...: build and run in $work/$tag
    local tag=$1; shift
    local dir=$work/$tag
    mkdir -p "$dir"
    local script="set -e" built=" " p src bin a i mode cfg exe rts opt sfx hs
    for opt in $opts; do
        sfx=${opt#-O}
        sfx=${sfx:+$opt}
        for p in $progs; do
            src=$(field "$p" 2)
            [ -n "$src" ] || { echo "prof_bounds: no program $p" >&2; return 1; }
            hs=$(basename "$src" .hs)
            bin=$hs$sfx
            cp "$root/$src" "$dir/"
            case "$built" in *" $bin "*) continue ;; esac
            built="$built$bin "
            script="$script
ghc $opt -prof -fprof-auto -rtsopts -outputdir o-$bin -o $bin $hs.hs >/dev/null
ghc $opt -prof -fprof-auto -rtsopts -threaded -outputdir o-$bin-thr -o $bin-thr $hs.hs >/dev/null"
        done
    done
    script="$script
set +e"
    for opt in $opts; do
      sfx=${opt#-O}
      sfx=${sfx:+$opt}
      for p in $progs; do
        src=$(field "$p" 2) a=$(field "$p" 3)
        bin=$(basename "$src" .hs)$sfx
        [ "$a" = - ] && a=
        a=${a//:/ }
        for i in $(seq "$runs"); do
            for mode in $modes; do
                for cfg in $cfgs; do
                    case $cfg in
                        nt) exe=$bin rts= ;;
                        *) exe=$bin-thr rts=-$cfg ;;
                    esac
                    name=$p$sfx.$cfg.$mode.$i
                    script="$script
./$exe $a +RTS -$mode -l $rts -RTS >/dev/null && mv $exe.eventlog $name.eventlog && mv $exe.prof $name.prof ||
    echo \"prof_bounds: $tag $name failed\" >&2"
                done
            done
        done
      done
    done
    "$@" "$dir" "$script" || return 1
    for opt in $opts; do
        sfx=${opt#-O}
        sfx=${sfx:+$opt}
        for p in $progs; do
            for f in "$dir/$p$sfx".*.*.[0-9]*.eventlog; do
                [ -f "$f" ] && pairs+=("$f:${f%.eventlog}.prof")
            done
        done
    done
}

host() { (cd "$1" && sh -c "$2"); }
chroot96() { bash "$root/scripts/ghc.sh" 9.6 run "$1" "$2"; }
chroot910() { bash "$root/scripts/ghc.sh" 9.10 run "$1" "$2"; }

for g in ${PROF_BOUNDS_GHCS:-9.0 9.6 9.10}; do
    case $g in
        9.0) measure 9.0.2 host || echo "prof_bounds: the GHC 9.0.2 runs failed" >&2 ;;
        9.6|9.10)
            if bash "$root/scripts/ghc.sh" "$g" check; then
                measure "$g" "chroot${g//./}" || echo "prof_bounds: the GHC $g runs failed" >&2
            else
                echo "prof_bounds: no GHC $g chroot (scripts/ghc.sh $g setup): skipped" >&2
            fi ;;
        *) echo "prof_bounds: no GHC $g here" >&2 ;;
    esac
done
if [ -n "${PROF_BOUNDS_OUT:-}" ]; then
    python3 "$root/scripts/prof_bounds.py" "$evprof" "${pairs[@]}" | tee "$PROF_BOUNDS_OUT"
else
    python3 "$root/scripts/prof_bounds.py" "$evprof" "${pairs[@]}"
fi
