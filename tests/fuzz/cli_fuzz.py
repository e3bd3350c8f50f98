#!/usr/bin/env python3
"""CLI-level fuzzing of evprof (issue 11, point 5; issue 27's campaign).

Takes eventlogs from the given files and directories, mutates them (bit
flips, runs of 0x00 and 0xff bytes, truncations, splices of byte ranges
from other logs, overwritten 16-bit fields, end markers put in, labels of
control bytes spliced into strings) and runs every subcommand on each
mutant:

    info, dump, report, report --json, folded, graph -o X.dot and X.svg,
    heap, ticky, gc, metrics, speedscope, pprof, pprof --heap, html, all, diff,
    diff --ticky, top --ndjson, and report, speedscope, pprof --heap,
    info with --memory-limit 40M; report --focus, report --callers and
    phases -m with the largest patterns the matcher takes (40M), and with
    the patterns of issue 35 that crashed glibc's regcomp or took it
    gigabytes (with graph --ignore too); report --from a mark it lacks

A run fails on a crash (a signal), a hang (the per-run timeout), any
sanitizer report on stderr, or an exit status other than 0, 1 or 2, and
on the campaign's properties: a hostile pattern not refused (exit 2, "bad
regular expression"), a selection miss with more than 8 KiB of stderr (the
marks it quotes are shortened), the input log changed by any command, raw
control bytes in dump's output, Graphviz failing the graph of a log
(labels of any length are shortened for drawing), a peak RSS past
--memory-limit (not under the sanitizers, whose shadow memory counts),
`all` writing over its input (DIR/x.prof read with --name x: it must
refuse, exit 2), and a FIFO whose writer stalls not ending at
--idle-timeout. Every failing input is written to the regression corpus
(--regress DIR, named by its hash) and the script exits 1 at the end.
Use an ASan/UBSan build of evprof (make fuzz-cli builds build-asan/evprof).

Besides the given logs, the hostile shapes of tests/fuzz/hostile_log
(found beside evprof: EVPROF_BUILD/tests/fuzz/hostile_log) are seeds:
labels of control bytes, an end marker mid-log without blocks, a 60 000-
byte label, many marks, ticky counters, heap bands and samples.

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
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

# {log}: the input (appended last when absent)
COMMANDS = [
    ["info"], ["dump"], ["report"], ["report", "--json"], ["folded"],
    ["graph", "-o", "{tmp}/out.dot"], ["graph", "-o", "{tmp}/out.svg"], ["heap"], ["ticky"],
    ["gc"], ["metrics"], ["phases"], ["speedscope", "-o", "{tmp}/out.json"],
    ["pprof", "-o", "{tmp}/out.pb.gz"], ["pprof", "--heap", "-o", "{tmp}/out.pb.gz"],
    ["html", "-o", "{tmp}/out.html"],
    ["all", "-d", "{tmp}/all", "-n", "out"], ["diff", "{log}", "{log}"],
    ["diff", "--ticky", "{log}", "{log}"],
    ["top", "--ndjson", "--interval", "60", "--idle-timeout", "1"],
    ["report", "--memory-limit", "40M"], ["speedscope", "--memory-limit", "40M"],
    ["pprof", "--heap", "--memory-limit", "40M"], ["info", "--memory-limit", "40M"],
    # patterns (issue 35): the largest ones the matcher takes, on every
    # label of the log, within the memory limit
    ["report", "--focus", "(.*){1,249}(.*){1,249}y", "--memory-limit", "40M"],
    ["report", "--callers", "(x|.)*(x|.)*y", "--memory-limit", "40M"],
    ["phases", "-m", "((.?){249}){4}y", "--memory-limit", "40M"],
    # a selection that matches nothing: the log's marks quoted, shortened
    ["report", "--from", "marker:no such mark"],
] + [cmd + [p] for p in
     # what crashed glibc's regcomp (exit 139) or took it gigabytes:
     # refused at once, exit 2 (REFUSED below)
     ("(.*){1,32000}(.*){1,32000}y", "(.*){1,32000}", "(x+)\\1\\1y")
     for cmd in (["report", "--focus"], ["report", "--callers"], ["phases", "-m"],
                 ["graph", "-o", "{tmp}/out.dot", "--ignore"])]
# a command whose last argument is one of these is refused: exit 2, the message
REFUSED = ("(.*){1,32000}(.*){1,32000}y", "(.*){1,32000}", "(x+)\\1\\1y")
# stderr of a message that quotes labels: each shortened (72 code points)
SHORT_STDERR = 8192
MEMORY_LIMIT_KB = 40 << 10
# the shapes of tests/fuzz/hostile_log taken as seeds (name, args)
HOSTILE_SHAPES = [
    ("controls", []), ("end-mid", ["60"]), ("end-over", ["60"]), ("long-label", ["60000"]),
    ("marks", ["3000"]), ("ticky", ["3000"]), ("heap-bands", ["3000"]), ("samples", ["20000"]),
    ("long-mark", ["30000"]),
]
# raw control bytes in dump's lines (the line feeds between them excepted)
RAW_CONTROL = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
# labels made of the bytes a terminal obeys, spliced into strings
HOSTILE_BYTES = [b"\x1b[2J", b"\x07", b"\x00", b"\x7f", b"\xc2\x9b", b"\x1b]0;x\x07", b"\r\n",
                 b"A" * 4000]
SANITIZER_MARKS = (b"AddressSanitizer", b"LeakSanitizer", b"UndefinedBehaviorSanitizer",
                   b"runtime error:", b"MemorySanitizer")
# sanitizers get their own exit codes, so that a report is never taken for 1
SAN_ENV = {
    "ASAN_OPTIONS": "exitcode=86:detect_leaks=1:abort_on_error=0",
    "UBSAN_OPTIONS": "exitcode=87:halt_on_error=1:print_stacktrace=1",
    # Graphviz's and the font libraries' own leaks are not ours (graph, html)
    "LSAN_OPTIONS": "suppressions=%s:print_suppressions=0" % os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "support", "lsan.supp"),
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


def hostile_seeds(evprof, tmp):
    """The hostile shapes of tests/fuzz/hostile_log beside evprof, as seed bytes."""
    gen = os.path.join(os.path.dirname(os.path.abspath(evprof)), "tests", "fuzz", "hostile_log")
    out = []
    if not os.access(gen, os.X_OK):
        return out
    for name, args in HOSTILE_SHAPES:
        path = os.path.join(tmp, "hostile-%s.eventlog" % name)
        if subprocess.run([gen, path, name] + args).returncode == 0:
            with open(path, "rb") as f:
                out.append(("hostile_log " + " ".join([name] + args), f.read()))
            os.remove(path)
    return out


def mutate(rng, data, others):
    b = bytearray(data)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        kind = rng.randrange(9)
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
        elif kind == 6:                                 # a range duplicated
            ln = min(n - at, rng.choice((2, 10, 24, 500)))
            b[at:at] = b[at:at + ln]
        elif kind == 7:                                 # an end marker put in
            b[at:at] = b"\xff\xff"
        else:                                           # hostile bytes in a string
            b[at:at] = rng.choice(HOSTILE_BYTES)
    return bytes(b)


def run_one(argv, env, tmp, timeout):
    """Runs argv; returns (status or None on a hang, stdout, stderr, peak RSS in KiB)."""
    empty = os.path.join(tmp, "empty")
    out_path, err_path = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
    with open(empty, "rb") as fin, open(out_path, "wb") as fout, open(err_path, "wb") as ferr:
        p = subprocess.Popen(argv, stdin=fin, stdout=fout, stderr=ferr, env=env)
        timer = threading.Timer(timeout, p.kill)
        timer.start()
        _, status, usage = os.wait4(p.pid, 0)
        hung = not timer.is_alive()
        timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
    with open(out_path, "rb") as f:
        out = f.read()
    with open(err_path, "rb") as f:
        err = f.read()
    return (None if hung else p.returncode), out, err, usage.ru_maxrss


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha1(f.read()).hexdigest()


def run_all(evprof, path, tmp, timeout, sanitized):
    """Runs every command on path; returns a list of failure descriptions."""
    failures = []
    env = dict(os.environ, **SAN_ENV)
    # files of our own, not /dev/null: another test may be replacing it
    open(os.path.join(tmp, "empty"), "wb").close()
    before = digest(path)
    for cmd in COMMANDS:
        # not str.format: patterns hold braces
        args = [a.replace("{tmp}", tmp).replace("{log}", path) for a in cmd]
        argv = [evprof] + args + ([] if "{log}" in cmd else [path])
        shutil.rmtree(os.path.join(tmp, "all"), ignore_errors=True)
        what = " ".join(cmd)
        status, out, err, rss = run_one(argv, env, tmp, timeout)
        if status is None:
            failures.append("%s: hang (over %d s)" % (what, timeout))
            continue
        if any(m in err for m in SANITIZER_MARKS):
            line = next((ln for ln in err.splitlines() if any(m in ln for m in SANITIZER_MARKS)),
                        b"")
            failures.append("%s: sanitizer: %s" % (what, line.decode("utf-8", "replace")[:300]))
        elif status not in (0, 1, 2):
            failures.append("%s: exit status %d" % (what, status))
        if digest(path) != before:
            failures.append("%s: the input log was changed" % what)
            before = digest(path)
        if cmd == ["dump"] and RAW_CONTROL.search(out):
            failures.append("dump: a raw control byte in its output")
        if b"Graphviz" in err:
            line = next(ln for ln in err.splitlines() if b"Graphviz" in ln)
            failures.append("%s: Graphviz failed: %s" % (what, line.decode("utf-8", "replace")[:200]))
        if "--memory-limit" in cmd and not sanitized and rss > MEMORY_LIMIT_KB:
            failures.append("%s: peak RSS %d KiB past the limit" % (what, rss))
        if cmd[-1] in REFUSED and (status != 2 or b"bad regular expression" not in err):
            failures.append("%s: not refused (exit %s)" % (what, status))
        if "--from" in cmd and len(err) > SHORT_STDERR:
            failures.append("%s: %d bytes on stderr (labels not shortened)" % (what, len(err)))
    failures += all_over_input(evprof, path, tmp, env, timeout)
    failures += stalled_fifo(evprof, path, tmp, env, timeout)
    return failures


def all_over_input(evprof, path, tmp, env, timeout):
    """`all` on DIR/x.prof with --name x must refuse (exit 2), the log intact."""
    d = os.path.join(tmp, "allx")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    x = os.path.join(d, "x.prof")
    shutil.copyfile(path, x)
    status, _, _, _ = run_one([evprof, "all", "-d", d, "-n", "x", x], env, tmp, timeout)
    fails = []
    if status != 2:
        fails.append("all over its input: exit %s, not 2" % status)
    if digest(x) != digest(path):
        fails.append("all over its input: the log was overwritten")
    return fails


def stalled_fifo(evprof, path, tmp, env, timeout):
    """The mutant through a FIFO whose writer then stalls: --idle-timeout ends it."""
    fifo = os.path.join(tmp, "fifo")
    if os.path.exists(fifo):
        os.remove(fifo)
    os.mkfifo(fifo)
    release = threading.Event()

    def writer():
        try:
            with open(fifo, "wb") as f:
                f.write(open(path, "rb").read())
                f.flush()
                release.wait(timeout + 5)
        except OSError:
            pass
    t = threading.Thread(target=writer, daemon=True)
    t.start()
    status, _, err, _ = run_one([evprof, "report", "--follow", "--idle-timeout", "0.5", fifo],
                                env, tmp, timeout)
    release.set()
    try:    # a writer still waiting for a reader (evprof never opened it) goes on
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
    except OSError:
        pass
    t.join(timeout + 10)
    if status is None:
        return ["report --follow --idle-timeout 0.5 FIFO: hang (a stalled writer)"]
    if status not in (0, 1, 2):
        return ["report --follow on a stalled FIFO: exit status %d" % status]
    return []


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
    ap.add_argument("--sanitized", action="store_true",
                    default=bool(os.environ.get("EVPROF_TEST_SANITIZED")),
                    help="the build has sanitizers: peak RSS is not checked")
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
                fails = run_all(a.evprof, os.path.join(a.replay, f), tmp, a.timeout, a.sanitized)
                for x in fails:
                    print("FAIL: %s: %s" % (f, x))
                bad += bool(fails)
            print("cli_fuzz: replayed %d inputs, %d failed" % (len(files), bad))
            return 1 if bad else 0

        seeds = seeds_from(a.paths, a.max_size)
        datas = [open(f, "rb").read() for f in seeds]
        for name, data in hostile_seeds(a.evprof, tmp):
            seeds.append(name)
            datas.append(data)
        if not seeds:
            print("cli_fuzz: no seed logs in %s" % " ".join(a.paths), file=sys.stderr)
            return 1
        seed = a.seed if a.seed is not None else int(time.time())
        rng = random.Random(seed)
        print("cli_fuzz: %d seed logs, %.0f s, random seed %d" % (len(seeds), a.seconds, seed))
        end = time.monotonic() + a.seconds
        runs = found = 0
        case = os.path.join(tmp, "case.eventlog")
        while time.monotonic() < end:
            i = rng.randrange(len(datas))
            data = mutate(rng, datas[i], datas)
            with open(case, "wb") as f:
                f.write(data)
            fails = run_all(a.evprof, case, tmp, a.timeout, a.sanitized)
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
