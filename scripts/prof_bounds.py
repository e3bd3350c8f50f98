#!/usr/bin/env python3
"""How far GHC's own time profile of a run is from the eventlog's samples.

Usage: prof_bounds.py EVPROF RUN...   where each RUN is a pair of files
LOG:GHCOUT from one program run: an eventlog and GHC's .prof (text, from
+RTS -p) or its -pj JSON. Prints one line per run and, per group (the
GHC version and RTS flavour read from the log, plus the capabilities),
the worst figures:

  -p  runs: total ticks, GHC's .prof against `evprof report` (GHC's -p
      rules: built-in stacks not counted); each row with ticks: GHC's
      %time (one decimal) against evprof's, in points of %time and as
      ticks (GHC's %time of its own total, so +-0.05% of the total);
  -pj runs: total ticks (every tick counted), and per cost-centre stack
      the ticks of GHC's JSON against `evprof report --json`: exact.

Used by scripts/prof_bounds.sh (the runs) and for docs/PROF.md's bounds.
"""
import json
import re
import subprocess
import sys
from collections import defaultdict


def run(evprof, args):
    return subprocess.run([evprof] + args, check=True, capture_output=True).stdout.decode()


def rts_of(evprof, log):
    info = run(evprof, ["info", log])
    m = re.search(r"^rts: +(\S+) (\S+)", info, re.M)
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


def prof_rows(text, ghc, inherited=False):
    """Rows of a .prof tree: path of (label, module, src) -> individual
    %time (inherited: the inherited %time).
    Columns by the header's positions (labels and SRC may hold spaces);
    then GHC's rows end with no. entries %time %alloc %time %alloc,
    evprof's with %time ticks %time ticks."""
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines)
                 if l.startswith("COST CENTRE") and ("no." in l if ghc else "ticks" in l)
                 and i > 0 and "individual" in lines[i - 1])
    head = lines[start]
    at_mod, at_src = head.index("MODULE"), head.index("SRC")
    rows, stack = {}, []
    for l in lines[start + 2:]:
        if not l.strip():
            break
        depth = len(l) - len(l.lstrip(" "))
        nums = l[at_src:].split()
        nums = nums[-6:] if ghc else nums[-4:]
        src = l[at_src:].rsplit(None, len(nums))[0].strip() if ghc else \
            l[at_src:].rsplit(None, 4)[0].strip()
        if inherited:
            pct = float(nums[4] if ghc else nums[2])
        else:
            pct = float(nums[2] if ghc else nums[0])
        key = (l[:at_mod].strip(), l[at_mod:at_src].strip(), src)
        del stack[depth:]
        stack.append(key)
        rows[tuple(stack)] = rows.get(tuple(stack), 0.0) + pct
    return rows


def total_ticks(text):
    m = re.search(r"\((\d+) ticks @", text)
    return int(m.group(1))


