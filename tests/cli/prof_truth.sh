#!/usr/bin/env bash
# What the report's closing line says, checked on the real runs kept in
# tests/data:
#  - "Every tick above is one of the log's own samples (event 167),
#    counted once": on every log here with samples, evprof's ticks per
#    stack (report --json) and its -p total equal a brute-force count of
#    the log's samples by a reader of the test's own
#    (tests/support/prof_samples.py);
#  - its figures for GHC's own .prof (runs, programs, the most a row and a
#    total were seen apart) are the record's: the "all" row of the log's
#    GHC version and RTS in the summary of
#    tests/data/newprogs/prof_bounds.txt (scripts/prof_bounds.sh's output);
#  - docs/PROF.md's table is that summary (prof_bounds.py --summary), and
#    the runs kept in tests/data/newprogs/ are in the record as they
#    compare today (prof_bounds.py on each: the same line).
# Run from the project root: bash tests/cli/prof_truth.sh build/evprof
set -u
evprof=$1
source "$(dirname "$0")/checks.bash"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
record=tests/data/newprogs/prof_bounds.txt

cat >"$tmp/truth.py" <<'PY'
import json
import re
import subprocess
import sys

sys.path.insert(0, "scripts")
from prof_samples import samples
import prof_bounds
from verdicts import serve

FIRST = "Every tick above is one of the log's own samples (event 167), counted once."
DIFFER = (" GHC's own .prof of the same run can differ by no fixed amount: GHC reads the stack "
          "twice per tick, and the program runs on between the two reads.")


def evprof(exe, *args):
    r = subprocess.run([exe] + list(args), capture_output=True)
    assert r.returncode == 0, "%s: exit %d: %s" % (args, r.returncode, r.stderr.decode()[:300])
    return r.stdout.decode()


def stacks_of(j, ccs):
    """evprof's JSON tree as the brute force keys it: ("MAIN", ids...),
    its node for stacks cut at 255 frames as "CUT"."""
    synthetic = {c["id"] for c in j["cost_centres"]
                 if c["label"] == "<stack cut at 255 frames>" and c["id"] not in ccs}
    out = {}

    def walk(n, path):
        key = ("MAIN",) if not path else path + ("CUT" if n["id"] in synthetic else n["id"],)
        if n.get("ticks"):
            out[key] = out.get(key, 0) + n["ticks"]
        for c in n.get("children", []):
            walk(c, key)
    walk(j["profile"], ())
    return out


def brute_force(exe, log):
    s = samples(log)
    assert s.whole and s.stacks, "not a whole log with samples"
    j = json.loads(evprof(exe, "report", "--json", log))
    got = stacks_of(j, s.ccs)
    if got != s.stacks:
        diff = sorted((k, s.stacks.get(k, 0), got.get(k, 0)) for k in set(got) | set(s.stacks)
                      if s.stacks.get(k, 0) != got.get(k, 0))
        sys.exit("stacks differ (stack, samples, evprof): %s" % diff[:5])
    assert j["total_ticks"] == s.total(True), (j["total_ticks"], s.total(True))
    text = evprof(exe, "report", log)
    m = re.search(r"\((\d+) ticks @", text)
    assert int(m.group(1)) == s.total(False), (m.group(1), s.total(False))
    if s.rts and s.rts.startswith("GHC-"):
        assert "\n" + FIRST in text, "no closing line"


def all_rows(record):
    """The summary's "all" row per (GHC, RTS)."""
    rs = [prof_bounds.parse_line(l) for l in open(record) if l.startswith("run ")]
    out = {}
    for l in prof_bounds.summary(rs):
        c = [x.strip() for x in l.strip("|").split("|")]
        if c[2].startswith("all "):
            out[(c[0], c[1])] = c
    return out


def doc_block(doc, name):
    """The table rows between <!-- NAME --> and <!-- /NAME --> in the doc,
    split in cells, past the header."""
    text = open(doc).read()
    m = re.search(r"<!-- %s -->\n(.*?)\n<!-- /%s -->" % (name, name), text, re.S)
    assert m, "no %s block in %s" % (name, doc)
    return [[x.strip() for x in l.strip().strip("|").split("|")]
            for l in m.group(1).split("\n")[2:]]


def pct_of(cell):
    m = re.match(r"([\d.]+)%", cell)
    return float(m.group(1)) if m else None


