#!/usr/bin/env bash
# evprof all: one read, and each file byte for byte what its own command
# writes, on bundled logs of every kind (time profile, heap, GC, ticky);
# outputs a log has no data for are not written; a damaged log gets exit 1.
set -u
evprof=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
same() {   # same WHAT FILE COMMAND...
    local what=$1 file=$2; shift 2
    "$@" > "$tmp/want" 2>/dev/null
    if cmp -s "$tmp/want" "$file"; then ok; else bad "$what: $file differs from '$*'"; fi
}

d=tests/data
for log in $d/ghc-9.0.2/nfib-p.eventlog $d/ghc-9.0.2/nfib-N2.eventlog $d/ghc/odd-p.eventlog \
           $d/ghc-9.0.2/nfib-hc.eventlog $d/ghc-9.0.2/nfib-s.eventlog \
           $d/ghc-events/ticky-ticky.eventlog $d/ghc-events/sleep.hy.eventlog; do
    name=$(basename "$log" .eventlog)
    out=$tmp/$name
    "$evprof" all -d "$out" "$log" 2> "$tmp/err"
    rc=$?
    [ "$rc" -eq 0 ] && ok || bad "all $log: exit $rc: $(cat "$tmp/err")"
    if "$evprof" report "$log" > /dev/null 2>&1; then
        same "$name" "$out/$name.prof" "$evprof" report "$log"
        same "$name" "$out/$name.prof.json" "$evprof" report --json "$log"
        same "$name" "$out/$name.folded" "$evprof" folded "$log"
        "$evprof" graph "$log" -o "$tmp/want.svg" 2>/dev/null
        cmp -s "$tmp/want.svg" "$out/$name.svg" && ok || bad "$name: svg differs from graph -o"
    else
        [ ! -e "$out/$name.prof" ] && ok || bad "$name: a .prof without samples"
    fi
    if "$evprof" heap "$log" -o "$tmp/want.hp" 2>/dev/null; then
        cmp -s "$tmp/want.hp" "$out/$name.hp" && ok || bad "$name: .hp differs from heap -o"
    else
        [ ! -e "$out/$name.hp" ] && ok || bad "$name: a .hp without a heap profile"
    fi
    if "$evprof" ticky --format csv "$log" > /dev/null 2>&1; then
        same "$name" "$out/$name.ticky.csv" "$evprof" ticky --format csv "$log"
    else
        [ ! -e "$out/$name.ticky.csv" ] && ok || bad "$name: a ticky table without counters"
    fi
    if "$evprof" gc "$log" > /dev/null 2>&1; then
        same "$name" "$out/$name.gc.txt" "$evprof" gc "$log"
    else
        [ ! -e "$out/$name.gc.txt" ] && ok || bad "$name: a gc summary without GC events"
    fi
    same "$name" "$out/$name.info.txt" "$evprof" info "$log"
done

# --name, and a damaged log: the outputs before the damage, exit 1
"$evprof" all -d "$tmp/n" --name run1 $d/ghc-9.0.2/nfib-p.eventlog 2>/dev/null
[ -s "$tmp/n/run1.prof" ] && ok || bad "--name: run1.prof missing"
"$evprof" all -d "$tmp/cut" $d/ghc-events/testlog-part.eventlog 2> "$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && ok || bad "truncated log: exit $rc, want 1"
[ -s "$tmp/cut/testlog-part.info.txt" ] && ok || bad "truncated log: no info written"
grep -q "truncated" "$tmp/err" && ok || bad "truncated log: not said"
# not a log: nothing written, exit 1
printf 'hello' > "$tmp/junk"
"$evprof" all -d "$tmp/junk.out" "$tmp/junk" 2>/dev/null
rc=$?
[ "$rc" -eq 1 ] && ok || bad "junk: exit $rc, want 1"
[ -z "$(ls -A "$tmp/junk.out" 2>/dev/null)" ] && ok || bad "junk: files written: $(ls "$tmp/junk.out")"

echo "all: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
