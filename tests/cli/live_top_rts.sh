#!/usr/bin/env bash
# `evprof top -- PROG`'s dealings with the program's RTS, without GHC: a
# stand-in program (an ELF with GHC's RTS text in it) answers `+RTS --info`
# with the GHC version it is given
# and otherwise writes a bundled log into the FIFO named by -ol and exits
# with status 3. Checks:
#   - the RTS options evprof adds: +RTS -l -olFIFO -RTS, and
#     --eventlog-flush-interval=HALF_THE_INTERVAL only where the RTS takes
#     it (GHC 9.2 and later; not 9.0, 8.10, or an RTS that says nothing);
#   - they come first, the program's own arguments after them, untouched
#     (an RTS stops taking options at a "--" among them);
#   - a script in front of the program gets them through GHCRTS, the
#     flush interval by --ghc;
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
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# the stand-in, an ELF with the RTS's --info text in it (as every GHC
# program has: what evprof tells a Haskell program by), built with cc
cat >"$tmp/prog.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static const char rts[] = " [(\"GHC RTS\", \"YES\")";
int main(int argc, char **argv)
{
    const char *v = getenv("FAKE_GHC_VERSION"), *ol = NULL;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--info") == 0) {
            printf("%s\n", rts);
            if (v && *v)
                printf(" ,(\"GHC version\", \"%s\")\n", v);
            printf(" ,(\"RTS way\", \"rts_p\")\n ]\n");
            return 0;
        }
    FILE *a = fopen(getenv("FAKE_ARGS"), "w");
    for (int i = 1; i < argc; i++) {
        fprintf(a, "%s\n", argv[i]);
        if (strncmp(argv[i], "-ol", 3) == 0)
            ol = argv[i] + 3;
    }
    const char *env = getenv("GHCRTS");
    fprintf(a, "GHCRTS=%s\n", env ? env : "");
    fclose(a);
    static char path[4096];
    if (!ol && env && (ol = strstr(env, "-ol"))) {
        snprintf(path, sizeof path, "%s", ol + 3);
        path[strcspn(path, " ")] = '\0';
        ol = path;
    }
    if (ol) {
        FILE *in = fopen(getenv("FAKE_LOG"), "rb"), *out = fopen(ol, "wb");
        char buf[65536];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, n, out);
        fclose(out);
        fclose(in);
    }
    return 3;
}
EOF
cc -O -o "$tmp/prog" "$tmp/prog.c" || { echo "SKIPPED: no C compiler"; exit 77; }
# a script in front of it (exec "$@" style): reached through GHCRTS
printf '#!/bin/sh\nexec "%s" "$@"\n' "$tmp/prog" >"$tmp/run.sh"
chmod +x "$tmp/run.sh"

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
    check "GHC '$version': +RTS -l -olFIFO ... -RTS first (an RTS stops at a '--' in ARGS)" \
        bash -c '[ "$(sed -n 1p "$1")" = +RTS ] && [ "$(sed -n 2p "$1")" = -l ] &&
                 sed -n 3p "$1" | grep -q "^-ol/" && grep -qx -- -RTS "$1"' _ "$args"
    check "GHC '$version': then its own arguments, untouched" \
        [ "$(sed -n '/^-RTS$/,$p' "$args" | sed -n 2,3p | tr '\n' '|')" = "7|+RTS -x|" ]
    check "GHC '$version': no GHCRTS for a Haskell program" grep -qx "GHCRTS=" "$args"
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

# a script in front: told apart from a Haskell program, reached through
# GHCRTS; the flush interval from --ghc (no ghc on PATH here)
for case in "9.6.6|yes" "9.0.2|no"; do
    IFS='|' read -r version flush <<<"$case"
    args=$tmp/args-sh-$version
    rm -f "$args"
    PATH=/usr/bin/nonexistent:/bin FAKE_ARGS=$args FAKE_LOG=$log GHCRTS="-A4m" \
        timeout 60 "$evprof" top --ndjson --interval 1 --ghc "$version" -- "$tmp/run.sh" 7 \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "script, --ghc $version: exit with the program's status 3 (got $rc)" [ "$rc" -eq 3 ]
    check "script, --ghc $version: its arguments untouched" [ "$(sed -n 1p "$args")" = 7 ]
    if [ "$flush" = yes ]; then
        check "script, --ghc $version: GHCRTS keeps the user's and adds -l -ol, the flush" \
            grep -qx -- "GHCRTS=-A4m -l -ol/.*/eventlog --eventlog-flush-interval=0.5" "$args"
    else
        check "script, --ghc $version: GHCRTS without the flush (9.0 refuses it)" \
            grep -qx -- "GHCRTS=-A4m -l -ol/.*/eventlog" "$args"
    fi
    check "script, --ghc $version: top says what it passed and why" \
        grep -q "ran .*/run.sh with GHCRTS='-A4m -l -ol.*' (a script: every Haskell program it starts reads GHCRTS" "$tmp/err"
    last=$(tail -n 1 "$tmp/out")
    check "script, --ghc $version: last frame's ticks = the report's $want_ticks" \
        "$PYTHON" -c "import json,sys; f=json.loads(sys.argv[1]); sys.exit(0 if f['ticks']==int(sys.argv[2]) and f['finished'] else 1)" \
        "$last" "$want_ticks"
done

echo "live_top_rts: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
