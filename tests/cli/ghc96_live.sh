#!/usr/bin/env bash
# `evprof top` on a real GHC 9.6.6 program while it runs: builds
# tests/data/ghc-9.6/src/Live.hs in the chroot of scripts/ghc.sh 9.6 (-prof
# -threaded), runs it there with +RTS -p -hc -l -N2 -ol<FIFO>
# --eventlog-flush-interval=0.1 (the FIFO is in the folder bound into the
# chroot) and follows the FIFO from the host with `top --ndjson`. Checks
# that frames mid-run show ticks, heap censuses and collections, that the
# header is not GHC 9.0's (no waiting for full buffers), that the final
# ticks are the batch report's of the saved log; and measures the delay
# from each round of the program's work (it prints CLOCK_MONOTONIC after
# each and marks the log) to the first frame that has read past its mark.
# SKIPPED (77) without the chroot.
#
# Usage: tests/cli/ghc96_live.sh path/to/evprof [INTERVAL]   (from the project root)
set -u
evprof=$(realpath "${1:?usage: $0 path/to/evprof [INTERVAL]}")
interval=${2:-0.25}
root=$(pwd)
if ! bash scripts/ghc.sh 9.6 check; then
    echo "SKIPPED: no GHC 9.6 chroot (scripts/ghc.sh 9.6 setup)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

cp tests/data/ghc-9.6/src/Live.hs "$tmp/"
if ! bash scripts/ghc.sh 9.6 run "$tmp" \
        'ghc -O -prof -fprof-auto -rtsopts -threaded -outputdir o -o live Live.hs' >"$tmp/ghc.log" 2>&1; then
    tail -5 "$tmp/ghc.log"
    echo "SKIPPED: ghc -prof failed in the chroot"
    exit 77
fi
mkfifo "$tmp/el.fifo"

"$PYTHON" - "$evprof" "$tmp" "$root" "$interval" <<'PY'
import json, re, subprocess, sys, threading, time
evprof, tmp, root, interval = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
fails = []
def check(what, cond):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails.append(what)

top = subprocess.Popen([evprof, "top", "--ndjson", "--interval", interval, "--save",
                        tmp + "/run.eventlog", tmp + "/el.fifo"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
frames = []
def read_frames():
    for line in top.stdout:
        frames.append((time.monotonic_ns(), json.loads(line)))
reader = threading.Thread(target=read_frames)
reader.start()
prog = subprocess.Popen(["bash", root + "/scripts/ghc.sh", "9.6", "run", tmp,
                         "./live 12 300000 +RTS -p -hc -i0.2 -l -N2 -olel.fifo "
                         "--eventlog-flush-interval=0.1 -RTS"],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
out, err = prog.communicate(timeout=300)
top.wait(timeout=60)
reader.join()
check("the program ran (exit %d)" % prog.returncode, prog.returncode == 0)
check("top ended with the log (exit %d)" % top.returncode, top.returncode == 0)
rounds = {}
for l in out.decode().splitlines():
    m = re.match(r"round (\d+) (\d+) ", l)
    if m:
        rounds[int(m.group(1))] = int(m.group(2))
check("12 rounds printed", len(rounds) == 12)
fs = [f for _, f in frames]
# a frame per interval while the program works (its rounds' clock), not a
# fixed count: an idle machine runs it in a second, a busy one in several
span = (max(rounds.values()) - min(rounds.values())) / 1e9 if rounds else 0
want = max(3, int(span / float(interval)) - 1)
check("frames: %d for %.2f s of rounds at --interval %s (want >= %d)"
      % (len(fs), span, interval, want), len(fs) >= want)
check("GHC 9.6: the RTS does not wait for full buffers",
      not any(f["rts_writes_when_full"] for f in fs[1:]))
mid = [f for f in fs if not f["finished"]]
check("mid-run frames with ticks: %d" % sum(1 for f in mid if f["ticks"]),
      sum(1 for f in mid if f["ticks"]) >= 3)
check("mid-run frames with a heap census: %d" % sum(1 for f in mid if f["heap"]),
      sum(1 for f in mid if f["heap"] and f["heap"]["bands"]) >= 3)
check("mid-run frames with collections: %d" % sum(1 for f in mid if f["gc"]["collections"]),
      sum(1 for f in mid if f["gc"]["collections"]) >= 3)
check("ticks grow mid-run", len({f["ticks"] for f in mid}) >= 3)
last = fs[-1]
check("the last frame is finished with the end marker", last["finished"] and last["end_marker"])
rep = subprocess.run([evprof, "report", tmp + "/run.eventlog"], capture_output=True,
                     text=True).stdout
m = re.search(r"\((\d+) ticks @", rep)
check("final ticks %d == the report's %s" % (last["ticks"], m and m.group(1)),
      m and int(m.group(1)) == last["ticks"])

# the delay: from the moment a round's work was done (printed) to the
# first frame that read past the round's mark in the log
info = subprocess.run([evprof, "info", tmp + "/run.eventlog"], capture_output=True,
                      text=True).stdout
marks = {int(m.group(2)): float(m.group(1))
         for m in re.finditer(r"^\s+1\s+([0-9.]+)\s+round (\d+)$", info, re.M)}
check("12 marks in the log", len(marks) == 12)
delays = []
for r in sorted(rounds):
    if r not in marks:
        continue
    seen = [t for t, f in frames if f["log_s"] >= marks[r]]
    if seen:
        delays.append((seen[0] - rounds[r]) / 1e9)
if delays:
    mean = sum(delays) / len(delays)
    print("delay from a round's work to its frame (interval %s s, flush 0.1 s): %d rounds, "
          "min %.3f s, mean %.3f s, max %.3f s" % (interval, len(delays), min(delays), mean,
                                                  max(delays)))
    check("every round on screen within interval + flush + 1 s (max %.3f s)" % max(delays),
          max(delays) <= float(interval) + 0.1 + 1.0)
sys.exit(1 if fails else 0)
PY
check "live figures of the 9.6 program (see above)" [ $? -eq 0 ]
echo "ghc96_live: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
