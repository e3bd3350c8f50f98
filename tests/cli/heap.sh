#!/usr/bin/env bash
# `evprof heap` from the command line: the .hp of every heap log (GHC's
# census count, hp2ps accepts it when hp2ps is installed), the summary and
# --top, CSV and JSON rows equal to the .hp's censuses, the time window,
# logs cut at many places and a damaged one (whole censuses only, hp2ps
# still accepts the file), logs without a heap profile, usage errors,
# atomic -o and write errors.
#
# Usage: tests/cli/heap.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
evprof=$(cd "$(dirname "$evprof")" && pwd)/$(basename "$evprof")
data=tests/data/heap
corpus=tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"
have_hp2ps=0
command -v hp2ps >/dev/null 2>&1 && have_hp2ps=1
[ $have_hp2ps = 1 ] || echo "note: hp2ps not found: the hp2ps checks are skipped"

# hp2ps reads FILE.hp and writes FILE.ps in the current directory
hp2ps_ok() {
    [ $have_hp2ps = 1 ] || return 0
    (cd "$(dirname "$1")" && hp2ps "$(basename "$1")" >/dev/null 2>"$tmp/hp2ps.err") &&
        [ ! -s "$tmp/hp2ps.err" ] && [ -s "${1%.hp}.ps" ]
}

# Checks on .hp files, for one Python start (checks.bash's defer; verdicts
# at the end). A .hp's censuses: "time|band|bytes" lines, without the empty
# first and last samples (and, with strip, GHC's "(N)" in front of -hc
# bands). same_censuses GHC_HP STRIP HP: HP's censuses are GHC_HP's;
# band_count HP N: HP's censuses name N bands.
cat >"$tmp/hp.py" <<'PY'
import codecs, re, sys
from verdicts import serve
codecs.register_error("evprof-fffd", lambda e: ("\ufffd", e.start + 1))

def censuses(path, strip=""):
    strip = strip == "strip"
    samples, cur, t = [], None, None
    for line in open(path, "rb").read().split(b"\n"):
        if line.startswith(b"BEGIN_SAMPLE "):
            cur, t = [], line.split()[1].decode()
        elif line.startswith(b"END_SAMPLE "):
            samples.append((t, cur)); cur = None
        elif cur is not None and line:
            name, _, v = line.rpartition(b"\t")
            if strip:
                name = re.sub(rb"^\(\d+\)", b"", name)
            # evprof writes names in their visible form: each byte that is not
            # UTF-8 (GHC's -L cut can leave half a sequence) is one U+FFFD
            name = name.decode("utf-8", "evprof-fffd").encode()
            cur.append((name, int(v)))
    return [b"%d|%s|%d" % (i, name, v)
            for i, (t, c) in enumerate(samples[1:-1]) for name, v in c]

def same_censuses(ghc_hp, strip, hp):
    want, have = censuses(ghc_hp, strip), censuses(hp)
    diff = [(i, w, h) for i, (w, h) in enumerate(zip(want, have)) if w != h]
    assert want == have, ("%d lines, %d lines; first differences %r"
                          % (len(want), len(have), diff[:3]))

def cut_censuses(full_hp, *cut_hps):
    # each cut's censuses: the first ones of the full log's
    full = censuses(full_hp)
    for cut in cut_hps:
        c = censuses(cut)
        assert full[:len(c)] == c, "%s: censuses are not the full log's" % cut

def damaged_censuses(full_hp, damaged_hp):
    def group(lines):
        g = {}
        for l in lines:
            i, rest = l.split(b"|", 1)
            g.setdefault(int(i), []).append(rest)
        return [g[k] for k in sorted(g)]
    full, dam = group(censuses(full_hp)), group(censuses(damaged_hp))
    assert 0 < len(dam) < len(full), (len(dam), len(full))
    it = iter(full)
    assert all(any(c == f for f in it) for c in dam), "not whole censuses of the log, in order"

def band_count(hp, n):
    bands = {line.split(b"|")[1] for line in censuses(hp)}
    assert len(bands) == int(n), "%d bands" % len(bands)

serve(globals())
PY

# every heap log: a .hp that hp2ps reads; GHC's runs: GHC's census count
logs="$corpus/ghc-9.0.2/nfib-hc $corpus/ghc-9.0.2/nfib-hy"
for f in sleep.h sleep.hC sleep.hd sleep.hm sleep.hy biographical-samples; do
    logs="$logs $corpus/ghc-events/$f"
