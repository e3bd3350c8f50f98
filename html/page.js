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
  /* Module.label; GHC's built-ins (MAIN, GC, IDLE, ...: module = label,
   * <built-in>) by their label alone: the root is MAIN, not MAIN.MAIN */
  function ccName(i) {
    var c = D.prof.ccs[i];
    return c[1] === c[0] && c[2] === '<built-in>' ? c[0] : c[1] + '.' + c[0];
  }
  function buildTree() {
    var P = D.prof, n = P.parent.length, kids = new Array(n);
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

  function profView() {
    var P = D.prof, b = body('prof');
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
    ], P.flat, { sort: 3, limit: 500 });
    fq.addEventListener('input', function () {
      var m = matcher(fq.value.trim());
      ft.setFilter(m ? function (r) { return m(ccName(r[0])); } : null);
    });
  }

  /* ---- flame graph ----------------------------------------------------- */
  var flameRedraw = null;
  function flameView() {
    var P = D.prof, b = body('flame');
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
    var S = G.series;
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

  /* ---- tabs and start --------------------------------------------------- */
  var tabs = document.querySelectorAll('nav a');
  function show(id) {
    if (!document.getElementById('v-' + id)) id = 'summary';
    document.querySelectorAll('main section').forEach(function (s) { s.classList.toggle('on', s.id === 'v-' + id); });
    tabs.forEach(function (a) { a.classList.toggle('on', a.dataset.tab === id); });
    if (id === 'flame' && flameRedraw) flameRedraw();
  }
  tabs.forEach(function (a) {
    a.addEventListener('click', function (ev) { ev.preventDefault(); history.replaceState(null, '', '#' + a.dataset.tab); show(a.dataset.tab); });
  });
  window.addEventListener('hashchange', function () { show(location.hash.slice(1)); });
  var resizeTimer = null;
  window.addEventListener('resize', function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () { if (flameRedraw) flameRedraw(); }, 150);
  });
  show(location.hash.slice(1) || 'summary');
  if (D.prof && D.prof.total) buildTree();
  [['summary', summary], ['prof', profView], ['flame', flameView], ['graph', graphView], ['heap', heapView],
   ['gc', gcView], ['ticky', tickyView]].forEach(function (v) {
    try { v[1](); } catch (e) {
      recordError(v[0] + ': ' + (e && e.stack || e));
      body(v[0]).appendChild(el('p', { cls: 'warn', text: 'This view failed: ' + e }));
    }
  });
  document.body.dataset.renderMs = Math.round(performance.now() - t0);
  document.body.dataset.ready = '1';
})();
