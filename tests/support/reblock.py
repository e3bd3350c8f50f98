#!/usr/bin/env python3
"""The same eventlog in smaller blocks, for the tests of the parallel read
(tests/cli/jobs.sh): the bundled logs are GHC's, whose 2 MiB event
buffers make two or three blocks of a small run, so a read in ranges of
one block each has at most three; these copies have a block every BYTES
or so, and ranges of several blocks.

    reblock.py BYTES IN OUT [IN OUT...]

Each block of IN (a capability's, or the global one) is cut between two
events once it holds BYTES of events: the pieces keep the block's
capability, start at their first event's time (the first one at the
block's own) and end at the latest time of their events (the last one at
the block's own end time): no event later than its block's end. The events, their order and the header are IN's, byte for
byte; the end marker follows the last block (as GHC 9.0 writes it, also
when IN counted it into its last block, as GHC 9.2 and later do). IN must
be whole: every event inside a block, an end marker.
"""
import struct
import sys

BLOCK_MARKER = 18
END = 0xFFFF


def main(src, dst, target):
    b = open(src, "rb").read()
    assert b[:4] == b"hdrb", "not an eventlog"
    sizes = {}
    pos = b.index(b"hetb") + 4
    while b[pos:pos + 4] == b"etb\0":
        t, size = struct.unpack_from(">HH", b, pos + 4)
        sizes[t] = size
        dlen = struct.unpack_from(">I", b, pos + 8)[0]
        pos += 12 + dlen
        elen = struct.unpack_from(">I", b, pos)[0]
        pos += 4 + elen
        assert b[pos:pos + 4] == b"ete\0", "event type %d: no ete" % t
        pos += 4
    assert b[pos:pos + 12] == b"hetehdredatb", "no data after the header"
    data = pos + 12
    assert sizes.get(BLOCK_MARKER) == 14, "block markers of another size"

    def event_end(p):
        t = struct.unpack_from(">H", b, p)[0]
        size = sizes[t]
        if size == 0xFFFF:
            return p + 12 + struct.unpack_from(">H", b, p + 10)[0]
        return p + 10 + size

    out = [b[:data]]
    pos = data
    while True:
        t = struct.unpack_from(">H", b, pos)[0]
        if t == END:
            break
        assert t == BLOCK_MARKER, "an event outside the blocks at byte %d" % pos
        start, bsize, end_time, cap = struct.unpack_from(">QIQH", b, pos + 2)
        bend = min(pos + bsize, len(b))
        p = pos + 24
        piece, first = [], start
        events = []
        while p < bend:
            if struct.unpack_from(">H", b, p)[0] == END:   # 9.2+: the end marker in the block
                break
            q = event_end(p)
            events.append((p, q, struct.unpack_from(">Q", b, p + 2)[0]))
            p = q
        i = 0
        while i < len(events):
            j, n = i, 0
            while j < len(events) and (j == i or n < target):
                n += events[j][1] - events[j][0]
                j += 1
            t0 = start if i == 0 else events[i][2]
            # no event of a block is later than its end time (GHC writes it
            # after the last event; evprof takes a later one for damage), and
            # a block's events are not in time order
            t1 = end_time if j == len(events) else max(e[2] for e in events[i:j])
            body = b[events[i][0]:events[j - 1][1]]
            out.append(struct.pack(">HQIQH", BLOCK_MARKER, t0, 24 + len(body), max(t0, t1), cap))
            out.append(body)
            i = j
        if not events:
            out.append(struct.pack(">HQIQH", BLOCK_MARKER, start, 24, end_time, cap))
        pos = p if p < bend else bend
    out.append(struct.pack(">H", END))
    open(dst, "wb").write(b"".join(out))


if __name__ == "__main__":
    for i in range(2, len(sys.argv), 2):
        main(sys.argv[i], sys.argv[i + 1], int(sys.argv[1]))