done
# stop.hT (2.3 MB) is not in the repository: only from ../shared beside it
if [ -f ../shared/corpus/ghc-events/stop.hT.eventlog ]; then
    logs="$logs ../shared/corpus/ghc-events/stop.hT"
else
    echo "SKIPPED: stop.hT.eventlog (optional, needs ../shared/corpus)"
fi
for f in "$data"/*.eventlog; do logs="$logs ${f%.eventlog}"; done
for run in $logs; do
    name=$(basename "$run")
    out="$tmp/$name.hp"
    "$evprof" heap "$run.eventlog" -o "$out" >"$tmp/stdout" 2>"$tmp/err"
    check "$name: exit 0" [ $? -eq 0 ]
    check "$name: nothing on stdout" [ ! -s "$tmp/stdout" ]
    check "$name: no warning" [ ! -s "$tmp/err" ]
    check "$name: hp2ps accepts the .hp" hp2ps_ok "$out"
    if [ -f "$run.hp" ]; then
        want=$(grep -c '^BEGIN_SAMPLE' "$run.hp")
        have=$(grep -c '^BEGIN_SAMPLE' "$out")
        check "$name: as many samples as GHC's .hp ($want)" [ "$want" -eq "$have" ]
        strip=""
        grep -q '^JOB ".* -hc' "$run.hp" && strip=strip
        defer "$name: censuses equal GHC's" same_censuses "$run.hp" "$strip" "$out"
    fi
done
check "-o leaves no temporary" [ "$(ls "$tmp" | grep -c evprof-)" -eq 0 ]

run=$data/leak-hc.eventlog
# --format hp to stdout is the -o file; - reads stdin
"$evprof" heap -f hp "$run" >"$tmp/stdout.hp"
check "-f hp: exit 0" [ $? -eq 0 ]
check "-f hp on stdout equals -o" cmp -s "$tmp/stdout.hp" "$tmp/leak-hc.hp"
"$evprof" heap -f hp - <"$run" >"$tmp/stdin.hp"
check "stdin: same .hp" cmp -s "$tmp/stdin.hp" "$tmp/leak-hc.hp"

# the summary: bands by peak, --top
"$evprof" heap "$data/leak-hd.eventlog" >"$tmp/sum" 2>"$tmp/err"
check "summary: exit 0" [ $? -eq 0 ]
check "summary: the job" grep -q '^job: *leak 25 +RTS -hd -l -i0.01$' "$tmp/sum"
check "summary: the breakdown" grep -q '^breakdown: *closure description (-hd)' "$tmp/sum"
# the band rows: from the header line to the first empty or "(N more" line
rows() { awk '/^band /{on=1; next} on && (/^$/ || /^\([0-9]+ more band/){exit} on' "$1"; }
check "summary: 20 bands by default" [ "$(rows "$tmp/sum" | wc -l)" -eq 20 ]
check "summary: says how many more" grep -q '^([0-9]* more bands: --top 0 shows all)$' "$tmp/sum"
"$evprof" heap --top 3 "$data/leak-hd.eventlog" >"$tmp/sum3"
check "--top 3: three bands" [ "$(rows "$tmp/sum3" | wc -l)" -eq 3 ]
"$evprof" heap --top 0 "$data/leak-hd.eventlog" >"$tmp/sum0"
defer "--top 0: every band" band_count "$tmp/leak-hd.hp" "$(rows "$tmp/sum0" | wc -l)"
"$PYTHON" - "$tmp/sum0" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
i = next(k for k, l in enumerate(lines) if l.startswith("band "))
peaks = [int(l.split()[-4]) for l in lines[i + 1:] if l.strip()]
assert peaks == sorted(peaks, reverse=True), peaks
PY
check "summary: largest peak first" [ $? -eq 0 ]

# CSV and JSON: the .hp's censuses, row for row
"$evprof" heap -f csv "$run" >"$tmp/rows.csv"
check "csv: exit 0" [ $? -eq 0 ]
"$evprof" heap -f json "$run" >"$tmp/rows.json"
check "json: exit 0" [ $? -eq 0 ]
"$PYTHON" - "$tmp/rows.csv" "$tmp/rows.json" "$tmp/leak-hc.hp" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert list(rows[0].keys()) == ["census", "time", "band", "bytes"], rows[0].keys()
d = json.load(open(sys.argv[2]))          # strict: raises on invalid JSON
assert d["breakdown"] == "cost-centre stack" and d["flag"] == "-hc", d
assert d["job"] == "leak 25 +RTS -hc -l -i0.01", d["job"]
assert len(d["rows"]) == len(rows)
for c, j in zip(rows, d["rows"]):
    assert int(c["census"]) == j["census"] and c["band"] == j["band"]
    assert int(c["bytes"]) == j["bytes"] and abs(float(c["time"]) - j["time"]) < 1e-12
samples, cur = [], None
for line in open(sys.argv[3]).read().split("\n"):
    if line.startswith("BEGIN_SAMPLE "):
        cur = (line.split()[1], [])
    elif line.startswith("END_SAMPLE "):
        samples.append(cur); cur = None
    elif cur and line:
        name, _, v = line.rpartition("\t")
        cur[1].append((name, int(v)))
samples = samples[1:-1]
assert d["censuses"] == len(samples) and d["dropped_censuses"] == 0
got = {}
for r in rows:
    got.setdefault(int(r["census"]), (r["time"], []))[1].append((r["band"], int(r["bytes"])))
assert sorted(got) == list(range(1, len(samples) + 1))
for i, (t, bands) in enumerate(samples):
    ct, cb = got[i + 1]
    assert "%.6f" % float(ct) == t, (ct, t)
    assert cb == bands, (i, cb, bands)
PY
check "csv and json rows equal the .hp's censuses" [ $? -eq 0 ]

# the window selects censuses by their time
"$PYTHON" - "$tmp/rows.csv" >"$tmp/window" <<'PY'
import csv, sys
times = sorted({float(r["time"]) for r in csv.DictReader(open(sys.argv[1]))})
lo, hi = times[2], times[-3]
print(lo, hi, sum(1 for t in times if lo <= t < hi))
PY
read -r lo hi nwin <"$tmp/window"
"$evprof" heap -f csv --from "$lo" --to "$hi" "$run" >"$tmp/win.csv"
check "window: exit 0" [ $? -eq 0 ]
have=$(tail -n +2 "$tmp/win.csv" | cut -d, -f2 | sort -u | wc -l)
check "window: the $nwin censuses in [$lo, $hi)" [ "$have" -eq "$nwin" ]
"$evprof" heap --from "$lo" --to "$hi" "$run" -o "$tmp/win.hp"
check "window .hp: hp2ps accepts it" hp2ps_ok "$tmp/win.hp"
check "window .hp: opens at --from" grep -q "^BEGIN_SAMPLE $(printf '%.6f' "$lo")\$" "$tmp/win.hp"
# a window after the log's end selects nothing: a usage error (issue 27)
"$evprof" heap --from 1000 "$run" -o "$tmp/none.hp" 2>"$tmp/err"
check "window outside the log: exit 2" [ $? -eq 2 ]
check "window outside the log: says so" grep -q -- "--from 1000 selects nothing: its events run from" "$tmp/err"
check "window outside the log: no .hp" [ ! -e "$tmp/none.hp" ]

# cut logs: whole censuses only, each one of the full log's, and said
full=$tmp/leak-hc.hp
size=$(stat -c %s "$run")
warned=0 cuts=0 allgood=1 cut_hps=()
for ((n = 2000; n < size; n += 1777)); do
    head -c "$n" "$run" >"$tmp/cut.eventlog"
    rm -f "$tmp/cut.hp"
    "$evprof" heap "$tmp/cut.eventlog" -o "$tmp/cut.hp" 2>"$tmp/err"
    rc=$?
    cuts=$((cuts + 1))
    grep -q "census.*dropped, never written half" "$tmp/err" && warned=$((warned + 1))
    if [ ! -e "$tmp/cut.hp" ]; then   # cut before the heap profile began
        grep -q "no heap profile\|inside its header" "$tmp/err" && [ $rc -eq 1 ] ||
            { allgood=0; echo "cut at $n: no .hp, exit $rc"; }
        continue
    fi
    if [ $rc -ne 1 ] && ! grep -q "no end marker" "$tmp/err"; then
        allgood=0; echo "cut at $n: exit $rc"; continue
    fi
    cp "$tmp/cut.hp" "$tmp/cut$n.hp"
    cut_hps+=("$tmp/cut$n.hp")
    hp2ps_ok "$tmp/cut.hp" || { allgood=0; echo "cut at $n: hp2ps rejects the .hp"; }
done
check "cut logs ($cuts cuts): exit 1, hp2ps reads them" [ $allgood -eq 1 ]
defer "cut logs (${#cut_hps[@]} with a .hp): whole censuses of the full log" \
    cut_censuses "$full" "${cut_hps[@]}"
check "cut logs: some cut inside a census is reported ($warned)" [ $warned -gt 0 ]

# a damaged log: an undeclared event type in the middle of a census
"$PYTHON" - "$data/leak-hy.eventlog" "$tmp/damaged.eventlog" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
# a string sample (164): u16 type, u64 time, u16 size, u8 id, u64 bytes, label
hits = [i - 21 for i in range(len(b)) if b[i:i + 5] == b"Item\x00" and b[i - 21:i - 19] == b"\x00\xa4"]
at = hits[len(hits) // 2]
b[at:at + 2] = b"\x77\x77"
open(sys.argv[2], "wb").write(bytes(b))
PY
"$evprof" heap "$tmp/damaged.eventlog" -o "$tmp/damaged.hp" 2>"$tmp/err"
check "damaged: exit 1" [ $? -eq 1 ]
check "damaged: the damage is reported" grep -q "event type 30583" "$tmp/err"
check "damaged: the census is dropped" grep -q "lost events in a damaged block" "$tmp/err"
check "damaged: hp2ps accepts the .hp" hp2ps_ok "$tmp/damaged.hp"
defer "damaged: whole censuses of the log, in order" \
    damaged_censuses "$tmp/leak-hy.hp" "$tmp/damaged.hp"

# logs that hold no heap profile, or nothing
"$evprof" heap "$corpus/ghc-9.0.2/nfib-p.eventlog" -o "$tmp/p.hp" 2>"$tmp/err"
check "no heap profile: exit 1" [ $? -eq 1 ]
check "no heap profile: says so" grep -q "no heap profile (events 160-166)" "$tmp/err"
check "no heap profile: no file" [ ! -e "$tmp/p.hp" ]
echo "not an eventlog" >"$tmp/junk"
"$evprof" heap "$tmp/junk" -o "$tmp/junk.hp" 2>/dev/null
check "not an eventlog: exit 1" [ $? -eq 1 ]
check "not an eventlog: no file" [ ! -e "$tmp/junk.hp" ]
"$evprof" heap -f csv "$tmp/junk" >"$tmp/stdout" 2>/dev/null
check "not an eventlog: nothing on stdout" [ ! -s "$tmp/stdout" ]

# usage errors exit 2
for args in "--top 3 -f csv" "--top 3 -o $tmp/x.hp" "--format xml" "--length 3" "--length x" \
            "--top -1" "--from 2 --to 1" "--cap 0" "--from x"; do
    # shellcheck disable=SC2086
    "$evprof" heap $args "$run" >/dev/null 2>&1
    check "heap $args: exit 2" [ $? -eq 2 ]
done
"$evprof" heap >/dev/null 2>&1
check "no FILE: exit 2" [ $? -eq 2 ]
"$evprof" heap --help >"$tmp/help"
check "--help: exit 0" [ $? -eq 0 ]
check "--help: tells about the .hp" grep -q "GHC's .hp file" "$tmp/help"
"$evprof" heap -L 40 "$data/long-hc.eventlog" -f csv >"$tmp/l40.csv"
check "-L 40: longer bands" grep -q ",inner/outer_frame_of_the_stack," "$tmp/l40.csv"

# output errors
"$evprof" heap "$run" -o "$tmp/no/such/dir/x.hp" 2>"$tmp/err"
check "-o into a missing directory: exit 1" [ $? -eq 1 ]
check "-o error names the file" grep -q "no/such/dir/x.hp" "$tmp/err"
if [ -w /dev/full ]; then
    "$evprof" heap -f hp "$run" >/dev/full 2>/dev/null
    check "write error (.hp): exit 1" [ $? -eq 1 ]
    "$evprof" heap "$run" >/dev/full 2>/dev/null
    check "write error (summary): exit 1" [ $? -eq 1 ]
fi

verdicts "$tmp/hp.py"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
