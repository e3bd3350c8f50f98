#!/usr/bin/env bash
# An IPE event's declared length (issue 35, point 14). GHC declares it one
# byte off what it writes (GHC #24287), so the strings say where the next
# event starts. A length further off is no slip of GHC's: one that holds
# the strings, ends inside the block and is followed there by a further
# event is the event's length (bytes a later format added); any other is
# not. Either way no event after it is lost, and such events are said in a
# note, once, with their count; not damage.
#
# The logs: GHC 9.6.6's parse-hi.eventlog (241 IPE events, each declared
# one byte long) with its first IPE event's length field set 20 bytes
# short of its strings, to 0xffff (which ends 64 KiB on, inside the same
# block, among heap samples), or 50 bytes long with 50 bytes after its
# strings (the block's size grown by them). Before: the first two were
# read silently, the third as events ("event type 29794 is not declared")
# and 108212 bytes skipped.
#
# Usage: tests/cli/ipe_length.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
log=tests/data/ghc-9.6/parse-hi.eventlog
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

"$PYTHON" - "$log" "$tmp" <<'PY' || exit 1
import struct, sys
log, tmp = sys.argv[1], sys.argv[2]
b = bytearray(open(log, "rb").read())
sizes, q = {}, 8          # the header's event types: id -> size
while b[q:q + 4] == b"etb\0":
    tid, size, dlen = struct.unpack(">HhI", b[q + 4:q + 12])
    elen = struct.unpack(">I", b[q + 12 + dlen:q + 16 + dlen])[0]
    sizes[tid] = size
    q += 16 + dlen + elen + 4
p = b.index(b"hdredatb") + 8
block = ipe = strings_end = None
while struct.unpack(">H", b[p:p + 2])[0] != 0xFFFF:
    tid = struct.unpack(">H", b[p:p + 2])[0]
    if tid == 169:            # its strings: the info word, six NUL-ended
        e = p + 20
        for _ in range(6):
            e = b.index(b"\0", e) + 1
        n = e - p
        if ipe is None:
            ipe, strings_end = p, e
    else:
        n = 12 + struct.unpack(">H", b[p + 10:p + 12])[0] if sizes[tid] < 0 else 10 + sizes[tid]
    if tid == 18 and ipe is None:
        block = p
    p += n
size = struct.unpack(">I", b[block + 10:block + 14])[0]
s = strings_end - ipe
assert struct.unpack(">H", b[ipe + 10:ipe + 12])[0] == s - 12 + 1, "GHC 9.6.6's one byte more"
assert block + size - ipe > 12 + 0xFFFF + 12, "0xffff must end inside the block"
def length(buf, n):
    buf[ipe + 10:ipe + 12] = struct.pack(">H", n)
v = bytearray(b); length(v, s - 12 - 20)
open(tmp + "/short20.eventlog", "wb").write(v)
v = bytearray(b); length(v, 0xFFFF)
open(tmp + "/ffff.eventlog", "wb").write(v)
extra = b"tbl-extra:" + bytes(range(40))     # "tb": the type 29794 it was misread as
v = b[:strings_end] + extra + b[strings_end:]
length(v, s - 12 + 50)
v[block + 10:block + 14] = struct.pack(">I", size + 50)
open(tmp + "/long50.eventlog", "wb").write(v)
PY

counts() { sed -n '/^Event types/,/^ *total/p' "$1" | awk '{ print $1, $(NF - 1) }'; }
"$evprof" info "$log" >"$tmp/info.orig" 2>/dev/null
counts "$tmp/info.orig" >"$tmp/counts.orig"
"$evprof" heap "$log" 2>/dev/null | sed 1d >"$tmp/heap.orig"
"$evprof" dump "$log" >"$tmp/dump.orig" 2>/dev/null
note="1 IPE event (169) declares a payload length more than one byte off the end of its strings (GHC's own is one byte off, GHC #24287): each was read to its declared length where that ends inside its block at the start of a further event, else to its strings' end; no event after it was lost"
for v in short20 ffff long50; do
    f=$tmp/$v.eventlog
    "$evprof" info "$f" >"$tmp/info" 2>"$tmp/err"
    s=$?
    check "$v: info: exit 0 (got $s)" [ $s -eq 0 ]
    check "$v: info: complete" grep -q "^status: *complete (end marker present)" "$tmp/info"
    check "$v: no damage said" eval '! grep -qE "skipped|not declared|damage" "$tmp/err"'
    check "$v: the note on stderr, once" [ "$(grep -cF "evprof: note: $f: $note" "$tmp/err")" -eq 1 ]
    check "$v: info: the note, once" [ "$(grep -cxF "note: $note" "$tmp/info")" -eq 1 ]
    check "$v: info: GHC's one byte, the other 240" grep -q "^note: 240 of 241 IPE events" "$tmp/info"
    counts "$tmp/info" >"$tmp/counts"
    # the sizes of the IPE events grow by the 50 bytes in long50: counts only
    check "$v: every event counted as in the log (the samples after it)" \
        cmp -s <(cut -d' ' -f1 "$tmp/counts.orig"; awk '{ print $2 }' "$tmp/counts.orig") \
               <(cut -d' ' -f1 "$tmp/counts"; awk '{ print $2 }' "$tmp/counts")
    "$evprof" info -f json "$f" 2>/dev/null | grep -q '"declared_length_far": 1'
    check "$v: info --json: declared_length_far 1" [ $? -eq 0 ]
    "$evprof" heap "$f" 2>/dev/null | sed 1d >"$tmp/heap"
    check "$v: heap: bands and names as in the log" cmp -s "$tmp/heap.orig" "$tmp/heap"
    "$evprof" heap -j 2 "$f" 2>/dev/null | sed 1d >"$tmp/heap"
    check "$v: heap -j 2: the same" cmp -s "$tmp/heap.orig" "$tmp/heap"
    # the time-ordered replay reads the IPE event again by the same length
    "$evprof" dump "$f" >"$tmp/dump" 2>"$tmp/err"
    s=$?
    check "$v: dump: exit 0 (got $s)" [ $s -eq 0 ]
    check "$v: dump: every event as in the log" cmp -s "$tmp/dump.orig" "$tmp/dump"
done
# the real log: GHC's one byte is no note of this kind
"$evprof" info "$log" >"$tmp/info" 2>"$tmp/err"
check "the real log: no such note" eval '! grep -q "more than one byte off" "$tmp/info" "$tmp/err"'

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
