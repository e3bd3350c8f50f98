#!/usr/bin/env bash
# evprof(1) against the option tables (issue 28): every long option a
# command's --help lists (printed from the command's table, cli_parse) is
# named in that command's entry of COMMANDS or in COMMON OPTIONS, and
# every option the man page lists under a command (a line of its entry
# that begins with the option) is one its --help has.
#
# Usage: tests/cli/man_options.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
man=docs/evprof.1

# the man page's long options: per command entry, and the common section
man_opts() {   # $1: command name, or "" for COMMON OPTIONS; $2: "listed" for
               # only the options a line of the entry begins with (its list)
    awk -v cmd="$1" -v listed="${2:-}" '
        /^\.SH / { sect = $2; entry = ""; next }
        sect == "COMMANDS" && prev == ".TP" && /^\.B [a-z]+$/ { entry = $2 }
        { prev = $0 }
        (cmd == "" && sect == "COMMON") || (cmd != "" && sect == "COMMANDS" && entry == cmd) {
            line = $0
            if (listed != "" && line !~ /^\.(B|BR|BI|IB) +\\-/)
                next
            while (match(line, /\\-\\-[a-z][a-z0-9-]*(\\-[a-z0-9]+)*/)) {
                o = substr(line, RSTART, RLENGTH); gsub(/\\/, "", o); print o
                line = substr(line, RSTART + RLENGTH)
            }
        }' "$man" | sort -u
}
common=$(man_opts "")
# every command `evprof --help` lists (main.c's table)
commands=$("$evprof" --help | awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }')
[ -n "$commands" ] || bad "no command in evprof --help"
for c in $commands; do
    help=$("$evprof" "$c" --help | grep -oE '^  (-[a-zA-Z], |    )--[a-z][a-z0-9-]*' |
           grep -oE -- '--[a-z][a-z0-9-]*' | grep -vx -- '--help' | sort -u)
    own=$(man_opts "$c")
    check "evprof(1) has an entry for $c" grep -qx "\.B $c" "$man"
    for o in $help; do
        check "evprof(1) names $c's $o (its --help has it)" \
            grep -qx -- "$o" <<<"$own"$'\n'"$common"
    done
    for o in $(man_opts "$c" listed); do
        check "evprof(1) gives $c $o, which its --help has" grep -qx -- "$o" <<<"$help"
    done
done
echo "man_options: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
