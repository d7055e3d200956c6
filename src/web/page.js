// The run page's stepper (run_page.h). The states come from the page's own JSON
// (step_states.h): each step's entry holds what changed since the step before, so a state
// is rebuilt from the nearest checkpoint. Nothing here reads the trace or judges a run;
// every word about a verdict or an outcome was written by eosim.
// A course page (course_site.h): the answer stays folded, and out of reach, until an
// option is chosen; the choice gets its line of feedback and opens the answer. Without
// script the fold is an ordinary <details> the learner opens by hand.
(function () {
  'use strict';
  var options = document.querySelectorAll('button.option');
  var answer = document.getElementById('answer'), feedback = document.getElementById('feedback');
  if (!options.length || !answer || !feedback) return;
  answer.hidden = true;
  options.forEach(function (button) {
    button.addEventListener('click', function () {
      options.forEach(function (o) { o.classList.remove('chosen'); });
      button.classList.add('chosen');
      var right = button.getAttribute('data-right') === '1';
      feedback.textContent = (right ? 'Right. ' : 'Not quite. ') + button.getAttribute('data-feedback');
      feedback.className = right ? 'good' : 'bad';
      feedback.hidden = false;
      answer.hidden = false;
      answer.open = true;
    });
  });
})();

(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  // Each run's JSON is a script element with id PREFIXrun-data: "" on a run's page, L-/R- in a comparison.
  var sources = document.querySelectorAll('script[type="application/json"][id$="run-data"]');
  if (!sources.length) return;
  var runs = Array.prototype.map.call(sources, function (source) {
    return makeRun(source.id.slice(0, -'run-data'.length), JSON.parse(source.textContent));
  });
  var last = Math.max.apply(null, runs.map(function (r) { return r.last; }));

  var docked = false;
  function dock() {
    if (docked) return;
    docked = true;
    var top = $('player').getBoundingClientRect().top;
    if (top > 0) window.scrollBy(0, top);
  }

  var current = -1;
  function go(k) {
    k = Math.max(0, Math.min(last, Math.floor(Number(k) || 0)));
    if (k === current) return;
    current = k;
    $('slider').value = String(k);
    var shown = runs.map(function (r) { return r.show(k); });
    $('where').textContent = 'step ' + k + ' of ' + last +
      (runs.length === 1 ? ' \u00b7 time ' + shown[0].t : '');
    document.body.setAttribute('data-step', String(k));
  }

  function fromHash() {
    var m = /^#step-(\d+)$/.exec(location.hash);
    return m ? Number(m[1]) : null;
  }
  $('player').hidden = false;
  $('slider').addEventListener('input', function () { go(this.value); });
  $('first').addEventListener('click', function () { go(0); });
  $('prev').addEventListener('click', function () { go(current - 1); });
  $('next').addEventListener('click', function () { go(current + 1); });
  // The first time a person steps, the page scrolls so the stepper sticks to the top and
  // the diagram and the state beside it fill the window below it.
  $('player').addEventListener('click', dock);
  $('player').addEventListener('input', dock);
  $('last').addEventListener('click', function () { go(last); });
  document.addEventListener('keydown', function (event) {
    if (event.target && event.target.id === 'slider') return;  // the slider moves itself
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var to = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    dock();
    go(to);
  });
  document.querySelectorAll('a.step-link').forEach(function (a) {
    a.addEventListener('click', function (event) {
      event.preventDefault();
      dock();
      go(a.textContent);
    });
  });
  window.addEventListener('hashchange', function () {
    var k = fromHash();
    if (k !== null) go(k);
  });
  // A run inside a fold (a course page) is laid out only once the fold opens.
  document.addEventListener('toggle', function () {
    if (current >= 0) runs.forEach(function (r) { r.redraw(current); });
  }, true);
  window.eosimStep = go;  // for tests and the console: eosimStep(57)
  var start = fromHash();
  go(start === null ? 0 : start);

  // --- one run's panels: the page of one run has one, a comparison two, each with its
  // own ids (the prefix) and its own JSON; the slider and buttons drive them all ---
  function makeRun(prefix, data) {
    var $ = function (id) { return document.getElementById(prefix + id); };
    var last = data.steps, states = data.states, CHECK = 256;
    var checkpoints = [];

    function blank() {
      return { t: 0, e: [], tb: data.tables.map(function () { return []; }), bk: null, ac: [],
               c: [], v: null, o: new Map(), changed: {}, changedOrders: {} };
    }
    function copy(s) {
      return { t: s.t, e: s.e, tb: s.tb.map(function (rows) { return rows.slice(); }), bk: s.bk,
               ac: s.ac, c: s.c, v: s.v, o: new Map(s.o), changed: s.changed,
               changedOrders: s.changedOrders };
    }
    function apply(s, d) {
      s.t = d.t;
      s.e = d.e || [];
      s.changed = {};
      (d.tb || []).forEach(function (change) {
        var rows = s.tb[change[0]], marked = s.changed[change[0]] = {};
        change[2].forEach(function (row) { rows[row[0]] = row[1]; marked[row[0]] = true; });
        rows.length = change[1];
      });
      if (d.bk) s.bk = d.bk;
      if (d.ac) s.ac = d.ac;
      if (d.c) s.c = d.c;
      if (d.v) s.v = d.v;
      if (d.O) s.o = new Map();
      s.changedOrders = {};
      (d.O || d.o || []).forEach(function (order) {
        s.o.set(order[0], order);
        s.changedOrders[order[0]] = true;
      });
    }
    function stateAt(k) {
      var c = Math.floor(k / CHECK);
      while (checkpoints.length <= c) {
        var i = checkpoints.length;
        var s = i === 0 ? blank() : copy(checkpoints[i - 1]);
        for (var j = i === 0 ? 0 : (i - 1) * CHECK + 1; j <= Math.min(i * CHECK, last); j++) {
          apply(s, states[j]);
        }
        checkpoints.push(s);
      }
      var state = copy(checkpoints[c]);
      for (var n = c * CHECK + 1; n <= k; n++) apply(state, states[n]);
      return state;
    }

    // --- small DOM helpers: text goes in as text, never as markup ---
    function el(tag, text, cls) {
      var node = document.createElement(tag);
      if (text !== undefined && text !== null) node.textContent = String(text);
      if (cls) node.className = cls;
      return node;
    }
    function table(head, rows, rowClass) {
      var t = el('table'), tr = el('tr');
      head.forEach(function (h) { tr.appendChild(el('th', h)); });
      t.appendChild(tr);
      rows.forEach(function (row, i) {
        var r = el('tr');
        var cls = rowClass ? rowClass(row, i) : '';
        if (cls) r.className = cls;
        row.forEach(function (cell) {
          r.appendChild(cell instanceof Node ? cell : el('td', cell));
        });
        t.appendChild(r);
      });
      var box = el('div', null, 'scroll');
      box.appendChild(t);
      return box;
    }
    // A long table shows at most SHOWN rows: those around `focus` (the first row this step
    // changed, else the last row), and says how many it leaves out. The counts behind the
    // DUP marks still read every row.
    var SHOWN = 40;
    function around(length, focus) {
      if (length <= SHOWN) return [0, length];
      var lo = Math.max(0, Math.min(length - SHOWN, focus - SHOWN / 2));
      return [lo, lo + SHOWN];
    }
    function omitted(length, range) {
      var left = length - (range[1] - range[0]);
      return left > 0 ? el('p', 'rows ' + (range[0] + 1) + '-' + range[1] + ' of ' + length +
        ' shown, around this step\'s change',
        'line muted') : null;
    }
    function effectCell(count) {
      var td = el('td', count, count === 1 ? 'good' : count === 0 ? 'warn' : 'bad');
      if (count >= 2) { td.appendChild(document.createTextNode(' ')); td.appendChild(el('b', 'DUP', 'dup')); }
      return td;
    }
    function outcomeClass(name, pending) {
      if (pending) return 'muted';
      if (name === 'debited') return 'good';
      if (name === 'rejected' || name === 'dead-lettered') return 'info';
      if (name === 'stuck' || name === 'unsettled') return 'warn';
      return 'bad';
    }

    // --- the panels ---
    function showNow(s, k, ended) {
      var box = $('now'), over = k === last, v = s.v;
      box.hidden = false;
      box.textContent = '';
      box.appendChild(el('h2', ended ? 'Ended at step ' + k : 'At step ' + k));
      var line = el('p', 'Verdict so far: ', 'line');
      line.appendChild(el('b', v[0], v[1] ? (v[0].indexOf('exactly-once') === 0 ? 'good' : 'bad') : 'muted'));
      box.appendChild(line);
      box.appendChild(el('p', 'Balance: initial ' + v[2] + ', ' + (over ? 'expected ' + v[3] +
        ', actual ' + v[4] : 'expected at the end ' + v[3] + ', now ' + v[4]) +
        ' \u00b7 redeliveries ' + v[5] + ' \u00b7 faults fired ' + v[6], 'line'));
      box.appendChild(el('h3', 'Broker'));
      if (s.c.length) {
        box.appendChild(el('p', 'published ' + s.c[0] + ', delivered ' + s.c[1] + ', redelivered ' +
          s.c[2] + ', acked ' + s.c[3] + ', requeued ' + s.c[4], 'line muted'));
      }
      s.ac.forEach(function (a) {
        var p = el('p', null, 'line');
        p.appendChild(el('b', a[1] ? 'up ' : 'DOWN ', a[1] ? 'good' : 'bad'));
        p.appendChild(document.createTextNode(a[0] === 'broker' ? 'broker' : a[0] + ': holding ' +
          a[2] + ', delivered ' + a[3] + ', applied ' + a[4] + ', duplicates ' + a[5] +
          ', crashes ' + a[6]));
        box.appendChild(p);
      });
      var bk = s.bk || { r: [], u: [], d: [] };
      box.appendChild(el('p', 'Ready: ' + bk.r.length + ' message(s), in delivery order', 'line'));
      if (bk.r.length) {
        box.appendChild(table(['#', 'message', 'redelivered'], bk.r.map(function (m) {
          return [m[0], m[1], m[2] ? 'redelivered=true' : 'false'];
        })));
      }
      var unacked = 0;
      bk.u.forEach(function (c) { unacked += c[2].length; });
      box.appendChild(el('p', 'Unacked: ' + unacked + ' (the broker waits for an ack)', 'line'));
      bk.u.forEach(function (c) {
        box.appendChild(el('p', c[0] + ' on connection ' + c[1], 'line'));
        box.appendChild(table(['delivery tag', 'message', 'redelivered'], c[2].map(function (m) {
          return [m[0], m[1], m[2] ? 'redelivered=true' : 'false'];
        })));
      });
      if (bk.d.length) {
        box.appendChild(el('p', 'Dead letters: ' + bk.d.length, 'line'));
        box.appendChild(table(['message', 'x-death'], bk.d));
      }
    }

    function showOrders(s, k) {
      $('orders-title').textContent = 'Orders and their effects at step ' + k;
      var head = ['order', 'amount', 'committed', 'debits'];
      if (data.effects) head.push('emails');
      head.push('rejections', 'dead letters', 'outcome');
      var all = [], focus = -1;
      s.o.forEach(function (o) { all.push(o); });
      all.sort(function (a, b) { return a[0] - b[0]; });
      all.forEach(function (o, i) { if (focus < 0 && s.changedOrders[o[0]]) focus = i; });
      var range = around(all.length, focus < 0 ? all.length - 1 : focus);
      var rows = all.slice(range[0], range[1]).map(function (o) {
        var row = [o[0], o[1], o[2] ? 'yes' : 'no', effectCell(o[3])];
        if (data.effects) row.push(effectCell(o[6]));
        row.push(o[4], o[5], el('td', o[7], outcomeClass(o[7], o[8])));
        return row;
      });
      var note = $('orders-omitted');
      if (note) note.parentNode.removeChild(note);
      var old = $('orders'), box = table(head, rows, function (row) {
        var o = s.o.get(row[0]);
        return o[3] >= 2 || (data.effects && o[6] >= 2) ? 'duplicate' : '';
      });
      var fresh = box.firstChild;
      fresh.id = prefix + 'orders';
      old.parentNode.replaceChild(fresh, old);
      var more = omitted(all.length, range);
      if (more) {
        more.id = prefix + 'orders-omitted';
        fresh.parentNode.parentNode.insertBefore(more, fresh.parentNode.nextSibling);
      }
    }

    // Rows of `debits` (and of an effect log) whose order appears twice are marked DUP.
    function duplicateRows(columns, rows) {
      var at = columns.indexOf('order_id'), seen = {};
      if (at < 0) return null;
      rows.forEach(function (r) { seen[r[at]] = (seen[r[at]] || 0) + 1; });
      return function (r) { return seen[r[at]] >= 2; };
    }
    function showTables(s, k) {
      $('tables-title').textContent = 'Database tables at step ' + k;
      var box = $('tables');
      box.textContent = '';
      data.tables.forEach(function (t, i) {
        var rows = s.tb[i], changed = s.changed[i] || {};
        var h = el('h3', t[0] + ' ');
        h.appendChild(el('code', t[1]));
        h.appendChild(document.createTextNode(' (' + rows.length + (rows.length === 1 ? ' row)' : ' rows)')));
        box.appendChild(h);
        if (!rows.length) return;
        var dup = t[1] === 'debits' || t[1] === 'emails' ? duplicateRows(t[2], rows) : null;
        var focus = -1;
        for (var n in changed) focus = focus < 0 ? Number(n) : Math.min(focus, Number(n));
        var range = around(rows.length, focus < 0 ? rows.length - 1 : focus);
        var shown = rows.slice(range[0], range[1]).map(function (r) {
          var cells = r.slice();
          if (dup && dup(r)) {
            var end = el('td', cells.pop());
            end.appendChild(document.createTextNode(' '));
            end.appendChild(el('b', 'DUP', 'dup'));
            cells.push(end);
          }
          return cells;
        });
        box.appendChild(table(t[2], shown, function (row, n) {
          var at = range[0] + n;
          return (dup && dup(rows[at]) ? 'duplicate' : '') + (changed[at] ? ' changed' : '');
        }));
        var more = omitted(rows.length, range);
        if (more) box.appendChild(more);
      });
    }

    function showFaults(k) {
      ($('run') || document).querySelectorAll('table.faults tr[data-step]').forEach(function (tr) {
        var at = Number(tr.getAttribute('data-step'));
        tr.className = at > k ? 'later' : at === k ? 'current' : '';
      });
    }

    // --- the diagram: a band on the current step, the future shaded, scrolled into view ---
    // The diagram is a stack of <svg> blocks sharing one coordinate system (svg.h), so a
    // y of the picture is a y in the diagram's box; the band and the shade lie over them.
    var view = $('diagram'), svg = view ? view.querySelector('svg') : null;
    var band = el('div', null, 'band'), shade = el('div', null, 'future');
    // The blocks after the first wait as text in a <noscript> (run_page.cpp) until they
    // come near the view or hold the step shown; each block's top, in picture coordinates.
    var deferred = view ? Array.prototype.slice.call(view.querySelectorAll('.block.deferred')) : [];
    var deferredTop = deferred.map(function (b) { return Number(b.getAttribute('data-top')); });
    function draw(block) {
      var waiting = block.querySelector('noscript');
      if (!waiting) return;
      block.innerHTML = waiting.textContent;
      block.classList.remove('deferred');
    }
    if (deferred.length && 'IntersectionObserver' in window) {
      var near = new IntersectionObserver(function (entries) {
        entries.forEach(function (e) { if (e.isIntersecting) { draw(e.target); near.unobserve(e.target); } });
      }, { root: view, rootMargin: '600px 0px' });
      deferred.forEach(function (b) { near.observe(b); });
    }
    // Draws the blocks that hold picture rows y0..y1.
    function drawBetween(y0, y1) {
      for (var i = 0; i < deferred.length; i++) {
        var next = i + 1 < deferred.length ? deferredTop[i + 1] : Infinity;
        if (deferredTop[i] <= y1 && next > y0) draw(deferred[i]);
      }
    }
    if (svg) {
      [band, shade].forEach(function (d) { d.style.width = svg.getAttribute('width') + 'px'; view.appendChild(d); });
      stickLaneTitles();
      markStep(data.mark);
    }
    // A comparison marks, in both diagrams, the step where the two runs part (data.mark,
    // worked out by eosim, not here).
    function markStep(k) {
      if (typeof k !== 'number' || k > last) return;
      var g = data.diagram, a = g.first[k], b = g.first[k + 1], mark = el('div', null, 'mark');
      mark.style.top = (g.header + a * g.row) + 'px';
      mark.style.height = Math.max(4, (b - a) * g.row) + 'px';
      mark.style.width = svg.getAttribute('width') + 'px';
      mark.setAttribute('data-step', String(k));
      mark.title = 'the runs part here, at step ' + k;
      view.appendChild(mark);
    }
    // The lane titles stay in view while the diagram scrolls down: a copy of the title band,
    // sticky at the top of the diagram's box, taking no room of its own.
    function stickLaneTitles() {
      var NS = 'http://www.w3.org/2000/svg', heads = document.createElementNS(NS, 'svg');
      ['width', 'font-family', 'font-size'].forEach(function (a) { heads.setAttribute(a, svg.getAttribute(a)); });
      heads.setAttribute('height', String(data.diagram.header));
      var fill = document.createElementNS(NS, 'rect');
      fill.setAttribute('width', '100%');
      fill.setAttribute('height', '100%');
      fill.setAttribute('fill', '#fbfbfd');
      heads.appendChild(fill);
      svg.querySelectorAll('text.lane').forEach(function (t) {
        if (t.previousElementSibling) heads.appendChild(t.previousElementSibling.cloneNode(true));
        heads.appendChild(t.cloneNode(true));
      });
      var holder = el('div', null, 'lane-heads');
      holder.appendChild(heads);
      view.insertBefore(holder, view.firstChild);
    }
    function showDiagram(k) {
      if (!svg) return;
      var g = data.diagram, a = g.first[k], b = g.first[k + 1];
      var y0 = g.header + a * g.row, y1 = g.header + b * g.row;
      band.style.top = (b > a ? y0 : y0 - 2) + 'px';
      band.style.height = (b > a ? y1 - y0 : 4) + 'px';
      band.setAttribute('data-step', String(k));
      drawBetween(y0, y1);
      shade.style.top = y1 + 'px';
      shade.style.height = Math.max(0, g.height - y1) + 'px';
      if (y0 < view.scrollTop + g.header + 10 || y1 > view.scrollTop + view.clientHeight - 10) {
        view.scrollTop = Math.max(0, y0 - view.clientHeight / 3);
      }
      // Sideways too, when the step's labels are out of view (a narrow screen). The step
      // stamps in the gutter stay put: the lanes scroll under them.
      var left = Infinity, right = -Infinity;
      labelsBetween(y0, y1 + 1).forEach(function (t) {
        var box = t.getBBox();
        if (box.x < g.gutter) return;
        left = Math.min(left, box.x);
        right = Math.max(right, box.x + box.width);
      });
      if (left < right && (left < view.scrollLeft || right > view.scrollLeft + view.clientWidth)) {
        view.scrollLeft = Math.max(0, left - g.gutter);
      }
    }
    // The row labels (text.label) whose baseline is in [y0, y1), from the blocks that
    // hold those rows (showDiagram has drawn them). An arrow's label that crosses blocks
    // is in each, so it may come twice; the extent is the same.
    var blocks = view ? Array.prototype.slice.call(view.querySelectorAll('.block')) : [];
    var blockTop = blocks.map(function (b) { return Number(b.getAttribute('data-top') || 0); });
    function labelsBetween(y0, y1) {
      var out = [];
      blocks.forEach(function (block, i) {
        var next = i + 1 < blocks.length ? blockTop[i + 1] : Infinity;
        if (blockTop[i] > y1 || next <= y0) return;
        block.querySelectorAll('svg.sequence text.label').forEach(function (t) {
          var y = Number(t.getAttribute('y'));
          if (y >= y0 && y < y1) out.push(t);
        });
      });
      return out;
    }

    // Shows step k, or the run's last step when it ended before k (a shorter run beside
    // a longer one). Returns the state shown.
    function show(k) {
      var at = Math.min(k, last), s = stateAt(at), list = $('events');
      if (list) {
        list.textContent = '';
        if (at === k) s.e.forEach(function (line) { list.appendChild(el('li', line)); });
      }
      showNow(s, at, k > at);
      showOrders(s, at);
      showTables(s, at);
      showFaults(at);
      showDiagram(at);
      return s;
    }
    return { last: last, show: show, redraw: function (k) { showDiagram(Math.min(k, last)); } };
  }
})();
