#!/usr/bin/env python3
"""Load on `evprof top --metrics` (docs/LIVE.md, "Prometheus"): N scrapers
in parallel against a top that follows a log played into a FIFO.

  metrics_load.py EVPROF LOG [--seconds S] [--rate BYTES_PER_S]
                  [--scrapers N] [--every E] [--slow K] [--interval I]

LOG (e.g. bench/gen_eventlog's) is written into a FIFO in 64 KiB pieces
at RATE (default 2 MB/s) for S seconds (default 30) or until it ends,
under `evprof top --ndjson --metrics 127.0.0.1:0 --interval I` (default
0.5). Meanwhile N scrapers (default 50, threads) each GET /metrics in a
loop, back to back (or one every E seconds, as Prometheus would), and K slow clients (default 5) open a connection,
send half a request and never finish it (the endpoint closes them at its
10 s timeout). It prints:

- the reader's delay: for each piece written, the time to the first
  NDJSON frame whose `bytes` count it (min, median, p99, max), and the
  time the feeder spent blocked in write() (a reader that falls behind
  fills the FIFO);
- the scrapes: how many, errors, latency (min, median, p90, p99, max);
- evprof's CPU (from /proc, % of one core) and RSS sampled every second:
  the first, smallest and largest after the first 5 s, and the last.

The same with --scrapers 0 --slow 0 gives the baseline without load.
"""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
PIECE = 65536


def proc_stat(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            p = f.read().rsplit(")", 1)[1].split()
        return (int(p[11]) + int(p[12])) / TICK, int(p[21]) * PAGE
    except (OSError, IndexError):
        return None


def pct(xs, q):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def scrape(host, port, timeout=10):
    s = socket.create_connection((host, port), timeout=timeout)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    data = bytearray()
    while True:
        b = s.recv(65536)
        if not b:
            break
        data += b
    s.close()
    if not data.startswith(b"HTTP/1.1 200 "):
        raise IOError(bytes(data[:40]))
    return len(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("evprof")
    ap.add_argument("log")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--rate", type=float, default=2e6)
    ap.add_argument("--scrapers", type=int, default=50)
    ap.add_argument("--slow", type=int, default=5)
    ap.add_argument("--every", type=float, default=0)
    ap.add_argument("--interval", type=float, default=0.5)
    a = ap.parse_args()

    d = tempfile.mkdtemp()
    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    top = subprocess.Popen([a.evprof, "top", "--ndjson", "--interval", str(a.interval),
                            "--metrics", "127.0.0.1:0", "--metrics-top", "20", fifo],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = top.stderr.readline()
    port = int(line.rsplit(":", 1)[1].split("/")[0])
    frames = []

    def read_frames():
        for l in top.stdout:
            frames.append((time.monotonic(), json.loads(l)["bytes"]))
    threading.Thread(target=read_frames, daemon=True).start()

    stop = threading.Event()
    lat, errors, sizes = [], [], []
    lock = threading.Lock()

    def scraper():
        while not stop.is_set():
            if a.every:
                stop.wait(a.every)
            t0 = time.monotonic()
            try:
                n = scrape("127.0.0.1", port)
                dt = time.monotonic() - t0
                with lock:
                    lat.append(dt)
                    sizes.append(n)
            except Exception as e:  # noqa: BLE001 - every failure is counted
                with lock:
                    errors.append(repr(e))

    def slow():
        while not stop.is_set():
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=30)
                s.sendall(b"GET /metr")
                s.recv(1)           # waits for the server to give up on it
                s.close()
            except OSError:
                pass

    samples = []

    def sampler():
        while top.poll() is None:
            st = proc_stat(top.pid)
            if st:
                samples.append((time.monotonic(),) + st)
            time.sleep(1)

    threads = [threading.Thread(target=scraper, daemon=True) for _ in range(a.scrapers)]
    threads += [threading.Thread(target=slow, daemon=True) for _ in range(a.slow)]
    threading.Thread(target=sampler, daemon=True).start()

    written = []        # (time after the write, bytes so far)
    blocked = 0.0
    with open(a.log, "rb") as src, open(fifo, "wb", buffering=0) as out:
        for t in threads:
            t.start()
        start = time.monotonic()
        total = 0
        while time.monotonic() - start < a.seconds:
            b = src.read(PIECE)
            if not b:
                break
            due = start + total / a.rate
            now = time.monotonic()
            if due > now:
                time.sleep(due - now)
            t0 = time.monotonic()
            out.write(b)
            t1 = time.monotonic()
            blocked += t1 - t0
            total += len(b)
            written.append((t1, total))
        fed = time.monotonic() - start
        # the scrapers stop before the log ends, which ends evprof: a scrape
        # still in the kernel's backlog then would be reset
        stop.set()
        for t in threads[:a.scrapers]:
            t.join()
        time.sleep(1.5)     # a last frame and a last sample
        during = list(samples)
    # the writer closed: the read ends (a log cut short is reported as such)
    top.wait(timeout=60)
    err = top.stderr.read().strip()
    samples = during
    cpu_end = samples[-1][1] if samples else float("nan")

    delays = []
    fi = 0
    for tw, n in written:
        while fi < len(frames) and frames[fi][1] < n:
            fi += 1
        if fi < len(frames):
            delays.append(frames[fi][0] - tw)
    print("fed %.1f MB in %.1f s (%.2f MB/s), %d frames, exit %d" %
          (total / 1e6, fed, total / 1e6 / fed, len(frames), top.returncode))
    if err:
        print("evprof's standard error: " + err[-2000:])
    print("reader delay (write to the frame that counts it), %d pieces: min %.3f s, "
          "median %.3f s, p99 %.3f s, max %.3f s; feeder blocked in write() %.3f s in all"
          % (len(delays), min(delays), pct(delays, 0.5), pct(delays, 0.99), max(delays), blocked))
    if lat:
        print("scrapes: %d by %d scrapers (%.0f/s), %d errors, %.0f bytes each; latency "
              "min %.1f ms, median %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms"
              % (len(lat), a.scrapers, len(lat) / fed, len(errors), sum(sizes) / len(sizes),
                 min(lat) * 1e3, pct(lat, 0.5) * 1e3, pct(lat, 0.9) * 1e3, pct(lat, 0.99) * 1e3,
                 max(lat) * 1e3))
    if errors:
        print("first errors:", errors[:3])
    if samples:
        t0 = samples[0][0]
        late = [s for s in samples if s[0] - t0 >= 5]
        rss = [s[2] for s in late] or [samples[-1][2]]
        print("evprof: CPU %.2f s over %.1f s (%.1f %% of one core); RSS first %.1f MiB, "
              "after 5 s min %.1f MiB max %.1f MiB, last %.1f MiB (%d samples)"
              % (cpu_end, samples[-1][0] - t0, 100 * cpu_end / max(samples[-1][0] - t0, 1e-9),
                 samples[0][2] / 2**20, min(rss) / 2**20, max(rss) / 2**20,
                 samples[-1][2] / 2**20, len(samples)))
        print("evprof RSS every 5 s (MiB): " + " ".join(
            "%.1f" % (s[2] / 2**20) for s in samples[::5]))
    os.unlink(fifo)
    os.rmdir(d)
    return 0 if not errors else 1


if __name__ == "__main__":
    sys.exit(main())
