#!/usr/bin/env bash
# `evprof top -- COMMAND` where COMMAND is not the Haskell program itself
# (issue 36): a shell script in front of a real GHC 9.6.6 and 9.10.3
# program (tests/data/ghc-9.6/src/Live.hs, built -prof -threaded in the
# chroots of scripts/ghc.sh), which evprof tells apart from a Haskell
# program and reaches through GHCRTS. Checks what top says it passed, that
# frames mid-run have ticks (the flush interval reached the program), and
# measures the delay from each round of the program's work (it prints
# CLOCK_MONOTONIC and marks the log) to the first frame that read past it.
# Then cabal in front of a GHC 9.0.2 program (Debian 12's cabal-install,
# itself a Haskell program without eventlog support, which GHCRTS would
# kill): the options go after a "--". SKIPPED (77) with neither.
#
# Usage: tests/cli/live_launcher.sh path/to/evprof [INTERVAL]   (from the project root)
set -u
evprof=$(realpath "${1:?usage: $0 path/to/evprof [INTERVAL]}")
interval=${2:-0.25}
root=$(pwd)
tmp=$(mktemp -d)
binds=()
cleanup() {
    for b in "${binds[@]}"; do umount "$b" 2>/dev/null && rmdir "$b" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
ran=0

for v in 9.6 9.10; do
    if ! bash scripts/ghc.sh $v check; then
        echo "SKIPPED: no GHC $v chroot (scripts/ghc.sh $v setup)"
        continue
    fi
    chroot_root=$(bash scripts/ghc.sh $v root)
    w=$tmp/$v
    mkdir -p "$w/fifos"
    cp tests/data/ghc-9.6/src/Live.hs "$w/"
    if ! bash scripts/ghc.sh $v run "$w" \
            'ghc -O -prof -fprof-auto -rtsopts -threaded -outputdir o -o live Live.hs' \
            >"$w/ghc.log" 2>&1; then
        tail -5 "$w/ghc.log"
        bad "GHC $v: ghc -prof failed in the chroot"
        continue
    fi
    ghcv=$(chroot "$chroot_root" ghc --numeric-version)
    # the FIFO's folder at the same path on both sides of the chroot: top
    # makes its FIFO in $TMPDIR, the program opens the path GHCRTS names
    mkdir -p "$chroot_root$w/fifos"
    mount --bind "$w/fifos" "$chroot_root$w/fifos" || { bad "GHC $v: bind the FIFO folder"; continue; }
    binds+=("$chroot_root$w/fifos")
    # the launcher: a script, as a user's run.sh
    cat >"$w/run.sh" <<SH
#!/bin/sh
# runs the program in the GHC $v chroot (GHCRTS passes through)
exec bash "$root/scripts/ghc.sh" $v run "$w" "./live 12 300000 \$*"
SH
    chmod +x "$w/run.sh"
    ran=1
    "$PYTHON" - "$evprof" "$w" "$interval" "$ghcv" <<'PY'
import json, os, re, subprocess, sys, threading, time
evprof, w, interval, ghcv = sys.argv[1:5]
fails = []
def check(what, cond):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails.append(what)
env = dict(os.environ, TMPDIR=w + "/fifos")
env.pop("GHCRTS", None)
top = subprocess.Popen([evprof, "top", "--ndjson", "--interval", interval, "--ghc", ghcv,
                        "--program-output", w + "/prog.out", "--save", w + "/run.eventlog",
                        "--", w + "/run.sh", "+RTS", "-p", "-N2", "-RTS"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
frames = []
def read_frames():
    for line in top.stdout:
        frames.append((time.monotonic_ns(), json.loads(line)))
reader = threading.Thread(target=read_frames)
reader.start()
err = top.stderr.read().decode()
top.wait(timeout=300)
reader.join()
print(err.strip())
flush = "--eventlog-flush-interval=%g" % (float(interval) / 2)
check("GHC %s: top exits with the program's status 0 (%d)" % (ghcv, top.returncode),
      top.returncode == 0)
check("GHC %s: says it passed GHCRTS to a script, with the flush interval" % ghcv,
      re.search(r"ran \S+/run\.sh with GHCRTS='-l -ol\S+/evprof-top-\w+/eventlog %s' "
                r"\(a script: every Haskell program it starts reads GHCRTS; GHC %s "
                r"\(--ghc\) takes a flush interval\)" % (re.escape(flush), re.escape(ghcv)),
                err) is not None)
rounds = {}
for l in open(w + "/prog.out"):
    m = re.match(r"round (\d+) (\d+) ", l)
    if m:
        rounds[int(m.group(1))] = int(m.group(2))
check("GHC %s: 12 rounds printed" % ghcv, len(rounds) == 12)
fs = [f for _, f in frames]
mid = [f for f in fs if not f["finished"]]
check("GHC %s: mid-run frames with ticks: %d" % (ghcv, sum(1 for f in mid if f["ticks"])),
      sum(1 for f in mid if f["ticks"]) >= 3)
check("GHC %s: ticks grow mid-run" % ghcv, len({f["ticks"] for f in mid}) >= 3)
check("GHC %s: the last frame is finished with the end marker" % ghcv,
      fs and fs[-1]["finished"] and fs[-1]["end_marker"])
info = subprocess.run([evprof, "info", w + "/run.eventlog"], capture_output=True,
                      text=True).stdout
marks = {int(m.group(2)): float(m.group(1))
         for m in re.finditer(r"^\s+1\s+([0-9.]+)\s+round (\d+)$", info, re.M)}
check("GHC %s: 12 marks in the log" % ghcv, len(marks) == 12)
delays = []
for r in sorted(rounds):
    seen = [t for t, f in frames if r in marks and f["log_s"] >= marks[r]]
    if seen:
        delays.append((seen[0] - rounds[r]) / 1e9)
if delays:
    print("GHC %s behind a script: delay from a round's work to its frame (interval %s s, "
          "flush %g s): %d rounds, min %.3f s, mean %.3f s, max %.3f s"
          % (ghcv, interval, float(interval) / 2, len(delays), min(delays),
             sum(delays) / len(delays), max(delays)))
    check("GHC %s: every round on screen within interval + flush + 1 s (max %.3f s)"
          % (ghcv, max(delays)), max(delays) <= 1.5 * float(interval) + 1.0)
else:
    check("GHC %s: delays measured" % ghcv, False)
sys.exit(1 if fails else 0)
PY
    check "GHC $v behind a script (see above)" [ $? -eq 0 ]
    # a script that runs another Haskell program first (GHC 9.4 and later
    # link the eventlog into every program: ghc writes one too): top follows
    # the next eventlog, and the program's figures are the ones that stay
    cat >"$w/run2.sh" <<SH
#!/bin/sh
exec bash "$root/scripts/ghc.sh" $v run "$w" "ghc --numeric-version >/dev/null && ./live 4 300000 \$*"
SH
    chmod +x "$w/run2.sh"
    TMPDIR=$w/fifos "$evprof" top --ndjson --interval "$interval" --ghc "$ghcv" \
        --program-output "$w/prog2.out" --save "$w/run2.eventlog" -- "$w/run2.sh" +RTS -p -RTS \
        >"$w/frames2" 2>"$w/err2"
    rc=$?
    check "GHC $v, ghc run first: exit 0 ($rc)" [ "$rc" -eq 0 ]
    check "GHC $v, ghc run first: said once, for ghc's eventlog only" [ "$(grep -c "another came" "$w/err2")" -eq 1 ]
    check "GHC $v, ghc run first: says whose eventlog ended and that it follows the next" \
        grep -q "the eventlog of [^ ]*ghc[^ ]* (pid [0-9]*) ended while .*run2.sh still ran, and another came: following it" "$w/err2"
    "$evprof" info "$w/run2.eventlog" >"$w/info2" 2>&1
    check "GHC $v, ghc run first: --save holds the program's eventlog" grep -q "^program: *./live$" "$w/info2"
    want=$("$evprof" report "$w/run2.eventlog" 2>/dev/null | sed -n 's/.*(\([0-9]*\) ticks @.*/\1/p')
    got=$(tail -1 "$w/frames2" | sed -n 's/^.*"finished":true,.*"rts_writes_when_full":[a-z]*,"ticks":\([0-9]*\),.*$/\1/p')
    check "GHC $v, ghc run first: the last frame is the program's (${got:-none} ticks = the report's ${want:-none})" \
        [ -n "$want" ] && [ "${got:-x}" = "$want" ] && [ "$want" -gt 0 ]
done

# cabal (Debian 12's cabal-install 3.4, GHC 9.0.2) in front of a profiled
# program: offline, a project of base only
if command -v cabal >/dev/null && command -v ghc >/dev/null; then
    ran=1
    c=$tmp/cabal
    mkdir -p "$c"
    printf 'jobs: 1\n' >"$c/config"
    cat >"$c/cab.cabal" <<'CAB'
cabal-version: 2.4
name: cab
version: 0.1
executable cabprog
  main-is: Main.hs
  build-depends: base
  default-language: Haskell2010
  ghc-options: -rtsopts
CAB
    cat >"$c/Main.hs" <<'HS'
import System.Environment (getArgs)
import Data.List (foldl')
main :: IO ()
main = do
  a <- getArgs
  print a
  print (foldl' (+) 0 [1 .. 30000000 :: Int])
HS
    (cd "$c" && CABAL_CONFIG=$c/config HOME=$c TMPDIR=$tmp \
        "$evprof" top --ndjson -- cabal run -v0 --enable-profiling cabprog -- x +RTS -p -RTS \
        >"$c/frames" 2>"$c/err")
    rc=$?
    check "cabal run: exit 0 ($rc)" [ "$rc" -eq 0 ]
    check "cabal run: told apart as a launcher, the options after its '--'" \
        grep -q "ran cabal ... +RTS -l -ol.*-RTS (a Haskell launcher, whose own RTS would take GHCRTS and +RTS before a '--'" "$c/err"
    check "cabal run: the program got only its own argument" grep -qx '\["x"\]' "$c/err"
    ticks=$(tail -1 "$c/frames" | sed -n 's/^.*"finished":true,.*"rts_writes_when_full":[a-z]*,"ticks":\([0-9]*\),.*$/\1/p')
    check "cabal run: the program's ticks reached top (${ticks:-none})" [ "${ticks:-0}" -gt 0 ]
else
    echo "SKIPPED: cabal run (no cabal or ghc)"
fi

[ "$ran" = 1 ] || exit 77
echo "live_launcher: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
