#!/usr/bin/env python3
"""Writes the crafted bad eventlogs in tests/fuzz/bad/ (committed outputs).

Each file breaks one rule of the format (GHC's eventlog encoding: big-endian,
a header of event-type records, then events). The decoder must reject or
survive every one without reading out of bounds; fuzz_replay runs them
under CTest, under ASan with `make asan`. Run again after changing this
script:  python3 tests/fuzz/make_bad.py
"""
import os
import struct

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bad")

VAR = 0xFFFF  # size field of a variable-size type


def u8(v):
    return struct.pack(">B", v)


def u16(v):
    return struct.pack(">H", v)


def u32(v):
    return struct.pack(">I", v)


def u64(v):
    return struct.pack(">Q", v)


def et(tid, size, desc=b"", extra=b"", desc_len=None, extra_len=None):
    """One event-type record of the header."""
    return (b"etb\0" + u16(tid) + u16(size)
            + u32(len(desc) if desc_len is None else desc_len) + desc
            + u32(len(extra) if extra_len is None else extra_len) + extra
            + b"ete\0")


def header(types):
    return b"hdrb" + b"hetb" + b"".join(types) + b"hete" + b"hdre" + b"datb"


# The types a small valid log uses.
TYPES = [
    et(0, 4, b"Create thread"),
    et(18, 14, b"Block marker"),
    et(29, VAR, b"RTS name and version"),
    et(30, VAR, b"Program arguments"),
    et(161, VAR, b"Cost center definition"),
    et(163, VAR, b"Heap profile cost-centre sample"),
    et(164, VAR, b"Heap profile string sample"),
    et(167, VAR, b"Time profile cost-centre stack"),
    et(210, VAR, b"Ticky-ticky entry counter definition"),
]
HEADER = header(TYPES)
END = u16(0xFFFF)


def fixed(tid, time, payload):
    return u16(tid) + u64(time) + payload


def var(tid, time, payload, length=None):
    return u16(tid) + u64(time) + u16(len(payload) if length is None else length) + payload


def block(time, size, end_time, cap):
    return fixed(18, time, u32(size) + u64(end_time) + u16(cap))


def prof_sample(time, cap, ticks, stack, depth=None):
    payload = (u32(cap) + u64(ticks) + u8(len(stack) if depth is None else depth)
               + b"".join(u32(s) for s in stack))
    return var(167, time, payload)


def cost_centre(time, cid, label, module, srcloc, flags=0):
    return var(161, time, u32(cid) + label + b"\0" + module + b"\0" + srcloc + b"\0" + u8(flags))


VALID_EVENTS = (
    var(29, 10, u32(0) + b"GHC-9.0.2 rts_thr_p")
    + var(30, 11, u32(0) + b"./nfib\0+RTS\0-p\0-l\0-RTS")
    + cost_centre(12, 1, b"main", b"Main", b"Main.hs:5:1-20")
    + block(20, 10 + 14 + 10 + 4 + (12 + 17), 40, 0)
    + fixed(0, 21, u32(1))
    + prof_sample(22, 0, 1, [1])
)
VALID = HEADER + VALID_EVENTS + END


