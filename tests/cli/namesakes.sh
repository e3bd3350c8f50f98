#!/usr/bin/env bash
# Namesakes (issue 35): cost centres of one module and label at different
# source locations, here GHC 9.0.2's -fprof-auto-calls run of Lexer.hs
# (tests/data/namesakes: `Main.lexer` at 19 call sites, `Main.source.expr`
# at 21). Every view keeps them apart, each with its own ticks, the
# report's per cost centre (report --json):
#  - top: the NDJSON frame's rows carry "src", one row per cost centre;
#    the text view has a SRC column, so that no two rows read the same;
#  - report --callers: a block per cost centre, namesakes named with their
#    places in the callers' and callees' rows;
#  - folded: a namesake's frame is "Module.label (SRC)" (as many lines as
#    --frame-format src); graph: a node each, evprof_name unique.
# (metrics.sh checks the exposition's series, phases.sh, html.sh,
# pprof.sh and speedscope.sh their views, tests/test_diff.c the diff.)
#
# Usage: tests/cli/namesakes.sh path/to/evprof   (run from the project root)
set -u
evprof=${1:?usage: $0 path/to/evprof}
log=tests/data/namesakes/Lexer-calls.nt.p.1.eventlog
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/checks.bash"

"$evprof" report --json "$log" >"$tmp/report.json"
"$evprof" top --ndjson -n 1000 "$log" >"$tmp/top.ndjson"
check "top --ndjson: exit 0" [ $? -eq 0 ]
"$evprof" top --plain -n 1000 "$log" >"$tmp/top.txt"
check "top --plain: exit 0" [ $? -eq 0 ]
"$evprof" report --callers '^Main\.(lexer|lexIdent)$' "$log" >"$tmp/callers.txt"
check "report --callers: exit 0" [ $? -eq 0 ]
"$evprof" folded "$log" >"$tmp/name.folded"
"$evprof" folded --frame-format src "$log" >"$tmp/src.folded"
"$evprof" graph --node-fraction 0 --max-nodes 1000 -o "$tmp/g.dot" "$log"
check "graph: exit 0" [ $? -eq 0 ]

"$PYTHON" - "$tmp" <<'PY'
import json, re, sys
tmp = sys.argv[1]
fails = []
def check(what, cond):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails.append(what)

rep = json.load(open(tmp + "/report.json"))
ticks = {}
todo = [rep["profile"]]
while todo:
    st = todo.pop()
    ticks[st["id"]] = ticks.get(st["id"], 0) + st["ticks"]
    todo.extend(st.get("children", []))
ccs = {c["id"]: c for c in rep["cost_centres"]}
def places(label):
    return {c["src_loc"]: ticks.get(i, 0) for i, c in ccs.items()
            if c["label"] == label and c["module"] == "Main"}

# top: the last frame's rows, one per cost centre, with "src"
frame = json.loads(open(tmp + "/top.ndjson").read().splitlines()[-1])
rows = frame["top"]
check("top: every row has src", all("src" in r for r in rows))
check("top: one row per cost centre (ids)", len({r["id"] for r in rows}) == len(rows))
check("top: no two rows name the same place",
      len({(r["module"], r["label"], r.get("src")) for r in rows}) == len(rows))
for label in ("lexer", "source.expr"):
    want = {s: t for s, t in places(label).items() if t}
    got = {r.get("src"): r["ticks"] for r in rows if r["label"] == label and r["ticks"]}
    check("top: %d rows of Main.%s, each its cost centre's ticks" % (len(want), label),
          len(want) > 1 and got == want)
check("top: each row's src is its cost centre's",
      all(ccs[r["id"]]["src_loc"] == r.get("src") for r in rows))
check("top: the rows' ticks sum to the total", sum(r["ticks"] for r in rows) == frame["ticks"])

# the text view: a SRC column, no two cost-centre rows alike
text = open(tmp + "/top.txt").read().split("\n\n")[-2].splitlines()
head = next(i for i, l in enumerate(text) if l.startswith("COST CENTRE"))
check("top text: a SRC column", re.search(r"^COST CENTRE +MODULE +SRC +INTERVAL", text[head]) is not None)
body = [l for l in text[head + 1:] if l.strip()]
check("top text: %d rows, all different" % len(body), len(body) == len(rows) and len(set(body)) == len(body))
check("top text: Main.lexer at Lexer.hs:18:17-24",
      any(re.match(r"^lexer +Main +Lexer\.hs:18:17-24 ", l) for l in body))

# report --callers: a block per cost centre, the rows' namesakes with places
cal = open(tmp + "/callers.txt").read()
blocks = re.findall(r"^Main\.(lexer|lexIdent)  (\S+)$", cal, re.M)
check("callers: a block per cost centre of the names (%d), not one per name" % len(blocks),
      len(blocks) > 2 and len(blocks) == len(set(blocks)))
check("callers: rows name namesakes with their places",
      re.search(r"^ +\d+ +[\d.]+  Main\.lexer \(Lexer\.hs:[^)]+\)$", cal, re.M) is not None)
check("callers: no row names Main.lexer without its place",
      re.search(r"^ +\d+ +[\d.]+  Main\.lexer$", cal, re.M) is None)

# folded: as many lines as with the source location, frames with places
name = open(tmp + "/name.folded").read().splitlines()
src = open(tmp + "/src.folded").read().splitlines()
check("folded: %d lines, as --frame-format src's %d" % (len(name), len(src)), len(name) == len(src))
check("folded: Main.lexer's frames with their places",
      any(";Main.lexer (Lexer.hs:18:17-24)" in l for l in name) and
      not any(re.search(r";Main\.lexer(;| \d+$)", l) for l in name))

# graph: a node per cost centre, its evprof_name unique
dot = open(tmp + "/g.dot").read()
names = re.findall(r'evprof_name="([^"]*)"', dot)
check("graph: %d nodes, names unique" % len(names), len(names) == len(set(names)) and
      'Main.lexer (Lexer.hs:18:17-24)' in names)
sys.exit(1 if fails else 0)
PY
check "namesakes: every view keeps them apart (above)" [ $? -eq 0 ]

echo "namesakes: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
