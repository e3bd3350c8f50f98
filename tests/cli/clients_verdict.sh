#!/usr/bin/env bash
# `make clients` on a machine that reaches only the package registries
# (issue 27, point 13): scripts/clients-verdict.sh, its verdict on the
# ctest run, requires every check of the clients a registry serves
# (Debian's packages, npm's speedscope) and reports FlameGraph's checks
# as "not checked (REASON)" when FlameGraph (in no registry, a github
# clone) is missing, without failing. The logs here have the shapes
# ctest writes (its console, Testing/Temporary/LastTest.log).
#
# Usage: tests/cli/clients_verdict.sh path/to/evprof   (run from the project root)
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
verdict=scripts/clients-verdict.sh
check "scripts/clients.sh hands its verdict to $verdict" grep -q "clients-verdict.sh" scripts/clients.sh

block() {   # N NAME OUTPUT-LINES...: one test's part of LastTest.log
    local n=$1 name=$2
    shift 2
    printf '%s/10 Testing: %s\n%s/10 Test: %s\nCommand: "/usr/bin/bash" "x.sh"\nOutput:\n----------------------------------------------------------\n' \
        "$n" "$name" "$n" "$name"
    for l in "$@"; do printf '%s\n' "$l"; done
    printf '<end of output>\nTest time =   1.00 sec\n----------------------------------------------------------\nTest Passed.\n"%s" end time: Nov 27 07:00 UTC\n"%s" time elapsed: 00:00:01\n----------------------------------------------------------\n\n' "$name" "$name"
}
console_ok() {
    printf '      Start 32: cli_diff\n 1/2 Test #32: cli_diff .........................   Passed    9.10 sec\n'
    printf '      Start 68: cli_speedscope_browser\n 2/2 Test #68: cli_speedscope_browser ...........   Passed    5.00 sec\n'
    printf '\n100%% tests passed, 0 tests failed out of 2\n'
}
fg_skip="SKIPPED: difffolded.pl and flamegraph.pl checks (FlameGraph not found: set FLAMEGRAPH_DIR)"

# FlameGraph missing, everything else ran: passes, and says what was not checked
console_ok >"$tmp/console"
{ block 1 cli_diff "diff: 160 passed, 0 failed" "$fg_skip"; block 2 cli_speedscope_browser "ok"; } >"$tmp/last"
bash "$verdict" "$tmp/console" "$tmp/last" "github.com could not be reached" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "FlameGraph missing, the rest ran: passes (exit $rc)" [ $rc -eq 0 ]
check "... says FlameGraph's checks were not checked, and why" \
    grep -q "not checked (github.com could not be reached): cli_diff: difffolded.pl and flamegraph.pl checks" "$tmp/err"
check "... and that the rest ran" grep -q "every client test ran and passed, but for 1 FlameGraph check" "$tmp/out"

# FlameGraph there, its checks said SKIPPED anyway: that is a failure
bash "$verdict" "$tmp/console" "$tmp/last" "" >"$tmp/out" 2>"$tmp/err"
check "FlameGraph there but not used: exit 1" [ $? -eq 1 ]

# a registry's client missing inside a test (speedscope's app): fails
{ block 1 cli_diff "$fg_skip"; block 2 cli_speedscope_browser "SKIPPED: no speedscope app at /x (npm install speedscope, or set SPEEDSCOPE_DIST)"; } >"$tmp/last2"
bash "$verdict" "$tmp/console" "$tmp/last2" "github.com could not be reached" >"$tmp/out" 2>"$tmp/err"
check "speedscope's app missing: exit 1" [ $? -eq 1 ]
check "... named" grep -q "cli_speedscope_browser: SKIPPED: no speedscope app" "$tmp/err"

# a whole test skipped (exit 77): fails
sed 's/cli_speedscope_browser \.* *Passed/cli_speedscope_browser ...........***Skipped/' "$tmp/console" >"$tmp/console3"
bash "$verdict" "$tmp/console3" "$tmp/last" "github.com could not be reached" >"$tmp/out" 2>"$tmp/err"
check "a test skipped whole: exit 1" [ $? -eq 1 ]
check "... named" grep -q "SKIPPED: test cli_speedscope_browser" "$tmp/err"

# everything there: passes, nothing said not checked
{ block 1 cli_diff "diff: 165 passed, 0 failed"; block 2 cli_speedscope_browser "ok"; } >"$tmp/last4"
bash "$verdict" "$tmp/console" "$tmp/last4" "" >"$tmp/out" 2>"$tmp/err"
check "every client there: exit 0" [ $? -eq 0 ]
check "... every client test ran" grep -qx "clients: every client test ran and passed" "$tmp/out"

# the README says what the target does without FlameGraph
check "README: FlameGraph's checks not checked without it" grep -q "not checked" README.md

echo "clients_verdict: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
