#!/usr/bin/env python3
"""The timeline of an `evprof html` page against evprof's own commands on
the same log (tests/cli/html.sh):

- bins: at most 1024, at least 512 once the first width (16 ms in all)
  was outgrown, each of the width the page says, the run inside them;
- the profile's ticks per bin add up to the profile's total, and so do
  its cells;
- a range of the profile's bins: every stack's ticks there are those of
  `evprof folded --from A --to B` (each folded stack counted at the
  deepest node of its path the page holds, and when the page keeps only
  the outer P frames, at its frame P), for random ranges;
- collections, allocation, the largest heap size and live data: those of
  `evprof gc --format json`, over the whole run and over a range of bins;
- each capability's mutator and GC time: gc's table, to the rounding of
  the per-mille lanes;
- the sparks per capability: the running sums of each counter's growth
  per bin are, at every bin's end, the values of the capability's latest
  SPARK_COUNTERS event in `evprof dump` (so at the last bin its last
  event's), the pool that event's `remaining`; summed over the
  capabilities, `evprof gc --format json`'s sparks;
- the marks: those `evprof info --format json` lists.

Usage: html_timeline.py EVPROF LOG PAGE [--ranges N] [--prefix] [--sparks-only]
       (--prefix: the page must keep prefixes, not whole stacks;
        --sparks-only: the bins and the sparks, nothing else)
Prints what it checked; exit 1 with the first failures.
"""
import json
import random
import re
import subprocess
import sys

evprof, log, page = sys.argv[1:4]
args = sys.argv[4:]
nranges = int(args[args.index('--ranges') + 1]) if '--ranges' in args else 6
want_prefix = '--prefix' in args
sparks_only = '--sparks-only' in args

s = open(page, encoding='utf-8').read()
D = json.loads(re.search(r'id="evprof-data">(.*?)</script>', s, re.S).group(1))
TL = D['timeline']
P = D.get('prof')


def unz(a):
    """a per-bin array with its runs of zeros as one negative number"""
    out = []
    for v in a:
        out.extend([0] * -v if v < 0 else [v])
    return out


for k in ('gc_count', 'gc_pause', 'samples'):
    TL[k] = unz(TL[k])
for g in ('threads', 'sparks', 'heap'):
    for k in TL.get(g, {}):
        if isinstance(TL[g][k], list):
            TL[g][k] = unz(TL[g][k])
for c in TL['caps']:
    c[1], c[2] = unz(c[1]), unz(c[2])
for c in TL.get('spark_caps', []):
    for k in c:
        if isinstance(c[k], list):
            c[k] = unz(c[k])
for lane in TL['lanes']:
    lane[0], lane[1] = unz(lane[0]), unz(lane[1])
fails = []
checked = [0]


def expect(what, got, want):
    checked[0] += 1
    if got != want:
        fails.append('%s: %r, want %r' % (what, got, want))


def run(*a):
    return subprocess.run([evprof, *a], capture_output=True, text=True, check=True).stdout


