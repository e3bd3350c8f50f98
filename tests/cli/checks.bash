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
