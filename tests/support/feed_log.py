#!/usr/bin/env python3
"""Plays a finished eventlog as a running program would write it, for the
live tests (tests/cli/live_follow.sh) and measurements (docs/LIVE.md).

  Options: --seed N, --max-chunk BYTES (65536), --max-pause SECONDS (0.02)

  feed_log.py file LOG OUT [--seed N]   append to OUT in random-sized chunks
                                        with pauses (OUT may not exist yet)
  feed_log.py fifo LOG FIFO [--seed N]  the same into a FIFO (opens it: blocks
                                        until the reader opens it)
  feed_log.py socket LOG PATH [--seed N]
                                        plays eventlog-socket: listens on a
                                        Unix socket, sends the log to the one
                                        client that connects, then closes;
                                        anything the client sends is ignored
  feed_log.py play LOG OUT --rate BYTES_PER_S
                                        the whole log into OUT (a FIFO) in
                                        1 MiB pieces at about that rate: a
                                        long log of bench/gen_eventlog played
                                        as a busy program would write it
  feed_log.py stream LOG OUT --seconds S --rate BYTES_PER_S
                                        a long synthetic stream: the header
                                        of LOG, then its events (between the
                                        header's end and the end marker)
                                        repeated as they are (times restart
                                        each round), written
                                        to OUT (a FIFO) for S seconds, then
                                        the end marker
"""
import os
import random
import socket
import struct
import sys
import time


MAX_CHUNK = 65536
MAX_PAUSE = 0.02


def chunks(data, rng):
    max_chunk, max_pause = MAX_CHUNK, MAX_PAUSE
    i = 0
    while i < len(data):
        n = rng.randint(1, max_chunk)
        yield data[i:i + n]
        i += n
        if rng.random() < 0.5:
            time.sleep(rng.random() * max_pause)


def opt(name, default, cast=str):
    if name in sys.argv:
        return cast(sys.argv[sys.argv.index(name) + 1])
    return default


def main():
    mode, log, out = sys.argv[1:4]
    rng = random.Random(opt("--seed", 1, int))
    global MAX_CHUNK, MAX_PAUSE
    MAX_CHUNK = opt("--max-chunk", 65536, int)
    MAX_PAUSE = opt("--max-pause", 0.02, float)
    data = open(log, "rb").read() if mode != "play" else b""
    if mode == "file":
        time.sleep(0.2)                 # the reader starts before the file exists
        with open(out, "ab", buffering=0) as f:
            for c in chunks(data, rng):
                f.write(c)
    elif mode == "fifo":
        with open(out, "wb", buffering=0) as f:
            for c in chunks(data, rng):
                f.write(c)
    elif mode == "socket":
        srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        srv.bind(out)
        srv.listen(1)
        conn, _ = srv.accept()
        for c in chunks(data, rng):
            conn.sendall(c)
        conn.close()
        srv.close()
        os.unlink(out)
    elif mode == "play":
        play(open(log, "rb"), out, opt("--rate", 20e6, float))
    elif mode == "stream":
        stream(data, out, opt("--seconds", 60.0, float), opt("--rate", 4e6, float))
    else:
        sys.exit("feed_log.py: unknown mode " + mode)


def play(src, out, rate):
    with open(out, "wb", buffering=0) as f:
        start = time.time()
        sent = 0
        while True:
            piece = src.read(1 << 20)
            if not piece:
                break
            f.write(piece)
            sent += len(piece)
            ahead = sent / rate - (time.time() - start)
            if ahead > 0:
                time.sleep(ahead)


def stream(data, out, seconds, rate):
    """The header, then the data section of the log again and again, at
    about `rate` bytes per second: the aggregates see the same cost centres
    and stacks again, the stream grows without end. The definitions
    (cost centres, program arguments) come again in every round, which a
    real program never does: the profile keeps each copy of their strings,
    so use `play` on a long generated log to measure memory."""
    end = data.find(b"hdre")
    dat = data.find(b"datb", end) + 4
    body = data[dat:len(data) - 2]       # without the 0xffff end marker
    with open(out, "wb", buffering=0) as f:
        f.write(data[:dat])
        start = time.time()
        sent = 0
        while time.time() - start < seconds:
            f.write(body)
            sent += len(body)
            ahead = sent / rate - (time.time() - start)
            if ahead > 0:
                time.sleep(ahead)
        f.write(struct.pack(">H", 0xFFFF))


if __name__ == "__main__":
    main()
