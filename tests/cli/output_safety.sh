#!/usr/bin/env bash
# -o never destroys what it does not own: devices, FIFOs, symlinks and hard
# links are written as a shell's `>` would write them, a replaced file keeps
# its mode, the input log is never overwritten, a failed run leaves no file
# and a fatal signal leaves no temp file (issue 11, point 2).
#
# Usage: tests/cli/output_safety.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
log=tests/data/ghc/deep-p.eventlog
heaplog=tests/data/heap/leak-hT.eventlog
tmp=$(mktemp -d)
bg=()
cleanup() {
    for p in "${bg[@]}"; do kill "$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
no_temp() { ! compgen -G "$tmp/*.evprof-*" >/dev/null && ! compgen -G "$tmp/*/*.evprof-*" >/dev/null; }

"$evprof" report "$log" >"$tmp/want" 2>/dev/null
check "reference report" [ -s "$tmp/want" ]

# a character device: written straight, a write error is ENOSPC, exit 1.
# Root gets a private copy of /dev/full, so that a broken build cannot
# replace the machine's node.
full=$tmp/full
mknod "$full" c 1 7 2>/dev/null || full=/dev/full
"$evprof" report -o "$full" "$log" >/dev/null 2>"$tmp/err"
check "-o full: exit 1" [ $? -eq 1 ]
check "-o full: still a character device" [ -c "$full" ]
check "-o full: says no space" grep -q "No space left on device" "$tmp/err"
check "-o full: no temp file left" no_temp

# Every command that writes, into a full device by -o and by standard
# output: exit 1, one message that names the output (the device, or
# standard output) with the system's reason, none that blames the log
# (issue 35 point 15a: html said "LOG: write error", merge "LOG: at byte N
# ...: cannot write the merged log"), and for all the file that failed, not
# the last one named.
tick=tests/data/ghc-events/ticky-new.eventlog
phl=tests/data/phases/phases.eventlog
big=tests/data/gc/tiny-A64k.eventlog     # 1 MB: merge fails mid-read
writers=(
    "report $log" "report --json $log" "folded $log" "speedscope $log" "pprof $log"
    "html $log" "graph --format svg $log" "graph --format dot $log" "ticky $tick"
    "ticky --format csv $tick" "ticky --series $tick" "gc $log" "gc --format json $log"
    "heap $heaplog" "heap --format csv $heaplog" "phases $phl" "diff $log $log"
    "metrics $log" "merge $log $log" "merge $big $big"
)
not_blamed() {     # no message puts a write failure on an input log
    ! grep -qE "^evprof: [^ ]*\.eventlog: .*(write error|cannot write)" "$1"
}
for c in "${writers[@]}"; do
    # shellcheck disable=SC2086  # the command's words
    "$evprof" $c -o "$full" >/dev/null 2>"$tmp/err"
    check "$c -o full: exit 1" [ $? -eq 1 ]
    check "$c -o full: names the output" grep -q "^evprof: $full: cannot write: No space left on device" "$tmp/err"
    check "$c -o full: does not blame the log" not_blamed "$tmp/err"
    check "$c -o full: one message about it" [ "$(grep -c -i 'writ' "$tmp/err")" -eq 1 ]
    # shellcheck disable=SC2086
    "$evprof" $c >"$full" 2>"$tmp/err"
    check "$c >full: exit 1" [ $? -eq 1 ]
    check "$c >full: names standard output" grep -q "^evprof: standard output: cannot write: No space left on device" "$tmp/err"
    check "$c >full: does not blame the log" not_blamed "$tmp/err"
done
for c in "info $log" "info --format json $log" "dump $log"; do
    # shellcheck disable=SC2086
    "$evprof" $c >"$full" 2>"$tmp/err"
    check "$c >full: exit 1" [ $? -eq 1 ]
    check "$c >full: names standard output" grep -q "^evprof: standard output: cannot write: No space left on device" "$tmp/err"
done
mkdir "$tmp/all"
for ext in prof prof.json folded svg gc.txt info.txt hp; do
    rm -f "$tmp/all/"*
    ln -s "$full" "$tmp/all/run.$ext"
    src=$log
    [ "$ext" = hp ] && src=$heaplog
    "$evprof" all -d "$tmp/all" -n run "$src" >/dev/null 2>"$tmp/err"
    check "all, run.$ext full: exit 1" [ $? -eq 1 ]
    check "all, run.$ext full: names run.$ext" grep -q "^evprof: $tmp/all/run.$ext: cannot write: No space left on device" "$tmp/err"
    check "all, run.$ext full: names no other file" [ "$(grep -c 'cannot write' "$tmp/err")" -eq 1 ]
done
check "full outputs: no temp file left" no_temp

# a FIFO: written straight into it, for the reader at the other end
mkfifo "$tmp/fifo"
timeout 10 cat "$tmp/fifo" >"$tmp/fifo.out" &
reader=$!
"$evprof" report -o "$tmp/fifo" "$log" 2>"$tmp/err"
check "-o fifo: exit 0" [ $? -eq 0 ]
wait "$reader"
check "-o fifo: still a FIFO" [ -p "$tmp/fifo" ]
check "-o fifo: the reader got the report" cmp -s "$tmp/fifo.out" "$tmp/want"

# standard output named as a file into a pipe: /dev/stdout, /dev/fd/1 and
# /proc/self/fd/1 end at a link (pipe:[N]) that names no file; written
# straight into the pipe, as `>` does
for name in /dev/stdout /dev/fd/1 /proc/self/fd/1; do
    [ -e "$name" ] || continue
    "$evprof" report -o "$name" "$log" 2>"$tmp/err" | cat >"$tmp/pipe.out"
    check "-o $name into a pipe: exit 0" [ "${PIPESTATUS[0]}" -eq 0 ]
    check "-o $name into a pipe: the reader got the report" cmp -s "$tmp/pipe.out" "$tmp/want"
done
"$evprof" heap -o /dev/stdout "$heaplog" 2>/dev/null | cat >"$tmp/pipe.hp"
"$evprof" heap -f hp "$heaplog" >"$tmp/want.hp" 2>/dev/null
check "heap -o /dev/stdout into a pipe: the .hp" cmp -s "$tmp/pipe.hp" "$tmp/want.hp"
check "pipes: no temp file left" no_temp

# a symlink: its target is written, the link stays; a dangling one creates
# its target
echo old >"$tmp/target.txt"
ln -s target.txt "$tmp/link"
"$evprof" report -o "$tmp/link" "$log" 2>/dev/null
check "-o symlink: exit 0" [ $? -eq 0 ]
check "-o symlink: still a link" [ -L "$tmp/link" ]
check "-o symlink: the target has the report" cmp -s "$tmp/target.txt" "$tmp/want"
mkdir "$tmp/sub"
ln -s sub/new.txt "$tmp/dangling"
"$evprof" report -o "$tmp/dangling" "$log" 2>/dev/null
check "-o dangling symlink: still a link" [ -L "$tmp/dangling" ]
check "-o dangling symlink: its target is created" cmp -s "$tmp/sub/new.txt" "$tmp/want"
check "symlinks: no temp file left" no_temp

# a file with two names: both see the new content
echo old >"$tmp/a.txt"
ln "$tmp/a.txt" "$tmp/b.txt"
"$evprof" report -o "$tmp/a.txt" "$log" 2>/dev/null
check "-o hard link: exit 0" [ $? -eq 0 ]
check "-o hard link: the name given has the report" cmp -s "$tmp/a.txt" "$tmp/want"
check "-o hard link: the other name too" cmp -s "$tmp/b.txt" "$tmp/want"
check "-o hard link: still two names" [ "$(stat -c %h "$tmp/a.txt")" = 2 ]
check "hard link: no temp file left" no_temp

# a replaced file keeps its mode
echo old >"$tmp/private.txt"
chmod 600 "$tmp/private.txt"
"$evprof" report -o "$tmp/private.txt" "$log" 2>/dev/null
check "-o 0600 file: has the report" cmp -s "$tmp/private.txt" "$tmp/want"
check "-o 0600 file: still 0600" [ "$(stat -c %a "$tmp/private.txt")" = 600 ]
echo old >"$tmp/exec.sh"
chmod 751 "$tmp/exec.sh"
"$evprof" folded -o "$tmp/exec.sh" "$log" 2>/dev/null
check "-o 0751 file: still 0751" [ "$(stat -c %a "$tmp/exec.sh")" = 751 ]

# -o naming the input under any name: refused, exit 2, the log untouched
fresh_input() {
    rm -f "$tmp/in.eventlog" "$tmp/in-link.eventlog" "$tmp/in-hard.eventlog"
    cp "$log" "$tmp/in.eventlog"
    ln -s in.eventlog "$tmp/in-link.eventlog"
    ln "$tmp/in.eventlog" "$tmp/in-hard.eventlog"
}
for cmd in report folded graph heap gc ticky; do
    for pair in "in.eventlog in.eventlog" "in-link.eventlog in.eventlog" \
                "in.eventlog in-link.eventlog" "in-hard.eventlog in.eventlog"; do
        set -- $pair
        fresh_input
        "$evprof" "$cmd" -o "$tmp/$1" "$tmp/$2" >/dev/null 2>"$tmp/err"
        check "$cmd -o $1 $2: exit 2" [ $? -eq 2 ]
        check "$cmd -o $1 $2: says why" grep -q "is the input file" "$tmp/err"
        check "$cmd -o $1 $2: log byte-identical" cmp -s "$tmp/in.eventlog" "$log"
        check "$cmd -o $1 $2: still a link" [ -L "$tmp/in-link.eventlog" ]
    done
    fresh_input
    "$evprof" "$cmd" -o "$tmp/in.eventlog" - <"$tmp/in.eventlog" >/dev/null 2>"$tmp/err"
    check "$cmd -o log - <log: exit 2" [ $? -eq 2 ]
    check "$cmd -o log - <log: log byte-identical" cmp -s "$tmp/in.eventlog" "$log"
done

# a run that fails with nothing to show (exit 1) creates no file and leaves
# an existing one as it was
printf 'not an eventlog at all\n' >"$tmp/junk.eventlog"
# (a command's options are joined to it by commas)
while read -r cmd ext input why; do
    echo keep >"$tmp/old.$ext"
    rm -f "$tmp/new.$ext"
    "$evprof" ${cmd//,/ } -o "$tmp/old.$ext" "$input" >/dev/null 2>"$tmp/err"
    check "$cmd $why: exit 1" [ $? -eq 1 ]
    check "$cmd $why: existing -o file kept" [ "$(cat "$tmp/old.$ext")" = keep ]
    "$evprof" ${cmd//,/ } -o "$tmp/new.$ext" "$input" >/dev/null 2>&1
    check "$cmd $why: no new -o file" [ ! -e "$tmp/new.$ext" ]
    check "$cmd $why: no temp file left" no_temp
done <<EOF
report txt $heaplog no-samples
report txt $tmp/missing.eventlog unreadable
report txt $tmp/junk.eventlog not-an-eventlog
report,--json json $heaplog no-samples
folded txt $heaplog no-samples
graph dot $heaplog no-samples
speedscope json $heaplog no-samples
heap hp $log no-heap-profile
heap,-f,summary txt $log no-heap-profile
heap hp $tmp/missing.eventlog unreadable
gc txt tests/data/gc/alloc-l-a.eventlog no-gc-events
ticky txt $log no-ticky
ticky txt $tmp/missing.eventlog unreadable
EOF

# info and dump have no -o: a usage error, no file
for cmd in info dump; do
    "$evprof" "$cmd" -o "$tmp/$cmd.out" "$log" >/dev/null 2>&1
    check "$cmd -o: exit 2" [ $? -eq 2 ]
    check "$cmd -o: no file" [ ! -e "$tmp/$cmd.out" ]
done

# a damaged log is the exception: exit 1, the damage said on stderr, and the
# honest partial result of what was read, as on standard output
head -c $(( $(wc -c <"$log") - 7 )) "$log" >"$tmp/cut.eventlog"
echo keep >"$tmp/cut.txt"
"$evprof" report -o "$tmp/cut.txt" "$tmp/cut.eventlog" 2>"$tmp/err"
check "damaged: exit 1" [ $? -eq 1 ]
check "damaged: says so" grep -q "truncated" "$tmp/err"
check "damaged: the partial report" grep -q "total time" "$tmp/cut.txt"

# a fatal signal during the run removes the temp file and kills evprof by
# that signal. heap -f hp opens its output first and streams; its input is
# a FIFO fed half a log and then held open, so the signal hits mid-run.
# (python resets the signals a background job inherits as ignored)
dfl() {
    exec "$PYTHON" -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
    signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$@"
}
for sig in TERM HUP INT; do
    rm -f "$tmp/slow.fifo" "$tmp/sig.hp"
    mkfifo "$tmp/slow.fifo"
    { head -c 20000 "$heaplog"; exec sleep 60; } >"$tmp/slow.fifo" &
    feeder=$!
    bg+=("$feeder")
    dfl "$evprof" heap -f hp -o "$tmp/sig.hp" - <"$tmp/slow.fifo" 2>/dev/null &
    pid=$!
    for _ in $(seq 100); do
        compgen -G "$tmp/sig.hp.evprof-*" >/dev/null && break
        sleep 0.1
    done
    check "SIG$sig: a temp file while running" compgen -G "$tmp/sig.hp.evprof-*" >/dev/null
    kill -"$sig" "$pid"
    wait "$pid" 2>/dev/null
    status=$?
    check "SIG$sig: killed by the signal (status $status)" [ "$status" -eq $((128 + $(kill -l "$sig"))) ]
    check "SIG$sig: no temp file left" no_temp
    check "SIG$sig: no output file" [ ! -e "$tmp/sig.hp" ]
    kill "$feeder" 2>/dev/null
    wait "$feeder" 2>/dev/null
done

# evprof all has several outputs open at once: a signal removes every
# temp file. NAME.folded is a FIFO nobody reads, so opening it blocks with
# NAME.prof and NAME.prof.json open.
mkdir "$tmp/allsig"
mkfifo "$tmp/allsig/deep-p.folded"
dfl "$evprof" all -d "$tmp/allsig" "$log" 2>/dev/null &
pid=$!
for _ in $(seq 100); do
    compgen -G "$tmp/allsig/deep-p.prof.json.evprof-*" >/dev/null && break
    sleep 0.1
done
check "all: two temp files while running" \
    compgen -G "$tmp/allsig/deep-p.prof.evprof-*" >/dev/null
check "all: the JSON's temp file" compgen -G "$tmp/allsig/deep-p.prof.json.evprof-*" >/dev/null
kill -TERM "$pid"
wait "$pid" 2>/dev/null
status=$?
check "all: killed by SIGTERM (status $status)" [ "$status" -eq 143 ]
check "all: no temp file left" no_temp
check "all: no .prof" [ ! -e "$tmp/allsig/deep-p.prof" ]

# a signal ignored from the start (nohup) stays ignored: the run finishes
rm -f "$tmp/slow.fifo" "$tmp/nohup.hp"
mkfifo "$tmp/slow.fifo"
{ head -c 20000 "$heaplog"; sleep 1; tail -c +20001 "$heaplog"; } >"$tmp/slow.fifo" &
feeder=$!
bg+=("$feeder")
nohup "$evprof" heap -f hp -o "$tmp/nohup.hp" - <"$tmp/slow.fifo" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
    compgen -G "$tmp/nohup.hp.evprof-*" >/dev/null && break
    sleep 0.1
done
kill -HUP "$pid"
wait "$pid"
check "nohup: SIGHUP ignored, exit 0 (got $?)" [ $? -eq 0 ]
check "nohup: the .hp is written" grep -q "^JOB" "$tmp/nohup.hp"
check "nohup: no temp file left" no_temp

echo "output_safety: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
