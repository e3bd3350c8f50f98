#!/usr/bin/env python3
"""How far GHC's own time profile of a run is from the eventlog's samples.

Usage: prof_bounds.py EVPROF RUN...      compare runs, print the record
       prof_bounds.py --summary FILE     the summary of a recorded output

Each RUN is a pair LOG:GHCOUT of one program run: an eventlog and GHC's
own profile of the same run, its .prof (text, from +RTS -p or -P) or its
-pj JSON. scripts/prof_bounds.sh names runs PROGRAM.CFG.MODE.I
(Mutual4.nt.P.2): the program is read from the name ("?" otherwise).

Prints one line per run (`run NAME key=value...`), then the summary: per
GHC version and RTS (non-threaded, threaded) and per program, the number
of runs, how many had every row equal, the largest difference of the
totals and of one row (in ticks and as a share of the run's total), and
the run where the row's was seen. What is compared:

  -P  runs: the total (GHC's -p rules: built-in stacks not counted) and
      each row's individual ticks, GHC's .prof against `evprof report`:
      exact on both sides;
  -p  runs: the total, and each row's individual %time (one decimal):
      the row's ticks are GHC's %time of its own total, so to within
      0.05% of the total;
  -pj runs: the total (every tick counted), and per cost-centre stack
      the ticks of GHC's JSON against `evprof report --json`: exact.

`inh` is the largest difference of a row's inherited %time (-p, -P), in
points: ticks that moved between a cost centre and its callee stay
inside the caller's inherited figure.

--summary recomputes the summary from the `run` lines of a recorded
output (docs/PROF.md quotes it; tests/cli/prof_truth.sh checks that the
doc's summary is the record's).
"""
import json
import os
import re
import subprocess
import sys
from collections import defaultdict


def run(evprof, args):
    return subprocess.run([evprof] + args, check=True, capture_output=True).stdout.decode()


def rts_of(evprof, log):
    info = run(evprof, ["info", log])
    m = re.search(r"^rts: +GHC-(\S+) (\S+)", info, re.M)
    return (m.group(1), m.group(2)) if m else ("?", "?")


def json_stacks(j):
    out = {}

    def walk(node, path):
        p = path + (node["id"],)
        if node.get("ticks"):
            out[p] = out.get(p, 0) + node["ticks"]
        for c in node.get("children", []):
            walk(c, p)
    walk(j["profile"], ())
    return out


def prof_rows(text, ghc):
    """Rows of a .prof tree: path of (label, module, src) -> (individual
    %time, inherited %time, individual ticks or None).
    Columns by the header's positions (labels and SRC may hold spaces).
    GHC's rows end with no. entries %time %alloc %time %alloc, and with
    -P ticks bytes after them; evprof's with %time ticks %time ticks."""
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines)
                 if l.startswith("COST CENTRE") and ("no." in l if ghc else "ticks" in l)
                 and i > 0 and "individual" in lines[i - 1])
    head = lines[start]
    at_mod, at_src = head.index("MODULE"), head.index("SRC")
    width = (8 if head.rstrip().endswith("bytes") else 6) if ghc else 4
    rows, stack = {}, []
    for l in lines[start + 2:]:
        if not l.strip():
            break
        depth = len(l) - len(l.lstrip(" "))
        nums = l[at_src:].split()[-width:]
        src = l[at_src:].rsplit(None, width)[0].strip()
        if ghc:
            ind, inh = float(nums[2]), float(nums[4])
            ticks = int(nums[6]) if width == 8 else None
        else:
            ind, inh, ticks = float(nums[0]), float(nums[2]), int(nums[1])
        key = (l[:at_mod].strip(), l[at_mod:at_src].strip(), src)
        del stack[depth:]
        stack.append(key)
        old = rows.get(tuple(stack), (0.0, 0.0, 0))
        rows[tuple(stack)] = (old[0] + ind, old[1] + inh,
                              None if ticks is None else (old[2] or 0) + ticks)
    return rows


def total_ticks(text):
    return int(re.search(r"\((\d+) ticks @", text).group(1))


def name_of(log):
    """The run's name and its program: Mutual4.nt.P.2 -> Mutual4."""
    base = os.path.basename(log)
    base = base[:-len(".eventlog")] if base.endswith(".eventlog") else base
    parts = base.split(".")
    return base, parts[0] if len(parts) == 4 else "?"


