#!/usr/bin/env bash
# What the reliability campaign found wrong with outputs (issue 27):
# `all` must refuse an output that is its input log under any name, as -o
# does (point 14); a hard-linked -o target must not be left cut by SIGTERM
# or SIGINT during the copy in place (point 20).
#
# Usage: tests/cli/hostile_output.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
log=tests/data/ghc/deep-p.eventlog
gen="$(dirname "$evprof")/tests/fuzz/hostile_log"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# ---- point 14: all never writes over its input ---------------------------
# DIR/NAME.EXT is the log: a symlink to it, a hard link to it, or the log
# itself read under a name that NAME.EXT spells. Refused before anything is
# read or written: exit 2, the log byte-identical, no file made.
fresh() {
    rm -rf "$tmp/d"
    mkdir "$tmp/d"
    cp "$log" "$tmp/d/run.eventlog"
}
for ext in prof prof.json folded svg hp ticky.csv gc.txt info.txt; do
    fresh
    ln -s run.eventlog "$tmp/d/run.$ext"
    "$evprof" all -d "$tmp/d" "$tmp/d/run.eventlog" >/dev/null 2>"$tmp/err"
    check "all: run.$ext a symlink to the log: exit 2" [ $? -eq 2 ]
    check "all: run.$ext a symlink to the log: says why" \
        grep -q "run.$ext is the input file .*run.eventlog: it would be overwritten" "$tmp/err"
    check "all: run.$ext a symlink to the log: log untouched" cmp -s "$tmp/d/run.eventlog" "$log"
    check "all: run.$ext a symlink to the log: still a link" [ -L "$tmp/d/run.$ext" ]
    check "all: run.$ext a symlink to the log: nothing written" \
        [ "$(ls "$tmp/d" | wc -l)" -eq 2 ]
done
fresh
ln "$tmp/d/run.eventlog" "$tmp/d/run.folded"
"$evprof" all -d "$tmp/d" "$tmp/d/run.eventlog" >/dev/null 2>"$tmp/err"
check "all: run.folded a hard link to the log: exit 2" [ $? -eq 2 ]
check "all: run.folded a hard link to the log: log untouched" cmp -s "$tmp/d/run.eventlog" "$log"
# the log named x.prof, read with --name x (and x.gc.txt with --name x)
for f in x.prof x.gc.txt x.prof.json; do
    fresh
    mv "$tmp/d/run.eventlog" "$tmp/d/$f"
    "$evprof" all -d "$tmp/d" -n x "$tmp/d/$f" >/dev/null 2>"$tmp/err"
    check "all -n x $f: exit 2" [ $? -eq 2 ]
    check "all -n x $f: log untouched" cmp -s "$tmp/d/$f" "$log"
    check "all -n x $f: says why" grep -q "$f is the input file" "$tmp/err"
done
# standard input that is one of the outputs (stdin.prof)
fresh
mv "$tmp/d/run.eventlog" "$tmp/d/stdin.prof"
"$evprof" all -d "$tmp/d" - <"$tmp/d/stdin.prof" >/dev/null 2>"$tmp/err"
check "all - <DIR/stdin.prof: exit 2" [ $? -eq 2 ]
check "all - <DIR/stdin.prof: log untouched" cmp -s "$tmp/d/stdin.prof" "$log"
# the same log elsewhere is fine, and so is an unrelated symlink
fresh
ln -s "$tmp/elsewhere.svg" "$tmp/d/run.svg"
"$evprof" all -d "$tmp/d" "$tmp/d/run.eventlog" >/dev/null 2>"$tmp/err"
check "all: a dangling run.svg link: exit 0" [ $? -eq 0 ]
check "all: a dangling run.svg link: its target written" grep -q "<svg" "$tmp/elsewhere.svg"

# ---- point 20: a signal during the copy into a hard-linked -o target ----
# The new content (a speedscope file of 1.8 MB, 28 blocks of 64 KiB) is
# copied block by block into the file both names share; the test hook
# EVPROF_TEST_COPY_PAUSE_MS pauses after each block so that the signal
# lands mid-copy. The file must end whole (the new content, both names),
# evprof killed by the signal, no temp file left.
# (python resets the signals a background job inherits as ignored)
dfl() {
    exec "$PYTHON" -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
    signal.signal(s, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$@"
}
if [ -x "$gen" ]; then
    "$gen" "$tmp/samples.eventlog" samples 100000
    "$evprof" speedscope -o "$tmp/want.json" "$tmp/samples.eventlog"
    for sig in TERM INT; do
        for old in big small; do
            rm -f "$tmp/a.json" "$tmp/b.json"
            if [ $old = big ]; then
                head -c 4000000 /dev/zero | tr '\0' x >"$tmp/a.json"
            else
                echo old >"$tmp/a.json"
            fi
            ln "$tmp/a.json" "$tmp/b.json"
            EVPROF_TEST_COPY_PAUSE_MS=100 dfl "$evprof" speedscope -o "$tmp/a.json" \
                "$tmp/samples.eventlog" 2>/dev/null &
            pid=$!
            # the copy has begun when the shared file starts with the new bytes
            for _ in $(seq 200); do
                [ "$(head -c 1 "$tmp/b.json")" = "{" ] && break
                sleep 0.05
            done
            kill -"$sig" "$pid"
            wait "$pid" 2>/dev/null
            status=$?
            what="SIG$sig during the copy over a $old file"
            check "$what: killed by the signal (status $status)" [ "$status" -eq $((128 + $(kill -l "$sig"))) ]
            check "$what: the file whole, the new content" cmp -s "$tmp/a.json" "$tmp/want.json"
            check "$what: the other name too" cmp -s "$tmp/b.json" "$tmp/want.json"
            check "$what: still two names" [ "$(stat -c %h "$tmp/a.json")" = 2 ]
            check "$what: no temp file left" [ -z "$(ls "$tmp" | grep evprof-)" ]
        done
    done
fi

echo "hostile_output: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