def compare(evprof, log, ghcout):
    ghc_text = open(ghcout, encoding="utf-8", errors="replace").read()
    ver, flavour = rts_of(evprof, log)
    r = {"log": log, "ghc": ver, "rts": flavour}
    if ghc_text.lstrip().startswith("{"):
        g = json.loads(ghc_text, strict=False)
        e = json.loads(run(evprof, ["report", "--json", log]))
        r["mode"] = "pj"
        r["caps"] = e["initial_capabilities"]
        r["total"] = g["total_ticks"]
        r["total_diff"] = e["total_ticks"] - g["total_ticks"]
        gs, es = json_stacks(g), json_stacks(e)
        worst = (0, 0, 0, None)
        for p in set(gs) | set(es):
            a, b = gs.get(p, 0), es.get(p, 0)
            if abs(a - b) > worst[0]:
                worst = (abs(a - b), a, b, p)
        r["worst_ticks"], r["worst_ghc"], r["worst_ev"] = worst[:3]
        names = {c["id"]: c["label"] for c in g["cost_centres"]}
        r["where"] = "/".join(names.get(i, str(i)) for i in (worst[3] or ())[-2:])
        r["worst_rel"] = 100.0 * worst[0] / max(worst[1], worst[2]) if worst[0] else 0.0
        r["worst_pct"] = 100.0 * worst[0] / g["total_ticks"] if g["total_ticks"] else 0.0
        r["moved"] = sum(abs(gs.get(p, 0) - es.get(p, 0)) for p in set(gs) | set(es)) / 2
    else:
        ev_text = run(evprof, ["report", log])
        r["mode"] = "p"
        m = re.search(r"ticks @ \d+ us, (\d+) processor", ghc_text)
        r["caps"] = int(m.group(1))
        gt, et = total_ticks(ghc_text), total_ticks(ev_text)
        r["total"], r["total_diff"] = gt, et - gt
        gr, er = prof_rows(ghc_text, True), prof_rows(ev_text, False)
        worst = (0.0, 0.0, 0.0, None)
        for p in er:
            if er[p] == 0.0 and gr.get(p, 0.0) == 0.0:
                continue
            d = abs(er[p] - gr.get(p, 0.0))
            if d > worst[0]:
                worst = (d, gr.get(p, 0.0), er[p], p)
        r["worst_pts"] = worst[0]
        r["worst_ticks"] = round(worst[0] * gt / 100.0)
        r["worst_ghc"], r["worst_ev"] = worst[1], worst[2]
        r["where"] = "/".join(k[0] for k in (worst[3] or ())[-2:])
        # inherited %time: ticks that moved between a cost centre and its
        # callee stay inside the caller's inherited figure
        gi, ei = prof_rows(ghc_text, True, True), prof_rows(ev_text, False, True)
        r["worst_inh"] = max([abs(ei[p] - gi.get(p, 0.0)) for p in ei] or [0.0])
    return r


def main():
    evprof, runs = sys.argv[1], sys.argv[2:]
    groups = defaultdict(list)
    for spec in runs:
        log, ghcout = spec.split(":", 1)
        r = compare(evprof, log, ghcout)
        groups[(r["ghc"], r["rts"], r["caps"], r["mode"])].append(r)
        if r["mode"] == "pj":
            print("%-44s %s %-10s N%d -pj total %5d diff %+d  worst stack %d ticks (GHC %d, "
                  "log %d: %.0f%% of it, %.1f%% of total), ticks moved %.0f  [%s]"
                  % (log, r["ghc"], r["rts"], r["caps"], r["total"], r["total_diff"],
                     r["worst_ticks"], r["worst_ghc"], r["worst_ev"], r["worst_rel"],
                     r["worst_pct"], r["moved"], r["where"]))
        else:
            print("%-44s %s %-10s N%d -p  total %5d diff %+d  worst row %.1f points "
                  "(GHC %.1f%%, log %.1f%%: ~%d ticks)  [%s]  inherited %.1f points"
                  % (log, r["ghc"], r["rts"], r["caps"], r["total"], r["total_diff"],
                     r["worst_pts"], r["worst_ghc"], r["worst_ev"], r["worst_ticks"],
                     r["where"], r["worst_inh"]))
    print("\nworst per GHC, RTS, capabilities, mode (rows: the largest difference in ticks,"
          " and in points of %time, i.e. percent of the run's total, over the runs):")
    for k in sorted(groups):
        rs = groups[k]
        td = max(abs(r["total_diff"]) for r in rs)
        wt = max(r["worst_ticks"] for r in rs)
        if k[3] == "pj":
            wp = max(r["worst_pct"] for r in rs)
            exact = sum(1 for r in rs if r["worst_ticks"] == 0)
        else:
            wp = max(r["worst_pts"] for r in rs)
            exact = sum(1 for r in rs if r["worst_pts"] == 0)
        inh = "" if k[3] == "pj" else ", inherited %%time within %.1f points" % max(
            r["worst_inh"] for r in rs)
        print("  %s %-10s N%d -%-2s: %2d runs (%2d exact), total within %d ticks, a %s within "
              "%d ticks and %.1f%% of the total%s" % (k[0], k[1], k[2], k[3], len(rs), exact, td,
                                                     "stack" if k[3] == "pj" else "row", wt, wp,
                                                     inh))

if __name__ == "__main__":
    main()
