#!/usr/bin/env bash
# An event whose time is impossible for where it stands is damage (issue
# 35, point 1). A GHC 9.6 -pj log that GHC wrote damaged held one event at
# 47006321 s in a block that ends at 2.9 s: `info` gave a span of 47006321
# s, `gc` 47006321 s elapsed, `phases` a row to 47006318 s, `report --json`
# an end_time in 2028 and `html` bins of 70368.7 s. GHC writes a block's
# end time after its last event, so no event of a block is later: the
# decoder takes one for damage, says it as damage (file, byte, event type)
# and no figure sees its time.
#
# The log here: GHC 9.6.6's sim-pj.eventlog (a -pj run) with one more time
# sample at the end of capability 0's block (the block's size grown by
# it), timed 47006321.110486 s. Skipping the rest of that block skips that
# sample alone, so every figure must be the undamaged log's.
#
# Usage: tests/cli/damage_time.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
log=tests/data/ghc-9.6/sim-pj.eventlog
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# where the sample goes: printed as "OFFSET SIZE"
where=$("$PYTHON" - "$log" "$tmp/stray.eventlog" <<'PY'
import struct, sys
log, out = sys.argv[1], sys.argv[2]
b = bytearray(open(log, "rb").read())
p = b.index(b"hdredatb")       # the header's event types: id -> size
sizes, q = {}, 8
while b[q:q + 4] == b"etb\0":
    tid, size, dlen = struct.unpack(">HhI", b[q + 4:q + 12])
    elen = struct.unpack(">I", b[q + 12 + dlen:q + 16 + dlen])[0]
    sizes[tid] = size
    q += 16 + dlen + elen + 4
p += 8
blocks, sample = [], None
while struct.unpack(">H", b[p:p + 2])[0] != 0xFFFF:
    tid = struct.unpack(">H", b[p:p + 2])[0]
    n = 12 + struct.unpack(">H", b[p + 10:p + 12])[0] if sizes[tid] < 0 else 10 + sizes[tid]
    if tid == 169:              # by its strings (GHC declares one byte more)
        raise SystemExit("no IPE events expected here")
    if tid == 18:
        blocks.append((p,) + struct.unpack(">IQH", b[p + 10:p + 24]))
    if tid == 167 and sample is None:
        sample = bytes(b[p:p + n])
    p += n
# capability 0's big block: the run's events, ending before the log's end
at, size, end, cap = max((x for x in blocks if x[3] == 0), key=lambda x: x[1])
assert end < 10**9 and sample is not None, "layout changed"
stray = bytearray(sample)
stray[2:10] = struct.pack(">Q", 47006321110486000)
ins = at + size
out_b = b[:ins] + stray + b[ins:]
out_b[at + 10:at + 14] = struct.pack(">I", size + len(stray))
open(out, "wb").write(out_b)
print(ins, len(stray))
PY
) || exit 1
read -r at size <<<"$where"
stray=$tmp/stray.eventlog

# said as damage, the same way by every command, exit 1
for cmd in "info" "gc" "phases" "report --json" "html -o $tmp/page.html" "dump"; do
    # shellcheck disable=SC2086
    "$evprof" $cmd "$stray" >"$tmp/out" 2>"$tmp/err"
    s=$?
    check "$cmd: exit 1 (got $s)" [ $s -eq 1 ]
    check "$cmd: names the event, its byte and type" grep -q \
        "^evprof: $stray: event time 47006321.110486 s is past its block's end time 0.124484 s at byte $at (event type 167 PROF_SAMPLE_COST_CENTRE)$" "$tmp/err"
    check "$cmd: the damage summary" grep -q \
        "^evprof: $stray: skipped $size bytes in 1 damaged block (events from 0.000392 s to 0.124484 s) and read on after them$" "$tmp/err"
    check "$cmd: the time nowhere in the output" eval '! grep -q "47006" "$tmp/out"'
done

# every figure is the undamaged log's
"$evprof" info "$log" >"$tmp/info.orig" 2>/dev/null
"$evprof" info "$stray" >"$tmp/info.dmg" 2>/dev/null
span=$(grep '^time span:' "$tmp/info.orig")
check "info: the span ($span)" grep -qxF "$span" "$tmp/info.dmg"
check "info: status DAMAGED" grep -q "^status: *DAMAGED: skipped $size bytes in 1 damaged block" "$tmp/info.dmg"
same() {    # WHAT CMD...: the command's output on both logs is the same (but
            # for the file's name)
    local what=$1
    shift
    "$evprof" "$@" "$log" >"$tmp/a" 2>/dev/null
    "$evprof" "$@" "$stray" 2>/dev/null | sed "s|$stray|$log|g" >"$tmp/b"
    check "$what: as on the undamaged log" cmp -s "$tmp/a" "$tmp/b"
}
same "gc" gc
check "gc: the elapsed time of the run" grep -q "Total .*( *0.125s elapsed)" "$tmp/b"
same "phases" phases
same "report --json" report --json
check "report --json: end_time in the run's year" grep -q '"end_time": "Fri Nov 27 07:52 2026"' "$tmp/b"
same "report" report
same "report -j 2" report -j 2
same "dump" dump
bins() { grep -o '"bin_ns":[0-9]*,"bins":[0-9]*' "$1" | head -2; }
"$evprof" html "$log" -o "$tmp/orig.html" 2>/dev/null
"$evprof" html "$stray" -o "$tmp/dmg.html" 2>/dev/null
check "html: the timeline's bins ($(bins "$tmp/orig.html" | head -1))" \
    [ -n "$(bins "$tmp/orig.html")" ] && [ "$(bins "$tmp/orig.html")" = "$(bins "$tmp/dmg.html")" ]

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
