#!/usr/bin/env bash
# `evprof top -- PROG`'s dealings with the program's RTS, without GHC: a
# stand-in program answers `+RTS --info` with the GHC version it is given
# and otherwise writes a bundled log into the FIFO named by -ol and exits
# with status 3. Checks:
#   - the RTS options evprof adds: +RTS -l -olFIFO -RTS, and
#     --eventlog-flush-interval=HALF_THE_INTERVAL only where the RTS takes
#     it (GHC 9.2 and later; not 9.0, 8.10, or an RTS that says nothing);
#   - the program's own arguments come first, untouched;
#   - evprof exits with the program's status, and the last NDJSON frame's
#     ticks equal the batch report's.
# The real GHC 9.0 run is tests/cli/live_top_ghc.sh.
#
# Usage: tests/cli/live_top_rts.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
case $evprof in /*) ;; *) evprof=$PWD/$evprof ;; esac
log=$PWD/tests/data/ghc-9.0.2/nfib-p.eventlog
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

cat >"$tmp/prog" <<'EOF'
#!/usr/bin/env bash
for a in "$@"; do
    if [ "$a" = --info ]; then
        echo ' [("GHC RTS", "YES")'
        [ -n "$FAKE_GHC_VERSION" ] && echo " ,(\"GHC version\", \"$FAKE_GHC_VERSION\")"
        echo ' ,("RTS way", "rts_p")'
        echo ' ]'
        exit 0
    fi
done
printf '%s\n' "$@" >"$FAKE_ARGS"
ol=
for a in "$@"; do case $a in -ol*) ol=${a#-ol} ;; esac; done
[ -n "$ol" ] && cat "$FAKE_LOG" >"$ol"
exit 3
EOF
chmod +x "$tmp/prog"

want_ticks=$("$evprof" report "$log" | sed -n 's/.*(\([0-9]*\) ticks @.*/\1/p')
check "the batch report gives a tick count" [ -n "$want_ticks" ]

for case in "9.6.2|yes" "9.2.1|yes" "10.0.1|yes" "9.0.2|no" "8.10.7|no" "|no"; do
    IFS='|' read -r version flush <<<"$case"
    args=$tmp/args-$version
    rm -f "$args"
    FAKE_GHC_VERSION=$version FAKE_ARGS=$args FAKE_LOG=$log \
        timeout 60 "$evprof" top --ndjson --interval 1 -- "$tmp/prog" 7 "+RTS -x" \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "GHC '$version': evprof exits with the program's status 3 (got $rc)" [ "$rc" -eq 3 ]
    check "GHC '$version': the program ran" [ -f "$args" ]
    [ -f "$args" ] || continue
    check "GHC '$version': its own arguments first" \
        [ "$(sed -n 1,2p "$args" | tr '\n' '|')" = "7|+RTS -x|" ]
    check "GHC '$version': +RTS -l -olFIFO ... -RTS after them" \
        bash -c '[ "$(sed -n 3p "$1")" = +RTS ] && [ "$(sed -n 4p "$1")" = -l ] &&
                 sed -n 5p "$1" | grep -q "^-ol/" && [ "$(tail -n 1 "$1")" = -RTS ]' _ "$args"
    if [ "$flush" = yes ]; then
        check "GHC '$version': --eventlog-flush-interval=0.5 (half the interval)" \
            grep -qx -- "--eventlog-flush-interval=0.5" "$args"
    else
        check "GHC '$version': no --eventlog-flush-interval (the RTS would refuse it)" \
            bash -c '! grep -q -- --eventlog-flush-interval "$1"' _ "$args"
    fi
    last=$(tail -n 1 "$tmp/out")
    check "GHC '$version': last frame's ticks = the report's $want_ticks" \
        "$PYTHON" -c "import json,sys; f=json.loads(sys.argv[1]); sys.exit(0 if f['ticks']==int(sys.argv[2]) and f['finished'] else 1)" \
        "$last" "$want_ticks"
done

# a longer interval halves too
rm -f "$tmp/args-long"
FAKE_GHC_VERSION=9.4.8 FAKE_ARGS=$tmp/args-long FAKE_LOG=$log \
    timeout 60 "$evprof" top --ndjson --interval 3 -- "$tmp/prog" >/dev/null 2>&1
check "--interval 3: --eventlog-flush-interval=1.5" grep -qx -- "--eventlog-flush-interval=1.5" "$tmp/args-long"

echo "live_top_rts: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
