/* Injected by tests/cli/html_browser.sh after the page's own script, with
 * @RANGES@ replaced by ranges in nanoseconds ([[a, b], ...]): selects a
 * range on the timeline as a user does (a drag across the canvas), then
 * each range by script (window.evprofRange), and writes what the other
 * tabs then show into body[data-*] for the shell to compare with
 * `evprof report/gc --from --to` and `report --callers` (the last range's
 * for the tabs):
 *   data-drag        "ok" when the drag selected a range and the profile
 *                    tab's total changed with it, else what went wrong
 *   data-range-results each range's profile range (snapped to its bins)
 *                    and ticks: "from,to,ticks;..."
 *   data-prof-ticks  the profile tab's total as it shows it
 *   data-gc-range    the GC tab's range (its bins), collections, allocation
 *   data-sandwich    the callers' view: its cost centre and inherited ticks
 *   data-views       the tabs that say the range */
(function () {
  'use strict';
  var ds = document.body.dataset, whole = +ds.profTicks;
  var cv = document.querySelector('#v-timeline canvas.timeline');
  /* a drag across 40%..60% of the lanes */
  if (cv) {
    var r = cv.getBoundingClientRect(), y = r.top + 30;
    function at(kind, f, target) {
      (target || cv).dispatchEvent(new MouseEvent(kind, { bubbles: true, clientX: r.left + r.width * f, clientY: y }));
    }
    at('mousedown', 0.4);
    at('mousemove', 0.5, window);
    at('mouseup', 0.6, window);
    ds.drag = ds.rangeFrom == null ? 'no range after the drag' :
      +ds.profTicks >= whole ? 'the profile tab still shows ' + ds.profTicks + ' of ' + whole + ' ticks' : 'ok';
  } else {
    ds.drag = 'no timeline canvas';
  }
  ds.rangeResults = (@RANGES@).map(function (r) {
    var res = window.evprofRange(r[0], r[1]);
    return [res.from, res.to, res.ticks, +ds.profTicks].join(',');
  }).join(';');
  var g = document.querySelector('#v-gc .selbox');
  if (g) ds.gcRange = [g.dataset.from, g.dataset.to, g.dataset.collections, g.dataset.allocated].join(',');
  var sw = document.querySelector('#v-prof .sandwich');
  if (sw) ds.sandwich = sw.dataset.name + ',' + sw.dataset.inherited;
  ds.views = ['prof', 'flame', 'gc', 'heap'].filter(function (id) {
    return document.querySelector('#v-' + id + ' .selnote');
  }).join(',');
})();
