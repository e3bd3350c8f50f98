#!/usr/bin/env bash
# `evprof info` and `evprof dump` over the crafted inputs of tests/fuzz/bad/
# (written by tests/fuzz/make_bad.py): no crash or hang, exit 1 for every
# damaged log and 0 for the logs the format allows, an error on stderr that
# names the file, the byte offset and the event type, and the events before
# the damage still printed by dump.
#
# The expected offsets are computed here from make_bad.py's construction,
# not taken from evprof's output.
#
# Usage: tests/cli/bad_input.sh path/to/evprof   (run from the project root)
set -u

evprof=${1:?usage: $0 path/to/evprof}
bad=tests/fuzz/bad
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

if [ ! -d "$bad" ]; then
    echo "no $bad (run from the project root)"
    exit 1
fi

# ---- sizes from make_bad.py -------------------------------------------

# et(): "etb\0" u16 id, u16 size, u32 desc length, desc, u32 extra length, "ete\0"
et() { echo $((4 + 2 + 2 + 4 + ${#1} + 4 + 4)); }
# header(): "hdrb" "hetb" records "hete" "hdre" "datb"
header_of() {
    local n=20 d
    for d in "$@"; do n=$((n + $(et "$d"))); done
    echo $n
}

HEADER=$(header_of "Create thread" "Block marker" "RTS name and version" \
    "Program arguments" "Cost center definition" "Heap profile cost-centre sample" \
    "Heap profile string sample" "Time profile cost-centre stack" \
    "Ticky-ticky entry counter definition")
FIXED=10    # u16 id, u64 time
VARH=12     # and a u16 length
rts_id="GHC-9.0.2 rts_thr_p"
args="./nfib +RTS -p -l -RTS"   # stored NUL-separated: the same length
cc_label=main cc_module=Main cc_srcloc="Main.hs:5:1-20"
# VALID_EVENTS, in order
E_RTS=$HEADER
E_ARGS=$((E_RTS + VARH + 4 + ${#rts_id}))
E_CC=$((E_ARGS + VARH + 4 + ${#args}))
# u32 id, three NUL-terminated strings, u8 flags
E_BLOCK=$((E_CC + VARH + 4 + ${#cc_label} + 1 + ${#cc_module} + 1 + ${#cc_srcloc} + 1 + 1))
E_THREAD=$((E_BLOCK + FIXED + 14))
E_SAMPLE=$((E_THREAD + FIXED + 4))
DATA_END=$((E_SAMPLE + VARH + 4 + 8 + 1 + 4))   # where VALID_EVENTS end
VALID_LEN=$((DATA_END + 2))

if [ "$(wc -c <"$bad/valid-minimal.eventlog")" -ne "$VALID_LEN" ]; then
    bad "valid-minimal.eventlog is not $VALID_LEN bytes: make_bad.py changed, update this script"
fi

ONE_TYPE=$(header_of "Create thread")      # header([et(0, ..., b"Create thread")])
# cost_centre(1, 1, b"main", b"Main", b"Main.hs:1:1"): u32 id, three strings, u8 flags
CC_MAIN=$((VARH + 4 + 5 + 5 + 12 + 1))

# ---- expectations -----------------------------------------------------
# name  exit  offset  type  events
#   exit:   0 (the format allows it) or 1 (damaged)
#   offset: the byte the error names ("-": no error); for a log cut inside
#           an event, where that event starts; inside the header, where it ends
#   type:   the event type the error names ("-": none)
#   events: events dump prints (for a damaged log, those before the damage)
cases="
valid-minimal            0 - - 6
no-end-marker            0 - - 6
end-then-garbage         0 - - 6
block-cap-none           0 - - 2
block-size-huge          1 $((HEADER + 24 + FIXED + 4)) 65535 2
block-size-zero          0 - - 2
non-utf8-strings         0 - - 2
program-args-no-nul      0 - - 1
empty                    1 0 - 0
bad-magic                1 0 - 0
magic-only               1 4 - 0
header-cut-in-half       1 $((HEADER / 2)) - 0
header-no-data-begin     1 $((HEADER - 4)) - 0
desc-length-huge         1 8 0 0
desc-length-past-end     1 $((ONE_TYPE + 2)) - 0
extra-length-huge        1 8 0 0
type-record-not-closed   1 $((8 + $(et x) - 4)) 0 0
undeclared-type          1 $HEADER 99 0
undeclared-type-after-events 1 $DATA_END 1 6
varlen-past-end          1 $HEADER 29 0
fixed-size-absurd        1 $ONE_TYPE 0 0
fixed-size-negative      1 8 0 0
fixed-size-too-small     1 $(header_of "Create thread" "Block") 0 0
truncated-mid-event      1 $E_SAMPLE 167 5
truncated-in-timestamp   1 $HEADER 29 0
prof-stack-depth-overrun 1 $HEADER 167 0
heap-stack-depth-overrun 1 $HEADER 163 0
prof-sample-too-short    1 $HEADER 167 0
cost-centre-no-nul       1 $HEADER 161 0
cost-centre-one-nul      1 $HEADER 161 0
heap-string-no-nul       1 $HEADER 164 0
ticky-def-no-nul         1 $HEADER 210 0
rts-id-empty             1 $HEADER 29 0
duplicate-type           1 $(header_of a b) 0 0
time-past-block-end      1 $((HEADER + CC_MAIN + FIXED + 14 + VARH + 4 + 8 + 1 + 4)) 167 3
time-jump-outside-blocks 1 $((HEADER + VARH + 4 + 8 + 1)) 167 1
ipe-declared-short       0 - - 3
ipe-declared-ffff        0 - - 3
ipe-declared-long        0 - - 3
"

# Every file has a case, every case a file.
for f in "$bad"/*.eventlog; do
    name=$(basename "$f" .eventlog)
    if grep -q "^$name " <<<"$cases"; then ok; else bad "$name.eventlog: no expectation in $0"; fi
done

# run NAME CMD...: runs evprof under a timeout; status in $status
run() {
    local name=$1
    shift
    timeout 10 "$evprof" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    status=$?
    if [ $status -ge 124 ]; then
        bad "$name: evprof $1 crashed or hung (status $status)"
        head -n 3 "$tmp/err"
    elif [ $status -gt 2 ]; then
        bad "$name: evprof $1 exit status $status"
    else
        ok
    fi
}

# stderr_has NAME WHAT EXTENDED-REGEX
stderr_has() {
    if grep -Eq -e "$3" "$tmp/err"; then ok; else
        bad "$1: stderr lacks $2 ('$3'): $(head -n 1 "$tmp/err")"
    fi
}

check_messages() {
    local name=$1 cmd=$2 want=$3 off=$4 type=$5 path=$6
    local what="$name ($cmd)"
    if [ "$status" -ne "$want" ]; then
        bad "$what: exit status $status, expected $want"
        head -n 2 "$tmp/err"
        return
    fi
    ok
    if [ "$want" -eq 0 ]; then
        if [ "$name" = no-end-marker ]; then
            stderr_has "$what" "the warning" "warning: .*no end marker"
            stderr_has "$what" "the file name" "$path"
        elif [ "${name#ipe-declared-}" != "$name" ]; then
            # a length more than GHC's one byte off: a note, not damage
            stderr_has "$what" "the note" "^evprof: note: $path: 1 IPE event \(169\) declares a payload length more than one byte off"
        elif [ -s "$tmp/err" ]; then
            bad "$what: unexpected stderr: $(head -n 1 "$tmp/err")"
        else
            ok
        fi
        return
    fi
    # one line, or one per fact when damage was skipped before the stop
    # (cli/damage.c), each naming the file
    if [ "$(wc -l <"$tmp/err")" -ne 1 ] && ! grep -q "skipped .* bytes in" "$tmp/err"; then
        bad "$what: expected one line on stderr, got $(wc -l <"$tmp/err")"
    elif grep -vq "^evprof: $path: " "$tmp/err"; then
        bad "$what: a stderr line does not name the file: $(grep -v "^evprof: $path: " "$tmp/err" | head -n 1)"
    else
        ok
    fi
    stderr_has "$what" "the file name" "^evprof: $path: "
    stderr_has "$what" "the offset" "byte $off([^0-9]|$)"
    if [ "$type" = - ]; then
        if grep -q "event type" "$tmp/err"; then
            bad "$what: names an event type: $(head -n 1 "$tmp/err")"
        else
            ok
        fi
    else
        stderr_has "$what" "the event type" "\(event type $type [A-Za-z_0-9]+\)"
    fi
}

count_dump_events() {
    sed -n '/^Events:$/,$p' "$tmp/out" | grep -c '^[0-9][0-9]*: '
}

while read -r name want off type events; do
    [ -n "$name" ] || continue
    path=$bad/$name.eventlog
    [ -f "$path" ] || { bad "$path missing"; continue; }

    run "$name" info "$path"
    check_messages "$name" info "$want" "$off" "$type" "$path"
    info_status=$status

    # the same from standard input: same status, same message but the name
    timeout 10 "$evprof" info - <"$path" >/dev/null 2>"$tmp/err-stdin"
    s=$?
    if [ $s -eq "$info_status" ]; then ok; else
        bad "$name (info -): exit status $s, from the file $info_status"
    fi

    run "$name" dump "$path"
    check_messages "$name" dump "$want" "$off" "$type" "$path"
    got=$(count_dump_events)
    if [ "$got" -eq "$events" ]; then ok; else
        bad "$name (dump): $got events printed, expected $events"
    fi
done <<<"$cases"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
