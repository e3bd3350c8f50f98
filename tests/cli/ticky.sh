#!/usr/bin/env bash
# `evprof ticky` from the command line: the corpus's ticky logs against
# their ghc-events dumps, GHC's own +RTS -r tables reproduced line for line,
# CSV and JSON that strict parsers accept, --series, the window, standard
# input, -o, usage errors and bad input.
#
# Usage: tests/cli/ticky.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
data=tests/data/ticky
corpus=tests/data
events=$corpus/ghc-events
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

header="    Entries      Alloc    Alloc'd  Non-void Arguments      STG Name"

# ---- eventlogs: totals per counter equal the sums in the ghc-events dump
for log in ticky-ticky ticky-new ticky-json ticky-begin-sample; do
    f=$events/$log.eventlog
    "$evprof" ticky "$f" >"$tmp/out" 2>"$tmp/err"
    check "$log: exit 0" [ $? -eq 0 ]
    check "$log: GHC's header" [ "$(head -1 "$tmp/out")" = "$header" ]
    "$evprof" ticky -f csv "$f" >"$tmp/out.csv" 2>/dev/null
    check "$log: csv exit 0" [ $? -eq 0 ]
    "$evprof" ticky -f json "$f" >"$tmp/out.json" 2>/dev/null
    "$PYTHON" - "$f.reference" "$tmp/out.csv" "$tmp/out.json" <<'PY'
import csv, json, re, sys
ref, csvf, jsonf = sys.argv[1:]
want, names = {}, {}
for line in open(ref, encoding="utf-8"):
    m = re.match(r"\d+: ticky counter sample (\d+): entry count: (\d+), (\d+) allocs, (\d+) allocd", line)
    if m:
        i = int(m.group(1)); w = want.setdefault(i, [0, 0, 0])
        for k in range(3):
            w[k] += int(m.group(k + 2))
    m = re.match(r"\d+: ticky counter definition (\d+), .*, name: (.*), itbl: ", line)
    if m:
        names[int(m.group(1))] = m.group(2)
        want.setdefault(int(m.group(1)), [0, 0, 0])
rows = list(csv.DictReader(open(csvf, newline="", encoding="utf-8")))
for k in ("name", "entries", "alloc", "allocd"):
    assert k in rows[0], k
got = {int(r["id"]): r for r in rows}
assert set(got) == set(want), (got.keys(), want.keys())
for i, w in want.items():
    r = got[i]
    assert [int(r["entries"]), int(r["alloc"]), int(r["allocd"])] == w, (i, r, w)
    assert r["name"] == names[i], (r["name"], names[i])
d = json.load(open(jsonf, encoding="utf-8"))
assert d["totals"]["entries"] == sum(w[0] for w in want.values())
assert d["totals"]["alloc"] == sum(w[1] for w in want.values())
assert sorted(c["name"] for c in d["counters"]) == sorted(names.values())
PY
    check "$log: csv and json equal the dump's sums, names resolved" [ $? -eq 0 ]
done
"$evprof" ticky "$events/ticky-json.eventlog" >/dev/null 2>"$tmp/err"
check "definitions only: says there are no samples" grep -q "no ticky samples" "$tmp/err"

