#!/usr/bin/env python3
"""CLI-level fuzzing of evprof (issue 11, point 5).

Takes eventlogs from the given files and directories, mutates them (bit
flips, runs of 0x00 and 0xff bytes, truncations, splices of byte ranges
from other logs, overwritten 16-bit fields) and runs every subcommand on
each mutant:

    info, dump, report, report --json, folded, graph -o X.dot, heap, ticky, gc

A run fails on a crash (a signal), a hang (the per-run timeout), any
sanitizer report on stderr, or an exit status other than 0, 1 or 2. Every
failing input is written to the regression corpus (--regress DIR, named
by its hash) and the script exits 1 at the end. Use an ASan/UBSan build
of evprof (make fuzz-cli builds build-asan/evprof).

    cli_fuzz.py --evprof build-asan/evprof --seconds 300 \\
        --regress tests/fuzz/regress tests/data tests/fuzz/bad ../shared/corpus
    cli_fuzz.py --evprof build/evprof --replay tests/fuzz/regress

--replay runs every command on every file of the directory, unmutated: the
regression test `make test` runs (CTest: fuzz_cli_regress).
"""
import argparse
import hashlib
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

COMMANDS = [
    ["info"], ["dump"], ["report"], ["report", "--json"], ["folded"],
    ["graph", "-o", "{tmp}/out.dot"], ["heap"], ["ticky"], ["gc"], ["metrics"],
]
SANITIZER_MARKS = (b"AddressSanitizer", b"LeakSanitizer", b"UndefinedBehaviorSanitizer",
                   b"runtime error:", b"MemorySanitizer")
# sanitizers get their own exit codes, so that a report is never taken for 1
SAN_ENV = {
    "ASAN_OPTIONS": "exitcode=86:detect_leaks=1:abort_on_error=0",
    "UBSAN_OPTIONS": "exitcode=87:halt_on_error=1:print_stacktrace=1",
}


def seeds_from(paths, max_size):
    out = []
    for p in paths:
        if os.path.isfile(p):
            files = [p]
        elif os.path.isdir(p):
            files = [os.path.join(d, f) for d, _, fs in os.walk(p) for f in fs]
        else:
            continue
        for f in sorted(files):
            if not (f.endswith(".eventlog") or "/fuzz/" in f):
                continue
            try:
                if 0 < os.path.getsize(f) <= max_size:
                    out.append(f)
            except OSError:
                pass
    return out


def mutate(rng, data, others):
    b = bytearray(data)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        kind = rng.randrange(7)
        n = len(b)
        if n == 0:
            b += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
            continue
        at = rng.randrange(n)
        if kind == 0:                                   # bit flips
            for _ in range(rng.randrange(1, 9)):
                i = rng.randrange(n)
                b[i] ^= 1 << rng.randrange(8)
        elif kind == 1:                                 # a run of 0x00 or 0xff
            ln = min(n - at, rng.choice((1, 2, 4, 16, 256, 4096, 65536)))
            b[at:at + ln] = (b"\xff" if rng.random() < 0.6 else b"\x00") * ln
        elif kind == 2:                                 # truncation
            del b[at:]
        elif kind == 3:                                 # splice from another log
            src = rng.choice(others) if others else bytes(b)
            if src:
                s = rng.randrange(len(src))
                ln = min(len(src) - s, rng.choice((8, 24, 100, 1000, 10000)))
                if rng.random() < 0.5:
                    b[at:at + ln] = src[s:s + ln]
                else:
                    b[at:at] = src[s:s + ln]
        elif kind == 4:                                 # a 16-bit field overwritten
            v = rng.choice((0, 0xffff, 0x0012, 0x00a7, 0x8000, rng.randrange(65536)))
            b[at:at + 2] = v.to_bytes(2, "big")
        elif kind == 5:                                 # a 32-bit length/size field
            v = rng.choice((0, 0xffffffff, 24, 1 << 31, rng.randrange(1 << 32)))
            b[at:at + 4] = v.to_bytes(4, "big")
        else:                                           # a range duplicated
            ln = min(n - at, rng.choice((2, 10, 24, 500)))
            b[at:at] = b[at:at + ln]
    return bytes(b)


