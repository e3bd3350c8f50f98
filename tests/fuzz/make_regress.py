#!/usr/bin/env python3
"""Writes the hand-made members of tests/fuzz/regress/: inputs that made
evprof crash before a fix (or, issue 35, put a damaged log's numbers in its
figures), rebuilt from the description in the issue.
(Inputs cli_fuzz.py finds are saved there as they were found.)

    python3 tests/fuzz/make_regress.py
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_bad import (HEADER, END, TYPES, et, header, var, cost_centre, prof_sample,  # noqa: E402
                      block)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "regress")


def files():
    cc = cost_centre(0, 1, b"MAIN", b"MAIN", b"<built-in>")
    # issue 11: a first time sample with stack depth 0 passed NULL to
    # memcpy (prof/profile.c, UBSan: report, folded, graph)
    yield "depth-zero-first-sample", (HEADER + cc + prof_sample(1, 0, 1, [])
                                      + prof_sample(2, 0, 1, [1]) + END)
    # issue 35: the patterns' matcher on a 60 000-byte cost-centre label
    # and a 30 000-byte mark label (glibc's regexec took 1.1 GB on
    # '(x+)\1\1y' and such a label; a selection miss repeated the mark's
    # label whole on stderr); cli_fuzz.py's pattern commands run on it
    marker = et(58, 0xFFFF, b"User marker")
    long_cc = cost_centre(2, 2, b"x" * 60000, b"Main", b"Main.hs:2:1")
    mark = var(58, 4, b"x" * 29999 + b"y")
    yield "long-labels", (header(TYPES + [marker]) + cc + long_cc
                          + prof_sample(3, 0, 1, [2, 1]) + mark + prof_sample(5, 0, 1, [2, 1])
                          + prof_sample(6, 0, 1, [1]) + END)
    # issue 35, point 1: one sample of a -pj run timed 47006321 s in a
    # block that ends at 2.9 s gave every command that figure (a span of
    # 47006321 s, an end_time in 2028, timeline bins of 70368.7 s): now
    # damage that no command's figure sees, on every subcommand
    samples = [prof_sample(10**6 * k, 0, 1, [1]) for k in range(1, 4)]
    stray = prof_sample(47006321110486000, 0, 1, [1])
    body = samples[0] + samples[1] + stray + samples[2]
    yield "stray-time", (HEADER + cc + block(884000, 24 + len(body), 2910638000, 0) + body
                         + block(2910638000, 24 + len(samples[0]), 2910700000, 0)
                         + prof_sample(2910650000, 0, 1, [1]) + END)
    # issue 35, point 14: an IPE event declared 50 bytes longer than its
    # strings, with the bytes there, was misread as events; every
    # subcommand on it and on a sample after it
    ipe = et(169, 0xFFFF, b"An IPE entry")
    strings = struct.pack(">Q", 0x4011A0) + b"tbl\0cd\0ty\0lbl\0Mod\0F.hs:1:1-5\0"
    rec = var(169, 5, strings + b"tbl-extra:" * 5, length=len(strings) + 50)
    after = prof_sample(6, 0, 1, [1])
    yield "ipe-declared-long", (header(TYPES + [ipe]) + cc + block(5, 24 + len(rec) + len(after),
                                                                    7, 0) + rec + after + END)


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in files():
        with open(os.path.join(OUT, name + ".eventlog"), "wb") as f:
            f.write(data)
        with open(os.path.join(OUT, name + ".txt"), "w") as f:
            f.write("hand-made by make_regress.py\n")


if __name__ == "__main__":
    main()
