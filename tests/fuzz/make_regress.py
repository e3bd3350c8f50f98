#!/usr/bin/env python3
"""Writes the hand-made members of tests/fuzz/regress/: inputs that made
evprof crash before a fix, rebuilt from the description in the issue.
(Inputs cli_fuzz.py finds are saved there as they were found.)

    python3 tests/fuzz/make_regress.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_bad import HEADER, END, cost_centre, prof_sample  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "regress")


def files():
    cc = cost_centre(0, 1, b"MAIN", b"MAIN", b"<built-in>")
    # issue 11: a first time sample with stack depth 0 passed NULL to
    # memcpy (prof/profile.c, UBSan: report, folded, graph)
    yield "depth-zero-first-sample", (HEADER + cc + prof_sample(1, 0, 1, [])
                                      + prof_sample(2, 0, 1, [1]) + END)


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in files():
        with open(os.path.join(OUT, name + ".eventlog"), "wb") as f:
            f.write(data)
        with open(os.path.join(OUT, name + ".txt"), "w") as f:
            f.write("hand-made by make_regress.py\n")


if __name__ == "__main__":
    main()
