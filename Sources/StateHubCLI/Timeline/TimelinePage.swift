import JSEngine

/// The timeline as one self-contained HTML page (no network, no external file): the
/// steps as embedded JSON, and a small script that groups them under their actions,
/// filters by store and channel, and rebuilds the whole state at the step the slider
/// selects (applying snapshots and ops from the nearest checkpoint; a checkpoint every
/// 256 steps, so moving the slider costs at most 256 steps of replay).
enum TimelinePage {
    static func html(for model: TimelineModel, title: String) -> String {
        let data = JSONValue.array(model.steps.map(\.json)).jsonText()
            .replacingOccurrences(of: "</", with: "<\\/")
            .replacingOccurrences(of: "\u{2028}", with: "\\u2028")
            .replacingOccurrences(of: "\u{2029}", with: "\\u2029")
        return template
            .replacingOccurrences(of: "@TITLE@", with: escape(title))
            .replacingOccurrences(of: "@DATA@", with: data)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static let template = #"""
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>StateHub trace: @TITLE@</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  :root { --bg:#fbfbfd; --fg:#1d1d1f; --muted:#6e6e73; --line:#e5e5ea; --accent:#0a66d8; --sel:#e8f0fe; --old:#b3261e; --new:#146c2e; --bridge:#7a4fb5; }
  * { box-sizing: border-box; }
  body { margin:0; font:13px/1.45 -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--fg); background:var(--bg); }
  header { position:sticky; top:0; z-index:2; background:#fff; border-bottom:1px solid var(--line); padding:10px 16px; display:flex; flex-wrap:wrap; gap:14px; align-items:center; }
  header h1 { font-size:15px; margin:0 12px 0 0; }
  header label { color:var(--muted); }
  #slider { width:320px; vertical-align:middle; }
  #step-label { font-variant-numeric: tabular-nums; min-width:110px; display:inline-block; }
  main { display:grid; grid-template-columns: minmax(0,3fr) minmax(0,2fr); height:calc(100vh - 52px); }
  #timeline { overflow:auto; border-right:1px solid var(--line); }
  #side { overflow:auto; padding:12px 16px; }
  .group { border-bottom:1px solid var(--line); }
  .group-title { padding:6px 16px; background:#f2f2f7; font-weight:600; }
  .group-title .origin { color:var(--muted); font-weight:400; }
  .row { padding:5px 16px 5px 28px; cursor:pointer; border-top:1px solid #f2f2f7; }
  .row:hover { background:#f5f7fb; }
  .row.selected { background:var(--sel); }
  .row.future { opacity:.45; }
  .row .head { font-family: ui-monospace, Menlo, monospace; font-size:12px; }
  .row .n { color:var(--muted); display:inline-block; min-width:42px; }
  .row .dir { color:var(--muted); }
  .row.bridge .kind { color:var(--bridge); }
  .row .kind { font-weight:600; }
  .change.refused { text-decoration:line-through; opacity:.7; }
  .change .refused { color:#b00020; text-decoration:none; font-weight:600; }
  .row .summary { color:#333; margin-left:42px; word-break:break-all; }
  .row .note { color:var(--old); margin-left:42px; }
  .change { margin-left:42px; font-family: ui-monospace, Menlo, monospace; font-size:12px; word-break:break-all; }
  .change .old { color:var(--old); text-decoration: line-through; }
  .change .new { color:var(--new); }
  #state { font-family: ui-monospace, Menlo, monospace; font-size:12px; white-space:pre-wrap; word-break:break-all; margin:0; }
  #side h2 { font-size:13px; margin:0 0 8px; color:var(--muted); font-weight:600; }
</style></head>
<body>
<header>
  <h1>StateHub trace — @TITLE@</h1>
  <label>Store <select id="store-filter"><option value="">all</option></select></label>
  <label><input type="checkbox" id="channel-store" checked> store sync</label>
  <label><input type="checkbox" id="channel-bridge" checked> bridge</label>
  <label>Step <input type="range" id="slider" min="0" max="0" value="0"></label>
  <span id="step-label"></span>
</header>
<main>
  <div id="timeline"></div>
  <div id="side"><h2 id="state-title">State</h2><pre id="state"></pre></div>
</main>
<script id="trace-data" type="application/json">@DATA@</script>
<script>
(function () {
  'use strict';
  var steps = JSON.parse(document.getElementById('trace-data').textContent);
  var slider = document.getElementById('slider');
  var storeFilter = document.getElementById('store-filter');
  var showStore = document.getElementById('channel-store');
  var showBridge = document.getElementById('channel-bridge');
  var timeline = document.getElementById('timeline');
  var stateView = document.getElementById('state');
  var label = document.getElementById('step-label');
  var selected = steps.length ? steps.length - 1 : 0;

  function clone(v) { return v === undefined ? undefined : JSON.parse(JSON.stringify(v)); }
  function own(obj, key, value) { Object.defineProperty(obj, key, { value: value, writable: true, enumerable: true, configurable: true }); }
  function short(v) {
    if (v === undefined) return 'absent';
    var t = JSON.stringify(v);
    return t.length > 160 ? t.slice(0, 160) + '…' : t;
  }

  // One op, as docs/PROTOCOL.md A.2 describes it; a path that does not lead anywhere is skipped.
  function applyOp(state, op) {
    var path = op.path || [];
    if (op.op === 'set' && path.length === 0) return clone(op.value);
    var containerPath = op.op === 'splice' ? path : path.slice(0, -1);
    var parent = state;
    for (var i = 0; i < containerPath.length; i++) {
      if (parent === null || typeof parent !== 'object' || !Object.prototype.hasOwnProperty.call(parent, containerPath[i])) return state;
      parent = parent[containerPath[i]];
    }
    if (parent === null || typeof parent !== 'object') return state;
    var last = path[path.length - 1];
    if (op.op === 'set') {
      if (Array.isArray(parent) && last === 'length') { var n = op.value; while (parent.length > n) parent.pop(); while (parent.length < n) parent.push(null); }
      else if (Array.isArray(parent) && typeof last === 'number') { while (parent.length < last) parent.push(null); parent[last] = clone(op.value); }
      else own(parent, last, clone(op.value));
    } else if (op.op === 'delete') {
      if (Array.isArray(parent)) { if (typeof last === 'number' && last < parent.length) parent[last] = null; }
      else delete parent[last];
    } else if (op.op === 'splice' && Array.isArray(parent)) {
      var start = Math.min(op.index, parent.length);
      parent.splice.apply(parent, [start, op.deleteCount].concat(clone(op.items || [])));
    }
    return state;
  }

  function applyStep(states, step) {
    if (!step.store) return;
    if (step.snapshot !== undefined) { own(states, step.store, clone(step.snapshot)); return; }
    if (step.ops) {
      var s = Object.prototype.hasOwnProperty.call(states, step.store) ? states[step.store] : {};
      for (var i = 0; i < step.ops.length; i++) s = applyOp(s, step.ops[i]);
      own(states, step.store, s);
    }
  }

  // Checkpoints: the states after every 256th step.
  var every = 256, checkpoints = [];
  (function () {
    var states = {};
    for (var i = 0; i < steps.length; i++) {
      applyStep(states, steps[i]);
      if (i % every === every - 1) checkpoints.push(clone(states));
    }
  })();
  function statesAt(index) {
    var c = Math.floor((index + 1) / every);
    var states = c > 0 ? clone(checkpoints[c - 1]) : {};
    for (var i = c * every; i <= index && i < steps.length; i++) applyStep(states, steps[i]);
    return states;
  }

  var stores = [];
  steps.forEach(function (s) { if (s.store && stores.indexOf(s.store) < 0) stores.push(s.store); });
  stores.sort().forEach(function (s) { var o = document.createElement('option'); o.value = s; o.textContent = s; storeFilter.appendChild(o); });

  function visible(step) {
    if (step.channel === 'bridge' && !showBridge.checked) return false;
    if (step.channel !== 'bridge' && !showStore.checked) return false;
    if (storeFilter.value && step.store !== storeFilter.value) return false;
    return true;
  }

  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }

  function render() {
    timeline.textContent = '';
    var group = null, groupAction;
    steps.forEach(function (step, index) {
      if (!visible(step)) return;
      var action = step.action || (step.channel === 'bridge' && group ? groupAction : null);
      if (!group || action !== groupAction) {
        group = el('div', 'group');
        groupAction = action;
        var title = el('div', 'group-title', action ? action : 'outside any action');
        if (action) title.appendChild(el('span', 'origin', step.type === 'dispatch_action' ? '  · started from native' : '  · action'));
        group.appendChild(title);
        group.dataset.action = action || '';
        timeline.appendChild(group);
      }
      var row = el('div', 'row' + (step.channel === 'bridge' ? ' bridge' : ''));
      row.dataset.step = String(index);
      var head = el('div', 'head');
      head.appendChild(el('span', 'n', '#' + step.step));
      head.appendChild(el('span', 'dir', (step.direction === 'web_to_native' ? 'web→native ' : 'native→web ')));
      head.appendChild(el('span', 'store', (step.store || step.channel) + ' '));
      head.appendChild(el('span', 'kind', step.type + (step.seq !== undefined ? ' seq ' + step.seq : '')));
      row.appendChild(head);
      if (step.innerAction) row.appendChild(el('div', 'inner', 'by ' + step.innerAction));
      if (step.summary && step.type !== 'sync_state') row.appendChild(el('div', 'summary', step.summary));
      (step.changes || []).forEach(function (c) {
        var line = el('div', 'change' + (c.refused ? ' refused' : ''));
        if (c.refused) line.appendChild(el('span', 'refused', 'refused '));
        line.appendChild(document.createTextNode(c.kind === 'snapshot' ? ':= ' : c.path + ': '));
        if (c.kind !== 'snapshot') { line.appendChild(el('span', 'old', short(c.old))); line.appendChild(document.createTextNode(' → ')); }
        line.appendChild(el('span', 'new', c.kind === 'delete' ? '(deleted)' : short(c.new)));
        row.appendChild(line);
      });
      if (step.note) row.appendChild(el('div', 'note', '! ' + step.note));
      row.addEventListener('click', function () { select(index); });
      group.appendChild(row);
    });
    highlight();
  }

  function highlight() {
    var rows = timeline.querySelectorAll('.row');
    for (var i = 0; i < rows.length; i++) {
      var n = Number(rows[i].dataset.step);
      rows[i].classList.toggle('selected', n === selected);
      rows[i].classList.toggle('future', n > selected);
    }
  }

  function select(index) {
    selected = Math.max(0, Math.min(index, steps.length - 1));
    slider.value = String(selected);
    var step = steps[selected];
    label.textContent = step ? 'step #' + step.step + ' of ' + (steps.length - 1) : 'no steps';
    var states = statesAt(selected);
    var shown = storeFilter.value ? (function () { var o = {}; if (Object.prototype.hasOwnProperty.call(states, storeFilter.value)) own(o, storeFilter.value, states[storeFilter.value]); return o; })() : states;
    document.getElementById('state-title').textContent = 'State after step #' + (step ? step.step : 0) + (storeFilter.value ? ' — ' + storeFilter.value : '');
    stateView.textContent = JSON.stringify(shown, null, 2);
    highlight();
    var row = timeline.querySelector('.row.selected');
    if (row && row.scrollIntoView) row.scrollIntoView({ block: 'nearest' });
  }

  slider.max = String(Math.max(0, steps.length - 1));
  slider.addEventListener('input', function () { select(Number(slider.value)); });
  storeFilter.addEventListener('change', function () { render(); select(selected); });
  showStore.addEventListener('change', render);
  showBridge.addEventListener('change', render);
  render();
  select(selected);
  window.statehubTimeline = { select: select, statesAt: statesAt, steps: steps };
})();
</script>
</body></html>
"""#
}
