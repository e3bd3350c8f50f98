#!/usr/bin/env bash
# What the reliability campaign found wrong with outputs (issue 27):
# `all` must refuse an output that is its input log under any name, as -o
# does (point 14).
#
# Usage: tests/cli/hostile_output.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
log=tests/data/ghc/deep-p.eventlog
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

echo "hostile_output: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
