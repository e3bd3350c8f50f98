#!/usr/bin/env bash
# Exit codes and messages of the evprof front end, and `evprof info` over the
# shared corpus. Run from the project root:  bash tests/cli/cli_usage.sh build/evprof
set -u
EVPROF=${1:?usage: cli_usage.sh path/to/evprof}
CORPUS=tests/data
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# expect CODE DESCRIPTION -- COMMAND...: runs it, stdout/stderr in $TMP/out, $TMP/err
expect() {
    local want=$1 what=$2
    shift 3
    "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    local got=$?
    if [ "$got" -eq "$want" ]; then ok; else
        bad "$what: exit $got, expected $want"
        sed 's/^/    stderr: /' "$TMP/err" | head -5
    fi
}

# grep_in FILE PATTERN DESCRIPTION
grep_in() {
    if grep -q -e "$2" "$1"; then ok; else bad "$3: no '$2' in $(basename "$1")"; fi
}

expect 0 "evprof --help" -- "$EVPROF" --help
grep_in "$TMP/out" "info" "--help lists info"
grep_in "$TMP/out" "dump" "--help lists dump"
expect 0 "evprof -h" -- "$EVPROF" -h
expect 0 "evprof --version" -- "$EVPROF" --version
grep_in "$TMP/out" "^evprof [0-9]" "--version prints the version"
expect 0 "evprof info --help" -- "$EVPROF" info --help
grep_in "$TMP/out" "--format" "info --help lists its options"
expect 0 "evprof help info" -- "$EVPROF" help info
grep_in "$TMP/out" "Usage: evprof info" "help info prints info's usage"
expect 0 "evprof dump --help" -- "$EVPROF" dump --help
expect 0 "evprof help" -- "$EVPROF" help
# every help text fits 79 columns, as the option lists do (cli.c wraps
# them): the command list and each command's free text too (every command
# `evprof --help` lists)
commands=$("$EVPROF" --help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }')
for c in "" $commands; do
    # shellcheck disable=SC2086
    "$EVPROF" $c --help >"$TMP/out" 2>&1
    wide=$(awk 'length($0) > 79 { print FNR ": " $0; exit }' "$TMP/out")
    if [ -z "$wide" ]; then ok; else bad "evprof ${c:+$c }--help: a line over 79 columns: $wide"; fi
done
expect 2 "evprof help nosuchcommand" -- "$EVPROF" help nosuchcommand
expect 2 "no arguments" -- "$EVPROF"
expect 2 "unknown subcommand" -- "$EVPROF" nosuchcommand
expect 2 "unknown option" -- "$EVPROF" --nosuchoption
grep_in "$TMP/err" "nosuchoption" "unknown option is named"
expect 2 "unknown info option" -- "$EVPROF" info --nosuchoption "$CORPUS/ghc-9.0.2/nfib-p.eventlog"
expect 2 "unknown short option" -- "$EVPROF" info -Z "$CORPUS/ghc-9.0.2/nfib-p.eventlog"
expect 2 "bad --format value" -- "$EVPROF" info --format xml "$CORPUS/ghc-9.0.2/nfib-p.eventlog"
expect 2 "--format without value" -- "$EVPROF" info --format
expect 2 "info: missing file argument" -- "$EVPROF" info
grep_in "$TMP/err" "missing FILE" "missing file is explained"
expect 2 "dump: missing file argument" -- "$EVPROF" dump
expect 2 "info: two files" -- "$EVPROF" info a.eventlog b.eventlog
expect 1 "nonexistent file" -- "$EVPROF" info "$TMP/no-such.eventlog"
grep_in "$TMP/err" "no-such.eventlog" "nonexistent file is named"
if [ -s "$TMP/out" ]; then bad "nonexistent file: stdout not empty"; else ok; fi
expect 1 "not an eventlog" -- "$EVPROF" info tests/fuzz/bad/bad-magic.eventlog
grep_in "$TMP/err" "bad-magic.eventlog: .* at byte 0" "bad magic: file and byte named"

expect 0 "no end marker" -- "$EVPROF" info tests/fuzz/bad/no-end-marker.eventlog
grep_in "$TMP/err" "warning: .*no end marker" "no end marker: a warning"
grep_in "$TMP/out" "^status: *no end marker" "no end marker: status line"

# `evprof FILE` is `evprof report FILE` once report exists, else a usage error
if "$EVPROF" --help | grep -q '^  report '; then
    expect 0 "evprof FILE (report)" -- "$EVPROF" "$CORPUS/ghc-9.0.2/nfib-p.eventlog"
else
    expect 2 "evprof FILE without a report command" -- "$EVPROF" "$CORPUS/ghc-9.0.2/nfib-p.eventlog"
fi

# info over every corpus log: exit 0, and the same from a pipe
# (stop.hT only from ../shared/corpus beside the project, when there)
optional=../shared/corpus/ghc-events/stop.hT.eventlog
[ -f "$optional" ] || { echo "SKIPPED: $optional (optional)"; optional=; }
for f in "$CORPUS"/ghc-events/*.eventlog "$CORPUS"/ghc-9.0.2/*.eventlog $optional; do
    [ -f "$f" ] || { bad "corpus missing: $f"; continue; }
    name=$(basename "$f")
    if [ "$name" = testlog-part.eventlog ]; then
        expect 1 "info $name (truncated)" -- "$EVPROF" info "$f"
        grep_in "$TMP/err" "truncated" "info $name: says truncated"
        grep_in "$TMP/out" "RUN_THREAD" "info $name: still prints the counts"
        grep_in "$TMP/out" "TRUNCATED at byte" "info $name: status line"
    else
        expect 0 "info $name" -- "$EVPROF" info "$f"
        if [ -s "$TMP/err" ]; then bad "info $name: unexpected stderr: $(head -1 "$TMP/err")"; else ok; fi
    fi
    grep -v -e '^file:' -e 'evprof dump' "$TMP/out" >"$TMP/from-file"
    cat "$f" | "$EVPROF" info - 2>/dev/null | grep -v -e '^file:' -e 'evprof dump' >"$TMP/from-pipe"
    if cmp -s "$TMP/from-file" "$TMP/from-pipe"; then ok; else
        bad "info $name: stdin output differs"
        diff "$TMP/from-file" "$TMP/from-pipe" | head -5
    fi
    if command -v "$PYTHON" >/dev/null; then
        "$EVPROF" info --format json "$f" 2>/dev/null >"$TMP/$name.json"
        defer "info --format json $name: not valid JSON" json_ok "$TMP/$name.json"
    fi
done
# the JSON checks, for one Python start
cat >"$TMP/usage.py" <<'PY'
import json
from verdicts import serve
def json_ok(path):
    json.load(open(path))
serve(globals())
PY
verdicts "$TMP/usage.py"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
