#!/usr/bin/env python3
"""Measurements of `evprof top` for docs/LIVE.md.

  live_measure.py delay EVPROF LOG [--interval S]
      Plays LOG into a FIFO in 8 pieces, 1.3 s apart (a buffer flushed by
      the RTS), under `evprof top --ndjson`; for each piece, the time from
      its write to the first NDJSON line that counts its bytes.
  live_measure.py ghc-delay EVPROF [--interval S] [--rounds N]
      The same on a real GHC program: builds tests/data/live/Main.hs with
      tests/data/live/socket_writer.c (ghc -prof -threaded), runs it with
      +RTS -l -p -V0.00005 and `evprof top --ndjson --connect`; the writer
      notes the time of every buffer the RTS writes (EVSOCK_TIMES), and for
      each the delay to the first NDJSON line that counts its bytes.
  live_measure.py stream EVPROF LOG --rate BYTES_PER_S
      A long log (e.g. bench/gen_eventlog's) played into a FIFO at that rate
      (tests/support/feed_log.py play) under `evprof top --ndjson`; samples
      evprof's CPU time and RSS from /proc every 10 s and prints them.
  live_measure.py cpu EVPROF [--interval S] -- PROG ARGS
      `evprof top --ndjson [--interval S] -- PROG ARGS`: evprof's own CPU time and peak
      RSS (the last frame's cpu_s, max_rss_kb) against the wall time.
"""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FEED = os.path.join(HERE, "..", "tests", "support", "feed_log.py")
TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def proc_stat(pid):
    """(cpu seconds, rss bytes) of pid, or None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            p = f.read().rsplit(")", 1)[1].split()
        return (int(p[11]) + int(p[12])) / TICK, int(p[21]) * PAGE
    except (OSError, IndexError):
        return None


def delay(evprof, log, interval):
    data = open(log, "rb").read()
    d = tempfile.mkdtemp()
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    p = subprocess.Popen([evprof, "top", "--ndjson", "--interval", str(interval), fifo],
                         stdout=subprocess.PIPE, text=True)
    lines = []

    def reader():
        for line in p.stdout:
            lines.append((time.monotonic(), json.loads(line)))
    t = threading.Thread(target=reader)
    t.start()
    pieces = 8
    writes = []
    with open(fifo, "wb", buffering=0) as f:
        for k in range(pieces):
            a, b = len(data) * k // pieces, len(data) * (k + 1) // pieces
            f.write(data[a:b])
            writes.append((time.monotonic(), b))
            time.sleep(1.3)
    t.join()
    p.wait()
    delays = []
    for when, upto in writes:
        seen = next(ts for ts, fr in lines if fr["bytes"] >= upto)
        delays.append(seen - when)
    print("interval %.2f s: delay from write to figures: min %.3f s, mean %.3f s, max %.3f s"
          % (interval, min(delays), sum(delays) / len(delays), max(delays)))


def ghc_delay(evprof, interval, rounds):
    live = os.path.join(HERE, "..", "tests", "data", "live")
    d = tempfile.mkdtemp()
    for f in ("Main.hs", "socket_writer.c"):
        with open(os.path.join(live, f), "rb") as src, open(os.path.join(d, f), "wb") as dst:
            dst.write(src.read())
    subprocess.run(["ghc", "-O", "-prof", "-fprof-auto", "-threaded", "-no-hs-main", "Main.hs",
                    "socket_writer.c", "-o", "prog"], cwd=d, check=True, stdout=subprocess.DEVNULL)
    sock, times = os.path.join(d, "sock"), os.path.join(d, "times")
    env = dict(os.environ, EVSOCK_UNIX=sock, EVSOCK_TIMES=times)
    start = time.monotonic()
    prog = subprocess.Popen(["./prog", str(rounds), "+RTS", "-l", "-p", "-V0.00005", "-RTS"],
                            cwd=d, env=env, stdout=subprocess.DEVNULL)
    p = subprocess.Popen([evprof, "top", "--ndjson", "--interval", str(interval),
                          "--connect", "unix:" + sock], stdout=subprocess.PIPE, text=True)
    lines = [(time.monotonic(), json.loads(line)) for line in p.stdout]
    p.wait()
    prog.wait()
    writes = [(float(t), int(b)) for t, b in (l.split() for l in open(times))]
    delays = []
    for when, upto in writes:
        seen = next(ts for ts, fr in lines if fr["bytes"] >= upto)
        delays.append(seen - when)
    mid = [dl for (when, _), dl in zip(writes, delays) if when < writes[-1][0] - 0.05]
    print("interval %.2f s: %d writes by the RTS (%d mid-run) over %.1f s, %.1f MiB; delay from "
          "write to figures: min %.3f s, mean %.3f s, max %.3f s"
          % (interval, len(writes), len(mid), lines[-1][1]["wall_s"], writes[-1][1] / 2**20,
             min(delays), sum(delays) / len(delays), max(delays)))
    print("  the RTS's writes at %s s after the program started"
          % ", ".join("%.1f" % (w - start) for w, _ in writes))
    if mid:
        print("  mid-run writes only: min %.3f s, mean %.3f s, max %.3f s"
              % (min(mid), sum(mid) / len(mid), max(mid)))


def stream(evprof, log, rate):
    d = tempfile.mkdtemp()
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    out = open(os.path.join(d, "top.json"), "w")
    p = subprocess.Popen([evprof, "top", "--ndjson", fifo], stdout=out)
    w = subprocess.Popen([sys.executable, FEED, "play", log, fifo, "--rate", str(rate)])
    start = time.monotonic()
    last_cpu = 0.0
    last_t = start
    while p.poll() is None:
        time.sleep(10)
        s = proc_stat(p.pid)
        if not s:
            break
        now = time.monotonic()
        print("t=%4.0f s  evprof cpu %6.2f s (%4.1f%% over the last 10 s)  rss %6.1f MiB"
              % (now - start, s[0], 100 * (s[0] - last_cpu) / (now - last_t), s[1] / 2**20),
              flush=True)
        last_cpu, last_t = s[0], now
    w.wait()
    p.wait()
    out.close()
    last = json.loads(open(os.path.join(d, "top.json")).readlines()[-1])
    print("stream: %.1f GiB, %d events, exit %d" % (last["bytes"] / 2**30, last["events"],
                                                     p.returncode))


def cpu(evprof, prog, interval):
    """evprof's own CPU time and peak RSS: the cpu_s and max_rss_kb of its
    last NDJSON frame (getrusage of evprof alone, not of the program)."""
    out = subprocess.run([evprof, "top", "--ndjson", "--interval", str(interval), "--"] + prog, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    last = json.loads(out.splitlines()[-1])
    print("evprof top --interval %g: %.3f s CPU over %.1f s wall (%.2f%%), peak rss %.1f MiB, %d frames, "
          "%.1f MiB of log"
          % (interval, last["cpu_s"], last["wall_s"], 100 * last["cpu_s"] / last["wall_s"],
             last["max_rss_kb"] / 1024, last["seq"], last["bytes"] / 2**20))


def main():
    mode, evprof = sys.argv[1], sys.argv[2]
    own = sys.argv[:sys.argv.index("--")] if "--" in sys.argv else sys.argv
    opt = lambda n, d: float(own[own.index(n) + 1]) if n in own else d
    if mode == "delay":
        delay(evprof, sys.argv[3], opt("--interval", 1.0))
    elif mode == "ghc-delay":
        ghc_delay(evprof, opt("--interval", 1.0), int(opt("--rounds", 3000)))
    elif mode == "stream":
        stream(evprof, sys.argv[3], opt("--rate", 20e6))
    elif mode == "cpu":
        cpu(evprof, sys.argv[sys.argv.index("--") + 1:], opt("--interval", 1.0))


if __name__ == "__main__":
    main()
