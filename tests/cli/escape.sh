#!/usr/bin/env bash
# Bytes from the log never reach a terminal or a file raw (issue 11,
# point 3). tests/data/escape/hostile.eventlog (made by tests/test_escape.c)
# holds ESC sequences, CR, BEL, newlines, tabs, "</script>", quotes, C1
# controls and bytes that are not UTF-8 in its program name and arguments,
# RTS identifier, cost-centre labels, modules and source locations, heap
# band strings and ticky names. For every command and format: no control
# byte but the line's own newline (and the tabs GHC's formats put there),
# no DEL, no C1 control, valid UTF-8; the report keeps one row per node,
# JSON parses, CSV parses with one record a line, folded has one line per
# stack, hp2ps reads the .hp; file names in messages are escaped. And the
# heap summary shows -hc stacks longer than GHC's -L of 25 whole.
#
# Usage: tests/cli/escape.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
evprof=$(cd "$(dirname "$evprof")" && pwd)/$(basename "$evprof")
data=tests/data/escape
log=$data/hostile.eventlog
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

# The checks in Python, for one interpreter start (checks.bash's defer,
# then verdicts at the end):
#  clean FILE [tabs]: no byte < 0x20 but '\n' (and '\t' with "tabs"), no
#    DEL, valid UTF-8 without C1 controls
#  json_ok FILE; csv_ok FILE: RFC 4180 parse, every record as wide as the
#    header, one record a line
#  rows_match REPORT JSON: one tree row per node of the JSON's profile
#  folded_ok FOLDED JSON: one line per stack, each "frames count", counts
#    sum to the ticks
#  hp_lines_ok HP: every sample line is NAME TAB BYTES
cat >"$tmp/escape.py" <<'PY'
import csv, json, re, sys
from verdicts import serve

def clean(path, tabs=""):
    data = open(path, "rb").read()
    tabs = tabs == "tabs"
    for i, b in enumerate(data):
        if (b < 0x20 and b != 0x0a and not (tabs and b == 0x09)) or b == 0x7f:
            sys.exit("raw byte 0x%02x at %d: %r" % (b, i, data[max(0, i - 20):i + 20]))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        sys.exit("not UTF-8: %s" % e)
    for i, c in enumerate(text):
        if 0x80 <= ord(c) <= 0x9f:
            sys.exit("C1 control U+%04X at character %d" % (ord(c), i))

def json_ok(path):
    json.load(open(path, encoding="utf-8"))

def csv_ok(path):
    text = open(path, encoding="utf-8", newline="").read()
    rows = list(csv.reader(text.splitlines(True), strict=True))
    assert rows, "empty"
    assert all(len(r) == len(rows[0]) for r in rows), "ragged rows"
    assert len(rows) == text.count("\n"), "a record spans lines"

def rows_match(report, report_json):
    text = open(report, encoding="utf-8").read().split("\n")
    prof = json.load(open(report_json, encoding="utf-8"))["profile"]
    def count(n): return 1 + sum(count(c) for c in n["children"])
    heads = [i for i, l in enumerate(text) if l.startswith("COST CENTRE")]
    assert len(heads) == 2, heads
    tree = []
    for l in text[heads[1] + 2:]:
        if not l:
            break
        tree.append(l)
    assert len(tree) == count(prof), (len(tree), count(prof))
    # every row ends in the four numbers
    for l in tree:
        assert len(l.split()[-4:]) == 4 and all(w.replace(".", "").isdigit() for w in l.split()[-4:]), l

def folded_ok(folded, report_json):
    lines = open(folded, encoding="utf-8").read().split("\n")
    assert lines[-1] == ""
    lines = lines[:-1]
    total = json.load(open(report_json, encoding="utf-8"))["total_ticks"]
    assert all(re.fullmatch(r".+ \d+", l) for l in lines), lines
    assert sum(int(l.rsplit(" ", 1)[1]) for l in lines) == total
    assert len(set(l.rsplit(" ", 1)[0] for l in lines)) == len(lines)

def hp_lines_ok(hp):
    for l in open(hp, encoding="utf-8").read().split("\n"):
        if not l or re.match(r"(JOB|DATE|SAMPLE_UNIT|VALUE_UNIT) \"", l) or re.match(r"(BEGIN|END)_SAMPLE \d", l):
            continue
        assert re.fullmatch(r"[^\s\"][^\s]*\t\d+", l), l

serve(globals())
PY

[ -f "$log" ] || { echo "SKIPPED: $log missing"; exit 77; }

# ---- every command and format: nothing raw ------------------------------
run() {   # run NAME TABS ARGS...: stdout to $tmp/NAME, must exit 0 and be clean
    local name=$1 tabs=$2
    shift 2
    "$evprof" "$@" >"$tmp/$name" 2>"$tmp/$name.err"
    check "$name: exit 0" [ $? -eq 0 ]
    defer "$name: output clean" clean "$tmp/$name" "$tabs"
    defer "$name: stderr clean" clean "$tmp/$name.err"
}
run report tabs report "$log"
run report-all tabs report --all "$log"
run report-json "" report --json "$log"
run folded "" folded "$log"
run folded-src "" folded --frame-format src "$log"
run heap-summary "" heap "$log"
run heap-csv "" heap -f csv "$log"
run heap-json "" heap -f json "$log"
run heap-hp tabs heap -f hp "$log"
run ticky "" ticky "$log"
run ticky-csv "" ticky -f csv "$log"
run ticky-json "" ticky -f json "$log"
run ticky-series "" ticky --series "$log"
run ticky-series-csv "" ticky --series -f csv "$log"
run ticky-series-json "" ticky --series -f json "$log"
run info "" info "$log"
run info-json "" info -f json "$log"

