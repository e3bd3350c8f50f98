/* evprof html: the page's views, drawn from the JSON block #evprof-data.
 * Plain JavaScript, no library (docs/HTML.md says why). Text from the log
 * only ever goes into the page as textContent or SVG text nodes, never as
 * markup. Errors are recorded in document.body.dataset.errors (the browser
 * test reads it) and shown in the view that failed. */
(function () {
  'use strict';
  var errors = [];
  function recordError(msg) {
    errors.push(String(msg));
    document.body.dataset.errors = errors.join('\n');
  }
  window.addEventListener('error', function (e) { recordError(e.message || 'error'); });

  var t0 = performance.now();   /* the page's own time, JSON parse included */
  var D = JSON.parse(document.getElementById('evprof-data').textContent);
  var tip = document.getElementById('tip');
  var PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1',
                 '#ff9da7', '#9c755f', '#bab0ac', '#2f4b7c', '#a05195', '#d45087', '#f95d6a',
                 '#ff7c43', '#ffa600', '#003f5c', '#665191', '#7aa6c2', '#8cd17d', '#b6992d'];

  /* ---- small helpers -------------------------------------------------- */
  /* control characters in log text shown as their Unicode pictures
   * (a newline in a cost-centre name as U+240A), never acted on */
  function vis(s) {
    return String(s).replace(/[\u0000-\u001f\u007f-\u009f]/g, function (c) {
      var k = c.charCodeAt(0);
      return k < 0x20 ? String.fromCharCode(0x2400 + k) : k === 0x7f ? '\u2421' : '\\x' + k.toString(16);
    });
  }
  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === 'text') e.textContent = tag === 'pre' ? attrs[k] : vis(attrs[k]);
      else if (k === 'title') e.setAttribute(k, vis(attrs[k]));
      else if (k === 'cls') e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    if (kids) kids.forEach(function (c) { if (c != null) e.appendChild(typeof c === 'string' ? document.createTextNode(vis(c)) : c); });
    return e;
  }
  var SVGNS = 'http://www.w3.org/2000/svg';
  function sv(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    if (attrs) for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function commas(n) { return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
  function bytes(n) {
    /* binary multiples, named as such: 1,947,779,536 bytes are 1.81 GiB */
    var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;
    while (n >= 1024 && i < u.length - 1) { n /= 1024; i++; }
    return (i ? n.toFixed(n < 10 ? 2 : n < 100 ? 1 : 0) : String(Math.round(n))) + ' ' + u[i];
  }
  function pct(x, total) { return total ? (100 * x / total).toFixed(1) + '%' : '-'; }
  function secs(ns) { return (ns / 1e9).toFixed(ns < 1e10 ? 3 : 1) + ' s'; }
  function body(id) { return document.querySelector('#v-' + id + ' .body'); }
  function none(id, msg) { body(id).appendChild(el('p', { cls: 'none', text: msg })); markEmpty(id); }
  function markEmpty(id) {
    var a = document.querySelector('nav a[data-tab="' + id + '"]');
    if (a) a.classList.add('empty');
  }
  function showTip(ev, lines) {
    tip.textContent = lines.map(vis).join('\n');
    tip.hidden = false;
    var x = ev.clientX + 14, y = ev.clientY + 14;
    var w = tip.offsetWidth, h = tip.offsetHeight;
    if (x + w > window.innerWidth - 4) x = Math.max(4, ev.clientX - w - 14);
    if (y + h > window.innerHeight - 4) y = Math.max(4, ev.clientY - h - 14);
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  }
  function hideTip() { tip.hidden = true; }
  function hashColor(s) {
    var h = 0;
    for (var i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
    return h >>> 0;
  }
  function matcher(q) {
    if (!q) return null;
    q = q.toLowerCase();
    return function (s) { return s.toLowerCase().indexOf(q) >= 0; };
  }

  /* A sortable table: cols [{t: title, v: row -> value, f: value -> text,
   * num: 1}], at most `limit` rows drawn until "show all". */
  function table(parent, cols, rows, opts) {
    opts = opts || {};
    var sortCol = opts.sort != null ? opts.sort : -1, desc = true, limit = opts.limit || 1000;
    var filter = null;
    var wrap = el('div', { cls: 'scroll' }), t = el('table'), thead = el('thead'), tb = el('tbody');
    var more = el('div', { cls: 'note' });
    var tr = el('tr');
    cols.forEach(function (c, i) {
      var th = el('th', { cls: 'sort' + (c.num ? ' num' : ''), text: c.t, title: c.def ? c.def + ' (click: sort)' : 'sort' });
      th.addEventListener('click', function () {
        if (sortCol === i) desc = !desc; else { sortCol = i; desc = !!c.num; }
        draw();
      });
      tr.appendChild(th);
    });
    thead.appendChild(tr);
    t.appendChild(thead);
    t.appendChild(tb);
    wrap.appendChild(t);
    parent.appendChild(wrap);
    parent.appendChild(more);
    function draw() {
      var rs = filter ? rows.filter(filter) : rows.slice();
      if (sortCol >= 0) {
        var c = cols[sortCol];
        rs.sort(function (a, b) {
          var x = c.v(a), y = c.v(b), r = x < y ? -1 : x > y ? 1 : 0;
          return desc ? -r : r;
        });
      }
      tb.textContent = '';
      var n = Math.min(rs.length, limit);
      var frag = document.createDocumentFragment();
      for (var i = 0; i < n; i++) {
        var row = el('tr');
        cols.forEach(function (c) {
          var v = c.v(rs[i]);
          row.appendChild(el('td', { cls: c.num ? 'num' : 'name', text: c.f ? c.f(v, rs[i]) : String(v) }));
        });
        if (opts.onrow) opts.onrow(row, rs[i]);
        frag.appendChild(row);
      }
      tb.appendChild(frag);
      more.textContent = '';
      if (rs.length > n) {
        more.appendChild(document.createTextNode(n + ' of ' + rs.length + ' rows shown. '));
        var b = el('button', { text: 'show all' });
        b.addEventListener('click', function () { limit = Infinity; draw(); });
        more.appendChild(b);
      }
    }
    draw();
    return { setFilter: function (f) { filter = f; draw(); }, redraw: draw };
  }

  /* A chart over time: xs (ns), series [{name, v: [..], color}], stacked
   * areas or lines; hover shows every series' value at the nearest x. */
  function chart(parent, xs, series, opts) {
    var W = Math.max(600, Math.min(1400, (parent.clientWidth || 1100) - 4)), H = opts.height || 300;
    var L = 78, R = 12, T = 10, B = 28, n = xs.length;
    var svg = sv('svg', { 'class': 'chart', width: W, height: H, viewBox: '0 0 ' + W + ' ' + H });
    var x0 = n ? xs[0] : 0, x1 = n ? xs[n - 1] : 1;
    if (x1 <= x0) x1 = x0 + 1;
    var tops = [], ymax = 0, acc = new Array(n).fill(0);
    series.forEach(function (s) {
      var top = new Array(n);
      for (var i = 0; i < n; i++) {
        top[i] = opts.stacked ? acc[i] + s.v[i] : s.v[i];
        if (opts.stacked) acc[i] = top[i];
        if (top[i] > ymax) ymax = top[i];
      }
      tops.push(top);
    });
    if (!ymax) ymax = 1;
    function X(t) { return L + (W - L - R) * (t - x0) / (x1 - x0); }
    function Y(v) { return T + (H - T - B) * (1 - v / ymax); }
    for (var g = 0; g <= 4; g++) {
      var yv = ymax * g / 4, yy = Y(yv);
      svg.appendChild(sv('line', { x1: L, x2: W - R, y1: yy, y2: yy, stroke: '#eceff2' }));
      var lab = sv('text', { x: L - 6, y: yy + 4, 'text-anchor': 'end' });
      lab.textContent = opts.fy ? opts.fy(yv) : String(yv);
      svg.appendChild(lab);
    }
    for (g = 0; g <= 5; g++) {
      var xv = x0 + (x1 - x0) * g / 5, xx = X(xv);
      var lx = sv('text', { x: xx, y: H - 8, 'text-anchor': g === 0 ? 'start' : g === 5 ? 'end' : 'middle' });
      lx.textContent = secs(xv);
      svg.appendChild(lx);
    }
    tops.forEach(function (top, si) {
      var d = '', i;
      for (i = 0; i < n; i++) d += (i ? 'L' : 'M') + X(xs[i]).toFixed(1) + ',' + Y(top[i]).toFixed(1);
      if (opts.stacked) {
        var below = si ? tops[si - 1] : null;
        for (i = n - 1; i >= 0; i--) d += 'L' + X(xs[i]).toFixed(1) + ',' + Y(below ? below[i] : 0).toFixed(1);
        d += 'Z';
        svg.appendChild(sv('path', { d: d, fill: series[si].color, stroke: 'none', opacity: 0.9 }));
      } else {
        svg.appendChild(sv('path', { d: d, fill: 'none', stroke: series[si].color, 'stroke-width': 1.6 }));
      }
    });
    /* the program's marks, a dashed line each (a label where there is room) */
    var lastLabel = -1e9;
    MARKS.forEach(function (m) {
      if (m[0] < x0 || m[0] > x1) return;
      var xx = X(m[0]);
      svg.appendChild(sv('line', { x1: xx, x2: xx, y1: T, y2: H - B, stroke: MARK_COLOR, 'stroke-dasharray': '2,3', 'class': 'mark' }));
      if (xx - lastLabel > 60) {
        var ml = sv('text', { x: xx + 2, y: T + 9, 'class': 'mark' });
        ml.textContent = vis(markName(m));
        svg.appendChild(ml);
        lastLabel = xx;
      }
    });
    /* the timeline's selection, shaded */
    var shade = sv('rect', { y: T, height: H - T - B, x: L, width: 0, fill: 'rgba(31,111,235,.13)', visibility: 'hidden' });
    svg.appendChild(shade);
    CHARTS.push(function (r) {
      if (!r || r.b < x0 || r.a > x1) { shade.setAttribute('visibility', 'hidden'); return; }
      var a = X(Math.max(r.a, x0)), e = X(Math.min(r.b, x1));
      shade.setAttribute('x', a);
      shade.setAttribute('width', Math.max(1, e - a));
      shade.setAttribute('visibility', 'visible');
    });
    CHARTS[CHARTS.length - 1](RANGE);
    var cursor = sv('line', { y1: T, y2: H - B, stroke: '#333', 'stroke-dasharray': '3,3', visibility: 'hidden' });
    svg.appendChild(cursor);
    svg.addEventListener('mousemove', function (ev) {
      if (!n) return;
      var r = svg.getBoundingClientRect(), px = (ev.clientX - r.left) * W / r.width;
      var t = x0 + (px - L) / (W - L - R) * (x1 - x0), lo = 0, hi = n - 1;
      while (lo < hi) { var mid = (lo + hi) >> 1; if (xs[mid] < t) lo = mid + 1; else hi = mid; }
      if (lo > 0 && Math.abs(xs[lo - 1] - t) < Math.abs(xs[lo] - t)) lo--;
      cursor.setAttribute('x1', X(xs[lo]));
      cursor.setAttribute('x2', X(xs[lo]));
      cursor.setAttribute('visibility', 'visible');
      var lines = [secs(xs[lo])];
      var rows = series.map(function (s) { return [s.name, s.v[lo]]; });
      if (opts.stacked) rows = rows.filter(function (r) { return r[1] > 0; }).sort(function (a, b) { return b[1] - a[1]; });
      if (opts.stacked) lines.push('total ' + (opts.fy || String)(acc[lo]));
      rows.slice(0, 15).forEach(function (r) { lines.push((opts.fy || String)(r[1]) + '  ' + r[0]); });
      if (rows.length > 15) lines.push('... ' + (rows.length - 15) + ' more');
      showTip(ev, lines);
    });
    svg.addEventListener('mouseleave', function () { cursor.setAttribute('visibility', 'hidden'); hideTip(); });
    parent.appendChild(svg);
    var leg = el('div', { cls: 'legend' });
    series.forEach(function (s) {
      leg.appendChild(el('div', { title: s.name }, [el('span', { cls: 'sw', style: 'background:' + s.color }), s.label || s.name]));
    });
    parent.appendChild(leg);
    return svg;
  }

  /* The timeline's per-bin arrays come with their runs of zeros as one
   * negative number (-k: k zeros): expanded here, once. */
  (function expandTimeline() {
    var TL = D.timeline;
    if (!TL) return;
    function unz(a) {
      if (!Array.isArray(a)) return a;
      var out = [];
      for (var i = 0; i < a.length; i++) {
        if (a[i] < 0) for (var k = 0; k < -a[i]; k++) out.push(0);
        else out.push(a[i]);
      }
      return out;
    }
    ['gc_count', 'gc_pause', 'samples'].forEach(function (k) { TL[k] = unz(TL[k]); });
    ['threads', 'sparks', 'heap'].forEach(function (g) {
      if (TL[g]) Object.keys(TL[g]).forEach(function (k) { TL[g][k] = unz(TL[g][k]); });
    });
    TL.caps.forEach(function (c) { c[1] = unz(c[1]); c[2] = unz(c[2]); });
    TL.lanes.forEach(function (l) { l[0] = unz(l[0]); l[1] = unz(l[1]); });
    (TL.spark_caps || []).forEach(function (c) { Object.keys(c).forEach(function (k) { c[k] = unz(c[k]); }); });
  })();

  /* ---- marks and the selected range ------------------------------------ */
  /* The program's marks (traceMarker): [time, label index, N], the first
   * 1000 in time order; each chart draws them. */
  var MARKS = (D.marks && D.marks.list) || [];
  var MARK_COLOR = '#8e44ad';
  function markName(m) { return D.marks.labels[m[1]][0] + ' #' + m[2]; }
  var CHARTS = [];      /* each chart's shading of the range */
  var RANGE = null;     /* {a, b}: the range selected on the timeline, ns */
  var onRange = [];     /* what follows the range: the profile's views, GC and heap figures */
  var KIDS = null;      /* the tree's children, unsorted */
  function kidsOf() {
    if (KIDS) return KIDS;
    var P = D.prof, n = P.parent.length;
    KIDS = new Array(n);
    for (var i = 0; i < n; i++) KIDS[i] = [];
    for (i = 1; i < n; i++) if (P.parent[i] >= 0) KIDS[P.parent[i]].push(i);
    return KIDS;
  }
  /* Depth-first over the tree from MAIN: enter(n), leave(n); nodes
   * without ticks under the profile R are skipped. */
  function walkTree(R, enter, leave) {
    var kids = kidsOf(), stack = [0], out = [];
    while (stack.length) {
      var n = stack.pop();
      if (n < 0) { leave(~n); continue; }
      if (n && !R.inh[n]) continue;
      enter(n);
      stack.push(~n);
      for (var k = kids[n].length - 1; k >= 0; k--) stack.push(kids[n][k]);
    }
    return out;
  }
  /* The flat table of a profile: [cc, individual, inherited (each stack
   * once however often the cost centre recurs in it)]. */
  function flatOf(R) {
    var nc = R.ccs.length, self = new Array(nc).fill(0), inh = new Array(nc).fill(0),
        active = new Int32Array(nc), rows = [];
    walkTree(R, function (n) {
      var c = R.cc[n];
      self[c] += R.ticks[n];
      if (active[c]++ === 0) inh[c] += R.inh[n];
    }, function (n) { active[R.cc[n]]--; });
    for (var c = 0; c < nc; c++) if (self[c] || inh[c]) rows.push([c, self[c], inh[c]]);
    return rows;
  }
  /* The profile of the timeline's profile bins [b0, b1): the page's tree,
   * each node's ticks summed over those bins (a stack the page does not
   * hold counts at its nearest ancestor it holds). */
  function rangeProfile(b0, b1) {
    var P = D.prof, TP = D.timeline.profile, n = P.parent.length, ticks = new Array(n).fill(0);
    for (var bi = b0; bi < b1; bi++) {
      var c = TP.cells[bi], node = 0;
      for (var k = 0; k < c.length; k += 2) { node += c[k]; ticks[node] += c[k + 1]; }
    }
    var inh = ticks.slice();
    for (var i = n - 1; i > 0; i--) inh[P.parent[i]] += inh[i];
    var R = { ccs: P.ccs, parent: P.parent, cc: P.cc, ticks: ticks, inh: inh, total: n ? inh[0] : 0,
              interval_ns: P.interval_ns, samples: P.samples, ignored: 0, nodes_all: P.nodes_all,
              range: [b0 * TP.bin_ns, b1 * TP.bin_ns] };
    R.flat = flatOf(R);
    return R;
  }
  /* Selects [a, b) ns (null: none): the profile's views show the range
   * snapped outwards to the timeline's profile bins, the GC and heap tabs
   * its figures, every chart shades it. */
  function setRange(a, b) {
    var TP = D.timeline && D.timeline.profile;
    if (a == null || b == null || isNaN(a) || isNaN(b)) RANGE = null;
    else RANGE = { a: Math.max(0, Math.min(a, b)), b: Math.max(a, b) };
    var ds = document.body.dataset;
    if (RANGE && D.prof && TP && TP.cells) {
      var b0 = Math.max(0, Math.floor(RANGE.a / TP.bin_ns)), b1 = Math.min(TP.bins, Math.ceil(RANGE.b / TP.bin_ns));
      if (b1 <= b0) b1 = Math.min(TP.bins, b0 + 1);
      PR = rangeProfile(b0, b1);
      ds.rangeFrom = PR.range[0];
      ds.rangeTo = PR.range[1];
    } else {
      PR = D.prof;
      delete ds.rangeFrom;
      delete ds.rangeTo;
    }
    if (PR) ds.rangeTicks = PR.total;
    onRange.forEach(function (f) {
      try { f(); } catch (e) { recordError('range: ' + (e && e.stack || e)); }
    });
    CHARTS.forEach(function (f) { f(RANGE); });
  }
  /* For scripts (the browser test): select a range in ns, or clear it. */
  window.evprofRange = function (a, b) {
    setRange(a, b);
    return { from: PR && PR.range ? PR.range[0] : null, to: PR && PR.range ? PR.range[1] : null,
             ticks: PR ? PR.total : 0 };
  };
  function rangeText(r) { return secs(r.a) + ' to ' + secs(r.b); }
  /* Lane bins [i0, i1) of the timeline that cover the range. */
  function laneBins(r) {
    var TL = D.timeline, bw = TL.bin_ns;
    return [Math.max(0, Math.floor(r.a / bw)), Math.min(TL.bins, Math.max(Math.ceil(r.b / bw), Math.floor(r.a / bw) + 1))];
  }
  function sumBins(a, i0, i1) { var s = 0; if (a) for (var i = i0; i < i1; i++) s += a[i]; return s; }
  function maxBins(a, i0, i1) { var s = 0; if (a) for (var i = i0; i < i1; i++) if (a[i] > s) s = a[i]; return s; }

  /* Callers and callees of the cost centres named `name` (Module.label) in
   * profile R: the ticks of the stacks through them, and per caller and
   * callee through that call, a stack once however often it passes there
   * (evprof report --callers). */
  function sandwich(R, name) {
    var out = { inh: 0, self: 0, callers: {}, callees: {} }, active = 0, eact = {};
    walkTree(R, function (n) {
      var nm = ccName(R.cc[n]);
      if (nm === name) {
        if (active++ === 0) out.inh += R.inh[n];
        out.self += R.ticks[n];
      }
      if (!n) return;
      var pn = ccName(R.cc[R.parent[n]]);
      if (nm !== name && pn !== name) return;
      var key = pn + '\u0000' + nm;
      if ((eact[key] = (eact[key] || 0) + 1) === 1) {
        if (nm === name) out.callers[pn] = (out.callers[pn] || 0) + R.inh[n];
        if (pn === name) out.callees[nm] = (out.callees[nm] || 0) + R.inh[n];
      }
    }, function (n) {
      var nm = ccName(R.cc[n]);
      if (nm === name) active--;
      if (!n) return;
      var pn = ccName(R.cc[R.parent[n]]);
      if (nm === name || pn === name) eact[pn + '\u0000' + nm]--;
    });
    return out;
  }

  /* ---- summary ------------------------------------------------------- */
  var HOW = {
    prof: 'build with -prof (e.g. ghc -prof -fprof-auto) and run with +RTS -p -l',
    heap: 'run with +RTS -hT -l (any build), or -hc, -hy, -hd, ... with a -prof build',
    gc: 'run with +RTS -l (the GC class g is in the default event classes)',
    ticky: 'build with -ticky (GHC 9.2 or later) and run with +RTS -lT'
  };
  var WHAT = { prof: 'Time profile', heap: 'Heap profile', gc: 'GC events', ticky: 'Ticky counters' };

  function summary() {
    var S = D.summary, b = body('summary');
    document.getElementById('source').textContent = S.source || '';
    var t = el('table', { cls: 'kv' });
    function row(k, v) { t.appendChild(el('tr', null, [el('th', { text: k }), el('td', null, [v])])); }
    row('Program', S.program == null ? '(not in the log)' : S.program);
    row('Arguments', S.args.length ? S.args.join(' ') : '(none)');
    row('RTS options', S.rts_args.length ? S.rts_args.join(' ') : '(none)');
    row('RTS', S.rts == null ? '(not in the log)' : S.rts);
    row('Capabilities', S.caps ? String(S.caps) : '(not in the log)');
    row('Time span', secs(S.first_ns) + ' to ' + secs(S.last_ns) + ' on the log\'s clock (' + secs(S.last_ns - S.first_ns) + ')');
    row('Wall-clock start', S.wall_start || '(not in the log)');
    if (S.pid != null) row('Process id', String(S.pid));
    row('Log', commas(S.bytes) + ' bytes, ' + commas(S.events) + ' events');
    var dmg = el('div');
    if (!S.damage.length) dmg.textContent = 'none: the log was read to its end';
    S.damage.forEach(function (m) { dmg.appendChild(el('div', { cls: 'warn', text: m })); });
    row('Damage', dmg);
    b.appendChild(t);
    b.appendChild(el('h3', { text: 'What the log holds' }));
    var a = el('table', { cls: 'kv' });
    ['prof', 'heap', 'gc', 'ticky'].forEach(function (k) {
      var have = S.holds[k];
      a.appendChild(el('tr', null, [el('th', { text: WHAT[k] }),
        el('td', { text: have ? 'yes' : 'no: ' + HOW[k] })]));
    });
    b.appendChild(a);
    if (D.prof) {
      var P = D.prof;
      b.appendChild(el('h3', { text: 'Time profile at a glance' }));
      b.appendChild(el('p', { text: commas(P.total) + ' ticks' + (P.interval_ns ? ' of ' + (P.interval_ns / 1e6) + ' ms' : '') +
        '; the most expensive cost centre: ' + topCostCentre() }));
    }
    if (D.gc && D.gc.report) {
      b.appendChild(el('p', { text: 'GC: ' + commas(D.gc.collections) + ' collections, ' + bytes(D.gc.allocated) +
        ' allocated, ' + bytes(D.gc.max_live) + ' maximum residency, productivity ' + (100 * D.gc.productivity).toFixed(1) + '%' }));
    }
  }

  /* ---- time profile -------------------------------------------------- */
  var T = null;   /* the tree: kids, names */
  /* The profile shown: the whole run's (D.prof), or a range's, made from
   * the timeline's cells (rangeProfile) with the same nodes. */
  var PR = D.prof;
  /* Module.label; GHC's built-ins (MAIN, GC, IDLE, ...: module = label,
   * <built-in>) by their label alone: the root is MAIN, not MAIN.MAIN; a
   * namesake (its Module.label at other places too) as "Module.label
   * (SRC)", as evprof folded names it: no two cost centres read the same */
  function ccName(i) {
    var c = D.prof.ccs[i];
    if (c[1] === c[0] && c[2] === '<built-in>') return c[0];
    return c[1] + '.' + c[0] + (c[4] ? ' (' + c[2] + ')' : '');
  }
  function buildTree() {
    var P = PR, n = P.parent.length, kids = new Array(n);
    for (var i = 0; i < n; i++) kids[i] = [];
    for (i = 1; i < n; i++) if (P.parent[i] >= 0) kids[P.parent[i]].push(i);
    var depth = new Array(n).fill(0), maxDepth = 0;
    for (i = 1; i < n; i++) { depth[i] = depth[P.parent[i]] + 1; if (depth[i] > maxDepth) maxDepth = depth[i]; }
    T = { n: n, kids: kids, depth: depth, maxDepth: maxDepth };
    kids.forEach(function (k) { k.sort(function (a, b) { return P.inh[b] - P.inh[a]; }); });
  }
  function topCostCentre() {
    var best = null;
    D.prof.flat.forEach(function (f) { if (!best || f[1] > best[1]) best = f; });
    return best ? ccName(best[0]) + ' (' + pct(best[1], D.prof.total) + ' of the ticks, individual)' : '-';
  }

  /* When the timeline's cells keep only the outer frames of each stack. */
  function prefixNote() {
    var p = D.timeline && D.timeline.profile && D.timeline.profile.prefix;
    return p ? '; by time the page keeps each stack\'s outer ' + p + ' frames (the run has too many distinct stacks ' +
      'for more), so a range\'s ticks deeper than that count at their frame ' + p : '';
  }

  /* The range the profile's views show, said at their top. */
  function rangeNote(b, P) {
    if (!P || !P.range) return;
    b.appendChild(el('p', { cls: 'selnote', text: 'The range ' + rangeText(RANGE) + ' selected on the timeline: ' +
      commas(P.total) + ' ticks from ' + secs(P.range[0]) + ' to ' + secs(P.range[1]) + ' (the range widened to the timeline\'s ' +
      D.timeline.profile.bins + ' bins of ' + secs(D.timeline.profile.bin_ns) + ')' + prefixNote() + '. Clear it on the timeline for the whole run.' }));
  }

  function profView() {
    var P = PR, b = body('prof');
    document.body.dataset.profTicks = P ? P.total : 0;
    rangeNote(b, P);
    if (P && P.range && !P.total) { b.appendChild(el('p', { cls: 'none', text: 'No ticks in the selected range.' })); return; }
    if (!P || !P.total) {
      none('prof', P ? 'The log has time-profile samples, but none counted (all in built-in stacks).' :
        'No time-profile samples (event 167) in this log: ' + HOW.prof + '.');
      return;
    }
    b.appendChild(el('p', { cls: 'note', text: commas(P.total) + ' ticks' +
      (P.interval_ns ? ' of ' + (P.interval_ns / 1e6) + ' ms' : '') + '; ' +
      (P.ignored ? commas(P.ignored) + ' ticks in GHC\'s built-in stacks (GC, IDLE, ...) not counted, as +RTS -p does. ' : '') +
      'Individual: ticks whose stack ends at the node; inherited: the node and everything under it.' }));
    if (P.parent.length < P.nodes_all)
      b.appendChild(el('p', { cls: 'warn', text: 'The tree holds the ' + commas(P.parent.length) + ' heaviest of ' +
        commas(P.nodes_all) + ' cost-centre stacks (evprof html --max-nodes); an inherited figure still counts what was cut.' }));
    var tools = el('div', { cls: 'tools' });
    var q = el('input', { type: 'search', placeholder: 'search cost centres (Module.label)' });
    var exp = el('button', { text: 'expand all' }), col = el('button', { text: 'collapse' });
    var info = el('span', { cls: 'note' });
    tools.appendChild(q); tools.appendChild(exp); tools.appendChild(col); tools.appendChild(info);
    b.appendChild(tools);
    var wrap = el('div', { cls: 'scroll' }), t = el('table', { cls: 'tree' }), tb = el('tbody');
    var sortKey = 'inh', open = new Uint8Array(T.n), hits = null;
    /* figures first: a deep stack's indentation then only widens the
     * name column, never pushes the figures out of sight */
    var cols = [['individual %', 'ticks'], ['inherited %', 'inh'], ['ticks', 'ticks'], ['inherited ticks', 'inh'],
                ['COST CENTRE', 'name'], ['MODULE', 'module'], ['SRC', 'src']];
    var hr = el('tr');
    cols.forEach(function (c, i) {
      var th = el('th', { cls: 'sort' + (i < 4 ? ' num' : ''), text: c[0] });
      if (c[1] !== 'src') th.addEventListener('click', function () { sortKey = c[1]; draw(); });
      hr.appendChild(th);
    });
    t.appendChild(el('thead', null, [hr]));
    t.appendChild(tb);
    wrap.appendChild(t);
    b.appendChild(wrap);
    /* open the heavy part: nodes with at least 2% inherited, 200 at most */
    var budget = 200;
    (function openHeavy(i) {
      if (budget-- <= 0) return;
      open[i] = 1;
      T.kids[i].forEach(function (k) { if (P.inh[k] * 50 >= P.total) openHeavy(k); });
    })(0);
    function cmp(a, b) {
      if (sortKey === 'name') return ccName(P.cc[a]) < ccName(P.cc[b]) ? -1 : 1;
      if (sortKey === 'module') return P.ccs[P.cc[a]][1] < P.ccs[P.cc[b]][1] ? -1 : 1;
      var x = P[sortKey][b] - P[sortKey][a];
      return x || P.inh[b] - P.inh[a];
    }
    function draw() {
      tb.textContent = '';
      var frag = document.createDocumentFragment(), rows = 0, LIMIT = 5000;
      var stack = [0];
      while (stack.length && rows < LIMIT) {
        var i = stack.pop();
        if (hits && !hits.show[i]) continue;
        if (i && !P.inh[i]) continue;       /* nothing in the selected range */
        rows++;
        var c = P.ccs[P.cc[i]], k = T.kids[i];
        var tw = el('span', { cls: 'tw', text: k.length ? (open[i] ? '\u25be' : '\u25b8') : '' });
        tw.dataset.node = i;
        var nameCell = el('td', { cls: 'name', title: c[1] + '.' + c[0] + (c[2] ? '  ' + c[2] : '') });
        nameCell.style.paddingLeft = (4 + 12 * T.depth[i]) + 'px';
        nameCell.appendChild(tw);
        nameCell.appendChild(document.createTextNode(vis(c[0])));
        var w = Math.round(60 * P.inh[i] / P.total);
        var tr = el('tr', null, [el('td', { cls: 'num', text: pct(P.ticks[i], P.total) }),
          el('td', { cls: 'num' }, [el('span', { cls: 'bar', style: 'width:' + w + 'px' }), pct(P.inh[i], P.total)]),
          el('td', { cls: 'num', text: commas(P.ticks[i]) }), el('td', { cls: 'num', text: commas(P.inh[i]) }),
          nameCell, el('td', { cls: 'name', text: c[1] }), el('td', { cls: 'name', text: c[2] })]);
        if (hits && hits.hit[i]) tr.className = 'hit';
        frag.appendChild(tr);
        if (open[i] || (hits && k.length)) {
          var ks = k.slice().sort(cmp);
          for (var j = ks.length - 1; j >= 0; j--) stack.push(ks[j]);
        }
      }
      tb.appendChild(frag);
      if (rows >= LIMIT) tb.appendChild(el('tr', null, [el('td', { cls: 'note', colspan: 7, text: 'first ' + LIMIT + ' rows shown: collapse or search to see the rest' })]));
    }
    tb.addEventListener('click', function (ev) {
      var n = ev.target.dataset && ev.target.dataset.node;
      if (n == null) return;
      open[n] = open[n] ? 0 : 1;
      draw();
    });
    exp.addEventListener('click', function () { open.fill(1); draw(); });
    col.addEventListener('click', function () { open.fill(0); open[0] = 1; draw(); });
    var timer = null;
    q.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var m = matcher(q.value.trim());
        if (!m) { hits = null; info.textContent = ''; draw(); return; }
        var show = new Uint8Array(T.n), hit = new Uint8Array(T.n), count = 0, ticks = 0;
        for (var i = 0; i < T.n; i++) {
          if (!m(ccName(P.cc[i]))) continue;
          hit[i] = 1; count++; ticks += P.ticks[i];
          for (var j = i; j >= 0 && !show[j]; j = P.parent[j]) show[j] = 1;
        }
        hits = { show: show, hit: hit };
        info.textContent = count + ' matching stacks, ' + pct(ticks, P.total) + ' of the ticks (individual)';
        draw();
      }, 150);
    });
    draw();

    b.appendChild(el('h3', { text: 'Cost centres' }));
    b.appendChild(el('p', { cls: 'note', text: 'Every cost centre with ticks: individual ticks summed over its stacks; inherited counts each stack once, however often the cost centre recurs in it.' }));
    var fq = el('input', { type: 'search', placeholder: 'filter' });
    b.appendChild(el('div', { cls: 'tools' }, [fq]));
    var ft = table(b, [
      { t: 'COST CENTRE', v: function (r) { return P.ccs[r[0]][0]; } },
      { t: 'MODULE', v: function (r) { return P.ccs[r[0]][1]; } },
      { t: 'SRC', v: function (r) { return P.ccs[r[0]][2]; } },
      { t: 'individual %', num: 1, v: function (r) { return r[1]; }, f: function (v) { return pct(v, P.total); } },
      { t: 'inherited %', num: 1, v: function (r) { return r[2]; }, f: function (v) { return pct(v, P.total); } },
      { t: 'ticks', num: 1, v: function (r) { return r[1]; }, f: commas },
      { t: 'inherited ticks', num: 1, v: function (r) { return r[2]; }, f: commas }
    ], P.flat, { sort: 3, limit: 500, onrow: function (tr, r) {
      tr.style.cursor = 'pointer';
      tr.title = 'its callers and callees (below)';
      tr.addEventListener('click', function () { pick(ccName(r[0])); sw.scrollIntoView({ block: 'nearest' }); });
    } });
    fq.addEventListener('input', function () {
      var m = matcher(fq.value.trim());
      ft.setFilter(m ? function (r) { return m(ccName(r[0])); } : null);
    });

    /* callers and callees ("sandwich") of one cost centre */
    b.appendChild(el('h3', { text: 'Callers and callees' }));
    b.appendChild(el('p', { cls: 'note', text: 'A cost centre (a click on a row above, or its Module.label here): the ticks ' +
      'of the stacks through it, and per caller and callee the ticks of the stacks through that call; a stack counts once ' +
      'however often it passes there (evprof report --callers).' }));
    var names = {}, opts = [];
    /* by individual ticks (the hot ones first), then inherited */
    P.flat.forEach(function (r) {
      var nm = ccName(r[0]);
      if (!names[nm]) { names[nm] = [nm, 0, 0]; opts.push(names[nm]); }
      names[nm][1] += r[1];
      names[nm][2] = Math.max(names[nm][2], r[2]);
    });
    opts.sort(function (x, y) { return y[1] - x[1] || y[2] - x[2] || (x[0] < y[0] ? -1 : 1); });
    var sel = el('select', { cls: 'sandwich-pick' });
    opts.forEach(function (o) { sel.appendChild(el('option', { value: o[0], text: o[0] })); });
    var sw = el('div', { cls: 'sandwich' });
    b.appendChild(el('div', { cls: 'tools' }, [sel]));
    b.appendChild(sw);
    function callTable(title, rows) {
      var t = el('table', { cls: 'calls' }), tb = el('tbody');
      t.appendChild(el('thead', null, [el('tr', null, [el('th', { cls: 'num', text: 'ticks' }), el('th', { cls: 'num', text: '%' }),
        el('th', { text: title })])]));
      if (!rows.length) tb.appendChild(el('tr', null, [el('td', { cls: 'num', text: '' }), el('td', { cls: 'num', text: '' }),
        el('td', { cls: 'none', text: '(none)' })]));
      rows.forEach(function (r) {
        var tr = el('tr', null, [el('td', { cls: 'num', text: commas(r[1]) }), el('td', { cls: 'num', text: pct(r[1], P.total) }),
          el('td', { cls: 'name', text: r[0] })]);
        tr.style.cursor = 'pointer';
        tr.addEventListener('click', function () { pick(r[0]); });
        tb.appendChild(tr);
      });
      t.appendChild(tb);
      return t;
    }
    function pick(name) {
      if (!names[name]) return;
      SANDWICH = name;
      sel.value = name;
      var x = sandwich(P, name);
      function rows(o) {
        return Object.keys(o).map(function (k) { return [k, o[k]]; })
          .sort(function (u, v) { return v[1] - u[1] || (u[0] < v[0] ? -1 : 1); });
      }
      sw.textContent = '';
      sw.appendChild(el('p', { cls: 'sandwich-head', text: name + ': inherited ' + commas(x.inh) + ' ticks (' + pct(x.inh, P.total) +
        '), individual ' + commas(x.self) + ' (' + pct(x.self, P.total) + ')' }));
      sw.appendChild(el('div', { cls: 'grid2' }, [callTable('callers', rows(x.callers)), callTable('callees', rows(x.callees))]));
      sw.dataset.name = name;
      sw.dataset.inherited = x.inh;
    }
    sel.addEventListener('change', function () { pick(sel.value); });
    pick(SANDWICH && names[SANDWICH] ? SANDWICH : opts.length ? opts[0][0] : '');
  }
  var SANDWICH = null;    /* the cost centre of the callers' view, kept across ranges */

  /* ---- flame graph ----------------------------------------------------- */
  var flameRedraw = null;
  function flameView() {
    var P = PR, b = body('flame');
    rangeNote(b, P);
    if (P && P.range && !P.total) { b.appendChild(el('p', { cls: 'none', text: 'No ticks in the selected range.' })); return; }
    if (!P || !P.total) { none('flame', 'No time profile in this log, so no flame graph: ' + HOW.prof + '.'); return; }
    var tools = el('div', { cls: 'tools' });
    var q = el('input', { type: 'search', placeholder: 'highlight (Module.label contains)' });
    var reset = el('button', { text: 'reset zoom' }), info = el('span', { cls: 'note' });
    tools.appendChild(q); tools.appendChild(reset); tools.appendChild(info);
    b.appendChild(tools);
    b.appendChild(el('p', { cls: 'note', text: 'Width: inherited ticks. Click a frame to zoom into it, a frame above it to zoom out; hover for figures.' }));
    var cv = el('canvas', { cls: 'flame' });
    b.appendChild(cv);
    var ROW = 17, zoom = 0, m = null, rects = [];
    /* x offset of every node in its parent, children heaviest first */
    var off = new Float64Array(T.n);
    for (var i = 0; i < T.n; i++) {
      var x = 0;
      T.kids[i].forEach(function (k) { off[k] = x; x += P.inh[k]; });
    }
    function nodeStart(i) {   /* ticks from the root's left edge */
      var s = 0;
      for (var j = i; j > 0; j = P.parent[j]) s += off[j];
      return s;
    }
    function color(i, hit) {
      if (hit) return '#c837ab';
      var h = hashColor(P.ccs[P.cc[i]][1] + '.' + P.ccs[P.cc[i]][0]);
      return 'hsl(' + (8 + h % 42) + ',' + (70 + (h >> 8) % 25) + '%,' + (55 + (h >> 16) % 12) + '%)';
    }
    function draw() {
      var W = cv.parentNode.clientWidth || 1100, dpr = window.devicePixelRatio || 1;
      var zs = nodeStart(zoom), zw = P.inh[zoom] || 1, zd = T.depth[zoom];
      var scale = W / zw;
      /* the rows needed: the zoomed node's ancestors and what is wide enough under it */
      var depthShown = zd, stack = [zoom], list = [];
      while (stack.length) {
        var i = stack.pop(), s = nodeStart(i) - zs, w = P.inh[i] * scale;
        if (w < 0.4) continue;
        list.push([i, s * scale, w]);
        if (T.depth[i] > depthShown) depthShown = T.depth[i];
        T.kids[i].forEach(function (k) { stack.push(k); });
      }
      for (var a = P.parent[zoom]; a >= 0 && zoom !== 0; a = P.parent[a]) list.push([a, 0, W, 1]);
      var H = (depthShown + 1) * ROW + 2;
      cv.width = Math.round(W * dpr); cv.height = Math.round(H * dpr);
      cv.style.height = H + 'px';
      var g = cv.getContext('2d');
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      g.clearRect(0, 0, W, H);
      g.font = '11px system-ui, sans-serif';
      g.textBaseline = 'middle';
      rects = [];
      var hitTicks = 0;
      list.forEach(function (r) {
        var i = r[0], y = T.depth[i] * ROW, name = ccName(P.cc[i]), hit = m && m(name);
        g.fillStyle = r[3] ? '#d9dde2' : color(i, hit);
        g.fillRect(r[1], y, Math.max(r[2] - 0.5, 0.5), ROW - 1);
        if (r[2] > 30) {
          g.fillStyle = hit ? '#fff' : '#1d232b';
          var label = vis(name), maxc = Math.floor((r[2] - 6) / 6.2);
          if (label.length > maxc) label = label.slice(0, Math.max(0, maxc - 1)) + '\u2026';
          g.fillText(label, r[1] + 3, y + ROW / 2);
        }
        rects.push({ i: i, x: r[1], y: y, w: r[2] });
      });
      if (m) {   /* ticks under a highlighted frame, each stack once */
        (function walk(i, inHit) {
          var h = m(ccName(P.cc[i]));
          if (h && !inHit) { hitTicks += P.inh[i]; return; }
          T.kids[i].forEach(function (k) { walk(k, inHit || h); });
        })(0, false);
        info.textContent = 'highlighted: ' + pct(hitTicks, P.total) + ' of the ticks';
      } else info.textContent = zoom ? 'zoomed into ' + ccName(P.cc[zoom]) : '';
    }
    function at(ev) {
      var r = cv.getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top;
      for (var k = rects.length - 1; k >= 0; k--) {
        var q = rects[k];
        if (x >= q.x && x < q.x + q.w && y >= q.y && y < q.y + ROW) return q.i;
      }
      return -1;
    }
    cv.addEventListener('mousemove', function (ev) {
      var i = at(ev);
      if (i < 0) { hideTip(); return; }
      var c = P.ccs[P.cc[i]];
      showTip(ev, [ccName(P.cc[i]) + (i === 0 ? ' (the root: every tick)' : '')].concat(c[2] ? [c[2]] : [], ['inherited: ' + commas(P.inh[i]) + ' ticks, ' +
        pct(P.inh[i], P.total), 'individual: ' + commas(P.ticks[i]) + ' ticks, ' + pct(P.ticks[i], P.total)]));
    });
    cv.addEventListener('mouseleave', hideTip);
    cv.addEventListener('click', function (ev) { var i = at(ev); if (i >= 0) { zoom = i; draw(); } });
    reset.addEventListener('click', function () { zoom = 0; draw(); });
    var timer = null;
    q.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () { m = matcher(q.value.trim()); draw(); }, 120);
    });
    flameRedraw = draw;
    draw();
  }

  /* ---- call graph ------------------------------------------------------- */
  function graphView() {
    var b = body('graph'), view = document.getElementById('cg-view'), svg = view.querySelector('svg');
    if (!svg) {
      view.hidden = true;
      none('graph', D.graph === 'failed' ? 'The call graph could not be drawn (Graphviz failed).' :
        'No time profile in this log, so no call graph: ' + HOW.prof + '.');
      return;
    }
    b.appendChild(el('p', { cls: 'note', text: 'The graph of evprof graph with its pruning defaults (80 cost centres at most). Drag to pan, wheel to zoom.' }));
    var tools = el('div', { cls: 'tools' });
    var zin = el('button', { text: '+' }), zout = el('button', { text: '\u2212' }), fit = el('button', { text: 'fit' });
    tools.appendChild(zin); tools.appendChild(zout); tools.appendChild(fit);
    b.appendChild(tools);
    svg.removeAttribute('width'); svg.removeAttribute('height');
    var vb0 = (svg.getAttribute('viewBox') || '0 0 1000 1000').split(/[ ,]+/).map(Number), vb = vb0.slice();
    function set() { svg.setAttribute('viewBox', vb.join(' ')); }
    function zoomBy(f, cx, cy) {
      if (cx == null) { cx = vb[0] + vb[2] / 2; cy = vb[1] + vb[3] / 2; }
      vb = [cx - (cx - vb[0]) * f, cy - (cy - vb[1]) * f, vb[2] * f, vb[3] * f];
      set();
    }
    zin.addEventListener('click', function () { zoomBy(0.8); });
    zout.addEventListener('click', function () { zoomBy(1.25); });
    fit.addEventListener('click', function () { vb = vb0.slice(); set(); });
    function toView(ev) {
      var r = view.getBoundingClientRect();
      var s = Math.max(vb[2] / r.width, vb[3] / r.height);   /* preserveAspectRatio meet */
      var ox = vb[0] + vb[2] / 2 - r.width * s / 2, oy = vb[1] + vb[3] / 2 - r.height * s / 2;
      return [ox + (ev.clientX - r.left) * s, oy + (ev.clientY - r.top) * s, s];
    }
    view.addEventListener('wheel', function (ev) {
      ev.preventDefault();
      var p = toView(ev);
      zoomBy(ev.deltaY < 0 ? 0.85 : 1 / 0.85, p[0], p[1]);
    }, { passive: false });
    var drag = null;
    view.addEventListener('mousedown', function (ev) { drag = [ev.clientX, ev.clientY, vb[0], vb[1], toView(ev)[2]]; view.classList.add('drag'); ev.preventDefault(); });
    window.addEventListener('mousemove', function (ev) {
      if (!drag) return;
      vb[0] = drag[2] - (ev.clientX - drag[0]) * drag[4];
      vb[1] = drag[3] - (ev.clientY - drag[1]) * drag[4];
      set();
    });
    window.addEventListener('mouseup', function () { drag = null; view.classList.remove('drag'); });
  }

  /* ---- heap ---------------------------------------------------------- */
  function heapView() {
    var Hp = D.heap, b = body('heap');
    if (!Hp) { none('heap', 'No heap profile (events 160-166) in this log: ' + HOW.heap + '.'); return; }
    b.appendChild(el('p', { cls: 'note', text: 'Heap profile by ' + (Hp.breakdown || 'unknown breakdown') + (Hp.flag ? ' (' + Hp.flag + ')' : '') +
      ': ' + commas(Hp.censuses) + ' censuses' + (Hp.kept < Hp.censuses ? ', ' + commas(Hp.kept) + ' of them drawn (evenly spread)' : '') +
      ', ' + commas(Hp.all_bands) + ' bands' + (Hp.all_bands > Hp.bands.length ? ', the ' + Hp.bands.length + ' with the largest peak drawn, the rest as "other"' : '') +
      '; largest census ' + bytes(Hp.peak_total) + '.' }));
    if (!Hp.times.length) { b.appendChild(el('p', { cls: 'none', text: 'The log starts a heap profile but holds no complete census.' })); return; }
    var series = Hp.bands.map(function (band, i) {
      return { name: band[0], label: band[0] + '  (peak ' + bytes(band[1]) + ')', v: Hp.values[i], color: PALETTE[i % PALETTE.length] };
    });
    var other = Hp.values[Hp.bands.length];
    if (other && other.some(function (v) { return v > 0; }))
      series.push({ name: 'other bands', v: other, color: '#c7ccd1' });
    var hsel = el('div', { cls: 'selbox' });
    b.insertBefore(hsel, b.firstChild);
    onRange.push(function () {
      hsel.textContent = '';
      if (!RANGE) return;
      /* the censuses kept inside the range: each band's peak and mean there */
      var ks = [];
      Hp.times.forEach(function (t, k) { if (t >= RANGE.a && t < RANGE.b) ks.push(k); });
      var head = 'The range ' + rangeText(RANGE) + ' selected on the timeline: ' + ks.length + ' of the censuses drawn';
      if (!ks.length) { hsel.appendChild(el('p', { cls: 'selnote', text: head + '.' })); return; }
      var rows = series.map(function (s) {
        var pk = 0, sum = 0;
        ks.forEach(function (k) { sum += s.v[k]; if (s.v[k] > pk) pk = s.v[k]; });
        return [s.name, pk, sum / ks.length];
      }).filter(function (r) { return r[1] > 0; }).sort(function (x, y) { return y[1] - x[1]; });
      var tot = 0;
      ks.forEach(function (k) { var s = 0; series.forEach(function (x) { s += x.v[k]; }); if (s > tot) tot = s; });
      hsel.appendChild(el('p', { cls: 'selnote', text: head + ', the largest ' + bytes(tot) + '; the bands by their peak there:' }));
      table(hsel, [
        { t: 'band', v: function (r) { return r[0]; } },
        { t: 'peak in the range', num: 1, v: function (r) { return r[1]; }, f: bytes },
        { t: 'mean in the range', num: 1, v: function (r) { return r[2]; }, f: bytes }
      ], rows, { sort: 1, limit: 10 });
    });
    chart(b, Hp.times, series, { stacked: 1, fy: bytes, height: 340 });
    b.appendChild(el('h3', { text: 'Bands' }));
    table(b, [
      { t: 'band', v: function (r) { return r[0]; } },
      { t: 'peak', num: 1, v: function (r) { return r[1]; }, f: bytes },
      { t: 'at', num: 1, v: function (r) { return r[2]; }, f: secs },
      { t: 'mean', num: 1, v: function (r) { return r[3]; }, f: bytes }
    ], Hp.bands, { sort: 1 });
  }

  /* ---- GC -------------------------------------------------------------- */
  function gcView() {
    var G = D.gc, b = body('gc');
    if (!D.summary.holds.gc) { none('gc', 'No GC events in this log: ' + HOW.gc + '.'); return; }
    var S = G.series, TL = D.timeline;
    var gsel = el('div', { cls: 'selbox' });
    b.appendChild(gsel);
    onRange.push(function () {
      gsel.textContent = '';
      delete gsel.dataset.collections;
      if (!RANGE || !TL || !TL.bins) return;
      var lb = laneBins(RANGE), i0 = lb[0], i1 = lb[1], Hh = TL.heap || {};
      var n = sumBins(TL.gc_count, i0, i1), al = sumBins(Hh.alloc, i0, i1);
      var line = 'The range ' + rangeText(RANGE) + ' selected on the timeline, widened to ' + secs(i0 * TL.bin_ns) + ' to ' +
        secs(i1 * TL.bin_ns) + ' (its bins of ' + secs(TL.bin_ns) + '): ' + commas(n) + ' collections' +
        (n ? ' (the longest pause ' + (maxBins(TL.gc_pause, i0, i1) / 1e6).toFixed(3) + ' ms)' : '') +
        (TL.heap ? ', ' + bytes(al) + ' allocated, heap size up to ' + bytes(maxBins(Hh.size, i0, i1)) +
          ', live data up to ' + bytes(maxBins(Hh.live, i0, i1)) : '') + '.';
      gsel.appendChild(el('p', { cls: 'selnote', text: line }));
      var caps = TL.caps.map(function (c) {
        var m = 0, g = 0;
        for (var i = i0; i < i1; i++) { m += c[1][i]; g += c[2][i]; }
        m /= 10 * (i1 - i0);
        g /= 10 * (i1 - i0);
        return 'capability ' + c[0] + ': ' + m.toFixed(1) + '% mutator, ' + g.toFixed(1) + '% GC, ' + Math.max(0, 100 - m - g).toFixed(1) + '% idle';
      });
      if (caps.length) gsel.appendChild(el('p', { cls: 'note', text: caps.join('; ') + '.' }));
      gsel.dataset.collections = n;
      gsel.dataset.allocated = al;
      gsel.dataset.from = i0 * TL.bin_ns;
      gsel.dataset.to = i1 * TL.bin_ns;
    });
    if (S.t.length > 1) {
      b.appendChild(el('h3', { text: 'Heap size and live data' }));
      chart(b, S.t, [{ name: 'heap size (HEAP_SIZE)', v: S.size, color: '#4e79a7' },
                     { name: 'live data (HEAP_LIVE)', v: S.live, color: '#e15759' }], { fy: bytes, height: 240 });
      b.appendChild(el('h3', { text: 'Allocated since the start, all capabilities summed' }));
      chart(b, S.t, [{ name: 'allocated: every capability\'s HEAP_ALLOCATED growth, summed', v: S.alloc, color: '#59a14f' }], { fy: bytes, height: 200 });
      b.appendChild(el('p', { cls: 'note', text: S.t.length + ' points in time order from ' + commas(G.series_events) +
        ' heap events (the log holds them per capability block, not in time order); heap size and live data keep the peak between points.' }));
    } else {
      b.appendChild(el('p', { cls: 'none', text: 'No heap size, live data or allocation events (HEAP_SIZE, HEAP_LIVE, HEAP_ALLOCATED) to draw over time.' }));
    }
    if (G.caps && G.caps.length) {
      b.appendChild(el('h3', { text: 'Capabilities' }));
      var ms = function (v) { return (v / 1e6).toFixed(3) + ' ms'; };
      var cols = [
        { t: 'cap', num: 1, v: function (r) { return r[0]; }, def: 'the capability\'s number' },
        { t: 'allocated', num: 1, v: function (r) { return r[1]; }, f: bytes,
          def: 'what its Haskell threads allocated: the growth of its HEAP_ALLOCATED counter' },
        { t: 'mutator', num: 1, v: function (r) { return r[2]; }, f: secs,
          def: 'time it ran Haskell threads: its RUN_THREAD to STOP_THREAD' },
        { t: 'own GC', num: 1, v: function (r) { return r[3]; }, f: secs,
          def: 'time it spent in collections, each one it took part in, from its own GC_START to GC_END: ' +
               'the wait for the other capabilities to stop is in it, and a parallel collection is counted on ' +
               'every capability, so this column does not add up to +RTS -s\'s GC time' },
        { t: 'idle', num: 1, v: function (r) { return r[4]; }, f: secs,
          def: 'the rest of the run: neither running a thread nor collecting' },
        { t: 'collections', num: 1, v: function (r) { return r[5]; }, f: commas,
          def: 'collections it took part in' },
        { t: 'led', num: 1, v: function (r) { return r[6]; }, f: commas,
          def: 'collections it led (it wrote their GC_STATS_GHC)' },
        { t: 'GC led', num: 1, v: function (r) { return r[8]; }, f: secs,
          def: 'the pauses of the collections it led, on the leader\'s clock as +RTS -s times them: ' +
               'summed over the capabilities, +RTS -s\'s GC time (elapsed)' },
        { t: 'longest own pause', num: 1, v: function (r) { return r[7]; }, f: ms,
          def: 'its longest GC_START to GC_END' }
      ];
      table(b, cols, G.caps, { sort: -1 });
      var dl = el('dl', { cls: 'defs' });
      cols.forEach(function (c) { dl.appendChild(el('dt', { text: c.t })); dl.appendChild(el('dd', { text: c.def })); });
      b.appendChild(dl);
      var led = G.caps.reduce(function (a, r) { return a + r[8]; }, 0);
      if (G.gc_ns != null)
        b.appendChild(el('p', { cls: 'note', text: 'GC led, summed over the capabilities: ' + secs(led) +
          '; +RTS -s\'s GC time (elapsed), below: ' + secs(G.gc_ns) + '. Each capability\'s own GC is longer: it ' +
          'counts every collection the capability took part in, with the wait for the others to stop.' }));
    }
    if (G.report) {
      b.appendChild(el('h3', { text: '+RTS -s summary (evprof gc)' }));
      b.appendChild(el('pre', { text: G.report }));
    }
  }

  /* ---- ticky ------------------------------------------------------------ */
  function tickyView() {
    var K = D.ticky, b = body('ticky');
    if (!K) { none('ticky', 'No ticky counters (events 210/211) in this log: ' + HOW.ticky + '.'); return; }
    b.appendChild(el('p', { cls: 'note', text: commas(K.counters_all) + ' counters, ' + commas(K.samples) + ' samples in ' +
      commas(K.batches) + ' batches; totals: ' + commas(K.totals[0]) + ' entries, ' + commas(K.totals[1]) + ' bytes allocated' +
      (K.counters.length < K.counters_all ? '; the ' + K.counters.length + ' counters with the most entries are listed' : '') + '.' }));
    var plot = el('div'), sel = el('select'), q = el('input', { type: 'search', placeholder: 'filter counters' });
    var withSeries = K.counters.filter(function (c) { return c[5] >= 0; });
    withSeries.forEach(function (c) { sel.appendChild(el('option', { value: c[5], text: c[0] })); });
    function draw() {
      plot.textContent = '';
      var k = +sel.value, s = K.series[k];
      if (!s) return;
      chart(plot, s[0], [{ name: 'entries', v: s[1], color: '#4e79a7' }], { height: 180, fy: commas });
      chart(plot, s[0], [{ name: 'bytes allocated', v: s[2], color: '#f28e2b' }], { height: 160, fy: bytes });
    }
    if (withSeries.length) {
      b.appendChild(el('h3', { text: 'Series of a counter (change per batch of samples)' }));
      b.appendChild(el('div', { cls: 'tools' }, [sel]));
      b.appendChild(plot);
      sel.addEventListener('change', draw);
    }
    b.appendChild(el('h3', { text: 'Counters' }));
    b.appendChild(el('div', { cls: 'tools' }, [q]));
    var tt = table(b, [
      { t: 'STG name', v: function (r) { return r[0]; } },
      { t: 'arguments', v: function (r) { return r[1]; } },
      { t: 'entries', num: 1, v: function (r) { return r[2]; }, f: commas },
      { t: 'alloc', num: 1, v: function (r) { return r[3]; }, f: commas },
      { t: 'alloc\'d', num: 1, v: function (r) { return r[4]; }, f: commas }
    ], K.counters, { sort: 2, limit: 500, onrow: function (tr, r) {
      if (r[5] < 0) return;
      tr.style.cursor = 'pointer';
      tr.title = 'show its series';
      tr.addEventListener('click', function () { sel.value = r[5]; draw(); plot.scrollIntoView({ block: 'nearest' }); });
    } });
    q.addEventListener('input', function () {
      var m = matcher(q.value.trim());
      tt.setFilter(m ? function (r) { return m(r[0]); } : null);
    });
    draw();
  }

  /* ---- timeline ---------------------------------------------------------- */
  /* The run over time on one canvas, ThreadScope-like: per capability what
   * it did (mutator, GC, idle), threads, labelled threads, sparks, heap,
   * collections, the profile's ticks and its samples as a time-ordered
   * flame chart; the marks across every lane. Wheel: zoom; shift+wheel or
   * the arrows: pan; drag: select a range (the other tabs then show it). */
  var timelineRedraw = null;
  /* the spark counters a capability's lane draws: key, name, colour */
  var SPARK_KINDS = [['created', 'created', '#1d232b'], ['converted', 'converted', '#59a14f'], ['fizzled', 'fizzled', '#e15759'],
    ['gcd', 'GC\'d', '#9aa3ad'], ['dud', 'dud', '#edc948'], ['overflowed', 'overflowed', '#ff9da7']];
  var SPARK_POOL = '#cfe0f1';

  /* Per capability its sparks over time, as ThreadScope's spark graphs:
   * from SPARK_COUNTERS (cumulative per capability), each counter's value
   * at every bin's end as a line (the running sum of its growth per bin),
   * and the pool (remaining) as an area; one scale for every capability
   * so that they compare. */
  function sparkLanes(rows) {
    var TL = D.timeline, NB = TL.bins, top = 1;
    (TL.spark_caps || []).forEach(function (c) {
      var cum = {}, pool = [], last = 0;
      SPARK_KINDS.forEach(function (k) {
        var a = [], acc = 0;
        for (var i = 0; i < NB; i++) { acc += c[k[0]][i]; a.push(acc); if (acc > top) top = acc; }
        cum[k[0]] = a;
      });
      for (var i = 0; i < NB; i++) { if (c.pool[i]) last = c.pool[i] - 1; pool.push(last); }
      rows.push({ label: 'sparks, cap ' + c.cap, h: 36, draw: function (g, y, h, i, x0, x1) {
        var Y = function (v) { return y + h - (h - 1) * v / top; };
        if (pool[i]) { g.fillStyle = SPARK_POOL; g.fillRect(x0, Y(pool[i]), x1 - x0, y + h - Y(pool[i])); }
        SPARK_KINDS.forEach(function (k) {
          var a = cum[k[0]], v = a[i], p = i ? a[i - 1] : 0;
          if (!v) return;
          g.fillStyle = k[2];
          g.fillRect(x0, Y(v) - 0.75, x1 - x0, 1.5);
          if (p !== v) g.fillRect(x0 - 0.5, Y(v), 1.2, Y(p) - Y(v));
        });
      }, tip: function (i) {
        var grew = SPARK_KINDS.filter(function (k) { return c[k[0]][i]; }).map(function (k) { return c[k[0]][i] + ' ' + k[1]; });
        return ['sparks on capability ' + c.cap + ' (SPARK_COUNTERS), since the start: ' + SPARK_KINDS.map(function (k) {
          return cum[k[0]][i] + ' ' + k[1]; }).join(', '),
          (grew.length ? 'in the bin: ' + grew.join(', ') : 'no growth in the bin') + '; pool ' + pool[i] +
          (c.pool[i] ? '' : ' (the latest sample\'s)')];
      } });
    });
  }

  function timelineView() {
    var TL = D.timeline, b = body('timeline');
    var any = TL && TL.bins && (TL.caps.length || sumBins(TL.samples, 0, TL.bins) || TL.heap || TL.threads);
    if (!any) {
      none('timeline', 'No events to draw over time (capability, thread, GC, heap or time-profile events): run the program with +RTS -l.');
      return;
    }
    var BW = TL.bin_ns, NB = TL.bins, END = Math.max(TL.end_ns, BW), TP = D.prof ? TL.profile : null;
    var cellsOk = TP && TP.cells;
    var v0 = 0, v1 = END;                       /* the view, ns */
    var LAB = 118, RPAD = 8, ROWH = 13;         /* label column, flame rows */
    var tools = el('div', { cls: 'tools' });
    function button(text, f) { var x = el('button', { text: text }); x.addEventListener('click', f); tools.appendChild(x); return x; }
    button('zoom to selection', function () { if (RANGE) { setView(RANGE.a, RANGE.b); } });
    button('zoom out', function () { setView(0, END); });
    button('\u25c0', function () { pan(-0.25); });
    button('\u25b6', function () { pan(0.25); });
    button('clear selection', function () { setRange(null); });
    var info = el('span', { cls: 'note' });
    tools.appendChild(info);
    b.appendChild(tools);
    b.appendChild(el('p', { cls: 'note', text: 'Drag across the lanes to select a range: the time profile, flame graph, GC and heap ' +
      'tabs then show it. Wheel: zoom at the pointer; shift+wheel or the arrows: pan; double-click: the whole run. ' +
      'The run is in ' + NB + ' bins of ' + secs(BW) + (cellsOk ? ', the profile by time in ' + TP.bins + ' bins of ' + secs(TP.bin_ns) +
      ' (a range is widened to them)' + prefixNote() : TP ? '; no profile of a range: ' + TP.status : '') + '.' }));
    var cv = el('canvas', { cls: 'timeline' });
    b.appendChild(cv);
    var legend = el('div', { cls: 'legend' });
    [['#59a14f', 'mutator (a Haskell thread runs)'], ['#f28e2b', 'GC'], ['#e15759', 'blocked'], ['#4e79a7', 'heap size'],
     ['#b07aa1', 'live data'], [MARK_COLOR, 'marks (traceMarker)']].forEach(function (l) {
      legend.appendChild(el('div', null, [el('span', { cls: 'sw', style: 'background:' + l[0] }), l[1]]));
    });
    if (TL.spark_caps && TL.spark_caps.length) {
      SPARK_KINDS.forEach(function (k) {
        legend.appendChild(el('div', null, [el('span', { cls: 'sw', style: 'background:' + k[2] }), 'sparks ' + k[1]]));
      });
      legend.appendChild(el('div', null, [el('span', { cls: 'sw', style: 'background:' + SPARK_POOL }), 'spark pool']));
    }
    b.appendChild(legend);

    /* per-bin data the lanes draw */
    var alive = [], acc = 0, T0 = TL.threads;
    if (T0) for (var i = 0; i < NB; i++) { acc += T0.created[i] - T0.finished[i]; alive.push(Math.max(0, acc)); }
    function carry(a) {   /* a value per bin, the last one carried over bins without an event */
      var out = [], last = 0;
      for (var i = 0; i < NB; i++) { if (a[i]) last = a[i]; out.push(last); }
      return out;
    }
    var hsize = TL.heap ? carry(TL.heap.size) : null, hlive = TL.heap ? carry(TL.heap.live) : null;
    var depth = [];
    if (D.prof) for (i = 0; i < D.prof.parent.length; i++) depth.push(i ? depth[D.prof.parent[i]] + 1 : 0);

    /* the lanes: label, height, draw(g, y, h), tip(bin) */
    var rows = [];
    rows.push({ label: '', h: 26, axis: 1 });
    TL.caps.forEach(function (c) {
      rows.push({ label: 'capability ' + c[0], h: 14, draw: function (g, y, h, i, x0, x1) {
        var m = c[1][i] / 1000, gc = c[2][i] / 1000;
        if (m) { g.fillStyle = '#59a14f'; g.fillRect(x0, y + h * (1 - m), x1 - x0, h * m); }
        if (gc) { g.fillStyle = '#f28e2b'; g.fillRect(x0, y + h * (1 - m - gc), x1 - x0, h * gc); }
      }, tip: function (i) {
        return ['capability ' + c[0], 'mutator ' + (c[1][i] / 10).toFixed(1) + '%, GC ' + (c[2][i] / 10).toFixed(1) + '%, idle ' +
          Math.max(0, 100 - c[1][i] / 10 - c[2][i] / 10).toFixed(1) + '%'];
      } });
    });
    if (TL.caps_over) rows.push({ label: '(' + TL.caps_over + ' more caps)', h: 12 });
    if (T0) {
      var amax = Math.max.apply(null, alive.concat([1])), bmax = Math.max.apply(null, T0.blocked.concat([1]));
      rows.push({ label: 'threads', h: 30, draw: function (g, y, h, i, x0, x1) {
        var v = alive[i] / amax;
        g.fillStyle = '#a9bdd6';
        g.fillRect(x0, y + h * (1 - v), x1 - x0, h * v);
        if (T0.blocked[i]) {
          var bv = Math.max(0.12, T0.blocked[i] / bmax) * 0.5;
          g.fillStyle = '#e15759';
          g.fillRect(x0, y, Math.max(1, x1 - x0), h * bv);
        }
      }, tip: function (i) {
        return ['threads: ' + alive[i] + ' alive (created less finished, up to the bin\'s end)', T0.created[i] + ' created, ' +
          T0.finished[i] + ' finished, ' + T0.blocked[i] + ' blocked (STOP_THREAD), ' + T0.woken[i] + ' woken'];
      } });
    }
    TL.labelled.forEach(function (th) {
      if (th[6] < 0) return;
      var lane = TL.lanes[th[6]];
      rows.push({ label: th[1], h: 9, small: 1, draw: function (g, y, h, i, x0, x1) {
        var r = lane[0][i] / 1000, bl = lane[1][i] / 1000;
        if (r) { g.fillStyle = '#59a14f'; g.fillRect(x0, y + h * (1 - r), x1 - x0, h * r); }
        if (bl) { g.fillStyle = '#e15759'; g.fillRect(x0, y + h * (1 - r - bl), x1 - x0, h * bl); }
      }, tip: function (i) {
        return ['thread ' + th[0] + ' \u201c' + th[1] + '\u201d', 'running ' + (lane[0][i] / 10).toFixed(1) + '%, blocked ' +
          (lane[1][i] / 10).toFixed(1) + '% of the bin', 'in all: ran ' + secs(th[4]) + ', blocked ' + secs(th[5]) +
          (th[3] >= 0 ? ', finished at ' + secs(th[3]) : '')];
      } });
    });
    if (TL.sparks) {
      var S = TL.sparks, smax = 1;
      for (i = 0; i < NB; i++) smax = Math.max(smax, S.created[i], S.converted[i] + S.fizzled[i] + S.gcd[i] + S.dud[i] + S.overflowed[i]);
      rows.push({ label: 'sparks', h: 30, draw: function (g, y, h, i, x0, x1) {
        var parts = [[S.converted[i], '#59a14f'], [S.fizzled[i], '#e15759'], [S.gcd[i], '#9aa3ad'], [S.dud[i] + S.overflowed[i], '#edc948']];
        var yy = y + h;
        parts.forEach(function (p) {
          if (!p[0]) return;
          var hh = h * p[0] / smax;
          g.fillStyle = p[1];
          g.fillRect(x0, yy - hh, Math.max(1, x1 - x0), hh);
          yy -= hh;
        });
        if (S.created[i]) {
          g.fillStyle = '#1d232b';
          g.fillRect(x0, y + h * (1 - S.created[i] / smax), Math.max(1, x1 - x0), 1.5);
        }
      }, tip: function (i) {
        return ['sparks (' + (S.source === 'events' ? 'spark events, +RTS -lf' : 'SPARK_COUNTERS growth') + ')',
          S.created[i] + ' created, ' + S.converted[i] + ' converted, ' + S.fizzled[i] + ' fizzled, ' + S.gcd[i] + ' GC\'d, ' +
          S.dud[i] + ' dud, ' + S.overflowed[i] + ' overflowed' + (S.stolen ? ', ' + S.stolen[i] + ' stolen' : '') +
          (S.pool ? '; pool ' + S.pool[i] : '')];
      } });
    }
    sparkLanes(rows);
    if (TL.heap) {
      var hmax = Math.max.apply(null, hsize.concat(hlive).concat([1]));
      rows.push({ label: 'heap', h: 40, line: 1, draw: function (g, y, h, i, x0, x1) {
        [[hsize, '#4e79a7'], [hlive, '#b07aa1']].forEach(function (s) {
          var v = s[0][i];
          if (!v) return;
          g.fillStyle = s[1];
          g.fillRect(x0, y + h * (1 - v / hmax) - 1, Math.max(1, x1 - x0), 2);
        });
      }, tip: function (i) {
        return ['heap size ' + bytes(hsize[i]) + ', live data ' + bytes(hlive[i]) + ' (the latest GC\'s)',
          bytes(TL.heap.alloc[i]) + ' allocated in the bin'];
      } });
    }
    if (sumBins(TL.gc_count, 0, NB)) {
      var gmax = Math.max.apply(null, TL.gc_count.concat([1]));
      rows.push({ label: 'collections', h: 16, draw: function (g, y, h, i, x0, x1) {
        if (!TL.gc_count[i]) return;
        var v = Math.max(0.15, TL.gc_count[i] / gmax);
        g.fillStyle = '#f28e2b';
        g.fillRect(x0, y + h * (1 - v), Math.max(1, x1 - x0), h * v);
      }, tip: function (i) {
        return [TL.gc_count[i] + ' collections, the longest pause ' + (TL.gc_pause[i] / 1e6).toFixed(3) + ' ms'];
      } });
    }
    if (sumBins(TL.samples, 0, NB)) {
      var tmax = Math.max.apply(null, TL.samples.concat([1]));
      rows.push({ label: 'profile ticks', h: 22, draw: function (g, y, h, i, x0, x1) {
        if (!TL.samples[i]) return;
        var v = TL.samples[i] / tmax;
        g.fillStyle = '#d45087';
        g.fillRect(x0, y + h * (1 - v), Math.max(1, x1 - x0), h * v);
      }, tip: function (i) { return [TL.samples[i] + ' ticks counted in the bin']; } });
    }
    var flameRows = 0;
    if (cellsOk) {
      var maxd = 0;
      depth.forEach(function (d) { if (d > maxd) maxd = d; });
      flameRows = Math.min(maxd + 1, TP.prefix ? TP.prefix + 1 : 48);
      rows.push({ label: 'profile, in time order', h: flameRows * ROWH, flame: 1 });
    }

    /* the profile's bins laid out once each: per node its place in [0, 1)
     * (the nodes a bin touches, its cells and their ancestors, found once
     * each; inherited ticks by one pass from the deepest up) */
    var layouts = {}, NN = D.prof ? D.prof.parent.length : 0;
    var stamp = new Int32Array(NN).fill(-1), inhA = new Float64Array(NN), nextA = new Float64Array(NN);
    function layout(pb) {
      if (layouts[pb]) return layouts[pb];
      var par = D.prof.parent, c = TP.cells[pb], node = 0, total = 0, touched = [], k, x;
      for (k = 0; k < c.length; k += 2) {
        node += c[k];
        total += c[k + 1];
        for (x = node; x >= 0 && stamp[x] !== pb; x = par[x]) { stamp[x] = pb; inhA[x] = 0; touched.push(x); }
        inhA[node] += c[k + 1];
      }
      touched.sort(function (a, b) { return a - b; });
      for (k = touched.length - 1; k > 0; k--) inhA[par[touched[k]]] += inhA[touched[k]];
      var L = [];
      touched.forEach(function (n) {
        var at = n === 0 ? 0 : nextA[par[n]], w = inhA[n] / (total || 1);
        nextA[n] = at;
        if (n) nextA[par[n]] = at + w;
        L.push([n, at, w, inhA[n]]);
      });
      return (layouts[pb] = { nodes: L, total: total });
    }
    function flameColor(n) {
      var h = hashColor(ccName(D.prof.cc[n]));
      return 'hsl(' + (8 + h % 42) + ',' + (70 + (h >> 8) % 25) + '%,' + (55 + (h >> 16) % 12) + '%)';
    }

    var drag = null, W = 0, H = 0;
    function X(t) { return LAB + (W - LAB - RPAD) * (t - v0) / (v1 - v0); }
    function tAt(x) { return v0 + (x - LAB) / (W - LAB - RPAD) * (v1 - v0); }
    function niceStep(span) {
      var raw = span / 8, p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
      return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
    }
    function draw() {
      if (!cv.offsetParent) return;   /* another tab: drawn when shown (show()) */
      W = cv.parentNode.clientWidth || 1100;
      if (W < 300) W = 1100;
      H = rows.reduce(function (s, r) { return s + r.h + 2; }, 0) + 4;
      var dpr = window.devicePixelRatio || 1;
      cv.width = Math.round(W * dpr);
      cv.height = Math.round(H * dpr);
      cv.style.height = H + 'px';
      var g = cv.getContext('2d');
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      g.clearRect(0, 0, W, H);
      g.font = '11px system-ui, sans-serif';
      g.textBaseline = 'middle';
      var i0 = Math.max(0, Math.floor(v0 / BW)), i1 = Math.min(NB, Math.ceil(v1 / BW));
      var y = 2;
      rows.forEach(function (r) {
        r.y = y;
        g.fillStyle = '#5b6570';
        g.font = r.small ? '9px system-ui, sans-serif' : '11px system-ui, sans-serif';
        var lab = vis(r.label);
        if (lab.length > 20) lab = lab.slice(0, 19) + '\u2026';
        g.fillText(lab, 4, y + Math.min(r.h, 14) / 2);
        g.save();
        g.beginPath();
        g.rect(LAB, y, W - LAB - RPAD, r.h);
        g.clip();
        if (r.axis) {
          var step = niceStep(v1 - v0);
          g.fillStyle = '#5b6570';
          g.font = '10px system-ui, sans-serif';
          for (var t = Math.ceil(v0 / step) * step; t <= v1; t += step) {
            var xx = X(t);
            g.fillRect(xx, y + r.h - 4, 1, 4);
            g.fillText(secs(t), xx + 2, y + 19);
          }
        } else if (r.flame) {
          var pb0 = Math.max(0, Math.floor(v0 / TP.bin_ns)), pb1 = Math.min(TP.bins, Math.ceil(v1 / TP.bin_ns));
          /* a frame in the same place in neighbouring bins is one run: its
           * label is written once over the run */
          var runs = [], labels = [];
          function flush(d) {
            var r = runs[d];
            if (r && r.e - r.x > 40) labels.push(r);
            runs[d] = null;
          }
          for (var pb = pb0; pb < pb1; pb++) {
            var L = layout(pb), cx0 = X(pb * TP.bin_ns), cw = X((pb + 1) * TP.bin_ns) - cx0;
            L.nodes.forEach(function (q) {
              var d = depth[q[0]];
              if (d >= flameRows) return;
              var bx = cx0 + q[1] * cw, bw = q[2] * cw;
              if (bw < 0.3) return;
              g.fillStyle = flameColor(q[0]);
              g.fillRect(bx, y + d * ROWH, Math.max(bw - 0.3, 0.3), ROWH - 1);
              var r = runs[d];
              if (r && r.n === q[0] && Math.abs(bx - r.e) < 1.5) { r.e = bx + bw; return; }
              flush(d);
              runs[d] = { n: q[0], x: bx, e: bx + bw, d: d };
            });
          }
          for (var d = 0; d < runs.length; d++) flush(d);
          g.fillStyle = '#1d232b';
          labels.forEach(function (r) {
            var name = vis(ccName(D.prof.cc[r.n])), maxc = Math.floor((r.e - r.x - 4) / 6.2);
            if (name.length > maxc) name = name.slice(0, Math.max(0, maxc - 1)) + '\u2026';
            g.fillText(name, Math.max(r.x, LAB) + 2, y + r.d * ROWH + ROWH / 2);
          });
        } else if (r.draw) {
          for (var i = i0; i < i1; i++) {
            var x0 = X(i * BW), x1 = X((i + 1) * BW);
            if (x1 < LAB || x0 > W) continue;
            r.draw(g, y, r.h, i, x0, Math.max(x1, x0 + 0.6));
          }
        }
        g.restore();
        g.fillStyle = '#eceff2';
        g.fillRect(LAB, y + r.h + 0.5, W - LAB - RPAD, 1);
        y += r.h + 2;
      });
      /* the marks, across every lane */
      g.save();
      g.beginPath();
      g.rect(LAB, 0, W - LAB - RPAD, H);
      g.clip();
      var lastLabel = -1e9;
      MARKS.forEach(function (m) {
        if (m[0] < v0 || m[0] > v1) return;
        var xx = X(m[0]);
        g.fillStyle = MARK_COLOR;
        for (var yy = 0; yy < H; yy += 6) g.fillRect(xx, yy, 1, 3);
        if (xx - lastLabel > 70) {
          g.font = '10px system-ui, sans-serif';
          g.fillText(vis(markName(m)), xx + 3, 8);
          lastLabel = xx;
        }
      });
      /* the range selected (or being dragged) */
      var r = drag ? { a: Math.min(drag.a, drag.b), b: Math.max(drag.a, drag.b) } : RANGE;
      if (r) {
        g.fillStyle = 'rgba(31,111,235,.14)';
        g.fillRect(X(r.a), 0, Math.max(1, X(r.b) - X(r.a)), H);
        g.fillStyle = '#1f6feb';
        g.fillRect(X(r.a), 0, 1, H);
        g.fillRect(X(r.b), 0, 1, H);
      }
      g.restore();
      info.textContent = 'view ' + secs(v0) + ' to ' + secs(v1) + (RANGE ? '; selected ' + rangeText(RANGE) +
        (PR && PR.range ? ' (profile ' + secs(PR.range[0]) + ' to ' + secs(PR.range[1]) + ': ' + commas(PR.total) + ' ticks)' : '') : '');
      document.body.dataset.timelineView = v0 + ',' + v1;
    }
    function setView(a, e) {
      var minSpan = Math.min(END, BW * 2);
      if (e - a < minSpan) { var mid = (a + e) / 2; a = mid - minSpan / 2; e = mid + minSpan / 2; }
      if (a < 0) { e -= a; a = 0; }
      if (e > END) { a -= e - END; e = END; }
      v0 = Math.max(0, a);
      v1 = e;
      draw();
    }
    function pan(f) { var d = (v1 - v0) * f; setView(v0 + d, v1 + d); }
    function xOf(ev) { var rc = cv.getBoundingClientRect(); return ev.clientX - rc.left; }
    cv.addEventListener('wheel', function (ev) {
      ev.preventDefault();
      if (ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) { pan((ev.shiftKey ? ev.deltaY : ev.deltaX) > 0 ? 0.1 : -0.1); return; }
      var t = tAt(Math.max(LAB, xOf(ev))), f = ev.deltaY < 0 ? 0.8 : 1.25;
      setView(t - (t - v0) * f, t + (v1 - t) * f);
    }, { passive: false });
    cv.addEventListener('mousedown', function (ev) {
      if (xOf(ev) < LAB) return;
      var t = tAt(xOf(ev));
      drag = { a: t, b: t, x: xOf(ev) };
      ev.preventDefault();
    });
    window.addEventListener('mousemove', function (ev) {
      if (!drag) return;
      drag.b = Math.max(0, Math.min(END, tAt(xOf(ev))));
      draw();
    });
    window.addEventListener('mouseup', function (ev) {
      if (!drag) return;
      var d = drag;
      drag = null;
      if (Math.abs(xOf(ev) - d.x) >= 3) setRange(Math.min(d.a, d.b), Math.max(d.a, d.b));
      else draw();
    });
    cv.addEventListener('dblclick', function () { setView(0, END); });
    /* hover: the lane and bin under the pointer */
    cv.addEventListener('mousemove', function (ev) {
      if (drag) return;
      var rc = cv.getBoundingClientRect(), x = ev.clientX - rc.left, y = ev.clientY - rc.top;
      if (x < LAB) { hideTip(); return; }
      var t = tAt(x), row = null;
      rows.forEach(function (r) { if (y >= r.y && y < r.y + r.h) row = r; });
      if (!row || row.axis) { hideTip(); return; }
      var i = Math.min(NB - 1, Math.max(0, Math.floor(t / BW)));
      var head = secs(i * BW) + ' to ' + secs((i + 1) * BW);
      if (row.flame) {
        var pb = Math.min(TP.bins - 1, Math.floor(t / TP.bin_ns)), L = layout(pb), d = Math.floor((y - row.y) / ROWH);
        var rel = (t - pb * TP.bin_ns) / TP.bin_ns, hit = null;
        L.nodes.forEach(function (q) { if (depth[q[0]] === d && rel >= q[1] && rel < q[1] + q[2]) hit = q; });
        if (!hit) { hideTip(); return; }
        var c = D.prof.ccs[D.prof.cc[hit[0]]];
        showTip(ev, [c[1] + '.' + c[0]].concat(c[2] ? [c[2]] : [], [commas(hit[3]) + ' of the ' + commas(L.total) + ' ticks from ' +
          secs(pb * TP.bin_ns) + ' to ' + secs((pb + 1) * TP.bin_ns) + ' (' + pct(hit[3], L.total) + ')']));
        return;
      }
      if (!row.tip) { hideTip(); return; }
      showTip(ev, [head].concat(row.tip(i)));
    });
    cv.addEventListener('mouseleave', hideTip);
    onRange.push(draw);
    timelineRedraw = draw;
    /* for scripts (screenshots, tests): show [a, e) ns */
    window.evprofView = function (a, e) { setView(a, e); return [v0, v1]; };
    draw();
  }

  /* ---- tabs and start --------------------------------------------------- */
  var tabs = document.querySelectorAll('nav a');
  function show(id) {
    if (!document.getElementById('v-' + id)) id = 'summary';
    document.querySelectorAll('main section').forEach(function (s) { s.classList.toggle('on', s.id === 'v-' + id); });
    tabs.forEach(function (a) { a.classList.toggle('on', a.dataset.tab === id); });
    if (id === 'flame' && flameRedraw) flameRedraw();
    if (id === 'timeline' && timelineRedraw) timelineRedraw();
  }
  tabs.forEach(function (a) {
    a.addEventListener('click', function (ev) { ev.preventDefault(); history.replaceState(null, '', '#' + a.dataset.tab); show(a.dataset.tab); });
  });
  window.addEventListener('hashchange', function () { show(location.hash.slice(1)); });
  var resizeTimer = null;
  window.addEventListener('resize', function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () { if (flameRedraw) flameRedraw(); if (timelineRedraw) timelineRedraw(); }, 150);
  });
  show(location.hash.slice(1) || 'summary');
  if (D.prof && D.prof.total) buildTree();
  var viewMs = [];
  function run(id, f) {
    var t = performance.now();
    try { f(); } catch (e) {
      recordError(id + ': ' + (e && e.stack || e));
      body(id).appendChild(el('p', { cls: 'warn', text: 'This view failed: ' + e }));
    }
    viewMs.push(id + ':' + Math.round(performance.now() - t));
  }
  [['summary', summary], ['timeline', timelineView], ['prof', profView], ['flame', flameView], ['graph', graphView],
   ['heap', heapView], ['gc', gcView], ['ticky', tickyView]].forEach(function (v) { run(v[0], v[1]); });
  /* a new range: the profile's views again, from its tree */
  if (D.prof && D.prof.total) onRange.unshift(function () {
    buildTree();
    ['prof', 'flame'].forEach(function (id) { body(id).textContent = ''; });
    run('prof', profView);
    run('flame', flameView);
  });
  document.body.dataset.viewMs = viewMs.join(',');   /* each view's own time */
  document.body.dataset.renderMs = Math.round(performance.now() - t0);
  document.body.dataset.ready = '1';
})();
