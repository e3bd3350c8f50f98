#!/usr/bin/env python3
"""Measurements of `evprof top` for docs/LIVE.md.

  live_measure.py delay EVPROF LOG [--interval S]
      Plays LOG into a FIFO in 8 pieces, 1.3 s apart (a buffer flushed by
      the RTS), under `evprof top --ndjson`; for each piece, the time from
      its write to the first NDJSON line that counts its bytes.
  live_measure.py stream EVPROF LOG --rate BYTES_PER_S
      A long log (e.g. bench/gen_eventlog's) played into a FIFO at that rate
      (tests/support/feed_log.py play) under `evprof top --ndjson`; samples
      evprof's CPU time and RSS from /proc every 10 s and prints them.
  live_measure.py cpu EVPROF -- PROG ARGS
      `evprof top --ndjson -- PROG ARGS`: evprof's own CPU time and peak
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


def cpu(evprof, prog):
    """evprof's own CPU time and peak RSS: the cpu_s and max_rss_kb of its
    last NDJSON frame (getrusage of evprof alone, not of the program)."""
    out = subprocess.run([evprof, "top", "--ndjson", "--"] + prog, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    last = json.loads(out.splitlines()[-1])
    print("evprof top: %.3f s CPU over %.1f s wall (%.2f%%), peak rss %.1f MiB, %d frames, "
          "%.1f MiB of log"
          % (last["cpu_s"], last["wall_s"], 100 * last["cpu_s"] / last["wall_s"],
             last["max_rss_kb"] / 1024, last["seq"], last["bytes"] / 2**20))


def main():
    mode, evprof = sys.argv[1], sys.argv[2]
    opt = lambda n, d: float(sys.argv[sys.argv.index(n) + 1]) if n in sys.argv else d
    if mode == "delay":
        delay(evprof, sys.argv[3], opt("--interval", 1.0))
    elif mode == "stream":
        stream(evprof, sys.argv[3], opt("--rate", 20e6))
    elif mode == "cpu":
        cpu(evprof, sys.argv[sys.argv.index("--") + 1:])


if __name__ == "__main__":
    main()
