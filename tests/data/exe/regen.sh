#!/usr/bin/env bash
# Rebuilds tests/data/ghc-9.6/src/Parse.hs with GHC 9.6.6 (profiled) and
# GHC 9.10.3 (not profiled), both with -finfo-table-map for the program's
# own module only (Debian's libraries are built without it), runs each
# with +RTS -hi -l, and keeps the log and the executable's symbol table:
# the executable (10-16 MB) cut down to the `_info` symbols that the log's
# band addresses and IPE entries land on (objcopy: every other symbol and
# every section's contents dropped, the ELF header and the addresses
# kept). Needs the chroots of scripts/ghc.sh (exits 77 without them) and
# binutils' nm and objcopy on the host.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
evprof=${EVPROF:-$root/build/evprof}
for v in 9.6 9.10; do
    bash "$root/scripts/ghc.sh" $v check ||
        { echo "regen.sh: no GHC $v chroot (scripts/ghc.sh $v setup)" >&2; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# one NAME VERSION STRUCT FLAGS: the run and its symbols; STRUCT is
# sizeof(StgInfoTable) of the RTS (32 profiled, 16 not): a band's
# address plus STRUCT is its symbol's
one() {
    local name=$1 v=$2 size=$3 flags=$4 d="$work/$1"
    mkdir -p "$d"
    cp "$root/tests/data/ghc-9.6/src/Parse.hs" "$d/"
    bash "$root/scripts/ghc.sh" "$v" run "$d" "ghc -rtsopts -O $flags -finfo-table-map \
        -outputdir o -o parse Parse.hs >/dev/null && ./parse +RTS -hi -l -i0.05 -RTS >/dev/null"
    cp "$d/parse.eventlog" "$here/$name-hi.eventlog"
    # the addresses the log names: bands and IPE entries
    { "$evprof" heap --no-exe -f json "$d/parse.eventlog" | grep -o '"band": "0x[0-9a-f]*"' |
          grep -o '0x[0-9a-f]*'
      "$evprof" dump "$d/parse.eventlog" | sed -n 's/.*Info Table: \([0-9a-f]*\):.*/0x\1/p'
    } | sort -u | while read -r a; do printf '%016x\n' $((a + size)); done >"$d/want"
    nm "$d/parse" | awk 'NR == FNR { w[$1] = 1; next } ($1 in w) && $3 ~ /_info$/ { print $3 }' \
        "$d/want" - | sort -u >"$d/keep"
    objcopy -w --strip-all --keep-symbols="$d/keep" "$d/parse" "$d/stripped"
    objcopy --only-keep-debug "$d/stripped" "$d/debug"
    objcopy -R .note.ABI-tag -R .note.gnu.property -R .note.gnu.build-id -R .comment \
        "$d/debug" "$here/$name.syms"
}
one parse96 9.6 32 "-prof -fprof-auto"
one parse910 9.10 16 ""
ls -l "$here"
