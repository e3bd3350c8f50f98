#!/usr/bin/env bash
# Measures again how far GHC's own .prof is from the eventlog's samples
# (scripts/prof_bounds.sh on every program of its table, the ones of src/
# here among them, with each GHC there is: 9.0.2 on the host, 9.6.6 and
# 9.10.3 in the chroots of scripts/ghc.sh), writes its output to
# prof_bounds.txt (the record docs/PROF.md summarises), and keeps here the
# runs the tests read (README.md): per GHC version the runs of the table
# below when they are small, and per GHC version and RTS the run the
# closing line quotes (the one whose row was furthest apart, where one
# was). Then makes
# the programs' other outputs for other uses (heap profiles, -s): every
# build and run stays in KEEP.
#
# Usage: tests/data/newprogs/regen.sh [path/to/evprof [KEEP]]
#   (default build/evprof; KEEP a new temporary folder, printed)
#   REGEN_REUSE=1: the measurement is already in KEEP (bounds/ and
#   prof_bounds.txt, from PROF_BOUNDS_KEEP=KEEP/bounds
#   PROF_BOUNDS_OUT=KEEP/prof_bounds.txt scripts/prof_bounds.sh): only
#   the record, the runs kept here and the other outputs are made
# After it: docs/PROF.md's summary table is `scripts/prof_bounds.py
# --summary tests/data/newprogs/prof_bounds.txt`, and prof/agreement.c's
# figures are its "all" rows (tests/cli/prof_truth.sh says where not).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
evprof=$(cd "$(dirname "${1:-$root/build/evprof}")" && pwd)/$(basename "${1:-build/evprof}")
keep=${2:-$(mktemp -d)}
mkdir -p "$keep"
keep=$(cd "$keep" && pwd)
echo "regen: builds and runs in $keep" >&2
cd "$root"

if [ -z "${REGEN_REUSE:-}" ]; then
    PROF_BOUNDS_KEEP="$keep/bounds" PROF_BOUNDS_OUT="$keep/prof_bounds.txt" \
        bash scripts/prof_bounds.sh "$evprof" 3 >/dev/null
fi
{
    echo "# scripts/prof_bounds.sh $(date -u +%Y-%m-%d): one line per run, then the summary"
    echo "# (tests/data/newprogs/regen.sh; docs/PROF.md quotes the summary)"
    grep '^run ' "$keep/prof_bounds.txt"
    echo
    python3 scripts/prof_bounds.py --summary "$keep/prof_bounds.txt"
} >"$here/prof_bounds.txt"

# the runs kept here (each log and its GHC output, of the same run)
wanted="Mutual4.nt.P.1 ParSum.N2.P.1 Bank.N2.pj.1 Fast.nt.P.1"
rm -rf "$here"/9.*/
python3 - "$here/prof_bounds.txt" "$keep/bounds" "$here" $wanted <<'PY'
import os, shutil, sys
sys.path.insert(0, "scripts")
import prof_bounds
record, runs, here, wanted = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
rs = [prof_bounds.parse_line(l) for l in open(record) if l.startswith("run ")]
folder = {"9.0.2": "9.0.2", "9.6.6": "9.6", "9.10.3": "9.10"}
keep = {(r["ghc"], r["name"]) for r in rs if r["name"] in wanted}
worst = {}
for r in rs:
    k = (r["ghc"], prof_bounds.threaded(r))
    if k not in worst or (r["row_pct"], r["row"], r["name"]) > \
            (worst[k]["row_pct"], worst[k]["row"], worst[k]["name"]):
        worst[k] = r
keep |= {(r["ghc"], r["name"]) for r in worst.values() if r["row"] or r["row_pct"]}
for ghc, name in sorted(keep):
    src = os.path.join(runs, folder[ghc], name)
    if os.path.getsize(src + ".eventlog") > 600_000 and name in wanted:
        continue                    # a large run of the table: the quoted ones stay
    os.makedirs(os.path.join(here, ghc), exist_ok=True)
    for ext in (".eventlog", ".prof"):
        shutil.copy(src + ext, os.path.join(here, ghc, name + ext))
PY

# other outputs of the same programs, one run each (not kept here): a
# heap profile by cost-centre stack and by type, and +RTS -s
host() { (cd "$1" && sh -c "$2"); }
chroot_ghc() { bash "$root/scripts/ghc.sh" "$g" run "$1" "$2"; }
for g in 9.0 9.6 9.10; do
    case $g in
        9.0) dir=$keep/bounds/9.0.2 run=host ;;
        *) dir=$keep/bounds/$g run=chroot_ghc
           bash scripts/ghc.sh "$g" check || continue ;;
    esac
    [ -d "$dir" ] || continue
    out=$keep/outputs/$g
    mkdir -p "$out"
    script="set +e"
    for p in "Lexer 20000" "MapLeak 300000" "Dp 4" "Anagrams naive 5000" "Mutual4 12000"; do
        set -- $p
        b=$1; shift
        script="$script
./$b $* +RTS -hc -l -i0.01 -RTS >/dev/null && mv $b.eventlog $b-hc.eventlog && mv $b.hp $b-hc.hp
./$b $* +RTS -hy -l -i0.01 -RTS >/dev/null && mv $b.eventlog $b-hy.eventlog && mv $b.hp $b-hy.hp
./$b $* +RTS -s$b-s.stats -l -RTS >/dev/null && mv $b.eventlog $b-s.eventlog"
    done
    for p in "Bank 20000" "ParSum 30"; do
        set -- $p
        b=$1; shift
        script="$script
./$b-thr $* +RTS -N2 -s$b-N2-s.stats -l -RTS >/dev/null && mv $b-thr.eventlog $b-N2-s.eventlog
./$b-thr $* +RTS -N2 -hc -l -i0.01 -RTS >/dev/null && mv $b-thr.eventlog $b-N2-hc.eventlog && mv $b-thr.hp $b-N2-hc.hp"
    done
    "$run" "$dir" "$script"
    mv "$dir"/*-s.stats "$dir"/*-hc.* "$dir"/*-hy.* "$dir"/*-s.eventlog "$out"/ 2>/dev/null || true
done
echo "regen: record in $here/prof_bounds.txt; runs in $keep/bounds, heap and -s in $keep/outputs" >&2
