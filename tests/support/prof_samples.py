"""The time profile of an eventlog by brute force, with a reader of its
own (none of evprof's code): every PROF_SAMPLE_COST_CENTRE (event 167)
counted once under its whole stack, MAIN first. What the report's
closing line says evprof's figures equal (tests/cli/prof_truth.sh).

    samples(path) -> Log: .ccs {id: (label, module, src)}, .stacks
    {("MAIN", outer id, ..., inner id): samples}, .rts (the RTS
    identifier, event 29), .whole (the end marker was reached), .cut
    (samples with 255 frames: their root frames are lost)

A stack of 255 frames is kept as ("MAIN", "CUT") + its frames: evprof
hangs it under a node of its own below MAIN. Layout of the header and the events: GHC's
rts/eventlog/EventLog.c (event types with their sizes, 0xffff for a
variable size whose events carry a u16 length).
"""
import struct

CC_DEF, SAMPLE, RTS_ID, END = 161, 167, 29, 0xFFFF
BUILT_IN = {("GC", "GC"), ("SYSTEM", "SYSTEM"), ("IDLE", "IDLE"),
            ("OVERHEAD_of", "PROFILING"), ("DONT_CARE", "MAIN")}


class Log:
    def __init__(self):
        self.ccs, self.stacks = {}, {}
        self.rts, self.whole, self.cut = None, False, 0

    def ignored(self, stack):
        """One of GHC's five built-in stacks, which +RTS -p does not count."""
        return (len(stack) == 2 and stack[0] == "MAIN" and
                self.ccs.get(stack[1], ("", "", ""))[:2] in BUILT_IN and
                self.ccs[stack[1]][2] == "<built-in>")

    def total(self, all_ticks):
        return sum(n for s, n in self.stacks.items() if all_ticks or not self.ignored(s))


def cstr(b, p):
    e = b.index(b"\0", p)
    return b[p:e].decode("utf-8", "replace"), e + 1


def samples(path):
    b = open(path, "rb").read()
    log = Log()
    assert b[:4] == b"hdrb" and b[4:8] == b"hetb", "%s: not an eventlog" % path
    sizes, p = {}, 8
    while b[p:p + 4] == b"etb\0":
        t, size = struct.unpack_from(">HH", b, p + 4)
        sizes[t] = size
        p += 12 + struct.unpack_from(">I", b, p + 8)[0]
        p += 4 + struct.unpack_from(">I", b, p)[0]
        assert b[p:p + 4] == b"ete\0", "%s: event type %d" % (path, t)
        p += 4
    assert b[p:p + 12] == b"hetehdredatb", path
    p += 12
    while p + 2 <= len(b):
        t = struct.unpack_from(">H", b, p)[0]
        if t == END:
            log.whole = True
            break
        if t not in sizes or p + 10 > len(b):
            break                       # damaged or cut: what came before counts
        size, q = sizes[t], p + 10
        if size == 0xFFFF:
            if q + 2 > len(b):
                break
            size, q = struct.unpack_from(">H", b, q)[0], q + 2
        if q + size > len(b):
            break
        body = b[q:q + size]
        if t == CC_DEF:
            cc = struct.unpack_from(">I", body)[0]
            label, r = cstr(body, 4)
            module, r = cstr(body, r)
            src, r = cstr(body, r)
            log.ccs[cc] = (label, module, src)
        elif t == SAMPLE:
            depth = body[12]
            frames = struct.unpack_from(">%dI" % depth, body, 13)
            root = ("MAIN", "CUT") if depth == 255 else ("MAIN",)
            log.cut += depth == 255
            stack = root + tuple(reversed(frames))
            log.stacks[stack] = log.stacks.get(stack, 0) + 1
        elif t == RTS_ID:
            log.rts = body[4:].split(b"\0")[0].decode("utf-8", "replace")
        p = q + size
    return log
