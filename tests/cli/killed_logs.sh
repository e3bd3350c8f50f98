#!/usr/bin/env bash
# Logs of programs that were killed, as a new user meets them (issue 27,
# points 3 and 4; issue 26's "info knows the versions"): every command
# says the same thing about a log without its end marker (how far it
# goes, what is missing, figures that mean the same in every command),
# the advice on a log without samples says what the log shows, and the
# hints name the GHC versions that write what they ask for.
#
# Usage: tests/cli/killed_logs.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
nu=tests/data/newuser
killed=$nu/parser-killed.eventlog          # GHC 9.0.2, killed, cut at a record
killed96=$nu/parser-killed-9.6.eventlog    # GHC 9.6.6, killed before its samples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
lacks() { ! grep -q -- "$1" "$2"; }
run() { "$evprof" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?; }

# ---- point 3: one message, the same figures, in every command -------------
size=$(stat -c %s "$killed")
run info "$killed"
check "info on the killed log: exit 0 (a warning)" [ "$rc" -eq 0 ]
status=$(sed -n 's/^status: *//p' "$tmp/out")
check "info's status: no end marker, where the log stops" \
    grep -q "^no end marker: the log stops at byte $size, [0-9.]* s after the RTS started" <<<"$status"
want="evprof: warning: $killed: $status"
check "info's warning is its status line" grep -qxF "$want" "$tmp/err"
for cmd in report folded graph speedscope pprof html gc heap ticky dump diff all; do
    case $cmd in
        diff) args=("$killed" "$killed") ;;
        all) args=(-d "$tmp/all" "$killed") ;;
        *) args=("$killed") ;;
    esac
    run "$cmd" "${args[@]}"
    check "$cmd: the same warning, once" [ "$(grep -cxF "$want" "$tmp/err")" -eq 1 ]
    check "$cmd: no count of the events it chose to read" lacks "events were read" "$tmp/err"
    check "$cmd: nothing calls it complete or cut" eval '! grep -q -i "complete\|truncated" "$tmp/err"'
done

# ---- point 4: no samples, said from what the log shows --------------------
# GHC 9.0: the RTS identifier, cost centres and samples are all in the
# buffer a killed run never wrote: whether it was profiled cannot be told
run report "$killed"
check "report, 9.0 killed: exit 1" [ "$rc" -eq 1 ]
check "report, 9.0 killed: no guess that it lacks -prof" lacks "build with -prof" "$tmp/err"
check "report, 9.0 killed: the log ends early" grep -q "no time-profile samples.*ends early (no end marker" "$tmp/err"
check "report, 9.0 killed: whether profiled cannot be told" grep -q "no RTS identifier either.*cannot be told" "$tmp/err"
why=$(sed -n "s/^evprof: [^:]*: no time-profile samples (event 167): \(.*\) (see 'evprof info .*')$/\1/p" "$tmp/err")
run info "$killed"
check "info's verdict on the time profile is report's" grep -qF "time profile     no: $why" "$tmp/out"
# GHC 9.6: the RTS identifier came first: a profiling RTS, no samples yet
run report "$killed96"
check "report, 9.6 killed: a profiling RTS" grep -q "no samples yet: the log comes from a profiling RTS (GHC-9.6.6 rts_p)" "$tmp/err"
check "report, 9.6 killed: ends early" grep -q "but ends early (no end marker" "$tmp/err"
check "report, 9.6 killed: no guess that it lacks -prof" lacks "build with -prof" "$tmp/err"
run folded "$killed96"
check "folded says the same" grep -q "no samples yet: the log comes from a profiling RTS" "$tmp/err"
run all -d "$tmp/all96" "$killed96"
check "all says the same" grep -q "no samples yet: the log comes from a profiling RTS" "$tmp/err"
run diff --time "$killed96" "$killed96"
check "diff says the same" grep -q "no samples yet: the log comes from a profiling RTS" "$tmp/err"
# a whole log of a profiling RTS run without -p (a heap profile)
run report tests/data/ghc-9.0.2/nfib-hc.eventlog
check "report, -prof build run with -hc: run it with -p" \
    grep -q "built with -prof (RTS GHC-9.0.2 rts_thr_p.*) but run without +RTS -p" "$tmp/err"
