// The Dilemma's picture of its table (breakroom-games.md §5): the seats around the table, the
// round's pairs joined across it, the bye and the seats sitting out, each seat's latest words;
// in the replay each seat's choice of the iteration as it is made (C or D) and who is to move
// next (seats are prompted in ascending order), and the points each seat has. While the match
// runs its choices and points are sealed (§5.4: results stay within the pair), so the live
// picture shows the pairs, the talk and the pace, and the points arrive with match_end.
(function () {
  'use strict';
  window.BRPictures = window.BRPictures || {};
  window.BRPictures.dilemma = function (ctx) {
    var st = {round: 0, iteration: 0, pairs: [], bye: null, out: {}, moved: {}, talk: {}, points: {}, history: [], ended: false, roundOver: false};
    ctx.players.forEach(function (p) { st.points[p.seat] = 0; });
    var el = ctx.el;

    function partner(seat) {
      for (var i = 0; i < st.pairs.length; i++) {
        if (st.pairs[i][0] === seat) { return st.pairs[i][1]; }
        if (st.pairs[i][1] === seat) { return st.pairs[i][0]; }
      }
      return null;
    }
    // next is the seat prompted next in this iteration (replay only: the choices are known).
    function next() {
      if (ctx.live || st.ended || st.roundOver || st.round === 0) { return null; }
      var seats = ctx.players.map(function (p) { return p.seat; }).sort(function (a, b) { return a - b; });
      for (var i = 0; i < seats.length; i++) {
        var s = seats[i];
        if (partner(s) !== null && !st.out[s] && !st.moved[s]) { return s; }
      }
      return null;
    }

    function apply(e) {
      switch (e.type) {
        case 'match_start':
          st.payoffs = (e.config || {}).payoffs || null;
          break;
        case 'round_start':
          st.round = e.round; st.pairs = e.pairs || []; st.bye = e.bye; st.iteration = 1; st.moved = {}; st.roundOver = false;
          break;
        case 'action_private':
        case 'timeout_private':
          if (e.iteration !== st.iteration) { st.iteration = e.iteration; st.moved = {}; }
          var a = e.type === 'timeout_private' ? e.auto : e.action;
          st.moved[e.seat] = a === 'defect' ? 'D' : 'C';
          break;
        case 'iteration_private':
          if (e.pair && e.points) {
            st.points[e.pair[0]] = (st.points[e.pair[0]] || 0) + e.points[0];
            st.points[e.pair[1]] = (st.points[e.pair[1]] || 0) + e.points[1];
          }
          break;
        case 'iteration_end':
          var snap = {};
          for (var k in st.points) { snap[k] = st.points[k]; }
          st.history.push(snap);
          st.iteration = e.iteration + 1;
          if (!ctx.live) { st.moved = {}; }
          break;
        case 'round_end':
          st.roundOver = true; st.iteration = e.iterations;
          break;
        case 'message':
          st.talk[e.seat] = e.text;
          break;
        case 'sit_out':
          st.out[e.seat] = true;
          break;
        case 'sit_in':
          delete st.out[e.seat];
          break;
        case 'match_end':
        case 'match_abandoned':
          st.ended = true;
          (e.ranking || []).forEach(function (r) { if (typeof r.points === 'number') { st.points[r.seat] = r.points; } });
          break;
      }
    }

    function clip(s, n) { return s.length > n ? s.slice(0, n - 1) + '…' : s; }

    function draw(root) {
      var W = 620, H = 400, cx = W / 2, cy = H / 2;
      var svg = el('svg', {viewBox: '0 0 ' + W + ' ' + H, role: 'img', 'aria-label': 'the Dilemma table'});
      svg.appendChild(el('ellipse', {cx: cx, cy: cy, rx: 185, ry: 92, fill: '#2f6b4f', stroke: '#21503a', 'stroke-width': 6}));
      var n = ctx.players.length, pos = {};
      ctx.players.forEach(function (p, i) {
        var a = -Math.PI / 2 + i * 2 * Math.PI / n;
        pos[p.seat] = {x: cx + 235 * Math.cos(a), y: cy + 150 * Math.sin(a)};
      });
      st.pairs.forEach(function (pr) {
        var a = pos[pr[0]], b = pos[pr[1]];
        if (a && b) {
          svg.appendChild(el('line', {x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: '#ffd27a', 'stroke-width': 3,
            'stroke-dasharray': '8 6', 'class': 'pair', 'data-pair': pr[0] + '-' + pr[1]}));
        }
      });
      var head = st.round === 0 ? 'Taking seats' : st.ended ? 'Match over' :
        'Round ' + st.round + (st.roundOver ? ' done' : ' · iteration ' + st.iteration);
      svg.appendChild(el('text', {x: cx, y: cy - 6, 'text-anchor': 'middle', fill: '#fff', 'font-size': 22, 'font-weight': 600, id: 'round',
        stroke: '#2f6b4f', 'stroke-width': 6, 'paint-order': 'stroke'}, head));
      svg.appendChild(el('text', {x: cx, y: cy + 20, 'text-anchor': 'middle', fill: '#cfe6d8', 'font-size': 13},
        ctx.live && !st.ended ? 'choices are sealed until the end' : 'C cooperate · D defect'));
      var turn = next();
      ctx.players.forEach(function (p) {
        var q = pos[p.seat], s = p.seat;
        var g = el('g', {'class': 'seat', 'data-seat': s});
        if (turn === s) {
          g.classList.add('to-move');
          g.appendChild(el('circle', {cx: q.x, cy: q.y, r: 34, fill: 'none', stroke: '#ffb000', 'stroke-width': 4}));
        }
        var faded = st.bye === s || st.out[s];
        g.appendChild(el('circle', {cx: q.x, cy: q.y, r: 27, fill: ctx.color(s), opacity: faded ? 0.35 : 1}));
        var mv = st.moved[s];
        g.appendChild(el('text', {x: q.x, y: q.y + 7, 'text-anchor': 'middle', fill: '#fff', 'font-size': 20, 'font-weight': 700, 'class': 'choice'},
          mv || (ctx.live && !st.ended && partner(s) !== null && !st.out[s] ? '?' : '')));
        g.appendChild(el('text', {x: q.x, y: q.y + 46, 'text-anchor': 'middle', 'font-size': 14, 'font-weight': 600, 'class': 'seat-name'}, p.name));
        var tag = st.bye === s ? 'bye' : st.out[s] ? 'sitting out' : turn === s ? 'to move' : p.house ? 'house' : p.staff ? 'staff' : '';
        if (tag) { g.appendChild(el('text', {x: q.x, y: q.y + 62, 'text-anchor': 'middle', 'font-size': 12, fill: '#6a6256', 'class': 'seat-tag'}, tag)); }
        if (st.talk[s]) {
          var up = q.y < cy;
          g.appendChild(el('text', {x: q.x, y: up ? q.y - 36 : q.y + 78, 'text-anchor': 'middle', 'font-size': 12, 'font-style': 'italic', fill: '#3b3325', 'class': 'talk'},
            '“' + clip(st.talk[s], 36) + '”'));
        }
        svg.appendChild(g);
      });
      root.replaceChildren(svg);
    }

    return {
      apply: apply,
      draw: draw,
      scores: function () {
        var sealed = ctx.live && !st.ended;
        return {values: st.points, sealed: sealed,
          note: sealed ? 'Points stay within each pair until the match ends; they arrive with the result, and the replay shows every choice.'
            : 'Points: the sum of each seat\'s payoffs' + (st.payoffs ? ' (both cooperate ' + st.payoffs.R + ' each, a lone defector ' +
              st.payoffs.T + ' and the other ' + st.payoffs.S + ', both defect ' + st.payoffs.P + ' each).' : '.')};
      },
      history: function () { return ctx.live && !st.ended ? [] : st.history; }
    };
  };
}());
