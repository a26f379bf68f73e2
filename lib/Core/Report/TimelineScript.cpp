//===- TimelineScript.cpp - The script of the timeline HTML page ----------===//
//
// Tooltips, zoom and pan, the "spread" y scale, the sortable peak table and
// the page's self-test (test/Timeline/html-chromium.mlir runs it).
//
//===----------------------------------------------------------------------===//

#include "TimelineRender.h"

const char *const memplan::timeline::PageScript = R"JS((function () {
  var NS = 'http://www.w3.org/2000/svg';
  var tip = document.getElementById('tip');
  var L = PLOT.L, W = PLOT.W, T = PLOT.T, H = PLOT.H;
  function bytesText(v, digits) {
    if (digits > 6) return Math.round(v) + ' B';
    var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;
    while (Math.abs(v) >= 1024 && i < 4) { v /= 1024; ++i; }
    return (i ? v.toFixed(digits) : Math.round(v)) + ' ' + u[i];
  }
  function niceStep(span, n) {
    var raw = span / n;
    if (raw <= 1) return 1;
    var p = Math.pow(10, Math.floor(Math.log10(raw)));
    var ms = [1, 2, 5, 10];
    for (var i = 0; i < ms.length; ++i) if (ms[i] * p >= raw) return ms[i] * p;
    return 10 * p;
  }
  function el(tag, attrs, text) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function Section(box) {
    var d = JSON.parse(box.querySelector('script.data').textContent);
    var svg = box.querySelector('svg');
    var rects = svg.querySelectorAll('rect.buffer');
    var labels = {};
    svg.querySelectorAll('text.label').forEach(function (t) {
      labels[t.getAttribute('data-i')] = t;
    });
    var live = svg.querySelector('path.live');
    var bound = svg.querySelector('line.bound');
    var arena = svg.querySelector('line.arena');
    var peak = svg.querySelector('line.peak');
    var ticks = svg.querySelector('g.ticks');
    var view = box.querySelector('.view');
    var ymax = d.top * 1.04;
    // The spread scale: between consecutive buffer edges, a height that grows
    // with the square root of the gap, so a 1000x smaller buffer is ~30x
    // thinner rather than 1000x. Monotone: no two buffers overlap on it.
    var edges = [0, ymax];
    d.b.forEach(function (b) { edges.push(b[2], b[2] + b[3]); });
    edges.sort(function (a, b) { return a - b; });
    var E = [], C = [0];
    edges.forEach(function (e) { if (!E.length || e > E[E.length - 1]) E.push(e); });
    for (var i = 1; i < E.length; ++i) C.push(C[i - 1] + Math.sqrt(E[i] - E[i - 1]));
    var total = C[C.length - 1] || 1;
    var st = { t0: 0, t1: d.tasks, u0: 0, u1: 1, mode: 'linear' };
    function find(a, v) { // last index with a[i] <= v
      var lo = 0, hi = a.length - 1;
      while (lo < hi) { var m = (lo + hi + 1) >> 1; if (a[m] <= v) lo = m; else hi = m - 1; }
      return lo;
    }
    function u(byte) {
      if (st.mode === 'linear') return byte / ymax;
      if (byte >= E[E.length - 1]) return 1;
      var i = find(E, byte), g = E[i + 1] - E[i];
      return (C[i] + (g ? (byte - E[i]) / g * (C[i + 1] - C[i]) : 0)) / total;
    }
    function uinv(v) {
      if (st.mode === 'linear') return v * ymax;
      var c = v * total;
      if (c >= total) return E[E.length - 1];
      var i = find(C, c), g = C[i + 1] - C[i];
      return E[i] + (g ? (c - C[i]) / g * (E[i + 1] - E[i]) : 0);
    }
    function X(t) { return L + (t - st.t0) / (st.t1 - st.t0) * W; }
    function Y(byte) { return T + H - (u(byte) - st.u0) / (st.u1 - st.u0) * H; }
    function clampView() {
      var span = Math.min(Math.max(st.t1 - st.t0, 1), d.tasks);
      st.t0 = Math.min(Math.max(st.t0, 0), d.tasks - span); st.t1 = st.t0 + span;
      var us = Math.min(Math.max(st.u1 - st.u0, 1e-9), 1);
      st.u0 = Math.min(Math.max(st.u0, 0), 1 - us); st.u1 = st.u0 + us;
    }
    function draw() {
      clampView();
      for (var i = 0; i < rects.length; ++i) {
        var b = d.b[i], x = X(b[0]), w = Math.max(X(b[1] + 1) - x, 0.5);
        var yt = Y(b[2] + b[3]), yb = Y(b[2]), h = yb - yt;
        // Every buffer at least a pixel high, growing up from its offset.
        if (h < 1) { h = 1; yt = yb - 1; }
        var r = rects[i];
        r.setAttribute('x', x.toFixed(2)); r.setAttribute('width', w.toFixed(2));
        r.setAttribute('y', yt.toFixed(2)); r.setAttribute('height', h.toFixed(2));
        var lab = labels[i];
        if (lab) {
          var fits = w >= 7 * lab.textContent.length + 4 && h >= 12;
          lab.style.display = fits ? '' : 'none';
          lab.setAttribute('x', (x + w / 2).toFixed(2));
          lab.setAttribute('y', (yt + h / 2 + 4).toFixed(2));
        }
      }
      var p = 'M' + X(0) + ',' + Y(0), prev = 0;
      d.steps.forEach(function (s) {
        p += ' L' + X(s[0]).toFixed(2) + ',' + Y(prev).toFixed(2) +
             ' L' + X(s[0]).toFixed(2) + ',' + Y(s[1]).toFixed(2);
        prev = s[1];
      });
      p += ' L' + X(d.tasks).toFixed(2) + ',' + Y(prev).toFixed(2);
      live.setAttribute('d', p);
      [[bound, d.bound], [arena, d.arena]].forEach(function (lb) {
        lb[0].setAttribute('y1', Y(lb[1])); lb[0].setAttribute('y2', Y(lb[1]));
      });
      var px = X(d.peak + 0.5);
      peak.setAttribute('x1', px); peak.setAttribute('x2', px);
      while (ticks.firstChild) ticks.removeChild(ticks.firstChild);
      var xs = niceStep(st.t1 - st.t0, 8);
      for (var t = Math.ceil(st.t0 / xs) * xs; t <= st.t1; t += xs)
        ticks.appendChild(el('text', { 'class': 'tick', 'text-anchor': 'middle',
          x: X(t).toFixed(2), y: T + H + 16 }, String(t)));
      // Offset ticks at even heights; as many digits as tell them apart.
      var vals = [], texts;
      for (var k = 0; k <= 6; ++k) vals.push(uinv(st.u0 + (st.u1 - st.u0) * k / 6));
      for (var dg = 2; dg <= 8; dg += 2) {
        texts = vals.map(function (v) { return bytesText(v, dg); });
        if (texts.every(function (t, j) { return !j || t !== texts[j - 1]; })) break;
      }
      for (var k = 0; k <= 6; ++k) {
        var yy = T + H - k / 6 * H;
        ticks.appendChild(el('line', { 'class': 'grid', x1: L, x2: L + W, y1: yy, y2: yy }));
        ticks.appendChild(el('text', { 'class': 'tick', 'text-anchor': 'end',
          x: L - 6, y: yy + 4 }, texts[k]));
      }
      var zoomed = st.t0 > 0 || st.t1 < d.tasks || st.u0 > 0 || st.u1 < 1;
      view.textContent = 'tasks ' + Math.floor(st.t0) + '-' + Math.ceil(st.t1) +
        (zoomed ? ', zoomed' : '') + (st.mode === 'spread' ? ', spread' : '');
      box.setAttribute('data-span', (st.t1 - st.t0).toFixed(3));
      box.setAttribute('data-mode', st.mode);
    }
    var pending = false;
    function redraw() {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; draw(); });
    }
    function zoomX(f, at) {
      if (at === undefined) at = (st.t0 + st.t1) / 2;
      st.t0 = at - (at - st.t0) * f; st.t1 = at + (st.t1 - at) * f;
    }
    function zoomY(f, at) {
      if (at === undefined) at = (st.u0 + st.u1) / 2;
      st.u0 = at - (at - st.u0) * f; st.u1 = at + (st.u1 - at) * f;
    }
    function plotPoint(e) {
      var r = svg.getBoundingClientRect(), k = PLOT.WIDTH / r.width;
      var px = (e.clientX - r.left) * k, py = (e.clientY - r.top) * k;
      return { x: px, y: py, t: st.t0 + (px - L) / W * (st.t1 - st.t0),
               u: st.u0 + (T + H - py) / H * (st.u1 - st.u0) };
    }
    svg.addEventListener('wheel', function (e) {
      var q = plotPoint(e);
      if (q.x < L || q.x > L + W || q.y < T || q.y > T + H) return;
      e.preventDefault();
      var f = e.deltaY < 0 ? 0.8 : 1.25;
      if (e.shiftKey) zoomY(f, q.u); else zoomX(f, q.t);
      draw();
    }, { passive: false });
    var drag = null;
    svg.addEventListener('mousedown', function (e) {
      drag = { p: plotPoint(e), st: { t0: st.t0, t1: st.t1, u0: st.u0, u1: st.u1 } };
      svg.classList.add('drag');
      e.preventDefault();
    });
    window.addEventListener('mousemove', function (e) {
      if (!drag) return;
      var q = plotPoint(e), s0 = drag.st;
      var dt = (q.x - drag.p.x) / W * (s0.t1 - s0.t0);
      var du = (q.y - drag.p.y) / H * (s0.u1 - s0.u0);
      st.t0 = s0.t0 - dt; st.t1 = s0.t1 - dt; st.u0 = s0.u0 + du; st.u1 = s0.u1 + du;
      redraw();
    });
    window.addEventListener('mouseup', function () {
      drag = null; svg.classList.remove('drag');
    });
    svg.addEventListener('mousemove', function (e) {
      var r = e.target;
      if (drag || !r.classList || !r.classList.contains('buffer')) {
        tip.style.display = 'none';
        return;
      }
      tip.textContent = r.getAttribute('data-tip');
      tip.style.display = 'block';
      tip.style.left = (e.pageX + 14) + 'px';
      tip.style.top = (e.pageY + 14) + 'px';
    });
    svg.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
    var sel = box.querySelector('select[data-a="mode"]');
    function setMode(m) { st.mode = m; sel.value = m; st.u0 = 0; st.u1 = 1; draw(); }
    box.querySelectorAll('.tools button').forEach(function (b) {
      b.addEventListener('click', function () {
        var a = b.getAttribute('data-a');
        if (a === 'xin') zoomX(0.5);
        else if (a === 'xout') zoomX(2);
        else if (a === 'yin') zoomY(0.5);
        else if (a === 'yout') zoomY(2);
        else if (a === 'reset') { st.t0 = 0; st.t1 = d.tasks; st.u0 = 0; st.u1 = 1; }
        else if (a === 'peak') {
          var span = Math.max(Math.min(d.tasks / 8, 200), 10);
          st.t0 = d.peak + 0.5 - span / 2; st.t1 = st.t0 + span;
        }
        draw();
      });
    });
    sel.addEventListener('change', function () { setMode(sel.value); });
    // The table: sort on a header click, find the buffer on a row click.
    var table = box.querySelector('table.peak-table');
    function sortBy(th) {
      var col = Array.prototype.indexOf.call(th.parentNode.children, th);
      var asc = !th.classList.contains('asc');
      th.parentNode.querySelectorAll('th').forEach(function (h) {
        h.classList.remove('asc', 'desc');
      });
      th.classList.add(asc ? 'asc' : 'desc');
      var num = th.getAttribute('data-k') === 'n';
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[col], y = b.cells[col], c;
        if (num) c = Number(x.getAttribute('data-v')) - Number(y.getAttribute('data-v'));
        else c = x.textContent < y.textContent ? -1 : x.textContent > y.textContent ? 1 : 0;
        return asc ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    }
    if (table) {
      table.querySelectorAll('th').forEach(function (th) {
        th.addEventListener('click', function () { sortBy(th); });
      });
      table.tBodies[0].addEventListener('click', function (e) {
        var tr = e.target.closest('tr');
        if (!tr) return;
        svg.querySelectorAll('rect.sel').forEach(function (r) { r.classList.remove('sel'); });
        var r = rects[Number(tr.getAttribute('data-i'))];
        r.classList.add('sel');
        svg.scrollIntoView({ block: 'nearest' });
      });
      table.tBodies[0].addEventListener('mouseover', function (e) {
        var tr = e.target.closest('tr');
        svg.querySelectorAll('rect.hl').forEach(function (r) { r.classList.remove('hl'); });
        if (tr) rects[Number(tr.getAttribute('data-i'))].classList.add('hl');
      });
    }
    // Buffers thinner than a pixel on the linear scale: with many of them,
    // start on the spread scale.
    var thin = 0;
    d.b.forEach(function (b) { if (b[3] / ymax * H < 1) ++thin; });
    if (thin > 8 && thin * 5 > d.b.length) st.mode = 'spread';
    sel.value = st.mode;
    draw();
    return { box: box, svg: svg, rects: rects, table: table, st: st, d: d,
             draw: draw, setMode: setMode, sortBy: sortBy };
  }
  var t0 = performance.now();
  var sections = [];
  document.querySelectorAll('div.sec').forEach(function (b) { sections.push(Section(b)); });
  var ms = performance.now() - t0;
  var rects = document.querySelectorAll('rect.buffer');
  var s = document.getElementById('status');
  s.setAttribute('data-drawn', rects.length);
  s.setAttribute('data-ms', Math.round(ms));
  s.textContent = rects.length + ' buffers drawn';
  // file://page.html#selftest: the page exercises its own controls (what a
  // headless browser test reads back from the DOM).
  if (location.hash !== '#selftest') return;
  // The peak recomputed from the buffers alone (each in-place chain one
  // record at its largest aligned size), to compare with the report's.
  function peakOf(d) {
    var n = d.b.length, root = [], chains = {};
    function al(v) { return d.align > 1 ? Math.ceil(v / d.align) * d.align : v; }
    for (var i = 0; i < n; ++i) {
      var r = i;
      for (var k = 0; k < n && d.b[r][4] >= 0 && d.b[r][4] < n && d.b[r][4] !== i; ++k)
        r = d.b[r][4];
      root.push(r);
      var c = chains[r] || (chains[r] = { f: Infinity, l: -1, s: 0 });
      c.f = Math.min(c.f, d.b[i][0]); c.l = Math.max(c.l, d.b[i][1]);
      c.s = Math.max(c.s, al(d.b[i][3]));
    }
    var delta = {};
    for (var key in chains) {
      var c = chains[key];
      delta[c.f] = (delta[c.f] || 0) + c.s;
      delta[c.l + 1] = (delta[c.l + 1] || 0) - c.s;
    }
    var tasks = Object.keys(delta).map(Number).sort(function (a, b) { return a - b; });
    var live = 0, best = 0, task = 0;
    tasks.forEach(function (t) { live += delta[t]; if (live > best) { best = live; task = t; } });
    var member = {};
    for (var i = 0; i < n; ++i) {
      if (d.b[i][0] > task || task > d.b[i][1]) continue;
      var m = member[root[i]];
      if (m === undefined || al(d.b[m][3]) < al(d.b[i][3])) member[root[i]] = i;
    }
    var set = Object.keys(member).map(function (k) { return member[k]; });
    set.sort(function (a, b) { return a - b; });
    return { task: task, bytes: best, live: set };
  }
  var out = [];
  sections.forEach(function (S, n) {
    var r = [];
    var pk = S.svg.querySelector('line.peak');
    var px = Number(pk.getAttribute('x1'));
    var mine = peakOf(S.d), rep = S.d.report || mine;
    var agree = mine.task === rep.task && mine.bytes === rep.bytes &&
      mine.live.join() === rep.live.join() && S.d.peak === rep.task &&
      S.d.peakBytes === rep.bytes;
    r.push('peak ' + (px >= L && px <= L + W && agree ? 'ok' : 'bad (page task ' +
      mine.task + ', ' + mine.bytes + ' B, live ' + mine.live.join(' ') +
      '; report task ' + rep.task + ', ' + rep.bytes + ' B, live ' +
      rep.live.join(' ') + ')'));
    // Nothing of the legend or the titles past the picture's right edge.
    var right = 0;
    S.svg.querySelectorAll('text.legend, text.title').forEach(function (t) {
      var bb = t.getBBox();
      right = Math.max(right, bb.x + bb.width);
    });
    r.push('legend ' + (right <= PLOT.WIDTH ? 'ok' : 'bad'));
    var rows = S.table ? S.table.tBodies[0].rows.length : 0;
    r.push('rows ' + rows);
    if (rows > 1) {
      var th = S.table.querySelectorAll('th')[1];
      function sizes() {
        return Array.prototype.map.call(S.table.tBodies[0].rows, function (tr) {
          return Number(tr.cells[1].getAttribute('data-v'));
        });
      }
      function sorted(a, dir) {
        for (var i = 1; i < a.length; ++i) if (dir * (a[i] - a[i - 1]) < 0) return false;
        return true;
      }
      th.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      var up = sorted(sizes(), 1);
      th.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      var down = sorted(sizes(), -1);
      r.push('sort ' + (up && down ? 'ok' : 'bad'));
    }
    var box = S.svg.getBoundingClientRect();
    var span0 = S.st.t1 - S.st.t0;
    S.svg.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, bubbles: true,
      cancelable: true, clientX: box.left + (L + W / 2) * box.width / PLOT.WIDTH,
      clientY: box.top + (T + H / 2) * box.width / PLOT.WIDTH }));
    var zoomed = S.st.t1 - S.st.t0 < span0;
    S.box.querySelector('button[data-a="reset"]').click();
    var reset = S.st.t1 - S.st.t0 === S.d.tasks;
    r.push('zoom ' + (zoomed && reset ? 'ok' : 'bad'));
    var mode = S.st.mode;
    S.setMode('spread');
    var minH = Infinity;
    S.rects.forEach(function (e) { minH = Math.min(minH, Number(e.getAttribute('height'))); });
    r.push('spread min height ' + (minH >= 1 ? 'ok' : 'bad'));
    S.setMode(mode);
    // The peak line and the tooltips name the report's op at each task.
    var opAt = {};
    S.d.ops.forEach(function (o) { opAt[o[0]] = o; });
    function said(t) {
      var o = opAt[t];
      return 'task ' + t + (o ? ', ' + (o[3] ? o[3] + ' = ' : '') + o[1] +
        ' at ' + o[2] + (o[4] ? ' in ' + o[4] + ' at ' + o[5] : '') : '');
    }
    var line = S.box.querySelector('p.peak-line');
    var lt = line ? Number(line.getAttribute('data-task')) : -1;
    var lineOk = lt === rep.task && lt === mine.task &&
      line.textContent.indexOf('peak: ' + said(lt) + ';') === 0;
    r.push('peak line ' + (lineOk ? 'ok' : 'bad (' +
      (line ? line.textContent : 'missing') + '; page task ' + mine.task + ')'));
    var tipsBad = 0;
    if (S.d.ops.length)
      S.rects.forEach(function (e, i) {
        var tip = e.getAttribute('data-tip'), b = S.d.b[i];
        function has(w, t) { return tip.indexOf('\n' + w + ': ' + said(t)) >= 0; }
        if (!has('first', b[0]) || !has('last', b[1])) ++tipsBad;
      });
    r.push('task ops ' + (tipsBad ? 'bad (' + tipsBad + ' tooltips)' : 'ok'));
    out.push('section ' + n + ': ' + r.join(', '));
  });
  var t = document.getElementById('selftest');
  t.textContent = out.join('; ');
  t.setAttribute('data-result', out.join('; '));
})();
)JS";
