#!/usr/bin/env bash
# scripts/clients-verdict.sh CONSOLE LASTTEST [FLAMEGRAPH_REASON]: the
# verdict of `make clients` (scripts/clients.sh) on its ctest run.
#
#   CONSOLE    what ctest printed (a test skipped whole: "***Skipped")
#   LASTTEST   ctest's Testing/Temporary/LastTest.log: every test's output,
#              where a check that could not run prints "SKIPPED: ..."
#   FLAMEGRAPH_REASON
#              empty when FlameGraph is there; else why it is not
#              (it is no package of any registry, only a github clone)
#
# The clients that come from a package registry (Debian's, npm) were
# installed: any test or check of theirs that says SKIPPED fails the
# target. FlameGraph's checks (difffolded.pl, flamegraph.pl) without
# FlameGraph are reported as "not checked (REASON)" and do not. Prints one
# line per check not run; exits 0 when every check that must run ran.
set -u
console=${1:?usage: $0 CONSOLE LASTTEST [FLAMEGRAPH_REASON]}
lasttest=${2:?usage: $0 CONSOLE LASTTEST [FLAMEGRAPH_REASON]}
fg_reason=${3:-}

missing=0
not_checked=0
# tests skipped whole (exit 77)
while IFS= read -r t; do
    echo "clients: SKIPPED: test $t (its client is missing)" >&2
    missing=$((missing + 1))
done < <(sed -n 's/.*Test *#[0-9]*: *\([A-Za-z0-9_]*\) .*\*\*\*Skipped.*/\1/p' "$console")

# checks skipped inside a test: "SKIPPED: ..." lines, by test
while IFS=$'\t' read -r t line; do
    [ -n "$line" ] || continue
    if [ -n "$fg_reason" ] && printf '%s' "$line" | grep -qiE 'flamegraph|difffolded'; then
        echo "clients: not checked ($fg_reason): $t: ${line#SKIPPED: }" >&2
        not_checked=$((not_checked + 1))
    else
        echo "clients: $t: $line" >&2
        missing=$((missing + 1))
    fi
done < <(awk '/^[0-9]+\/[0-9]+ Testing: / { t = $3 } /^SKIPPED/ { print t "\t" $0 }' "$lasttest")

if [ "$missing" != 0 ]; then
    echo "clients: $missing test(s) or check(s) above did not run: a client that a registry serves is still missing" >&2
    exit 1
fi
if [ "$not_checked" != 0 ]; then
    echo "clients: every client test ran and passed, but for $not_checked FlameGraph check(s) not checked ($fg_reason)"
else
    echo "clients: every client test ran and passed"
fi
exit 0