for j in report-json heap-json ticky-json ticky-series-json info-json; do
    defer "$j: JSON parses" json_ok "$tmp/$j"
done
for c in heap-csv ticky-csv ticky-series-csv; do
    defer "$c: CSV parses, one record a line" csv_ok "$tmp/$c"
done

defer "report: one row per node" rows_match "$tmp/report" "$tmp/report-json"

defer "folded: one line per stack, all ticks" folded_ok "$tmp/folded" "$tmp/report-json"
check "folded: ESC shown as \\x1b" grep -qF 'esc\x1b[31mred' "$tmp/folded"

# the visible form, as documented in include/evprof/textout.h
check "report: label with ESC escaped" grep -qF 'esc\x1b[31mred\x1b[0m' "$tmp/report"
check "report: newline in a label escaped" grep -qF 'new\nline' "$tmp/report"
check "report: args escaped" grep -qF 'arg\x1b]0;title\x07 two words\r' "$tmp/report"
check "report: bad UTF-8 as U+FFFD" grep -qF "$(printf 'bad\xef\xbf\xbd\xef\xbf\xbd utf8')" "$tmp/report"
check "report: C1 control escaped" grep -qF 'c1\x9b2J' "$tmp/report"
check "heap: band escaped" grep -qF 'bell\x07' "$tmp/heap-summary"
check "heap .hp: band escaped, space as _" grep -qF "$(printf 'bad\xef\xbf\xbd\xef\xbf\xbd_utf8\t7000')" "$tmp/heap-hp"
check "ticky: name escaped" grep -qF 'esc\x1b[31mred\x1b[0m' "$tmp/ticky"
check "info: RTS id escaped" grep -qF 'rts_p\x1b[2J\n' "$tmp/info"
check "report --json: \\u escapes" grep -qF '"esc\u001b[31mred\u001b[0m"' "$tmp/report-json"

# .hp: hp2ps reads it, and every sample line is NAME TAB BYTES
defer "heap .hp: sample lines NAME<TAB>BYTES" hp_lines_ok "$tmp/heap-hp"
if command -v hp2ps >/dev/null 2>&1; then
    cp "$tmp/heap-hp" "$tmp/h.hp"
    check "heap .hp: hp2ps accepts it" \
        sh -c "cd '$tmp' && hp2ps h.hp >/dev/null 2>'$tmp/hp2ps.err' && [ ! -s '$tmp/hp2ps.err' ] && [ -s h.ps ]"
else
    echo "note: hp2ps not found: the hp2ps check is skipped"
fi

# ---- file names in messages -------------------------------------------
nasty=$tmp/$'h\x1b[2Jx\n\xff.eventlog'
for cmd in report folded heap ticky info gc graph dump metrics; do
    "$evprof" $cmd "$nasty" >/dev/null 2>"$tmp/err-$cmd"
    check "$cmd: missing file: exit 1" [ $? -eq 1 ]
    check "$cmd: missing file named escaped" grep -qF 'h\x1b[2Jx\n' "$tmp/err-$cmd"
    defer "$cmd: message clean" clean "$tmp/err-$cmd"
done
cp "$log" "$nasty"
"$evprof" heap "$nasty" >"$tmp/heap-named" 2>&1
defer "heap: file name in the summary escaped" clean "$tmp/heap-named"
"$evprof" info "$nasty" >"$tmp/info-named" 2>&1
defer "info: file name escaped" clean "$tmp/info-named"
"$evprof" gc "$nasty" >/dev/null 2>"$tmp/gc-named"
check "gc: no GC events: exit 1" [ $? -eq 1 ]
defer "gc: message clean" clean "$tmp/gc-named"
"$evprof" report --bogus $'x\x1b[31m' >/dev/null 2>"$tmp/usage"
check "usage error: exit 2" [ $? -eq 2 ]
defer "usage error: arguments escaped" clean "$tmp/usage"

# ---- the heap summary shows long -hc stacks whole (issue 11, point 6) ----
long=$data/longband.eventlog
"$evprof" heap "$long" >"$tmp/long" 2>&1
check "heap summary: exit 0" [ $? -eq 0 ]
check "heap summary: 46-byte stack whole" \
    grep -qE '^a_label_of_forty_bytes_for_the_summary__/main +4002 ' "$tmp/long"
check "heap summary: says the stacks are whole" grep -qF 'stacks shown whole' "$tmp/long"
"$evprof" heap -L 25 "$long" >"$tmp/long25" 2>&1
check "heap summary -L 25: GHC's cut" grep -qE '^a_label_of_forty_byte\.\.\. ' "$tmp/long25"
"$evprof" heap -f hp "$long" >"$tmp/long.hp" 2>&1
check "heap .hp: still GHC's -L cut" grep -qF "$(printf 'a_label_of_forty_byte...\t')" "$tmp/long.hp"

verdicts "$tmp/escape.py"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