# ---- GHC's +RTS -r files: evprof's table is GHC's, line for line
for f in "$corpus/ghc-9.0.2/nfib.ticky" "$data/collatz.ticky" "$data/wide.ticky"; do
    "$evprof" ticky --sort input "$f" >"$tmp/out" 2>"$tmp/err"
    check "$f: exit 0" [ $? -eq 0 ]
    # GHC's table: header, rule, rows up to the blank line
    awk '/^ *Entries +Alloc +Alloc.d/ { on = 1 } on && /^$/ { exit } on' "$f" >"$tmp/ghc"
    rows=$(($(wc -l <"$tmp/ghc") - 2))
    head -n $((rows + 2)) "$tmp/out" >"$tmp/ours"
    check "$f: the table equals GHC's" cmp -s "$tmp/ghc" "$tmp/ours"
    # totals underneath: sums of GHC's columns
    want=$(awk 'NR > 2 { e += substr($0, 1, 11); a += substr($0, 12, 11); d += substr($0, 23, 11) }
                END { printf "%11d%11d%11d", e, a, d }' "$tmp/ghc")
    check "$f: totals underneath" grep -q "^$want .*total of $rows counters" "$tmp/out"
    "$evprof" ticky -f json "$f" | "$PYTHON" -c 'import json,sys; json.load(sys.stdin)'
    check "$f: json parses" [ $? -eq 0 ]
done
# numbers of 11+ digits run together in GHC's file; evprof reads them
"$evprof" ticky -f csv "$data/big.ticky" >"$tmp/big.csv"
check "big.ticky: mk" grep -q '^$wmk{v [a-z0-9]*} (Main) (fun),700000000,11200000000,0,2,ii,' "$tmp/big.csv"
check "big.ticky: loop" grep -q '^Main.$wloop{v [a-z0-9]*} (fun),700000001,16800000000,0,2,iL,' "$tmp/big.csv"

# ---- sorting, --top, --match
for key in entries alloc allocd name input; do
    "$evprof" ticky -f csv --sort "$key" "$data/wide.ticky" >"$tmp/s.csv"
    "$PYTHON" - "$key" "$tmp/s.csv" "$data/wide.ticky" <<'PY'
import csv, sys
key, f, src = sys.argv[1:]
rows = list(csv.DictReader(open(f, newline="", encoding="utf-8")))
assert len(rows) == 18
if key == "input":
    lines = open(src, encoding="utf-8").read().split("\n")
    i = next(n for n, l in enumerate(lines) if "STG Name" in l) + 2
    assert [r["name"] for r in rows] == [l[59:] for l in lines[i:i + 18]]
elif key == "name":
    assert [r["name"] for r in rows] == sorted(r["name"] for r in rows)
else:
    k = [(-int(r[key]), r["name"].encode()) for r in rows]
    assert k == sorted(k), key
PY
    check "--sort $key" [ $? -eq 0 ]
done
"$evprof" ticky --top 3 --sort alloc "$data/wide.ticky" >"$tmp/out"
check "--top 3: 3 rows" [ "$(wc -l <"$tmp/out")" -eq 7 ]
check "--top 3: says so" grep -q "total of 18 counters, top 3 shown" "$tmp/out"
check "--top 3: biggest first" grep -q "^       2002     176000 " <(sed -n 3p "$tmp/out")
"$evprof" ticky --match '(thk)' -f csv "$data/wide.ticky" >"$tmp/out"
check "--match: only thunks" [ "$(grep -c '(thk)' "$tmp/out")" -eq 6 ] && [ "$(wc -l <"$tmp/out")" -eq 7 ]

# ---- --series
"$evprof" ticky --series -f csv "$events/ticky-new.eventlog" >"$tmp/ser.csv"
check "series exit 0" [ $? -eq 0 ]
check "series csv header" [ "$(head -1 "$tmp/ser.csv")" = "time_ns,counter,entries,alloc,allocd" ]
"$evprof" ticky --series --cumulative -f csv "$events/ticky-new.eventlog" >"$tmp/cum.csv"
"$evprof" ticky --series -f json "$events/ticky-new.eventlog" >"$tmp/ser.json"
"$evprof" ticky -f csv "$events/ticky-new.eventlog" >"$tmp/tab.csv"
"$PYTHON" - "$tmp/ser.csv" "$tmp/cum.csv" "$tmp/ser.json" "$tmp/tab.csv" "$events/ticky-new.eventlog.reference" <<'PY'
import csv, json, re, sys
ser, cum, js, tab, ref = sys.argv[1:]
rows = list(csv.DictReader(open(ser, newline="", encoding="utf-8")))
# one row per counter per batch: the dump's samples, at their batch's time
want, batch = [], None
for line in open(ref, encoding="utf-8"):
    m = re.match(r"(\d+): ticky begin counter sample", line)
    if m:
        batch = int(m.group(1))
    m = re.match(r"\d+: ticky counter sample (\d+): entry count: (\d+), (\d+) allocs, (\d+) allocd", line)
    if m:
        want.append((batch, int(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4))))
totals = {r["name"]: r for r in csv.DictReader(open(tab, newline="", encoding="utf-8"))}
ids = {int(r["id"]): r["name"] for r in totals.values()}
got = [(int(r["time_ns"]), r["counter"], int(r["entries"]), int(r["alloc"]), int(r["allocd"])) for r in rows]
assert sorted(got) == sorted((t, ids[i], e, a, d) for t, i, e, a, d in want), got
for name, r in totals.items():
    assert sum(g[2] for g in got if g[1] == name) == int(r["entries"])
c = list(csv.DictReader(open(cum, newline="", encoding="utf-8")))
last = {}
for r in c:
    last[r["counter"]] = int(r["alloc"])
assert all(last[n] == int(totals[n]["alloc"]) for n in last)
d = json.load(open(js, encoding="utf-8"))
assert d["cumulative"] is False and d["row_count"] == len(rows) == len(d["rows"])
assert d["batches"] == 4
PY
check "series: the dump's samples, cumulative ends at the totals, json" [ $? -eq 0 ]
# the window takes the batches at 0.11 s and 0.21 s
"$evprof" ticky --from 0.1 --to 0.3 -f csv "$events/ticky-new.eventlog" >"$tmp/w.csv"
check "--from/--to: two batches" grep -q "^fib1{v sZs} (Main) (fun) in r1,$((656885 + 676207))," "$tmp/w.csv"
check "--from/--to: fib outside" grep -q '^Main.fib{v r1} (fun),0,0,0,' "$tmp/w.csv"
"$evprof" ticky --series --from 0.1 --to 0.3 -f csv "$events/ticky-new.eventlog" >"$tmp/w.csv"
check "--series window: two rows" [ "$(wc -l <"$tmp/w.csv")" -eq 3 ]

