#!/usr/bin/env python3
"""The events of GHC 9.10 logs that Debian 12's ghc-events 0.17 does not
read right (it predates them), for comparing `evprof dump` with 0.17's
text on everything else and reading these by the spec instead:

- NONMOVING_HEAP_CENSUS (207): its first field was the log2 of the block
  size (u8) and since GHC 9.10 is the block size (u16, GHC #23340); 0.17
  reads the u8 and every field after it one byte off;
- NONMOVING_PRUNED_SEGMENTS (208, new in 9.10): 0.17 shows its
  description;
- the ticky events (210, 211, 212) of a log whose counter definitions
  carry the info table and JSON fields (since GHC 9.4): 0.17 misreads the
  definitions and stops ("Ix{Int}.index: Index (8762) out of range"), so
  it reads such a log only without them (--strip);
- an era heap profile (+RTS -he, HEAP_PROF_BEGIN with breakdown 9): 0.17
  leaves out the begin and every event without a capability after it (the
  censuses, task and capset events; measured on a 9.10.3 -he run).

    ghc_events_unread.py --drop < TEXT > TEXT
        `ghc-events show`'s text (0.17's, or `evprof dump`'s in 0.17's
        form, tests/support/ghc_events_017.py) without the lines of those
        events in either reading, and without the capability-less events
        from an era profile's begin on; says on stderr what it left out.
    ghc_events_unread.py --strip LOG OUT
        LOG without its ticky events (block sizes adjusted), for 0.17.
    ghc_events_unread.py --spec LOG
        the events 207, 208, 210, 211 and 212 of LOG read here by the
        eventlog encodings (the header's declared sizes; a 207 of 13 bytes
        the old layout, of 14 the new), in time order, as ghc-events'
        current version prints them (its own test references,
        tests/data/ghc-events/nonmoving-gc-* and ticky-*): an independent
        reader for `evprof dump`'s lines of them.
"""
import re
import struct
import sys

CENSUS, PRUNED, BLOCK_MARKER, IPE, END = 207, 208, 18, 169, 0xFFFF
TICKY = (210, 211, 212)
# the start of these events' lines, in either reading (208's: its
# description, found in the header's lines)
UNREAD = ('nonmoving heap census ', 'nonmoving segments pruned: ', 'ticky counter definition ',
          'ticky counter sample ', 'ticky begin counter sample')


def drop(text):
    lines = text.split('\n')
    desc = None
    for l in lines:
        m = re.match(r'^208: (.*) \(size \d+\)$', l)
        if m:
            desc = m.group(1)
    era = None      # the time of an era profile's begin
    for l in lines:
        m = re.match(r'^(\d+): start heap profiling \d+ at sampling period \d+ broken down by era$', l)
        if m:
            era = int(m.group(1))
    events, out, unread, late = False, [], 0, 0
    for l in lines:
        if l == 'Events:':
            events = True
        elif events:
            m = re.match(r'^(\d+): (cap \d+: )?(.*)$', l)
            if m:
                body = m.group(3)
                if body.startswith(UNREAD) or body == desc:
                    unread += 1
                    continue
                if era is not None and not m.group(2) and int(m.group(1)) >= era:
                    late += 1
                    continue
        out.append(l)
    if unread:
        sys.stderr.write('left out: %d events 207, 208, 210, 211, 212\n' % unread)
    if late:
        sys.stderr.write('left out: %d events without a capability from the era profile on\n' % late)
    return '\n'.join(out)


def header(b):
    """The declared payload sizes by type, and where the data starts."""
    assert b[:4] == b'hdrb', 'not an eventlog'
    sizes = {}
    pos = b.index(b'hetb') + 4
    while b[pos:pos + 4] == b'etb\0':
        t, size = struct.unpack_from('>HH', b, pos + 4)
        sizes[t] = size
        dlen = struct.unpack_from('>I', b, pos + 8)[0]
        pos += 12 + dlen
        elen = struct.unpack_from('>I', b, pos)[0]
        pos += 4 + elen
        assert b[pos:pos + 4] == b'ete\0', 'event type %d: no ete' % t
        pos += 4
    assert b[pos:pos + 12] == b'hetehdredatb', 'no data after the header'
    return sizes, pos + 12