# a whole log of a non-profiling RTS: build with -prof, and since when
run report tests/data/gc/alloc.eventlog
check "report, non-profiled run: build with -prof" grep -q "build with -prof and run with +RTS -p -l" "$tmp/err"

# ---- issue 26: the hints name the right GHC versions ----------------------
run info tests/data/gc/alloc.eventlog
check "info: samples since GHC 8.10" grep -q "GHC 8.10 and later then write samples" "$tmp/out"
check "info: ticky since GHC 9.2 (a 9.0 log: +RTS -r instead)" grep -q \
    "ticky counters   no: GHC 9.0 writes no ticky counters to the eventlog (9.2 and later do, with +RTS -lT)" "$tmp/out"
# ... which ghc-events' own logs bear out: a GHC 8.10 pre-release wrote
# samples, a GHC 9.2 pre-release ticky counters
run info tests/data/ghc-events/time-prof.eventlog
check "time-prof.eventlog: GHC 8.9 (8.10's pre-release) wrote samples" \
    eval 'grep -q "^rts: *GHC-8\.9\." "$tmp/out" && grep -q "time profile     yes" "$tmp/out"'
run info tests/data/ghc-events/ticky-ticky.eventlog
check "ticky-ticky.eventlog: GHC 9.1 (9.2's pre-release) wrote ticky counters" \
    eval 'grep -q "^rts: *GHC-9\.1\." "$tmp/out" && grep -q "ticky counters   yes" "$tmp/out"'
run ticky tests/data/gc/alloc.eventlog
check "ticky's hint: GHC 9.2" eval 'grep -q "GHC 9.2 or later" "$tmp/err" && ! grep -q "9\.4" "$tmp/err"'
run all -d "$tmp/allgc" tests/data/gc/alloc.eventlog
check "all's ticky hint: GHC 9.2" eval 'grep -q "GHC 9.2 or later" "$tmp/err" && ! grep -q "9\.4" "$tmp/err"'
run ticky --help
check "ticky --help: GHC 9.2" grep -q "GHC 9.2 or later" "$tmp/out"

# a damaged last block that holds the end marker (GHC 9.2 and later count
# it into the last block) is damage, not "no end marker"
"$PYTHON" - "$nu/leak-9.6.eventlog" "$tmp/lastdamaged.eventlog" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
for p in range(len(d) - 24, 0, -1):     # the last block: its marker states the rest
    if d[p:p + 2] == b"\x00\x12" and p + struct.unpack(">I", d[p + 10:p + 14])[0] == len(d):
        break
assert d[-2:] == b"\xff\xff"
d[p + 24:p + 26] = b"\x7f\x7f"          # its first record: an undeclared type
open(sys.argv[2], "wb").write(d)
PY
run info "$tmp/lastdamaged.eventlog"
check "damaged last block: exit 1" [ "$rc" -eq 1 ]
check "damaged last block: DAMAGED" grep -q "^status: *DAMAGED: skipped" "$tmp/out"
check "damaged last block: the end marker is there" grep -q "the end marker is there, as the damaged last block's last record" "$tmp/out"
check "damaged last block: not 'no end marker'" eval '! grep -q "no end marker" "$tmp/out" "$tmp/err"'
run gc "$tmp/lastdamaged.eventlog"
check "damaged last block, gc: not 'no end marker'" lacks "no end marker" "$tmp/err"

# a ticky log (GHC 9.6) cut before its first ticky event: what the log
# shows (it ends early), not "build with -ticky"
head -c 4000 tests/data/ghc-9.6/collatz-lT.eventlog >"$tmp/ticky-cut.eventlog"
"$evprof" ticky "$tmp/ticky-cut.eventlog" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "ticky, cut before its counters: exit 1 (got $rc)" [ $rc -eq 1 ]
check "ticky, cut before its counters: says the log ends early" \
    grep -q "no ticky counters (events 210/211) before the log ends at byte 4000" "$tmp/err"
check "ticky, cut before its counters: no build advice" lacks "build with -ticky" "$tmp/err"

echo "killed_logs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
