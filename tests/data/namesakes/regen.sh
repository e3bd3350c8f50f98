#!/usr/bin/env bash
# Runs again the namesakes' log of this folder (README.md): Lexer.hs of
# tests/data/newprogs built -fprof-auto-calls by the host's GHC (9.0.2 on
# Debian 12), one run with +RTS -p -l, the log and GHC's .prof kept.
# Usage: tests/data/namesakes/regen.sh [KEEP]   (KEEP: the build folder,
# default a new temporary one)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
keep=${1:-$(mktemp -d)}
mkdir -p "$keep"
cp "$here/../newprogs/src/Lexer.hs" "$keep/"
cd "$keep"
ghc -O -prof -fprof-auto-calls -rtsopts Lexer.hs -o Lexer >/dev/null
./Lexer 20000 +RTS -p -l -RTS >/dev/null
cp Lexer.eventlog "$here/Lexer-calls.nt.p.1.eventlog"
cp Lexer.prof "$here/Lexer-calls.nt.p.1.prof"
echo "regen: built and ran in $keep" >&2
