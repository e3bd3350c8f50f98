# The counters and checks every tests/cli script uses; sourced, not run
# (its name is not *.sh, so tests/CMakeLists.txt does not take it for a
# test). check WHAT CMD...: runs CMD, counts a pass, or prints
# "FAIL: WHAT" and counts a failure. Each script prints its own summary
# from $passed and $failed.
passed=0 failed=0
# The interpreter CTest resolved once (tests/CMakeLists.txt sets $PYTHON to
# the real binary, not a launcher such as pyenv's shim); python3 by hand.
PYTHON=${PYTHON:-python3}
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }

# Checks that need Python, many for one interpreter start (its start costs
# more than most checks): defer WHAT FUNCTION ARGS... queues a check;
# verdicts SCRIPT runs SCRIPT once (tests/support/verdicts.py's serve()
# calls FUNCTION ARGS for each queued check) and counts each check as
# check would, in order. ARGS are words without tabs or newlines; a file
# named in them must still be there at `verdicts`.
deferred_what=() deferred_line=()
checks_support=$(cd "$(dirname "${BASH_SOURCE[0]}")/../support" && pwd)
defer() {
    local what=$1 IFS=$'\t'
    shift
    deferred_what+=("$what")
    deferred_line+=("$*")
}
verdicts() {
    local i=0 n=${#deferred_what[@]} line
    while [ "$i" -lt "$n" ] && IFS= read -r line; do
        if [ "$line" = ok ]; then ok; else bad "${deferred_what[$i]}: $line"; fi
        i=$((i + 1))
    done < <(printf '%s\n' "${deferred_line[@]}" |
             PYTHONPATH="$checks_support${PYTHONPATH:+:$PYTHONPATH}" "$PYTHON" "$@")
    # a script that broke answers no more: its checks fail
    while [ "$i" -lt "$n" ]; do bad "${deferred_what[$i]}: no verdict"; i=$((i + 1)); done
    deferred_what=() deferred_line=()
}

# Independent groups of checks at once (cases that mostly wait: a live
# read, a timeout): each in a background subshell that starts from zero
# and ends writing its counts, ( passed=0 failed=0; ...; counts_to FILE ) &;
# after `wait`, counts_from FILE... adds them (each FAIL line was printed
# by the subshell). A subshell that did not get to counts_to is a failure.
counts_to() { echo "$passed $failed" >"$1"; }
counts_from() {
    local f p q
    for f; do
        if read -r p q 2>/dev/null <"$f" && [ -n "$q" ]; then
            passed=$((passed + p)) failed=$((failed + q))
        else
            bad "$f: the checks there did not finish"
        fi
    done
}