def compare(evprof, log, ghcout):
    ghc_text = open(ghcout, encoding="utf-8", errors="replace").read()
    ver, flavour = rts_of(evprof, log)
    name, prog = name_of(log)
    # row_pct is kept as printed (a tenth of a percent), so that the
    # summary of the record (--summary) is the summary of the runs
    r = {"name": name, "prog": prog, "ghc": ver, "rts": flavour}
    if ghc_text.lstrip().startswith("{"):
        g = json.loads(ghc_text, strict=False)
        e = json.loads(run(evprof, ["report", "--json", log]))
        r["mode"] = "pj"
        r["caps"] = e["initial_capabilities"]
        r["total"] = g["total_ticks"]
        r["total_diff"] = e["total_ticks"] - g["total_ticks"]
        gs, es = json_stacks(g), json_stacks(e)
        worst = (0, 0, 0, None)
        for p in sorted(set(gs) | set(es)):
            a, b = gs.get(p, 0), es.get(p, 0)
            if abs(a - b) > worst[0]:
                worst = (abs(a - b), a, b, p)
        r["row"], r["ghc_row"], r["log_row"] = worst[:3]
        names = {c["id"]: c["label"] for c in g["cost_centres"]}
        r["where"] = "/".join(names.get(i, str(i)) for i in (worst[3] or ())[-2:]) or "-"
        r["row_pct"] = round(100.0 * worst[0] / g["total_ticks"], 1) if g["total_ticks"] else 0.0
        r["inh"] = None
    else:
        ev_text = run(evprof, ["report", log])
        m = re.search(r"ticks @ \d+ us, (\d+) processor", ghc_text)
        r["caps"] = int(m.group(1))
        gt, et = total_ticks(ghc_text), total_ticks(ev_text)
        r["total"], r["total_diff"] = gt, et - gt
        gr, er = prof_rows(ghc_text, True), prof_rows(ev_text, False)
        exact = any(v[2] is not None for v in gr.values())
        r["mode"] = "P" if exact else "p"
        worst = (0.0, 0.0, 0.0, None)
        for p in sorted(set(gr) | set(er)):
            g_, e_ = gr.get(p, (0.0, 0.0, 0)), er.get(p, (0.0, 0.0, 0))
            if exact:
                d, a, b = abs((g_[2] or 0) - e_[2]), g_[2] or 0, e_[2]
            else:
                if e_[0] == 0.0 and g_[0] == 0.0:
                    continue    # GHC's zero-tick rows
                d = abs(e_[0] - g_[0]) * gt / 100.0   # within 0.05% of gt
                a, b = g_[0] * gt / 100.0, e_[2]
            if d > worst[0] + 1e-9:
                worst = (d, a, b, p)
        r["row"] = round(worst[0])
        r["ghc_row"], r["log_row"] = round(worst[1]), round(worst[2])
        r["row_pct"] = round(100.0 * worst[0] / gt, 1) if gt else 0.0
        r["where"] = "/".join(k[0] for k in (worst[3] or ())[-2:]) or "-"
        r["inh"] = max([abs(er.get(p, (0.0, 0.0, 0))[1] - gr.get(p, (0.0, 0.0, 0))[1])
                        for p in set(gr) | set(er)] or [0.0])
    return r


def line_of(r):
    return ("run %s ghc=%s rts=%s caps=%d mode=%s total=%d total_diff=%+d row=%d "
            "row_pct=%.1f ghc_row=%d log_row=%d where=%s inh=%s"
            % (r["name"], r["ghc"], r["rts"], r["caps"], r["mode"], r["total"],
               r["total_diff"], r["row"], r["row_pct"], r["ghc_row"], r["log_row"],
               r["where"].replace(" ", "_"), "-" if r["inh"] is None else "%.1f" % r["inh"]))


def parse_line(l):
    """A `run` line back into its fields (what --summary reads)."""
    parts = l.split()
    assert parts[0] == "run", l
    r = {"name": parts[1]}
    for kv in parts[2:]:
        k, v = kv.split("=", 1)
        r[k] = v
    for k in ("caps", "total", "total_diff", "row", "ghc_row", "log_row"):
        r[k] = int(r[k])
    r["row_pct"] = float(r["row_pct"])
    r["inh"] = None if r["inh"] == "-" else float(r["inh"])
    r["prog"] = name_of(r["name"])[1]
    return r


def threaded(r):
    return "threaded" if "thr" in r["rts"].split("_") else "non-threaded"


def summary(rs):
    """The summary of a list of runs (compare's or parse_line's): a
    Markdown table, per GHC version and RTS all programs, then each."""
    out = ["| GHC | RTS | program | runs | all equal | total -p/-P | total -pj "
           "| a row, most as % of its run's total | a row, most ticks |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    groups = defaultdict(list)
    for r in rs:
        groups[(r["ghc"], threaded(r))].append(r)

    def figures(g):
        tot = [abs(r["total_diff"]) for r in g if r["mode"] != "pj"]
        totj = [abs(r["total_diff"]) for r in g if r["mode"] == "pj"]
        worst = max(g, key=lambda r: (r["row_pct"], r["row"], r["name"]))
        most = max(g, key=lambda r: (r["row"], r["row_pct"], r["name"]))
        equal = sum(1 for r in g if r["row"] == 0 and r["total_diff"] == 0 and
                    (r["mode"] != "p" or r["row_pct"] == 0.0))
        if worst["row"] == 0 and worst["row_pct"] == 0.0:
            rows = "equal | equal"
        else:
            rows = "%.1f%% (%d of %d ticks, %s) | %d (%s)" % (
                worst["row_pct"], worst["row"], worst["total"], worst["name"], most["row"],
                most["name"])
        return "%d | %d | %s | %s | %s" % (
            len(g), equal, max(tot) if tot else "-", max(totj) if totj else "-", rows)
    for k in sorted(groups, key=lambda k: (tuple(int(x) if x.isdigit() else 0
                                                   for x in k[0].split(".")), k[1])):
        g = groups[k]
        progs = sorted({r["prog"] for r in g})
        out.append("| %s | %s | all %d | %s |" % (k[0], k[1], len(progs), figures(g)))
        for p in progs:
            out.append("| | | %s | %s |" % (p, figures([r for r in g if r["prog"] == p])))
    return out


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--summary":
        rs = [parse_line(l) for l in open(sys.argv[2]) if l.startswith("run ")]
        print("\n".join(summary(rs)))
        return
    evprof, runs = sys.argv[1], sys.argv[2:]
    rs = []
    for spec in runs:
        log, ghcout = spec.split(":", 1)
        r = compare(evprof, log, ghcout)
        rs.append(r)
        print(line_of(r))
    print()
    print("\n".join(summary(rs)))


if __name__ == "__main__":
    main()