def secs(ns):
    return '%d.%09d' % (ns // 10**9, ns % 10**9)


bw, nb = TL['bin_ns'], TL['bins']
expect('bins at most 1024', nb <= 1024, True)
if bw > 16384:
    expect('at least 512 bins once the first width was outgrown', nb >= 512, True)
expect('the run inside the bins', TL['end_ns'] < nb * bw, True)
for k in ('gc_count', 'gc_pause', 'samples'):
    expect(k + ': one value a bin', len(TL[k]), nb)

# ---- the profile by time ------------------------------------------------
if P and P['total'] and not sparks_only:
    expect('ticks per bin add up to the total', sum(TL['samples']), P['total'])
    TP = TL['profile']
    expect('the profile by time is there', TP['status'], 'ok')
    expect('prefixes kept' if want_prefix else 'whole stacks kept', TP['prefix'] > 0, want_prefix)
    if TP['status'] != 'ok':
        print('\n'.join(fails[:6]))
        sys.exit(1)
    cells = TP.get('cells', [])
    expect('one cell list a profile bin', len(cells), TP['bins'])
    tot = 0
    per_bin = []
    for c in cells:
        row, node = {}, 0
        for k in range(0, len(c), 2):
            node += c[k]
            row[node] = row.get(node, 0) + c[k + 1]
            tot += c[k + 1]
        per_bin.append(row)
    expect('cells add up to the total', tot, P['total'])
    # the page's nodes by their path of names
    # as folded names frames: Module.label, GHC's built-ins and evprof's
    # own frames (the cut marker) by their label
    names = [cc[0] if cc[2] == '<built-in>' or cc[1] == '<evprof>' else '%s.%s' % (cc[1], cc[0])
             for cc in P['ccs']]
    n = len(P['parent'])
    path, depth, children = [None] * n, [0] * n, [{} for _ in range(n)]
    for i in range(n):
        p = P['parent'][i]
        path[i] = (names[P['cc'][i]],) if p < 0 else path[p] + (names[P['cc'][i]],)
        depth[i] = 0 if p < 0 else depth[p] + 1
        if p >= 0:
            children[p][names[P['cc'][i]]] = i

    def bucket(frames):
        """The page's node a folded stack counts at: the deepest of its
        path the page holds, at most `prefix` frames below MAIN."""
        node, d = 0, 0
        if frames[0] != 'MAIN':     # a stack GHC cut: under the cut marker
            frames = ['MAIN'] + frames
        for f in frames[1:]:
            cut = f.startswith('<stack cut')
            if not cut:
                d += 1          # the marker is no frame of the program's
            if TP['prefix'] and d > TP['prefix']:
                break
            nxt = children[node].get(f)
            if nxt is None:
                break
            node = nxt
        return path[node]

    rng = random.Random(30)
    nbins = TP['bins']
    ranges = [(0, nbins)] + [tuple(sorted(rng.sample(range(nbins + 1), 2))) for _ in range(nranges)]
    for b0, b1 in ranges:
        if b0 == b1:
            continue
        a, e = b0 * TP['bin_ns'], b1 * TP['bin_ns']
        got = {}
        for b in range(b0, b1):
            for node, t in per_bin[b].items():
                got[path[node]] = got.get(path[node], 0) + t
        want = {}
        for line in run('folded', '--from', secs(a), '--to', secs(e), log).splitlines():
            stack, t = line.rsplit(' ', 1)
            k = bucket(stack.split(';'))
            want[k] = want.get(k, 0) + int(t)
        got = {k: v for k, v in got.items() if v}
        expect('bins %d-%d (%s s to %s s): the stacks of folded --from --to' % (b0, b1, secs(a), secs(e)),
               got, want)

# ---- GC, heap, capabilities -----------------------------------------------
def gcjson(*a):
    return json.loads(run('gc', '--format', 'json', *a, log))

if D['summary']['holds']['gc'] and not sparks_only:
    G = gcjson()
    H = TL.get('heap', {})
    expect('collections: gc\'s', sum(TL['gc_count']), G['gcs'])
    if H:
        expect('allocation: gc\'s', sum(H['alloc']), G['allocated_bytes'])
        expect('largest heap size: gc\'s', max(H['size']), G['max_mem_in_use_bytes'])
        expect('largest live data: gc\'s', max(H['live']), G['max_live_bytes'])
    rng = random.Random(31)
    for _ in range(3):
        i0, i1 = sorted(rng.sample(range(nb + 1), 2))
        if i0 == i1:
            continue
        W = gcjson('--from', secs(i0 * bw), '--to', secs(i1 * bw))
        expect('bins %d-%d: collections' % (i0, i1), sum(TL['gc_count'][i0:i1]), W['gcs'])
        if H:
            expect('bins %d-%d: allocation' % (i0, i1), sum(H['alloc'][i0:i1]), W['allocated_bytes'])
            expect('bins %d-%d: heap size' % (i0, i1), max(H['size'][i0:i1]), W['max_mem_in_use_bytes'])
    caps = {c['cap']: c for c in G['capabilities']}
    for c in TL['caps']:
        g = caps.get(c[0])
        if not g:
            continue
        slack = nb * bw // 2000 + 1       # per mille of a bin, rounded
        for k, key in ((1, 'mutator_elapsed_ns'), (2, 'gc_elapsed_ns')):
            ns = sum(v * bw // 1000 for v in c[k])
            checked[0] += 1
            if abs(ns - g[key]) > slack:
                fails.append('capability %d: %s %d, gc says %d (slack %d)' % (c[0], key, ns, g[key], slack))

# ---- sparks per capability ------------------------------------------------
# dump: "T: cap N: spark stats: A created, B converted, C remaining
# (D overflowed, E dud, F GC'd, G fizzled)"
SPARK_RE = re.compile(r"^(\d+): cap (\d+): spark stats: (\d+) created, (\d+) converted, "
                      r"(\d+) remaining \((\d+) overflowed, (\d+) dud, (\d+) GC'd, (\d+) fizzled\)")
KINDS = ('created', 'converted', 'pool', 'overflowed', 'dud', 'gcd', 'fizzled')
counters = {}       # cap -> [(time, {kind: value})], in time order
for line in run('dump', log).splitlines():
    m = SPARK_RE.match(line)
    if m:
        v = [int(x) for x in m.groups()]
        counters.setdefault(v[1], []).append((v[0], dict(zip(KINDS, v[2:]))))
SC = {c['cap']: c for c in TL.get('spark_caps', [])}
expect('a sparks lane per capability with SPARK_COUNTERS', sorted(SC), sorted(counters))
for cap, evs in sorted(counters.items()):
    c = SC.get(cap)
    if not c:
        continue
    for k in KINDS:
        expect('cap %d sparks: %s one value a bin' % (cap, k), len(c[k]), nb)
    cum = {k: 0 for k in KINDS if k != 'pool'}
    pool, e, bad = None, 0, None
    for b in range(nb):
        for k in cum:
            cum[k] += c[k][b]
        if c['pool'][b]:
            pool = c['pool'][b] - 1
        seen = None
        while e < len(evs) and evs[e][0] < (b + 1) * bw:
            seen = evs[e][1]
            e += 1
        if seen is None:
            expect('cap %d bin %d: no SPARK_COUNTERS, no pool' % (cap, b), c['pool'][b], 0)
            continue
        if bad is None and ({k: seen[k] for k in cum} != cum):
            bad = 'cap %d bin %d: running sums %r, its last SPARK_COUNTERS %r' % (cap, b, cum, seen)
    checked[0] += 1
    if bad:
        fails.append(bad)
    last = evs[-1][1]
    expect('cap %d: the last cumulative values, its last SPARK_COUNTERS' % cap,
           cum, {k: last[k] for k in cum})
    # the pool: the largest remaining in the last bin with an event; the
    # last event's when it is alone there
    if len([t for t, _ in evs if t // bw == evs[-1][0] // bw]) == 1:
        expect('cap %d: the pool at the end, its last remaining' % cap, pool, last['pool'])
if counters and D['summary']['holds']['gc']:
    tot = {k: sum(sum(c[k]) for c in SC.values()) for k in ('created', 'converted', 'fizzled', 'gcd', 'dud', 'overflowed')}
    G = gcjson()
    expect('sparks over the capabilities: gc\'s', tot, {k: G['sparks'][k] for k in tot})

# ---- marks ------------------------------------------------------------------
info = json.loads(run('info', '--format', 'json', log))
if 'marks' in info and not sparks_only:
    M = D['marks']
    mine = [(M['labels'][m[1]][0], m[2], m[0]) for m in M['list']][:50]
    expect('the marks: info\'s', mine, [(m['label'], m['n'], m['time_ns']) for m in info['marks']])
    expect('the marks\' total', M['total'], info['marks_total'])

if fails:
    print('\n'.join(fails[:6]))
    sys.exit(1)
print('%d figures' % checked[0])