def run_all(evprof, path, tmp, timeout):
    """Runs every command on path; returns a list of failure descriptions."""
    failures = []
    env = dict(os.environ, **SAN_ENV)
    # files of our own, not /dev/null: another test may be replacing it
    empty = os.path.join(tmp, "empty")
    open(empty, "wb").close()
    for cmd in COMMANDS:
        argv = [evprof] + [a.format(tmp=tmp) for a in cmd] + [path]
        try:
            with open(empty, "rb") as fin, open(os.path.join(tmp, "stdout"), "wb") as fout:
                p = subprocess.run(argv, stdin=fin, stdout=fout, stderr=subprocess.PIPE,
                                   timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            failures.append("%s: hang (over %d s)" % (" ".join(cmd), timeout))
            continue
        err = p.stderr
        if any(m in err for m in SANITIZER_MARKS):
            line = next((ln for ln in err.splitlines() if any(m in ln for m in SANITIZER_MARKS)),
                        b"")
            failures.append("%s: sanitizer: %s" % (" ".join(cmd),
                                                   line.decode("utf-8", "replace")[:300]))
        elif p.returncode not in (0, 1, 2):
            failures.append("%s: exit status %d" % (" ".join(cmd), p.returncode))
    return failures


def save(regress, data, failures):
    os.makedirs(regress, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    path = os.path.join(regress, name + ".eventlog")
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)
        with open(os.path.join(regress, name + ".txt"), "w") as f:
            f.write("\n".join(failures) + "\n")
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--evprof", required=True)
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("FUZZ_SECONDS", 60)))
    ap.add_argument("--timeout", type=int, default=60, help="per run, seconds")
    ap.add_argument("--regress", help="where failing inputs go")
    ap.add_argument("--replay", help="run every file of this directory, unmutated")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--max-size", type=int, default=1 << 20)
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="evprof-fuzz-")
    try:
        if a.replay:
            files = sorted(f for f in os.listdir(a.replay) if f.endswith(".eventlog"))
            if not files:
                print("cli_fuzz: SKIPPED: no inputs in %s" % a.replay)
                return 0
            bad = 0
            for f in files:
                fails = run_all(a.evprof, os.path.join(a.replay, f), tmp, a.timeout)
                for x in fails:
                    print("FAIL: %s: %s" % (f, x))
                bad += bool(fails)
            print("cli_fuzz: replayed %d inputs, %d failed" % (len(files), bad))
            return 1 if bad else 0

        seeds = seeds_from(a.paths, a.max_size)
        if not seeds:
            print("cli_fuzz: no seed logs in %s" % " ".join(a.paths), file=sys.stderr)
            return 1
        seed = a.seed if a.seed is not None else int(time.time())
        rng = random.Random(seed)
        datas = [open(f, "rb").read() for f in seeds]
        print("cli_fuzz: %d seed logs, %.0f s, random seed %d" % (len(seeds), a.seconds, seed))
        end = time.monotonic() + a.seconds
        runs = found = 0
        case = os.path.join(tmp, "case.eventlog")
        while time.monotonic() < end:
            i = rng.randrange(len(datas))
            data = mutate(rng, datas[i], datas)
            with open(case, "wb") as f:
                f.write(data)
            fails = run_all(a.evprof, case, tmp, a.timeout)
            runs += 1
            if fails:
                found += 1
                where = save(a.regress, data, fails) if a.regress else "(not saved)"
                print("FAIL: mutant of %s -> %s" % (seeds[i], where))
                for x in fails:
                    print("    " + x)
        print("cli_fuzz: %d inputs x %d commands, %d failing inputs" % (runs, len(COMMANDS), found))
        return 1 if found else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