def events(b, sizes, pos):
    """(type, time, record start, payload start, payload end, block
    capability or None) of every event, the block markers too."""
    block_end, cap = 0, None
    while pos + 2 <= len(b):
        t = struct.unpack_from('>H', b, pos)[0]
        if t == END:
            return
        if pos >= block_end:
            cap = None
        time = struct.unpack_from('>Q', b, pos + 2)[0]
        if t == IPE:        # its declared length is off (GHC #24287): the
            p = q = pos + 12 + 8    # info word and six strings up to their NULs
            for _ in range(6):
                q = b.index(b'\0', q) + 1
        elif sizes[t] == 0xFFFF:
            p = pos + 12
            q = p + struct.unpack_from('>H', b, pos + 10)[0]
        else:
            p = pos + 10
            q = p + sizes[t]
        if t == BLOCK_MARKER:
            bsize, _, bcap = struct.unpack_from('>IQH', b, p)
            block_end, cap = pos + bsize, (None if bcap == 0xFFFF else bcap)
        yield t, time, pos, p, q, cap
        pos = q


def cstring(b, p, q):
    e = b.index(b'\0', p, q)
    return b[p:e].decode('utf-8', 'replace'), e + 1


def spec(path):
    b = open(path, 'rb').read()
    sizes, data = header(b)
    found = []          # (time, order, line)
    for t, time, _, p, q, cap in events(b, sizes, data):
        pre = '%d: ' % time + ('cap %d: ' % cap if cap is not None else '')
        if t == CENSUS:
            if q - p == 13:     # before GHC 9.10: log2 of the block size
                log2, active, filled, live = struct.unpack_from('>BIII', b, p)
                blk = (1 << log2) & 0xFFFF
            else:
                blk, active, filled, live = struct.unpack_from('>HIII', b, p)
            line = ('nonmoving heap census %d: %d active segments, %d filled segments, '
                    '%d live blocks' % (blk, active, filled, live))
        elif t == PRUNED:
            pruned, free = struct.unpack_from('>II', b, p)
            line = ('nonmoving segments pruned: %d pruned segments, %d free segments '
                    'retained' % (pruned, free))
        elif t == 210:      # u64 id, u16 arity, kinds, name, [u64 itbl, json]
            cid, arity = struct.unpack_from('>QH', b, p)
            kinds, r = cstring(b, p + 10, q)
            name, r = cstring(b, r, q)
            itbl = struct.unpack_from('>Q', b, r)[0] if r + 8 <= q else 0
            line = ('ticky counter definition %d, arity: %d, def kinds: %s, name: %s, '
                    'itbl: %x' % (cid, arity, kinds, name, itbl))
        elif t == 211:
            cid, entries, allocs, allocd = struct.unpack_from('>QQQQ', b, p)
            line = ('ticky counter sample %d: entry count: %d, %d allocs, %d allocd'
                    % (cid, entries, allocs, allocd))
        elif t == 212:
            line = 'ticky begin counter sample'
        else:
            continue
        found.append((time, len(found), pre + line))
    for _, _, line in sorted(found):
        print(line)


def strip(src, dst):
    b = open(src, 'rb').read()
    sizes, data = header(b)
    out, pos = [b[:data]], data
    evs = list(events(b, sizes, data))
    i = 0
    while i < len(evs):
        t, _, start, p, q, _ = evs[i]
        if t != BLOCK_MARKER:
            if t not in TICKY:
                out.append(b[start:q])
            i += 1
            continue
        bsize, end_time, cap = struct.unpack_from('>IQH', b, p)
        body, j = [], i + 1
        while j < len(evs) and evs[j][2] < start + bsize:
            if evs[j][0] not in TICKY:
                body.append(b[evs[j][2]:evs[j][4]])
            j += 1
        body = b''.join(body)
        out.append(b[start:p] + struct.pack('>IQH', q - start + len(body), end_time, cap) + body)
        i = j
    last = evs[-1][4] if evs else data
    out.append(b[last:])        # the end marker
    open(dst, 'wb').write(b''.join(out))


if __name__ == '__main__':
    if sys.argv[1:] == ['--drop']:
        sys.stdout.write(drop(sys.stdin.read()))
    elif len(sys.argv) == 3 and sys.argv[1] == '--spec':
        spec(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == '--strip':
        strip(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