# ---- standard input (copied to a temporary file: two passes for --series)
cat "$events/ticky-new.eventlog" | "$evprof" ticky --series -f csv - >"$tmp/stdin.csv"
check "stdin series equals file" cmp -s "$tmp/stdin.csv" "$tmp/ser.csv"
"$evprof" ticky "$corpus/ghc-9.0.2/nfib.ticky" >"$tmp/a"
cat "$corpus/ghc-9.0.2/nfib.ticky" | "$evprof" ticky - >"$tmp/b"
check "stdin text equals file" cmp -s "$tmp/a" "$tmp/b"

# ---- -o: whole or nothing
"$evprof" ticky -f json "$data/wide.ticky" -o "$tmp/o.json" >"$tmp/stdout"
check "-o exit 0" [ $? -eq 0 ]
check "-o leaves stdout empty" [ ! -s "$tmp/stdout" ]
check "-o leaves no temporary" [ "$(ls "$tmp" | grep -c evprof-)" -eq 0 ]
"$evprof" ticky -f json "$data/wide.ticky" | cmp -s - "$tmp/o.json"
check "-o file equals stdout" [ $? -eq 0 ]
if [ -w /dev/full ]; then
    "$evprof" ticky "$data/wide.ticky" >/dev/full 2>/dev/null
    check "write error: exit 1" [ $? -eq 1 ]
fi

# ---- usage errors: exit 2
for args in "--format xml" "--sort size" "--top 0" "--top x" "--cumulative" "--from 2 --to 1" \
            "--cap 1" "--bogus"; do
    # shellcheck disable=SC2086
    "$evprof" ticky $args "$events/ticky-new.eventlog" >/dev/null 2>&1
    check "ticky $args: exit 2" [ $? -eq 2 ]
done
"$evprof" ticky >/dev/null 2>&1
check "no FILE: exit 2" [ $? -eq 2 ]
"$evprof" ticky --series "$data/wide.ticky" >/dev/null 2>"$tmp/err"
check "--series on text: exit 2" [ $? -eq 2 ]
check "--series on text: says why" grep -q "totals only" "$tmp/err"
"$evprof" ticky --help >"$tmp/help" 2>"$tmp/err"
check "--help: exit 0" [ $? -eq 0 ]
check "--help: nothing on stderr" [ ! -s "$tmp/err" ]
check "--help exit 0, lists --series" grep -q -- "--series" "$tmp/help"

# ---- bad input: exit 1, what and where
sed '0,/ 400000    6400008/s// 400000    64x0008/' "$corpus/ghc-9.0.2/nfib.ticky" >"$tmp/garbled.ticky"
line=$(grep -n "64x0008" "$tmp/garbled.ticky" | cut -d: -f1)
"$evprof" ticky "$tmp/garbled.ticky" >"$tmp/out" 2>"$tmp/err"
check "garbled line: exit 1" [ $? -eq 1 ]
check "garbled line: names the line" grep -q "garbled.ticky: line $line: not a row of the counter table" "$tmp/err"
check "garbled line: the rows before are shown" grep -q 'Main.$w$sgo8{v r371} (fun)' "$tmp/out"
"$evprof" ticky "$events/time-prof.eventlog" >/dev/null 2>"$tmp/err"
check "log without ticky: exit 1" [ $? -eq 1 ]
check "log without ticky: says so" grep -q "no ticky counters (events 210/211)" "$tmp/err"
"$evprof" ticky "$corpus/ghc-9.0.2/nfib-p.prof" >"$tmp/out" 2>"$tmp/err"
check "neither format: exit 1" [ $? -eq 1 ]
check "neither format: says what it is" grep -q "nfib-p.prof: this is GHC's .prof time-profile report (+RTS -p), neither an eventlog nor a +RTS -r file: evprof ticky reads" "$tmp/err"
check "neither format: no output" [ ! -s "$tmp/out" ]
"$evprof" ticky "$corpus/ghc-9.0.2/Main.hs" >"$tmp/out" 2>"$tmp/err"
check "unknown text: exit 1" [ $? -eq 1 ]
check "unknown text: says so" grep -q "no ticky counter table" "$tmp/err"
"$evprof" ticky "$tmp/no-such-file" >/dev/null 2>"$tmp/err"
check "missing file: exit 1" [ $? -eq 1 ]
check "missing file: says so" grep -q "no-such-file: cannot open" "$tmp/err"
head -c 2000 "$events/ticky-new.eventlog" >"$tmp/cut.eventlog"
"$evprof" ticky "$tmp/cut.eventlog" >/dev/null 2>"$tmp/err"
check "cut log: exit 1" [ $? -eq 1 ]
check "cut log: truncated" grep -qi "truncated" "$tmp/err"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