def line_is_record(exe, log, record, doc):
    """The line's figures: the most of the record's "all" row and of the
    doc's other observations for the version and RTS it names."""
    text = evprof(exe, "report", log)
    tail = text[text.index(FIRST):].split("\n")[:2]
    m = re.match(r"GHC (\S+), (non-threaded|threaded) RTS: (not measured; on GHC (\S+)'s, )?",
                 tail[1])
    assert m, tail
    ver, rts, unmeasured, near = m.groups()
    rows = all_rows(record)
    if unmeasured:
        assert (ver, rts) not in rows, "%s %s was measured: %s" % (ver, rts, tail)
        ver = near
    row = rows.get((ver, rts))
    assert row, "GHC %s %s is not in the record, but the line quotes it: %s" % (ver, rts, tail)
    runs, equal, tot = int(row[3]), int(row[4]), int(row[5])
    programs = int(row[2].split()[1])
    others = [o for o in doc_block(doc, "prof_bounds observations") if (o[0], o[1]) == (ver, rts)]
    if equal == runs and not others:
        assert tail[0] == FIRST, tail[0]
        m = re.search(r"had the same ticks, every row and the total, in all (\d+) runs measured "
                      r"\((\d+) programs, docs/PROF.md\)\.$", tail[1])
        assert m, "the record has every run equal, the line: %s" % tail[1]
        assert (int(m.group(1)), int(m.group(2))) == (runs, programs), (m.groups(), row)
        return
    assert tail[0] == FIRST + DIFFER, tail[0]
    m = re.search(r"seen so far \(docs/PROF.md: (\d+) runs of (\d+) programs(, and earlier "
                  r"observations)?\): a row differed by up to ([\d.]+)% of its run's total "
                  r"\(([\w-]+): ([^)]*)\), (?:a total by up to (\d+) ticks|the totals never)\.$",
                  tail[1])
    assert m, "not the wording of a version whose runs differed: %s" % tail[1]
    # the most seen, and where
    best = (pct_of(row[7]), re.match(r".*, ([\w-]+)\.", row[7]).group(1))
    for o in others:
        if pct_of(o[3]) is not None and pct_of(o[3]) > best[0]:
            best = (pct_of(o[3]), o[2])
        if o[4] != "-":
            tot = max(tot, int(o[4]))
    kinds = {k[0]: k[1] for k in doc_block(doc, "prof_bounds programs")}
    assert (int(m.group(1)), int(m.group(2)), bool(m.group(3))) == (runs, programs, bool(others)), \
        (m.groups(), row)
    assert (float(m.group(4)), m.group(5)) == best, (m.group(4), m.group(5), best)
    assert m.group(6) == kinds.get(best[1]), (m.group(6), kinds.get(best[1]))
    assert int(m.group(7) or 0) == tot, (m.group(7), tot)


def doc_is_summary(doc, record):
    text = open(doc).read()
    m = re.search(r"<!-- prof_bounds summary -->\n(.*?)\n<!-- /prof_bounds summary -->", text,
                  re.S)
    assert m, "no summary block in " + doc
    rs = [prof_bounds.parse_line(l) for l in open(record) if l.startswith("run ")]
    want = prof_bounds.summary(rs)
    got = m.group(1).split("\n")
    if got != want:
        bad = next(i for i in range(max(len(got), len(want)))
                   if i >= len(got) or i >= len(want) or got[i] != want[i])
        sys.exit("line %d: doc %r, record %r" % (bad, got[bad] if bad < len(got) else None,
                                                 want[bad] if bad < len(want) else None))


def doc_counts(doc, record):
    """The figures docs/PROF.md's prose quotes from the record."""
    text = " ".join(open(doc).read().split())
    rs = [prof_bounds.parse_line(l) for l in open(record) if l.startswith("run ")]
    small = sum(1 for r in rs if r["row"] <= 5)
    want = ["%d of the %d runs had no row more than 5 ticks apart" % (small, len(rs)),
            "`-pj -l`, non-threaded, `-N1` and `-N2`: %d runs on" % len(rs)]
    big = max((r for r in rs if r["prog"] != "Rounds" and r["total"] >= 50),
              key=lambda r: r["row_pct"])
    want.append("at most %.1f%% of its run's total apart (%s, GHC %s %s: %d of %d ticks)"
                % (big["row_pct"], big["prog"], big["ghc"], prof_bounds.threaded(big),
                   big["row"], big["total"]))
    rounds = [r for r in rs if r["prog"] == "Rounds" and r["ghc"] == "9.6.6" and
              prof_bounds.threaded(r) == "non-threaded"]
    want.append("at most %.1f%% in the %d runs below" % (max(r["row_pct"] for r in rounds),
                                                         len(rounds)))
    for w in want:
        assert w in text, "docs/PROF.md does not say: " + w


def run_in_record(exe, log, ghcout, record):
    r = prof_bounds.compare(exe, log, ghcout)
    line = prof_bounds.line_of(r)
    assert line in (l.rstrip("\n") for l in open(record)), \
        "%s is not in the record (rerun regen.sh and record it)" % line


serve({"brute_force": brute_force, "line_is_record": line_is_record,
       "doc_is_summary": doc_is_summary, "doc_counts": doc_counts,
       "run_in_record": run_in_record})
PY
# prof_bounds.py is in scripts/, prof_samples.py in tests/support
export PYTHONPATH=scripts

# the logs with samples that the brute force reads whole
logs=$(find tests/data examples -name '*.eventlog' | sort |
       "$PYTHON" -c "import sys; sys.path.insert(0, 'tests/support')
from prof_samples import samples
for l in sys.stdin.read().split():
    s = samples(l)
    if s.whole and s.stacks:
        print(l)")
n=0
for log in $logs; do
    n=$((n + 1))
    defer "$log: evprof's ticks are the brute-force count of its samples" brute_force "$evprof" "$log"
    defer "$log: the closing line quotes the record" line_is_record "$evprof" "$log" "$record" \
        docs/PROF.md
done
check "some logs with samples ($n)" test "$n" -ge 30
defer "docs/PROF.md's table is the record's summary" doc_is_summary docs/PROF.md "$record"
defer "docs/PROF.md's prose quotes the record" doc_counts docs/PROF.md "$record"
for log in tests/data/newprogs/*/*.eventlog; do
    ghcout=${log%.eventlog}.prof
    defer "$log: in the record" run_in_record "$evprof" "$log" "$ghcout" "$record"
done
verdicts "$tmp/truth.py"

echo "prof_truth: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