def files():
    half = len(HEADER) // 2
    yield "valid-minimal", VALID
    yield "empty", b""
    yield "bad-magic", b"hdrX" + VALID[4:]
    yield "magic-only", b"hdrb"
    yield "header-cut-in-half", HEADER[:half]
    yield "header-no-data-begin", HEADER[:-4]
    yield "desc-length-huge", header([et(0, 4, b"Create thread", desc_len=0xFFFFFFFF)]) + END
    yield "desc-length-past-end", header([et(0, 4, b"Create thread", desc_len=0x1000)]) + END
    yield "extra-length-huge", header([et(0, 4, b"x", extra_len=0xFFFFFFFF)]) + END
    yield "type-record-not-closed", b"hdrb" + b"hetb" + et(0, 4, b"x")[:-4] + b"XXXX" + b"hete"
    yield "undeclared-type", HEADER + fixed(99, 1, u32(0)) + END
    yield "undeclared-type-after-events", HEADER + VALID_EVENTS + fixed(1, 50, u32(7)) + END
    # a variable-size event whose length field runs past the end of the data
    yield "varlen-past-end", HEADER + var(29, 1, u32(0) + b"GHC", length=0xFFFF) + END
    # fixed-size types with absurd declared sizes, then one event of each
    yield "fixed-size-absurd", (header([et(0, 0x7FFF, b"Create thread")])
                                + fixed(0, 1, u32(1)) + END)
    yield "fixed-size-negative", (header([et(0, 0xFFFE, b"Create thread")])
                                  + fixed(0, 1, u32(1)) + END)
    # a known fixed type declared shorter than its fields: a format error
    yield "fixed-size-too-small", (header([et(0, 2, b"Create thread"), et(18, 3, b"Block")])
                                   + fixed(0, 1, u16(1)) + fixed(18, 2, b"abc") + END)
    yield "truncated-mid-event", VALID[:len(VALID) - 7]
    yield "truncated-in-timestamp", HEADER + VALID_EVENTS[:5]
    yield "no-end-marker", HEADER + VALID_EVENTS
    yield "block-size-huge", (HEADER + block(1, 0xFFFFFFFF, 2**64 - 1, 3)
                              + fixed(0, 2, u32(1)) + END)
    yield "block-size-zero", HEADER + block(1, 0, 0, 0) + fixed(0, 2, u32(1)) + END
    yield "block-cap-none", HEADER + block(1, 24, 5, 0xFFFF) + fixed(0, 2, u32(1)) + END
    # stacks deeper than the payload holds
    yield "prof-stack-depth-overrun", (HEADER + prof_sample(1, 0, 1, [1, 2], depth=200)
                                       + prof_sample(2, 0, 2, [], depth=255) + END)
    yield "heap-stack-depth-overrun", (HEADER + var(163, 1, u8(0) + u64(64) + u8(100) + u32(1))
                                       + END)
    yield "prof-sample-too-short", HEADER + var(167, 1, u32(0) + u8(1)) + END
    # strings without their NUL terminators
    yield "cost-centre-no-nul", HEADER + var(161, 1, u32(1) + b"main") + END
    yield "cost-centre-one-nul", HEADER + var(161, 1, u32(1) + b"main\0Main") + END
    yield "heap-string-no-nul", HEADER + var(164, 1, u8(0) + u64(8) + b"label") + END
    yield "ticky-def-no-nul", HEADER + var(210, 1, u64(1) + u16(2) + b"kinds") + END
    yield "program-args-no-nul", HEADER + var(30, 1, u32(0) + b"./prog") + END
    yield "rts-id-empty", HEADER + var(29, 1, b"") + END
    yield "non-utf8-strings", (HEADER + var(29, 1, u32(0) + b"GHC-\xff\xfe\xc3(")
                               + cost_centre(2, 1, b"\x80bad\"q\\", b"M\x01", b"\xf5") + END)
    yield "duplicate-type", header([et(0, 4, b"a"), et(0, VAR, b"b")]) + fixed(0, 1, u32(1)) + END
    yield "end-then-garbage", VALID + b"garbage after the end marker"
    # issue 35: a time impossible for where the event stands (damage, kept
    # out of the span): past its block's end time (GHC writes the end time
    # after the block's last event), and outside any block more than a day
    # past the latest time shown
    stray = prof_sample(47006321110486000, 0, 1, [1])
    yield "time-past-block-end", (HEADER + cost_centre(1, 1, b"main", b"Main", b"Main.hs:1:1")
                                  + block(2, 24 + 3 * len(stray), 2910638000, 0)
                                  + prof_sample(3, 0, 1, [1]) + stray + prof_sample(4, 0, 1, [1])
                                  + END)
    yield "time-jump-outside-blocks", (HEADER + prof_sample(1, 0, 1, [])
                                       + prof_sample(86400 * 10**9 + 2, 0, 1, []) + END)
    # issue 35: IPE events (169) whose declared length is not GHC's one
    # byte off their strings: 20 bytes short, 0xffff, 50 bytes long with the
    # bytes there; a sample after each
    ipe_types = header(TYPES + [et(169, VAR, b"An IPE entry")])
    strings = u64(0x4011A0) + b"tbl\0cd\0ty\0lbl\0Mod\0F.hs:1:1-5\0"
    after = prof_sample(30, 0, 1, [])
    for name, length, extra in (("short", len(strings) - 20, b""), ("ffff", 0xFFFF, b""),
                                ("long", len(strings) + 50, b"tbl-extra:" * 5)):
        rec = var(169, 20, strings + extra, length=length)
        yield "ipe-declared-" + name, (ipe_types + block(10, 24 + len(rec) + len(after), 40, 0)
                                       + rec + after + END)


def main():
    os.makedirs(OUT, exist_ok=True)
    for old in os.listdir(OUT):
        if old.endswith(".eventlog"):
            os.remove(os.path.join(OUT, old))
    for name, data in files():
        with open(os.path.join(OUT, name + ".eventlog"), "wb") as f:
            f.write(data)
    print("wrote", len(list(files())), "files to", OUT)


if __name__ == "__main__":
    main()
