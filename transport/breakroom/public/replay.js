// The match page's frame (GET /r/{match_id}): the narrated feed, the points bars, the standings
// chart, the winner and the playback. The game's picture (window.BRPictures[game], from
// pictures/{game}.js) draws the table and keeps the game's counts; this frame knows no rule.
//
// A picture is make(ctx) -> {apply(line), draw(svgParent), scores(), history()}:
//   scores()  -> {values: {seat: number}, sealed: bool, note: string}
//   history() -> [{seat: number}, ...], one entry per step of the match (the chart's x axis)
// ctx: {players, color(seat), name(seat), live}.
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('br-data').textContent);
  var players = D.players || [];
  var palette = ['#d9534f', '#2f7ed8', '#3a9d5d', '#e0a126', '#8e5ccf', '#1fa3a3', '#c75b9b', '#6b7a8f'];
  var SVG = 'http://www.w3.org/2000/svg';

  function color(seat) { return palette[((seat % palette.length) + palette.length) % palette.length]; }
  function name(seat) {
    for (var i = 0; i < players.length; i++) { if (players[i].seat === seat) { return players[i].name; } }
    return 'seat ' + seat;
  }
  function el(tag, attrs, text) {
    var n = document.createElementNS(SVG, tag);
    for (var k in attrs) { n.setAttribute(k, attrs[k]); }
    if (text !== undefined) { n.textContent = text; }
    return n;
  }

  // The generic picture: the seats around a table, nothing counted.
  function generic(ctx) {
    return {
      apply: function () {},
      draw: function (root) {
        var svg = el('svg', {viewBox: '0 0 560 340', role: 'img', 'aria-label': 'the table'});
        svg.appendChild(el('ellipse', {cx: 280, cy: 170, rx: 170, ry: 95, fill: '#2f6b4f'}));
        var n = ctx.players.length;
        ctx.players.forEach(function (p, i) {
          var a = -Math.PI / 2 + i * 2 * Math.PI / n, x = 280 + 220 * Math.cos(a), y = 170 + 135 * Math.sin(a);
          var g = el('g', {'class': 'seat', 'data-seat': p.seat});
          g.appendChild(el('circle', {cx: x, cy: y, r: 24, fill: ctx.color(p.seat)}));
          g.appendChild(el('text', {x: x, y: y + 40, 'text-anchor': 'middle', 'class': 'seat-name'}, p.name));
          svg.appendChild(g);
        });
        root.replaceChildren(svg);
      },
      scores: function () { return {values: {}, sealed: false, note: ''}; },
      history: function () { return []; }
    };
  }

  var make = (window.BRPictures || {})[D.game] || generic;
  var pic = make({players: players, color: color, name: name, live: D.live, el: el});
  var feed = document.getElementById('feed');
  var winner = document.getElementById('winner');
  var progress = document.getElementById('progress');
  var statusEl = document.getElementById('status');
  var applied = 0, total = 0, ended = false;

  function finish(e) {
    ended = true;
    var top = (e.ranking || []).filter(function (r) { return r.rank === 1; })
      .map(function (r) { return r.name || name(r.seat); });
    if (top.length) {
      winner.textContent = (e.type === 'match_abandoned' ? 'Stopped early. In the lead: ' : 'Winner: ') + top.join(' and ');
      winner.dataset.winner = top.join(',');
    } else {
      winner.textContent = 'The match was stopped before anyone scored.';
    }
    winner.hidden = false;
    statusEl.classList.remove('live');
    statusEl.textContent = D.live ? 'Ended' : (e.type === 'match_abandoned' ? 'Replay (stopped early)' : 'Replay');
  }

  function show(e, words, fresh) {
    pic.apply(e);
    var li = document.createElement('li');
    var said = (words || []).join(' ').trim();
    li.textContent = said || e.type;
    li.dataset.type = e.type;
    if (e.type === 'message') { li.className = 'talk'; }
    if (/_private$/.test(e.type)) { li.className = 'sealed'; }
    if (e.type === 'match_end' || e.type === 'match_abandoned') { li.className = 'end'; finish(e); }
    if (fresh) { li.classList.add('new'); }
    feed.appendChild(li);
    feed.scrollTop = feed.scrollHeight;
    applied++;
  }

  function bars() {
    var s = pic.scores(), root = document.getElementById('bars');
    var max = 1;
    players.forEach(function (p) { max = Math.max(max, s.values[p.seat] || 0); });
    root.replaceChildren();
    players.forEach(function (p) {
      var row = document.createElement('div'); row.className = 'bar-row'; row.dataset.seat = p.seat;
      var nm = document.createElement('span'); nm.className = 'bar-name'; nm.textContent = p.name;
      var track = document.createElement('div'); track.className = 'bar-track';
      var bar = document.createElement('div'); bar.className = 'bar' + (s.sealed ? ' sealed' : '');
      var v = s.values[p.seat] || 0;
      bar.style.width = s.sealed ? '100%' : (100 * v / max) + '%';
      bar.style.background = color(p.seat);
      track.appendChild(bar);
      var val = document.createElement('span'); val.className = 'bar-val';
      val.textContent = s.sealed ? 'sealed' : String(v);
      row.append(nm, track, val);
      root.appendChild(row);
    });
    document.getElementById('note').textContent = s.note || '';
  }

  function chart() {
    var h = pic.history(), s = pic.scores(), root = document.getElementById('chart-svg');
    var W = 560, H = 200, L = 36, B = 22;
    var svg = el('svg', {viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': 'standing over the match'});
    if (s.sealed || h.length === 0) {
      svg.appendChild(el('text', {x: W / 2, y: H / 2, 'text-anchor': 'middle', fill: '#6a6256'},
        s.sealed ? 'Sealed until the end of the match.' : 'Nothing scored yet.'));
      root.replaceChildren(svg);
      return;
    }
    var max = 1;
    h.forEach(function (pt) { players.forEach(function (p) { max = Math.max(max, pt[p.seat] || 0); }); });
    var steps = Math.max(1, h.length);
    function X(i) { return L + (W - L - 10) * (i / steps); }
    function Y(v) { return H - B - (H - B - 10) * (v / max); }
    svg.appendChild(el('line', {x1: L, y1: H - B, x2: W - 10, y2: H - B, stroke: '#bbb'}));
    svg.appendChild(el('line', {x1: L, y1: 10, x2: L, y2: H - B, stroke: '#bbb'}));
    svg.appendChild(el('text', {x: L - 6, y: 16, 'text-anchor': 'end', 'font-size': 11, fill: '#6a6256'}, String(max)));
    svg.appendChild(el('text', {x: L - 6, y: H - B, 'text-anchor': 'end', 'font-size': 11, fill: '#6a6256'}, '0'));
    svg.appendChild(el('text', {x: W - 10, y: H - 4, 'text-anchor': 'end', 'font-size': 11, fill: '#6a6256'}, h.length + ' steps'));
    players.forEach(function (p) {
      var pts = [X(0) + ',' + Y(0)];
      h.forEach(function (pt, i) { pts.push(X(i + 1) + ',' + Y(pt[p.seat] || 0)); });
      svg.appendChild(el('polyline', {points: pts.join(' '), fill: 'none', stroke: color(p.seat), 'stroke-width': 2.5,
        'class': 'standing', 'data-seat': p.seat}));
    });
    root.replaceChildren(svg);
  }

  function redraw() {
    pic.draw(document.getElementById('picture'));
    bars();
    chart();
    progress.textContent = D.live ? applied + ' lines' : applied + ' / ' + total;
  }

  // Live: the lines so far, then GET /r/{id}/live?narrate=1 (everything from the first line,
  // so the ones the page came with are skipped by seq); the page itself, read again every 2 s,
  // when the stream cannot be had.
  function live() {
    (D.lines || []).forEach(function (l) { show(l.e, l.n, false); });
    redraw();
    var seen = 0, polling = false;
    // A line is new when its seq (the stream's id: 0, 1, 2, … over the public lines, which a
    // reconnecting EventSource resumes after) is past the lines the page has.
    function poll() {
      if (polling || ended) { return; }
      polling = true;
      var tick = function () {
        fetch(location.pathname + '?speed=0', {cache: 'no-store'}).then(function (r) { return r.text(); }).then(function (html) {
          var doc = new DOMParser().parseFromString(html, 'text/html');
          var d = JSON.parse(doc.getElementById('br-data').textContent);
          if (!d.live) { location.reload(); return; }
          var ls = d.lines || [];
          for (var i = applied; i < ls.length; i++) { show(ls[i].e, ls[i].n, true); }
          redraw();
          setTimeout(tick, 2000);
        }).catch(function () { setTimeout(tick, 4000); });
      };
      setTimeout(tick, 2000);
    }
    if (!window.EventSource) { poll(); return; }
    var es = new EventSource(D.live_url);
    es.addEventListener('line', function (m) {
      var n = m.lastEventId !== '' ? Number(m.lastEventId) : seen;
      seen = n + 1;
      if (n < applied || ended) { return; }
      var d = JSON.parse(m.data);
      show(d.e, d.n, true);
      redraw();
    });
    es.addEventListener('end', function () {
      es.close();
      var a = document.createElement('a');
      a.href = location.pathname; a.textContent = ' Watch the whole replay, sealed moves revealed.';
      winner.appendChild(a);
    });
    es.onerror = function () {
      if (es.readyState === 2 && !ended) { poll(); }
    };
  }

  // Replay: the public log (GET /r/{id}.jsonl), one line per step, at the chosen speed.
  function replay() {
    var queue = [], speed = Number(window.BRSpeed) || 0, timer = null;
    var buttons = document.querySelectorAll('#controls button[data-speed]');
    function mark() { buttons.forEach(function (b) { b.classList.toggle('on', Number(b.dataset.speed) === speed); }); }
    function step() {
      timer = null;
      if (speed === 0 || applied >= queue.length) { return; }
      show(queue[applied], (D.words || [])[applied], true);
      redraw();
      schedule();
    }
    function schedule() {
      if (timer === null && speed > 0 && applied < queue.length) { timer = setTimeout(step, 700 / speed); }
    }
    buttons.forEach(function (b) {
      b.addEventListener('click', function () {
        speed = Number(b.dataset.speed);
        if (timer !== null) { clearTimeout(timer); timer = null; }
        mark();
        schedule();
      });
    });
    mark();
    redraw();
    fetch(D.log_url, {cache: 'no-store'}).then(function (r) {
      if (!r.ok) { throw new Error('log: ' + r.status); }
      return r.text();
    }).then(function (text) {
      queue = text.split('\n').filter(function (l) { return l.trim() !== ''; }).map(function (l) { return JSON.parse(l); });
      total = queue.length;
      if (queue.length) { show(queue[0], (D.words || [])[0], false); }
      redraw();
      schedule();
    }).catch(function (err) { progress.textContent = 'The log could not be read (' + err.message + ').'; });
  }

  if (D.live) { live(); } else { replay(); }
}());
