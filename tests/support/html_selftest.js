/* Injected by tests/cli/html_browser.sh after the page's own script: drives
 * the views as a user would (search, sort, zoom, hover, pan) and writes
 * "ok" or the failures into document.body.dataset.selftest. Expects the
 * page of tests/data/ghc-9.0.2/nfib-p.eventlog (build.\ 87 of 114 ticks),
 * with #heap in the URL that of nfib-hc.eventlog, with #gc that of
 * tests/data/newuser/threads-N2.eventlog (two capabilities). */
(function () {
  'use strict';
  var fails = [];
  function expect(what, ok) { if (!ok) fails.push(what); }
  function tab(id) { document.querySelector('nav a[data-tab="' + id + '"]').click(); }
  function type(input, text) { input.value = text; input.dispatchEvent(new Event('input')); }
  function mouse(target, kind, x, y, extra) {
    var r = target.getBoundingClientRect();
    var ev = new MouseEvent(kind, Object.assign({ bubbles: true, clientX: r.left + x, clientY: r.top + y }, extra || {}));
    target.dispatchEvent(ev);
  }
  function tip() { var t = document.getElementById('tip'); return t.hidden ? '' : t.textContent; }
  function later(ms, f) { setTimeout(function () { try { f(); } catch (e) { fails.push('exception: ' + e); } }, ms); }
  function done() { document.body.dataset.selftest = fails.length ? fails.join(' | ') : 'ok'; }

  if (location.hash === '#heap') {
    var svg = document.querySelector('#v-heap svg.chart');
    expect('heap: a chart', !!svg);
    if (svg) {
      mouse(svg, 'mousemove', svg.getBoundingClientRect().width / 2, 50);
      expect('heap: hover shows a band and its bytes', /KiB  build\.\\\/build\/main\/Main\.CAF/.test(tip()));
    }
    done();
    return;
  }
  if (location.hash === '#gc') {
    tab('gc');
    var charts = document.querySelectorAll('#v-gc svg.chart');
    expect('gc: two charts', charts.length === 2);
    if (charts.length === 2) {
      /* the allocation, summed over the capabilities: one line, rising */
      var paths = charts[1].querySelectorAll('path');
      expect('gc: one line for the one series of the legend', paths.length === 1);
      var pts = (paths[0] ? paths[0].getAttribute('d') : '').split(/[ML]/).filter(Boolean).map(function (p) {
        return p.split(',').map(Number);
      });
      var rising = pts.length > 2;
      for (var k = 1; k < pts.length; k++)
        if (pts[k][0] < pts[k - 1][0] || pts[k][1] > pts[k - 1][1]) rising = false;
      expect('gc: the allocation goes forward in time and up', rising);
    }
    var defs = document.querySelectorAll('#v-gc dl.defs dt');
    expect('gc: every column of the capability table is defined', defs.length === 9);
    var note = Array.prototype.map.call(document.querySelectorAll('#v-gc p.note'), function (p) { return p.textContent; }).join(' ');
    var m = /GC led, summed over the capabilities: ([\d.]+ s); \+RTS -s's GC time \(elapsed\), below: ([\d.]+ s)/.exec(note);
    expect('gc: the capabilities\' GC led adds up to +RTS -s\'s GC time', !!m && m[1] === m[2]);
    done();
    return;
  }

  /* time profile: search marks the matching stacks */
  tab('prof');
  var q = document.querySelector('#v-prof input[type=search]');
  type(q, 'nfib');
  later(400, function () {
    var hits = document.querySelectorAll('#v-prof tr.hit');
    expect('tree search: one hit', hits.length === 1);
    expect('tree search: the hit is nfib', hits.length && hits[0].textContent.indexOf('nfib') >= 0);
    expect('tree search: its share', /20\.2% of the ticks/.test(document.querySelector('#v-prof .tools .note').textContent));
    type(q, '');
    /* sorting the flat table by ticks, ascending on the second click */
    var th = document.querySelectorAll('#v-prof table')[1].querySelectorAll('th')[5];
    var first = function () { return document.querySelectorAll('#v-prof table')[1].querySelector('tbody td').textContent; };
    expect('flat table: the heaviest first', first() === 'build.\\');
    th.click();
    th.click();
    expect('flat table: sorted ascending on a second click', first() !== 'build.\\');
  });
  later(700, function () {
    /* expanding (once the cleared search has redrawn): collapse, then
     * open MAIN's child */
    document.querySelectorAll('#v-prof .tools button')[1].click();
    var rows = document.querySelectorAll('#v-prof table.tree tbody tr').length;
    expect('tree: collapse leaves MAIN and its child', rows === 2);
    document.querySelector('#v-prof table.tree tbody tr:nth-child(2) .tw').click();
    expect('tree: a click opens a node', document.querySelectorAll('#v-prof table.tree tbody tr').length === 3);
    /* flame graph: hover, click to zoom, search; the root is MAIN */
    tab('flame');
    var cv = document.querySelector('#v-flame canvas');
    mouse(cv, 'mousemove', 5, 8);
    expect('flame: the root is MAIN, not MAIN.MAIN', /^MAIN \(the root: every tick\)/.test(tip()));
    mouse(cv, 'mousemove', 5, 17 * 4 + 8);
    expect('flame: hover shows the frame and its ticks', /^Main\.build\.\\[\s\S]*inherited: 87 ticks, 76\.3%/.test(tip()));
    mouse(cv, 'click', 5, 17 * 3 + 8);
    expect('flame: a click zooms', /zoomed into Main\.build$/.test(document.querySelector('#v-flame .tools .note').textContent));
    document.querySelector('#v-flame .tools button').click();
    type(document.querySelector('#v-flame input[type=search]'), 'nfib');
  });
  later(1100, function () {
    expect('flame: search highlights and sums', document.querySelector('#v-flame .tools .note').textContent === 'highlighted: 20.2% of the ticks');
    /* call graph: the wheel zooms, a drag pans */
    tab('graph');
    var view = document.getElementById('cg-view'), svg = view.querySelector('svg');
    var vb0 = svg.getAttribute('viewBox');
    view.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, clientX: 300, clientY: 300, bubbles: true, cancelable: true }));
    var vb1 = svg.getAttribute('viewBox');
    expect('graph: the wheel zooms in', vb1 !== vb0 && +vb1.split(' ')[2] < +vb0.split(' ')[2]);
    mouse(view, 'mousedown', 100, 100);
    window.dispatchEvent(new MouseEvent('mousemove', { clientX: 400, clientY: 300 }));
    window.dispatchEvent(new MouseEvent('mouseup', {}));
    expect('graph: a drag pans', svg.getAttribute('viewBox').split(' ')[0] !== vb1.split(' ')[0]);
    done();
  });
})();
