#!/usr/bin/env bash
# The full-screen view of `evprof top` in a real terminal (tmux): the
# screen shows the figures, s changes the sort, p pauses, q quits with 0,
# and the view waits for q after the log's end. SKIPPED (77) without tmux.
#
# Usage: tests/cli/live_top_tmux.sh path/to/evprof   (run from the project root)
set -u
evprof=$(realpath "${1:?usage: $0 path/to/evprof}")
if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIPPED: tmux is not installed"
    exit 77
fi
tmp=$(mktemp -d)
# a tmux server of this test's own (its own socket, no user config): the
# user's sessions are never touched, and killing a session never races
# with a default server shutting down
sock="evprof-test-$$"
t() { tmux -L "$sock" -f /dev/null "$@"; }
session=live1
trap 't kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
screen() { t capture-pane -p -t "$session" >"$tmp/screen"; }
# waits up to 10 s for a pattern on the screen
wait_for() {
    for _ in $(seq 100); do
        screen
        grep -q -- "$1" "$tmp/screen" && return 0
        sleep 0.1
    done
    cat "$tmp/screen"
    return 1
}

log=tests/data/ghc-9.0.2/nfib-N2.eventlog
t new-session -d -s "$session" -x 100 -y 30 \
    "'$evprof' top --interval 0.2 '$(realpath $log)'; echo EXIT=\$? >'$tmp/rc'; sleep 60"
check "the view shows the log's end" wait_for '\[ended\]'
check "cost centres on screen" grep -q 'build\.\\ *Main' "$tmp/screen"
check "memory line" grep -q '^memory: heap' "$tmp/screen"
check "sort: interval by default" grep -q 'sort: interval' "$tmp/screen"
t send-keys -t "$session" s
check "s: sort by total" wait_for 'sort: total'
t send-keys -t "$session" s
check "s again: sort by inherited" wait_for 'sort: inherited'
check "waits for q after the end" [ ! -e "$tmp/rc" ]
t send-keys -t "$session" q
for _ in $(seq 50); do [ -e "$tmp/rc" ] && break; sleep 0.1; done
check "q: exit 0" grep -qx 'EXIT=0' "$tmp/rc"
screen
check "the final figures stay in the terminal" grep -q 'build\.\\ *Main' "$tmp/screen"

# p pauses a live view: the elapsed time stops
mkfifo "$tmp/fifo"
t new-session -d -s live2 -x 100 -y 30 \
    "'$evprof' top --interval 0.2 '$tmp/fifo'; echo EXIT=\$? >'$tmp/rc2'; sleep 60"
t kill-session -t live1
session=live2
# about 10 s of feeding: small chunks, long pauses
"$PYTHON" tests/support/feed_log.py fifo "$log" "$tmp/fifo" --max-chunk 8192 --max-pause 0.8 &
feeder=$!
check "a live view" wait_for 'elapsed'
t send-keys -t "$session" p
check "p: paused" wait_for '\[paused\]'
t send-keys -t "$session" q
for _ in $(seq 50); do [ -e "$tmp/rc2" ] && break; sleep 0.1; done
check "q while live: exit 0" grep -qx 'EXIT=0' "$tmp/rc2"
kill $feeder 2>/dev/null
wait $feeder 2>/dev/null

echo "live_top_tmux: $passed passed, $failed failed"
[ $failed -eq 0 ]
