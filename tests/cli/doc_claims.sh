#!/usr/bin/env bash
# The docs' claims about the code, checked against the code (issue 27,
# point 11): which commands take -j (evprof(1) against each --help),
# which modules each library holds (ARCHITECTURE.md against
# CMakeLists.txt), which files keep hash tables of their own beside
# util's tx_htab, which commands read without cli_read_src, and that no
# public function takes a char *err buffer; GHC version claims that the
# bundled runs of newer GHCs contradict (issue 35, point 10).
#
# Usage: tests/cli/doc_claims.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
arch=docs/ARCHITECTURE.md
man=docs/evprof.1

# -j: the commands evprof(1) lists are exactly those whose --help has it
listed=$(awk '/^\.BR \\-j ", " \\-\\-jobs/ {on = 1} on && /take it/ {take = 1}
              take && /^\.(BR|RB) / {last = /\)\.$/; gsub(/[,().]/, ""); print $NF; if (last) exit}' "$man" |
         grep -E '^[a-z]+$' | sort -u | tr '\n' ' ')
taking=$(for c in report folded speedscope pprof html graph ticky gc heap diff top merge info dump all; do
             "$evprof" "$c" --help | grep -q -- "-j, --jobs N" && echo "$c"
         done | sort | tr '\n' ' ')
check "evprof(1)'s -j list ($listed) = the commands whose --help has -j ($taking)" \
    [ "$listed" = "$taking" ]

# libraries: each folder of EVPROF_GRAPH_MODULES is named in the table's row
graph_mods=$(sed -n 's/^set(EVPROF_GRAPH_MODULES \([a-z ]*\)).*/\1/p' CMakeLists.txt)
row=$(grep '^| `libevprof-graph`' "$arch")
core=$(grep '^| `libevprof` |' "$arch")
for m in $graph_mods; do
    check "ARCHITECTURE.md: libevprof-graph's row names $m/" grep -q "\`$m/\`" <<<"$row"
    check "ARCHITECTURE.md: libevprof's row leaves $m/ out" grep -q "but .*\`$m/\`" <<<"$core"
done

# hash tables: every file with open addressing of its own (a probe loop
# outside util/htab.c) is named in util's row
util=$(grep '^| `util/`' "$arch")
for f in $(grep -l -E '\(k \+ 1\) & \(|\(j \+ 1\) & \(' --include='*.c' -r driver eventlog prof gc heap ticky info live export graph diff html cli writer merge dump); do
    check "ARCHITECTURE.md: util's row names $f (a hash table of its own)" grep -q "\`$f\`" <<<"$util"
done

# reading commands: every cmd_*.c that reads a log (el_read_*, a decoder
# or a driver of its own) without cli_read* is named in the data flow
flow=$(sed -n '/^The reading commands read through `cli_read_src`/,/^$/p' "$arch")
check "ARCHITECTURE.md: the paragraph on cli_read_src is there" [ -n "$flow" ]
for f in cli/cmd_*.c; do
    if grep -q -E 'el_read_path|el_decoder_create\(|ev_driver_create\(' "$f"; then
        cmd=$(basename "$f" .c)
        check "ARCHITECTURE.md: $f reads without cli_read_src and is named" \
            grep -q "${cmd#cmd_}" <<<"$flow"
    fi
done
# errors: no public function takes a char * buffer for its error message
# (ARCHITECTURE.md, "Statuses and errors": an ev_error * instead)
bufs=$(grep -nE '\bchar \*(err|why)[a-z_]*\b|size_t err_?(size|len)\b' include/evprof/*.h)
check "no char *err out-parameter in include/evprof/ (${bufs:-none})" [ -z "$bufs" ]
check "ARCHITECTURE.md says so" grep -q 'char \*err' <(sed -n '/^## Statuses and errors/,/^## /p' "$arch")

# GHC's RTS options in examples: -ol takes its file without a space (GHC
# 9.0.2, 9.6, 9.10: "-ol expects filename")
ol=$(grep -nE -- '-ol [^<[:space:]]' docs/*.md README.md cli/*.c | head -3)
check "no '-ol FILE' with a space in the docs or messages (${ol:-none})" [ -z "$ol" ]
# claims of one GHC version that the bundled 9.6 runs contradict: the
# non-threaded 9.6 -s prints %GC time 0.0% as 9.0 does
if grep -q '^  %GC     time       0.0%' tests/data/ghc-9.6/sim-s.stats; then
    row=$(grep '^| %GC time' docs/GC.md)
    check "GC.md's %GC row names 9.6 beside 9.0 ($row)" grep -q '9\.6' <<<"$row"
fi
gcrow=$(grep -E 'no 9\.0 event|the 9\.0 events do not' docs/GC.md)
check "GC.md: no figure is said missing from 9.0's events alone (${gcrow:-none})" [ -z "$gcrow" ]

echo "doc_claims: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
