#!/usr/bin/env bash
# Damage is always said (issue 11, point 4). A real log whose events are
# partly overwritten with 0xff bytes (which read as the end marker 0xffff)
# must not end there: every command reads on from the next block, says the
# same damage facts (cli/damage.c) and exits 1; `info` says DAMAGED; the
# ticks after the damage are counted.
#
# Usage: tests/cli/damage.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
log=tests/data/ghc/chain-p.eventlog
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# chain-p.eventlog (GHC 9.0.2, one capability) has two blocks: markers at
# bytes 2688 (285454 bytes long) and 288142 (to the end marker). Checked
# here so that a regenerated log cannot make the test vacuous.
"$PYTHON" - "$log" "$tmp" <<'PY' || exit 1
import struct, sys
log, tmp = sys.argv[1], sys.argv[2]
b = open(log, "rb").read()
def marker(at):
    typ, t, size, end, cap = struct.unpack(">HQIQH", b[at:at + 24])
    assert typ == 18 and end >= t, ("no block marker at", at)
    return size
s1 = marker(2688)
assert 2688 + s1 == 288142 and marker(288142) == len(b) - 2 - 288142, "layout changed"
first = 2688 + 24                    # the first event of block 1
bad = bytearray(b)
bad[first:first + 100000] = b"\xff" * 100000
open(tmp + "/ff.eventlog", "wb").write(bad)
# only block 1, closed by an end marker: its ticks are the most the damage can lose
open(tmp + "/block1.eventlog", "wb").write(b[:288142] + b"\xff\xff")
# the same damage running on into block 2's marker: the end marker then
# stands between blocks and is followed by a further block
bad2 = bytearray(b)
bad2[200000:288142 + 10] = b"\xff" * (288142 + 10 - 200000)
open(tmp + "/ff-across.eventlog", "wb").write(bad2)
PY

ticks() { "$evprof" folded "$1" 2>/dev/null | awk '{ n += $NF } END { print n + 0 }'; }
total=$(ticks "$log")
lost_max=$(ticks "$tmp/block1.eventlog")
got=$(ticks "$tmp/ff.eventlog")
check "original has ticks in both blocks ($total, block 1: $lost_max)" \
    [ "$total" -gt 0 ] && [ "$lost_max" -lt "$total" ]
check "the ticks after the damage are counted: $got >= $total - $lost_max" \
    [ "$got" -ge $((total - lost_max)) ] && [ "$got" -gt 0 ]

# every command: exit 1 and the same damage lines on stderr
for f in ff ff-across; do
    path=$tmp/$f.eventlog
    first_lines=
    for cmd in "info" "dump" "report" "report --json" "folded" "graph -o $tmp/x.dot" \
               "heap" "ticky" "gc" "metrics" "phases" "threads"; do
        # shellcheck disable=SC2086
        timeout 60 "$evprof" $cmd "$path" >"$tmp/out" 2>"$tmp/err"
        s=$?
        check "$f: $cmd: exit 1 (got $s)" [ $s -eq 1 ]
        grep -E "end marker|skipped .* bytes in" "$tmp/err" >"$tmp/dmg"
        check "$f: $cmd: says the damage" grep -qE "^evprof: $path: skipped [0-9]+ bytes in 1 damaged block" "$tmp/dmg"
        if [ -z "$first_lines" ]; then
            first_lines=$(cat "$tmp/dmg")
        else
            check "$f: $cmd: the same damage lines as info" [ "$(cat "$tmp/dmg")" = "$first_lines" ]
        fi
        if [ "$cmd" = info ]; then
            check "$f: info: status DAMAGED" grep -q "^status: *DAMAGED: skipped" "$tmp/out"
            check "$f: info: not complete" eval '! grep -q "complete" "$tmp/out"'
            "$evprof" info -f json "$path" 2>/dev/null | grep -q '"status": "damaged"'
            check "$f: info --json: status damaged" [ $? -eq 0 ]
        fi
    done
done
# the skipped byte counts are what was overwritten: from the first 0xff to
# the end of block 1 in ff; from the first 0xff to block 2's next marker
# candidate in ff-across (at least the overwritten bytes)
"$evprof" info "$tmp/ff.eventlog" 2>&1 >/dev/null | grep -q "skipped $((288142 - 2712)) bytes in 1 damaged block"
check "ff: bytes skipped = rest of block 1 ($((288142 - 2712)))" [ $? -eq 0 ]

# bytes after a genuine end marker at EOF stay fine
cp "$log" "$tmp/trail.eventlog"
printf 'trailing text, no block' >>"$tmp/trail.eventlog"
"$evprof" info "$tmp/trail.eventlog" >"$tmp/out" 2>"$tmp/err"
check "trailing bytes after the end marker: exit 0" [ $? -eq 0 ]
check "trailing bytes: complete" grep -q "^status: *complete" "$tmp/out"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
