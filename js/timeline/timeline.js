/*
 * The timeline of a trace (docs/trace.md, "A timeline to look at"): rows grouped under the action
 * that caused them, old → new for every change, filters by store and channel, and the whole state
 * at the step a slider selects. One implementation for both places that show it: `statehub trace
 * view` writes it inline into its self-contained page, and the console serves it as
 * /console/timeline.js (its Content-Security-Policy runs no inline script). Both hand it the steps
 * of the same model (TimelineModel in Sources/Trace, as `trace show --json` prints them).
 *
 * Everything read from a trace is written with textContent, never as markup: a store name or a
 * value holding `<script>` shows as text.
 */
(function (global) {
  'use strict';

  function clone(v) { return v === undefined ? undefined : JSON.parse(JSON.stringify(v)); }
  // An own property even for a key such as "__proto__" (a store id or a state key from a page).
  function own(obj, key, value) { Object.defineProperty(obj, key, { value: value, writable: true, enumerable: true, configurable: true }); }
  function has(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); }
  function short(v) {
    if (v === undefined) return 'absent';
    var t = JSON.stringify(v);
    return t.length > 160 ? t.slice(0, 160) + '…' : t;
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The bounds of docs/trace.md ("Bounds of the timeline"), the same as TimelineModel's
  // (Sources/Trace/Timeline/TimelineModel+Limits.swift): most nulls the ops of a whole trace may
  // add to arrays (one per 8 bytes of the largest trace read: 8 MiB gives 1,048,576), and most
  // characters of JSON the checkpoints of the slider may keep.
  var DEFAULT_MAX_PADDING_NULLS = 1048576;
  var DEFAULT_MAX_CHECKPOINT_CHARS = 32 * 1048576;

  // How many nulls `op` adds to an array of `state` (a write past the end, a larger length).
  function padding(state, op) {
    var path = op.path || [];
    if (op.op !== 'set' || path.length === 0) return 0;
    var parent = state;
    for (var i = 0; i < path.length - 1; i++) {
      if (parent === null || typeof parent !== 'object' || !has(parent, path[i])) return 0;
      parent = parent[path[i]];
    }
    if (!Array.isArray(parent)) return 0;
    var last = path[path.length - 1];
    if (last === 'length') return typeof op.value === 'number' && op.value > parent.length ? op.value - parent.length : 0;
    return typeof last === 'number' && last > parent.length ? last - parent.length : 0;
  }

  // One op, as docs/PROTOCOL.md A.2 describes it; a path that does not lead anywhere is skipped.
  function applyOp(state, op) {
    var path = op.path || [];
    if (op.op === 'set' && path.length === 0) return clone(op.value);
    var containerPath = op.op === 'splice' ? path : path.slice(0, -1);
    var parent = state;
    for (var i = 0; i < containerPath.length; i++) {
      if (parent === null || typeof parent !== 'object' || !has(parent, containerPath[i])) return state;
      parent = parent[containerPath[i]];
    }
    if (parent === null || typeof parent !== 'object') return state;
    var last = path[path.length - 1];
    if (op.op === 'set') {
      if (Array.isArray(parent) && last === 'length') {
        var n = op.value;
        if (typeof n !== 'number' || !(n >= 0)) return state;
        if (parent.length > n) parent.length = n;
        while (parent.length < n) parent.push(null);
      }
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

  // Applies a step; `budget` (on the first pass over the steps) counts the padding and throws
  // when the whole trace passes its bound, before any null is added.
  function applyStep(states, step, budget) {
    if (!step.store) return;
    if (step.snapshot !== undefined) { own(states, step.store, clone(step.snapshot)); return; }
    if (step.ops) {
      var s = has(states, step.store) ? states[step.store] : {};
      for (var i = 0; i < step.ops.length; i++) {
        if (budget) {
          budget.used += padding(s, step.ops[i]);
          if (budget.used > budget.limit) {
            throw new TimelineBoundError('the operations of this trace grow arrays by more than ' + budget.limit +
              ' nulls in all (the timeline\'s bound), passed at step #' + step.step + ': the timeline is not shown');
          }
        }
        s = applyOp(s, step.ops[i]);
      }
      own(states, step.store, s);
    }
  }

  function TimelineBoundError(message) { this.name = 'TimelineBoundError'; this.message = message; }
  TimelineBoundError.prototype = Object.create(Error.prototype);

  /**
   * Builds the timeline of `steps` inside `container` (its content is replaced).
   * `options.idPrefix` prefixes the ids of its controls (the console uses "trace-" beside its own
   * ids; the CLI page none), `options.heading` is the tag of the state panel's title (default h2),
   * `options.maxPaddingNulls` the bound on the nulls the trace's ops may add to arrays (the
   * model's, TimelineModel.Limits.paddingNulls; default 1,048,576).
   * Returns { select(index), statesAt(index), steps }, or { error } when the steps pass a bound:
   * the container then says why and shows no timeline.
   */
  function mount(container, steps, options) {
    options = options || {};
    var prefix = options.idPrefix || '';
    container.textContent = '';
    var root = el('div', 'statehub-timeline');
    var controls = el('div', 'tl-controls');
    function labelled(text, input, after) {
      var label = el('label');
      if (!after) label.appendChild(document.createTextNode(text + ' '));
      label.appendChild(input);
      if (after) label.appendChild(document.createTextNode(' ' + text));
      controls.appendChild(label);
      return input;
    }
    var storeFilter = el('select');
    storeFilter.id = prefix + 'store-filter';
    storeFilter.appendChild(el('option', '', 'all')).value = '';
    labelled('Store', storeFilter, false);
    function checkbox(id) { var c = el('input'); c.type = 'checkbox'; c.id = prefix + id; c.checked = true; return c; }
    var showStore = labelled('store sync', checkbox('channel-store'), true);
    var showBridge = labelled('bridge', checkbox('channel-bridge'), true);
    var slider = el('input', 'tl-slider');
    slider.type = 'range';
    slider.id = prefix + 'slider';
    slider.min = '0';
    labelled('Step', slider, false);
    var label = el('span', 'tl-step-label');
    label.id = prefix + 'step-label';
    controls.appendChild(label);
    root.appendChild(controls);
    var main = el('div', 'tl-main');
    var timeline = el('div', 'tl-timeline');
    timeline.id = prefix + 'timeline';
    var side = el('div', 'tl-side');
    var stateTitle = el(options.heading || 'h2', 'tl-state-title', 'State');
    stateTitle.id = prefix + 'state-title';
    var stateView = el('pre', 'tl-state');
    stateView.id = prefix + 'state';
    side.appendChild(stateTitle);
    side.appendChild(stateView);
    main.appendChild(timeline);
    main.appendChild(side);
    root.appendChild(main);
    container.appendChild(root);

    var selected = steps.length ? steps.length - 1 : 0;

    // Checkpoints: the states (as JSON text) after every 256th step, so a move replays at most
    // 256 steps, while their text stays under maxCheckpointChars; past it, a move replays from
    // the last checkpoint kept. The first pass also checks the padding bound.
    var every = 256, checkpoints = [];
    var checkpointChars = 0, maxCheckpointChars = options.maxCheckpointChars || DEFAULT_MAX_CHECKPOINT_CHARS;
    try {
      var budget = { used: 0, limit: options.maxPaddingNulls || DEFAULT_MAX_PADDING_NULLS };
      var replayed = {};
      for (var i = 0; i < steps.length; i++) {
        applyStep(replayed, steps[i], budget);
        if (i % every === every - 1 && checkpointChars < maxCheckpointChars) {
          var text = JSON.stringify(replayed);
          checkpointChars += text.length;
          if (checkpointChars <= maxCheckpointChars) checkpoints.push({ index: i, text: text });
        }
      }
    } catch (error) {
      if (!(error instanceof TimelineBoundError)) throw error;
      container.textContent = '';
      container.appendChild(el('p', 'tl-refused', 'Not shown: ' + error.message + '.'));
      return { error: error.message };
    }
    function statesAt(index) {
      var from = null;
      for (var c = checkpoints.length - 1; c >= 0; c--) { if (checkpoints[c].index <= index) { from = checkpoints[c]; break; } }
      var states = from ? JSON.parse(from.text) : {};
      for (var i = from ? from.index + 1 : 0; i <= index && i < steps.length; i++) applyStep(states, steps[i]);
      return states;
    }

    var stores = [];
    steps.forEach(function (s) { if (s.store && stores.indexOf(s.store) < 0) stores.push(s.store); });
    stores.sort().forEach(function (s) { var o = el('option', '', s); o.value = s; storeFilter.appendChild(o); });

    function visible(step) {
      if (step.channel === 'bridge' && !showBridge.checked) return false;
      if (step.channel !== 'bridge' && !showStore.checked) return false;
      if (storeFilter.value && step.store !== storeFilter.value) return false;
      return true;
    }

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
      var shown = states;
      if (storeFilter.value) {
        shown = {};
        if (has(states, storeFilter.value)) own(shown, storeFilter.value, states[storeFilter.value]);
      }
      stateTitle.textContent = 'State after step #' + (step ? step.step : 0) + (storeFilter.value ? ' — ' + storeFilter.value : '');
      stateView.textContent = JSON.stringify(shown, null, 2);
      highlight();
      // The row is scrolled into view inside the timeline's own box, never the page around it.
      var row = timeline.querySelector('.row.selected');
      if (row) {
        var top = row.offsetTop, bottom = top + row.offsetHeight;
        if (top < timeline.scrollTop) timeline.scrollTop = top;
        else if (bottom > timeline.scrollTop + timeline.clientHeight) timeline.scrollTop = bottom - timeline.clientHeight;
      }
    }

    slider.max = String(Math.max(0, steps.length - 1));
    slider.addEventListener('input', function () { select(Number(slider.value)); });
    storeFilter.addEventListener('change', function () { render(); select(selected); });
    showStore.addEventListener('change', render);
    showBridge.addEventListener('change', render);
    render();
    select(selected);
    return { select: select, statesAt: statesAt, steps: steps };
  }

  global.StateHubTimeline = { mount: mount };
})(window);
