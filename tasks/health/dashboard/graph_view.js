// membank knowledge view: draws the model of #graph-data (tasks/health/dashboard/graph_model.py).
// Only a few hundred entities are ever drawn: the most connected ones (overview), a search's
// hits, or one entity's neighbourhood; d3-force lays them out, synchronously, in the page.
(function () {
  'use strict';
  var OVERVIEW = 150, HITS = 60, NEIGHBOURS = 120, RESULTS = 50, TICKS = 120, SVGNS = 'http://www.w3.org/2000/svg';
  var PALETTE = ['#2f81f7', '#d29922', '#e5534b', '#3fb950', '#a371f7', '#db61a2', '#39c5cf',
    '#f0883e', '#768390', '#8b949e'];
  var M = JSON.parse(document.getElementById('graph-data').textContent);
  var N = M.nodes.length, adjacency = [], typeCount = M.types.map(function () { return 0; });
  var i;
  for (i = 0; i < N; i++) { adjacency.push([]); typeCount[M.nodes[i][1]]++; }
  M.edges.forEach(function (e, k) { adjacency[e[0]].push(k); if (e[1] !== e[0]) { adjacency[e[1]].push(k); } });
  // colours go to the most frequent types first
  var typeRank = M.types.map(function (_, t) { return t; }).sort(function (a, b) {
    return typeCount[b] - typeCount[a] || a - b; });
  var colour = [];
  typeRank.forEach(function (t, r) { colour[t] = PALETTE[Math.min(r, PALETTE.length - 1)]; });
  var names = M.nodes.map(function (n) { return n[0].toLowerCase(); });
  var keys = M.nodes.map(function (n) { return [n[0]].concat(n[5], [M.types[n[1]]]).join('\n').toLowerCase(); });
  var byDegree = M.nodes.map(function (_, k) { return k; }).sort(function (a, b) {
    return M.nodes[b][2] - M.nodes[a][2] || a - b; });

  var svg = document.getElementById('canvas'), panel = document.getElementById('panel');
  var search = document.getElementById('search'), hubBox = document.getElementById('hub');
  var shown = document.getElementById('shown');
  var state = {focus: -1, query: '', hits: [], types: M.types.map(function () { return true; }), hub: -1};
  var view = {x: 0, y: 0, w: 1, h: 1};

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }
  function svgEl(tag, attrs) {
    var node = document.createElementNS(SVGNS, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    return node;
  }
  function href(path) {
    return M.base + path.split('/').map(encodeURIComponent).join('/');
  }
  function passes(k) {
    var n = M.nodes[k];
    return state.types[n[1]] && (state.hub < 0 || n[3].indexOf(state.hub) >= 0);
  }

  // --- which entities are drawn ---------------------------------------------------------
  function neighbours(k) {
    var seen = {}, out = [];
    adjacency[k].forEach(function (e) {
      var edge = M.edges[e], other = edge[0] === k ? edge[1] : edge[0];
      if (other !== k && !seen[other] && passes(other)) { seen[other] = 1; out.push(other); }
    });
    return out.sort(function (a, b) { return M.nodes[b][2] - M.nodes[a][2] || a - b; });
  }
  function chosen() {
    if (state.focus >= 0) {
      var near = neighbours(state.focus).slice(0, NEIGHBOURS), set = [state.focus].concat(near);
      if (set.length < 30) {  // a sparse neighbourhood: add the neighbours' neighbours
        var have = {};
        set.forEach(function (k) { have[k] = 1; });
        near.forEach(function (k) {
          neighbours(k).forEach(function (o) { if (!have[o] && set.length < 60) { have[o] = 1; set.push(o); } });
        });
      }
      return set;
    }
    if (state.query) { return state.hits.filter(passes).slice(0, HITS); }
    return byDegree.filter(passes).slice(0, OVERVIEW);
  }

  // --- layout and drawing ---------------------------------------------------------------
  // Starting places: breadth-first over the drawn edges, each entity a step away from the one
  // that reached it, pointing away from where that one came from (so a chain starts as a line
  // and a hub's spokes as a fan); separate groups start apart. The layout steps then only
  // have to relax this, not untangle a random start.
  function seed(set) {
    var inSet = {}, at = {}, groups = 0;
    set.forEach(function (k) { inSet[k] = 1; });
    set.forEach(function (start) {
      if (at[start]) { return; }
      var r = 160 * Math.sqrt(groups), a = groups * 2.39996;
      at[start] = {x: r * Math.cos(a), y: r * Math.sin(a), a: a};
      groups++;
      for (var q = [start], head = 0; head < q.length; head++) {
        var k = q[head], from = at[k], next = [];
        adjacency[k].forEach(function (e) {
          var edge = M.edges[e], other = edge[0] === k ? edge[1] : edge[0];
          if (inSet[other] && !at[other]) { at[other] = 1; next.push(other); }
        });
        var fan = head === 0 ? 2 * Math.PI : Math.min(2.4, 0.5 * next.length);
        next.forEach(function (o, j) {
          // a single follower turns a little, so a long chain coils up instead of running off
          var a = from.a + (next.length > 1 ? (j / (next.length - (head === 0 ? 0 : 1)) - (head === 0 ? 0 : 0.5)) * fan
            : 6 / (6 + head));
          at[o] = {x: from.x + 50 * Math.cos(a), y: from.y + 50 * Math.sin(a), a: a};
          q.push(o);
        });
      }
    });
    return at;
  }
  function layout(set) {
    var at = seed(set), index = {}, nodes = set.map(function (k, j) {
      index[k] = j;
      var n = {k: k, r: 4 + Math.min(10, Math.sqrt(M.nodes[k][2]) * 1.6), x: at[k].x, y: at[k].y};
      if (k === state.focus) { n.fx = 0; n.fy = 0; }
      return n;
    });
    var links = [], seen = {};
    set.forEach(function (k) {
      adjacency[k].forEach(function (e) {
        var edge = M.edges[e];
        if (!seen[e] && index[edge[0]] !== undefined && index[edge[1]] !== undefined) {
          seen[e] = 1;
          links.push({source: index[edge[0]], target: index[edge[1]], e: e});
        }
      });
    });
    links.sort(function (a, b) { return a.e - b.e; });
    // 120 steps with the cooling set to reach d3's usual end (alpha 0.001) in them: about
    // 2.5x cheaper than its 300 default, and the page draws before its load event
    var sim = d3.forceSimulation(nodes).stop().alphaDecay(1 - Math.pow(0.001, 1 / TICKS))
      .force('link', d3.forceLink(links).distance(90).strength(0.3))
      .force('charge', d3.forceManyBody().strength(-320).distanceMax(900))
      .force('collide', d3.forceCollide(function (n) { return n.r + 8; }))
      .force('x', d3.forceX(0).strength(0.04)).force('y', d3.forceY(0).strength(0.04));
    sim.tick(TICKS);
    return {nodes: nodes, links: links};
  }
  function fit(nodes, labelled) {
    var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    nodes.forEach(function (n) {
      var label = labelled[n.k] ? 6.2 * Math.min(40, M.nodes[n.k][0].length) + 4 : 0;
      x0 = Math.min(x0, n.x - n.r); y0 = Math.min(y0, n.y - n.r);
      x1 = Math.max(x1, n.x + n.r + label); y1 = Math.max(y1, n.y + n.r);
    });
    if (!nodes.length) { x0 = y0 = -100; x1 = y1 = 100; }
    var pad = 20, w = Math.max(x1 - x0 + 2 * pad, 360), h = Math.max(y1 - y0 + 2 * pad, 300);
    view = {x: (x0 + x1 - w) / 2, y: (y0 + y1 - h) / 2, w: w, h: h};
    setView();
  }
  function setView() {
    svg.setAttribute('viewBox', [view.x, view.y, view.w, view.h].join(' '));
    // labels keep about 11 screen pixels however far the drawing is zoomed out
    var box = svg.getBoundingClientRect(), scale = Math.max(view.w / (box.width || 1), view.h / (box.height || 1));
    svg.style.setProperty('--label', (11 * Math.max(1, scale)).toFixed(1) + 'px');
  }

  function draw() {
    var set = chosen(), drawn = layout(set), labelled = {};
    var hits = {};
    state.hits.slice(0, HITS).forEach(function (k) { hits[k] = 1; });
    set.slice().sort(function (a, b) { return M.nodes[b][2] - M.nodes[a][2] || a - b; })
      .slice(0, set.length <= 70 ? set.length : 40).forEach(function (k) { labelled[k] = 1; });
    if (state.focus >= 0) { labelled[state.focus] = 1; }
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    var defs = svgEl('defs'), marker = svgEl('marker', {id: 'arrow', viewBox: '0 0 10 10', refX: 10, refY: 5,
      markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse'});
    marker.appendChild(svgEl('path', {d: 'M0,0L10,5L0,10z'}));
    defs.appendChild(marker); svg.appendChild(defs);
    var edges = svgEl('g', {id: 'edges'}), nodes = svgEl('g', {id: 'nodes'});
    drawn.links.forEach(function (l) {
      var edge = M.edges[l.e], s = l.source, t = l.target;
      var dx = t.x - s.x, dy = t.y - s.y, d = Math.sqrt(dx * dx + dy * dy) || 1;
      var line = svgEl('line', {x1: s.x, y1: s.y, x2: t.x - dx / d * (t.r + 2), y2: t.y - dy / d * (t.r + 2),
        'class': 'edge' + (edge[3] ? ' gone' : ''), 'marker-end': 'url(#arrow)'});
      var title = svgEl('title');
      title.textContent = M.nodes[edge[0]][0] + ' ' + M.relTypes[edge[2]] + ' ' + M.nodes[edge[1]][0] +
        (edge[3] ? ' (superseded)' : '');
      line.appendChild(title); edges.appendChild(line);
    });
    drawn.nodes.forEach(function (n) {
      var node = M.nodes[n.k];
      var g = svgEl('g', {'class': 'node' + (node[6] ? ' gone' : '') + (n.k === state.focus ? ' focus' : '') +
        (hits[n.k] ? ' hit' : ''), transform: 'translate(' + n.x.toFixed(1) + ',' + n.y.toFixed(1) + ')',
        'data-name': node[0]});
      g.appendChild(svgEl('circle', {r: n.r, fill: colour[node[1]]}));
      var title = svgEl('title');
      title.textContent = node[0] + ' (' + M.types[node[1]] + ', ' + node[2] + ' relations)';
      g.appendChild(title);
      if (labelled[n.k]) {
        var text = svgEl('text', {x: n.r + 3, y: 4});
        text.textContent = node[0].length > 40 ? node[0].slice(0, 39) + '\u2026' : node[0];
        g.appendChild(text);
      }
      g.addEventListener('click', function (ev) { ev.stopPropagation(); select(n.k); });
      nodes.appendChild(g);
    });
    svg.appendChild(edges); svg.appendChild(nodes);
    fit(drawn.nodes, labelled);
    var what = state.focus >= 0 ? 'the neighbourhood of ' + M.nodes[state.focus][0]
      : state.query ? 'search hits' : 'the most connected entities';
    shown.textContent = set.length + ' of ' + N + ' entities shown: ' + what;
  }

  // --- side panel -----------------------------------------------------------------------
  function entityButton(k, label) {
    var b = el('button', {type: 'button', 'class': 'link', 'data-entity': M.nodes[k][0]}, label || M.nodes[k][0]);
    b.addEventListener('click', function () { select(k); });
    return b;
  }
  function evidence(where) {
    var span = el('span', {'class': 'where'});
    where.forEach(function (w) {
      var page = M.pages[w[0]], lines = w[2] === w[3] ? 'line ' + w[2] : 'lines ' + w[2] + '\u2013' + w[3];
      span.appendChild(el('a', {href: href(page), 'class': 'source'}, page.split('/').pop()));
      if (w[1] >= 0) {
        span.appendChild(el('a', {href: href(M.pages[w[1]]) + '#L' + w[2] + '-L' + w[3], 'class': 'lines',
          title: M.pages[w[1]]}, lines + ' of the raw source'));
      } else {
        span.appendChild(el('span', {}, lines + ' of the raw source'));
      }
    });
    return span;
  }
  function showEntity(k) {
    var node = M.nodes[k], obs = M.obs[k];
    panel.textContent = '';
    panel.appendChild(el('h2', {id: 'entity-name'}, node[0]));
    var meta = el('p', {'class': 'muted'}, M.types[node[1]] + ', ' + node[2] + ' relations' +
      (node[6] ? ', superseded' : ''));
    panel.appendChild(meta);
    if (node[4] >= 0) { panel.appendChild(el('p', {}, '')).appendChild(el('a', {href: href(M.pages[node[4]])}, 'entity page')); }
    if (node[5].length) { panel.appendChild(el('p', {'class': 'muted'}, 'also known as ' + node[5].join(', '))); }
    if (node[3].length) {
      panel.appendChild(el('p', {'class': 'muted'}, 'hubs: ' + node[3].map(function (h) { return M.hubs[h]; }).join(', ')));
    }
    panel.appendChild(el('h3', {}, 'Observations (' + obs.length + ')'));
    var list = el('ul', {id: 'observations'});
    obs.forEach(function (o) {
      var li = el('li', {'class': o[2] ? 'gone' : 'active'});
      li.appendChild(el('span', {'class': 'text'}, o[0]));
      if (o[2]) { li.appendChild(el('span', {'class': 'note'}, o[2])); }
      if (o[1].length) { li.appendChild(evidence(o[1])); }
      list.appendChild(li);
    });
    if (!obs.length) { list.appendChild(el('li', {'class': 'muted'}, 'no observations')); }
    panel.appendChild(list);
    panel.appendChild(el('h3', {}, 'Relations (' + adjacency[k].length + ')'));
    var rel = el('ul', {id: 'relations'});
    adjacency[k].slice(0, 300).forEach(function (e) {
      var edge = M.edges[e], li = el('li', {'class': edge[3] ? 'gone' : 'active'});
      if (edge[0] === k) {
        li.appendChild(document.createTextNode(M.relTypes[edge[2]] + ' '));
        li.appendChild(entityButton(edge[1]));
      } else {
        li.appendChild(entityButton(edge[0]));
        li.appendChild(document.createTextNode(' ' + M.relTypes[edge[2]]));
      }
      rel.appendChild(li);
    });
    if (adjacency[k].length > 300) { rel.appendChild(el('li', {'class': 'muted'}, (adjacency[k].length - 300) + ' more')); }
    panel.appendChild(rel);
  }
  function showResults() {
    panel.textContent = '';
    if (!state.query) {
      panel.appendChild(el('h2', {}, 'Knowledge graph'));
      panel.appendChild(el('p', {'class': 'muted'}, 'The ' + Math.min(OVERVIEW, N) + ' most connected entities are drawn. ' +
        'Search, or click an entity, to see its neighbourhood and its observations with their sources.'));
      return;
    }
    var hits = state.hits.filter(passes);
    panel.appendChild(el('h2', {}, hits.length + ' entities match'));
    var list = el('ul', {id: 'results'});
    hits.slice(0, RESULTS).forEach(function (k) {
      var li = el('li');
      li.appendChild(entityButton(k));
      li.appendChild(el('span', {'class': 'muted'}, ' ' + M.types[M.nodes[k][1]]));
      list.appendChild(li);
    });
    panel.appendChild(list);
  }

  // --- interaction ------------------------------------------------------------------------
  function find(query) {
    var q = query.trim().toLowerCase(), exact = [], prefix = [], inside = [];
    if (!q) { return []; }
    for (var k = 0; k < N; k++) {
      if (names[k] === q) { exact.push(k); } else if (names[k].lastIndexOf(q, 0) === 0) { prefix.push(k); } else if (keys[k].indexOf(q) >= 0) { inside.push(k); }
    }
    function rank(a, b) { return M.nodes[b][2] - M.nodes[a][2] || a - b; }
    return exact.concat(prefix.sort(rank), inside.sort(rank));
  }
  function select(k) {
    state.focus = k;
    draw(); showEntity(k);
  }
  function overview() {
    state.focus = -1; draw(); showResults();
  }
  var pending = 0;
  search.addEventListener('input', function () {
    clearTimeout(pending);
    pending = setTimeout(function () {
      state.query = search.value.trim(); state.hits = find(state.query); overview();
    }, 120);
  });
  search.addEventListener('keydown', function (ev) {
    if (ev.key !== 'Enter') { return; }
    clearTimeout(pending);
    state.query = search.value.trim(); state.hits = find(state.query);
    var first = state.hits.filter(passes)[0];
    if (first !== undefined) { select(first); } else { overview(); }
  });
  document.getElementById('overview').addEventListener('click', function () {
    search.value = ''; state.query = ''; state.hits = []; overview();
  });
  M.hubs.forEach(function (h, j) { hubBox.appendChild(el('option', {value: String(j)}, h)); });
  hubBox.addEventListener('change', function () {
    state.hub = hubBox.value === '' ? -1 : Number(hubBox.value); redraw();
  });
  var types = document.getElementById('types');
  typeRank.forEach(function (t) {
    var label = el('label'), box = el('input', {type: 'checkbox', 'data-type': M.types[t]});
    box.checked = true;
    box.addEventListener('change', function () { state.types[t] = box.checked; redraw(); });
    label.appendChild(box);
    var sw = el('span', {'class': 'sw'}); sw.style.background = colour[t];
    label.appendChild(sw);
    label.appendChild(document.createTextNode(M.types[t] + ' (' + typeCount[t] + ')'));
    types.appendChild(label);
  });
  function redraw() { draw(); if (state.focus >= 0) { showEntity(state.focus); } else { showResults(); } }

  // pan with a drag on the background, zoom with the wheel
  var drag = null;
  svg.addEventListener('pointerdown', function (ev) {
    if (ev.target !== svg) { return; }
    drag = {x: ev.clientX, y: ev.clientY, vx: view.x, vy: view.y};
    svg.setPointerCapture(ev.pointerId);
  });
  svg.addEventListener('pointermove', function (ev) {
    if (!drag) { return; }
    var scale = view.w / svg.clientWidth;
    view.x = drag.vx - (ev.clientX - drag.x) * scale; view.y = drag.vy - (ev.clientY - drag.y) * scale;
    setView();
  });
  svg.addEventListener('pointerup', function () { drag = null; });
  svg.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    var box = svg.getBoundingClientRect(), f = ev.deltaY > 0 ? 1.15 : 1 / 1.15;
    var px = view.x + (ev.clientX - box.left) / box.width * view.w;
    var py = view.y + (ev.clientY - box.top) / box.height * view.h;
    view = {x: px - (px - view.x) * f, y: py - (py - view.y) * f, w: view.w * f, h: view.h * f};
    setView();
  }, {passive: false});

  overview();
})();
