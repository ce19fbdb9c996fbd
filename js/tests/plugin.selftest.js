/*
 * Self-test of js/plugin/sync-plugin.js against the store runtime (docs/PROTOCOL.md, part A).
 *
 * Runs in a plain global scope where js/runtime/reactivity.js, js/runtime/pinia.js and
 * js/plugin/sync-plugin.js are already loaded. Installs its own capture of
 * window.webkit.messageHandlers.nativeBridge (restored at the end), so it can run inside an
 * engine that also hosts real stores. Store ids are prefixed "selftest.".
 *
 * The synchronous part runs at once; a short promise-only tail tests async actions and the
 * microtask batch, so everything has finished when the outermost call into JSC returns.
 * Prints "plugin selftest: N passed, 0 failed", sets globalThis.pluginSelftestResult
 * ({ done, passed, failed, failures }) and throws (rejects the completion promise) on failure.
 * The completion value of the script is that promise.
 */
(function () {
  'use strict';
  var G = typeof globalThis !== 'undefined' ? globalThis : this;
  var W = G.window || G;
  var S = G.StateHubSync;
  var passed = 0, failed = 0, failures = [];
  var result = { done: false, passed: 0, failed: 0, failures: failures };
  G.pluginSelftestResult = result;

  function ok(cond, name, info) {
    if (cond) { passed++; return true; }
    failed++;
    failures.push(name + (info !== undefined ? ' — ' + (typeof info === 'string' ? info : safeJSON(info)) : ''));
    return false;
  }
  function safeJSON(v) { try { return JSON.stringify(v); } catch (e) { return String(v); } }
  function eq(a, b, name) { return ok(S.deepEqual(a, b), name, { got: a, want: b }); }

  // ---------------------------------------------------------------- capture + independent mirror

  var savedWebkit = W.webkit;
  var savedActive = typeof G.getActivePinia === 'function' ? G.getActivePinia() : undefined;
  var sent = [];
  var handlers = {};
  if (savedWebkit && savedWebkit.messageHandlers) {
    for (var hk in savedWebkit.messageHandlers) handlers[hk] = savedWebkit.messageHandlers[hk];
  }
  handlers.nativeBridge = { postMessage: function (s) { sent.push(s); } };
  W.webkit = { messageHandlers: handlers };

  function restore() {
    W.webkit = savedWebkit;
    if (typeof G.setActivePinia === 'function' && savedActive !== undefined) G.setActivePinia(savedActive);
  }

  function take() { var out = sent.map(function (s) { return JSON.parse(s); }); sent.length = 0; return out; }
  function dispatch(obj) { W.nativeBridge.dispatch(typeof obj === 'string' ? obj : JSON.stringify(obj)); }

  // A mirror written independently of the plugin's own applyOps.
  function Mirror() { this.stores = {}; this.seq = {}; this.errors = []; this.log = []; }
  Mirror.prototype.feed = function (msgs) {
    for (var i = 0; i < msgs.length; i++) this.one(msgs[i]);
  };
  Mirror.prototype.one = function (m) {
    this.log.push(m);
    if (m.v !== 1) this.errors.push('bad v ' + safeJSON(m));
    if (typeof m.messageId !== 'string' && typeof m.messageId !== 'number') this.errors.push('no messageId ' + safeJSON(m));
    if (m.storeId !== null && m.seq !== undefined) {
      if (m.type === 'sync_state' && m.payload.reason === 'created') this.seq[m.storeId] = 0;
      var want = (this.seq[m.storeId] || 0) + 1;
      if (m.seq !== want) this.errors.push('seq gap on ' + m.storeId + ': want ' + want + ' got ' + m.seq);
      this.seq[m.storeId] = m.seq;
    }
    if (m.type === 'sync_state') this.stores[m.storeId] = JSON.parse(JSON.stringify(m.payload.state));
    else if (m.type === 'apply_mutation') {
      var st = this.stores[m.storeId];
      for (var j = 0; j < m.payload.mutations.length; j++) {
        var mu = m.payload.mutations[j];
        if (['direct', 'patch object', 'patch function'].indexOf(mu.type) < 0) this.errors.push('bad mutation type ' + mu.type);
        for (var k = 0; k < mu.ops.length; k++) st = mirrorApply(st, mu.ops[k], this.errors);
      }
      this.stores[m.storeId] = st;
    } else if (m.type === 'store_disposed') delete this.stores[m.storeId];
  };
  function mirrorApply(root, op, errors) {
    var allowed = { op: 1, path: 1, value: 1, index: 1, deleteCount: 1, items: 1 };
    for (var key in op) if (!allowed[key]) errors.push('unexpected op field ' + key);
    var p = op.path;
    if (op.op === 'set' && p.length === 0) return JSON.parse(JSON.stringify(op.value));
    var parent = root;
    var upto = op.op === 'splice' ? p.length : p.length - 1;
    for (var i = 0; i < upto; i++) {
      if (Array.isArray(parent) !== (typeof p[i] === 'number')) errors.push('path step type mismatch ' + safeJSON(p));
      parent = Object.prototype.hasOwnProperty.call(parent, p[i]) ? parent[p[i]] : undefined;
      if (parent === null || typeof parent !== 'object') { errors.push('no container at ' + safeJSON(p)); return root; }
    }
    var last = p[p.length - 1];
    var val = op.value === undefined ? undefined : JSON.parse(JSON.stringify(op.value));
    if (op.op === 'set') {
      if (Array.isArray(parent)) {
        if (last === 'length') { while (parent.length < val) parent.push(null); parent.length = val; }
        else { while (parent.length < last) parent.push(null); parent[last] = val; }
      } else {
        if (typeof last !== 'string') errors.push('object key not a string ' + safeJSON(p));
        Object.defineProperty(parent, last, { value: val, enumerable: true, writable: true, configurable: true });
      }
    } else if (op.op === 'delete') {
      if (Array.isArray(parent)) parent[last] = null; else delete parent[last];
    } else if (op.op === 'splice') {
      if (!Array.isArray(parent)) { errors.push('splice on non-array'); return root; }
      var items = JSON.parse(JSON.stringify(op.items));
      parent.splice.apply(parent, [Math.min(op.index, parent.length), op.deleteCount].concat(items));
    } else errors.push('unknown op ' + op.op);
    return root;
  }
  function expected(store) {
    var raw = store.$state;
    return JSON.parse(JSON.stringify(S.encodeValue(raw)));
  }

  // ---------------------------------------------------------------- deterministic PRNG

  function rng(seed) {
    var s = seed >>> 0;
    return function () {
      s = (s + 0x6D2B79F5) >>> 0;
      var t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  var hasBigInt = typeof BigInt === 'function';
  // On StateHub's runtime the plugin gets exact ops; elsewhere (real Pinia) it derives coarser ones by diffing,
  // so the few checks about op granularity and mutation types only apply here.
  var precise = G.StateHubPinia !== undefined;

  // ---------------------------------------------------------------- 1. encoding

  (function encodingTests() {
    var E = S.encodeValue;
    eq(E(new Date(Date.UTC(2026, 10, 22, 10, 0, 0))), { $type: 'Date', value: '2026-11-22T10:00:00.000Z' }, 'Date tagged');
    eq(E(new Date(NaN)), { $type: 'Date', value: null }, 'invalid Date tagged with null');
    eq(E(new Map([['a', 1], [2, new Date(0)]])), { $type: 'Map', entries: [['a', 1], [2, { $type: 'Date', value: '1970-01-01T00:00:00.000Z' }]] }, 'Map tagged');
    eq(E(new Set([1, 'x'])), { $type: 'Set', values: [1, 'x'] }, 'Set tagged');
    eq(E(undefined), { $type: 'undefined' }, 'undefined tagged');
    eq(E({ a: undefined }), { a: { $type: 'undefined' } }, 'undefined property kept');
    eq(E([1, undefined]), [1, { $type: 'undefined' }], 'undefined element tagged');
    var holes = [1]; holes[3] = 4;
    eq(E(holes), [1, null, null, 4], 'holes are null');
    if (hasBigInt) eq(E({ b: BigInt('123456789012345678901') }), { b: { $type: 'BigInt', value: '123456789012345678901' } }, 'BigInt tagged');
    eq(E([NaN, Infinity, -Infinity, -0]), [{ $type: 'Number', value: 'NaN' }, { $type: 'Number', value: 'Infinity' }, { $type: 'Number', value: '-Infinity' }, 0], 'non-finite numbers tagged');
    eq(E({ $type: 'x', a: 1 }), { $type: 'Object', value: { $type: 'x', a: 1 } }, '"$type" key escaped');
    eq(E(Object.create(null)), {}, 'null-prototype object is plain');
    var errs = [];
    function Foo() { this.a = 1; }
    var cyc = { a: { b: {} } }; cyc.a.b.back = cyc.a;
    var enc = E({ f: function () {}, s: G.Symbol('q'), c: new Foo(), r: /x/, cyc: cyc, ok: 1 }, ['root'], errs);
    eq(enc, { f: { $type: 'undefined' }, s: { $type: 'undefined' }, c: { $type: 'undefined' }, r: { $type: 'undefined' }, cyc: { a: { b: { back: { $type: 'undefined' } } } }, ok: 1 }, 'bad values replaced');
    eq(errs.map(function (e) { return [e.kind, e.path]; }),
      [['function', ['root', 'f']], ['symbol', ['root', 's']], ['class_instance', ['root', 'c']], ['class_instance', ['root', 'r']], ['cycle', ['root', 'cyc', 'a', 'b', 'back']]], 'bad values reported with paths');
    ok(errs[2].className === 'Foo', 'class name reported');
    var deep = {}, cur = deep;
    for (var i = 0; i < 200; i++) { cur.n = {}; cur = cur.n; }
    ok(JSON.stringify(E(deep)).length > 1000, 'deep (non-cyclic) values encode via the careful path');
    // decode round trip
    var D = S.decodeValue;
    var tree = JSON.parse(JSON.stringify(E({ d: new Date(5), m: new Map([[1, new Set([2])]]), u: undefined, n: NaN, esc: { $type: 'k' } })));
    var back = D(tree);
    ok(back.d instanceof Date && back.d.getTime() === 5, 'Date decoded');
    ok(back.m instanceof Map && back.m.get(1) instanceof Set && back.m.get(1).has(2), 'Map/Set decoded');
    ok('u' in back && back.u === undefined, 'undefined decoded');
    ok(back.n !== back.n, 'NaN decoded');
    eq(back.esc, { $type: 'k' }, 'escaped object decoded');
    if (hasBigInt) ok(D({ $type: 'BigInt', value: '7' }) === BigInt(7), 'BigInt decoded');
  })();

  // ---------------------------------------------------------------- 2. stores on the runtime

  var pinia = G.createPinia();
  G.setActivePinia(pinia);
  pinia.use(S.createSyncPlugin());
  var mirror = new Mirror();

  function Thing() { this.x = 1; }
  var useCounter = G.defineStore('selftest.counter', {
    state: function () { return { count: 0, items: [], meta: { tags: [] }, when: new Date(0) }; },
    getters: { double: function (s) { return s.count * 2; } },
    actions: {
      inc: function (by) { this.count += (by || 1); return this.count; },
      addItem: function (name) { this.items.push({ name: name, qty: 1 }); this.meta.tags.push(name); return this.items.length; },
      boom: function () { this.count = -1; throw new TypeError('boom happened'); },
      later: function (v) {
        var self = this;
        return { then: function (res) { self.count = v; res({ v: v, at: new Date(1) }); } }; // a sync thenable
      },
      asyncAdd: function (v) {
        var self = this;
        return Promise.resolve().then(function () { self.count += v; return Promise.resolve(); }).then(function () { self.count += v; return self.count; });
      },
      asyncFail: function () { var self = this; return Promise.resolve().then(function () { self.count = 99; throw new Error('async nope'); }); },
      giveFn: function () { return { f: function () {} }; }
    }
  });

  var counter = useCounter(pinia);
  var msgs = take();
  ok(msgs.length === 1 && msgs[0].type === 'sync_state' && msgs[0].seq === 1 && msgs[0].payload.reason === 'created', 'created sync_state first, seq 1', msgs);
  var rawFirst = JSON.stringify(Object.keys(msgs[0]));
  ok(rawFirst === '["v","storeId","messageId","seq","type","payload"]', 'envelope key order', rawFirst);
  eq(msgs[0].payload.state.when, { $type: 'Date', value: '1970-01-01T00:00:00.000Z' }, 'Date in created state tagged');
  mirror.feed(msgs);
  ok(W.nativeBridge && W.nativeBridge.dispatch === S.dispatch, 'window.nativeBridge.dispatch installed');

  // batched: one message per tick
  counter.count++;
  counter.items.push({ name: 'a', qty: 1 });
  counter.items[0].qty = 5;
  counter.$patch({ meta: { extra: true } });
  counter.count++;
  delete counter.meta.extra;
  ok(sent.length === 0, 'batched: nothing posted before the tick ends');
  S.flushPending();
  msgs = take();
  ok(msgs.length === 1 && msgs[0].type === 'apply_mutation', 'batched: one apply_mutation for the tick', msgs.length);
  var types = msgs[0].payload.mutations.map(function (m) { return m.type; });
  if (precise) eq(types, ['direct', 'patch object', 'direct'], 'mutation types in order, consecutive directs coalesced');
  mirror.feed(msgs);
  eq(mirror.stores['selftest.counter'], expected(counter), 'mirror equals state after batch');

  // dispatch_action: result after its mutations
  dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'n1', type: 'dispatch_action', payload: { action: 'addItem', args: ['b'] } });
  msgs = take();
  ok(msgs.length === 2 && msgs[0].type === 'apply_mutation' && msgs[1].type === 'action_result', 'mutations posted before action_result', msgs.map(function (m) { return m.type; }));
  ok(msgs[1].messageId === 'n1' && msgs[1].payload.ok === true && msgs[1].payload.value === 2, 'action_result value, same messageId', msgs[1]);
  mirror.feed(msgs);
  eq(mirror.stores['selftest.counter'], expected(counter), 'mirror up to date when result arrives');

  var seen = [];
  var unsubAction = counter.$onAction(function (c) { seen.push(c.name); });
  dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'n2', type: 'dispatch_action', payload: { action: 'inc', args: [3] } });
  msgs = take(); mirror.feed(msgs);
  eq(seen, ['inc'], '$onAction fires for dispatched actions');
  unsubAction();
  ok(msgs[msgs.length - 1].payload.value === counter.count, 'inc result');

  dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'n3', type: 'dispatch_action', payload: { action: 'boom', args: [] } });
  msgs = take(); mirror.feed(msgs);
  var r3 = msgs[msgs.length - 1];
  ok(r3.type === 'action_result' && r3.payload.ok === false && r3.payload.error.code === 'action_threw' && r3.payload.error.name === 'TypeError' &&
    r3.payload.error.message === 'boom happened' && typeof r3.payload.error.stack === 'string', 'thrown error reported', r3);
  ok(msgs.length === 2 && msgs[0].type === 'apply_mutation', 'mutations before a throw are still posted first');

  dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'n4', type: 'dispatch_action', payload: { action: 'nope', args: [] } });
  msgs = take(); mirror.feed(msgs);
  ok(msgs.length === 1 && msgs[0].payload.ok === false && msgs[0].payload.error.code === 'unknown_action' && msgs[0].messageId === 'n4', 'unknown action', msgs);
  dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'n4b', type: 'dispatch_action', payload: { action: '$patch', args: [{ count: 1 }] } });
  msgs = take(); mirror.feed(msgs);
  ok(msgs.length === 1 && msgs[0].payload.error && msgs[0].payload.error.code === 'unknown_action', '$-methods are not actions');

  dispatch({ v: 1, storeId: 'selftest.nostore', messageId: 'n5', type: 'dispatch_action', payload: { action: 'x', args: [] } });
  msgs = take();
  ok(msgs.length === 1 && msgs[0].payload.error.code === 'unknown_store' && msgs[0].seq === undefined && msgs[0].messageId === 'n5', 'unknown store answered, no seq', msgs);

  dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'n6', type: 'dispatch_action', payload: { action: 'later', args: [7] } });
  msgs = take(); mirror.feed(msgs);
  var r6 = msgs[msgs.length - 1];
  ok(r6.payload.ok === true && r6.payload.value.v === 7 && r6.payload.value.at.$type === 'Date', 'thenable result awaited and encoded', r6);
  eq(mirror.stores['selftest.counter'], expected(counter), 'mirror after thenable action');

  dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'n7', type: 'dispatch_action', payload: { action: 'giveFn', args: [] } });
  msgs = take(); mirror.feed(msgs);
  ok(msgs.length === 2 && msgs[1].type === 'error' && msgs[1].payload.code === 'unserializable_state' && msgs[1].payload.detail.where === 'action_result' &&
    msgs[0].payload.ok === true && msgs[0].payload.value.f.$type === 'undefined', 'unserialisable action result: result, then the error', msgs);

  dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'n8', type: 'dispatch_action', payload: { action: 'inc', args: 'nope' } });
  msgs = take(); mirror.feed(msgs);
  ok(msgs.length === 1 && msgs[0].payload.error && msgs[0].payload.error.code === 'bad_message' && msgs[0].messageId === 'n8', 'bad args answered with bad_message');

  // bad messages
  dispatch('{not json');
  dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'x', type: 'frobnicate', payload: {} });
  dispatch({ v: 2, storeId: 'selftest.counter', messageId: 'x', type: 'request_sync', payload: {} });
  dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'x', type: 'sync_state', payload: {} });
  dispatch({ v: 1, storeId: 'selftest.zzz', messageId: 'x', type: 'request_sync', payload: {} });
  msgs = take(); mirror.feed(msgs);
  var codes = msgs.map(function (m) { return m.type + ':' + m.payload.code; });
  eq(codes, ['error:bad_message', 'error:bad_message', 'error:bad_message', 'error:bad_message', 'error:unknown_store'], 'bad messages and unknown store reported');
  ok(msgs[0].storeId === null && msgs[0].seq === undefined, 'malformed JSON error has storeId null and no seq');
  ok(msgs[3].payload.detail.field === 'payload.state', 'missing field named', msgs[3]);

  // request_sync
  counter.count = 41;
  dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'n9', type: 'request_sync', payload: { reason: 'seq_gap' } });
  msgs = take();
  ok(msgs.length === 2 && msgs[0].type === 'apply_mutation' && msgs[1].type === 'sync_state' && msgs[1].payload.reason === 'resync', 'pending flushed, then resync', msgs);
  mirror.feed(msgs);
  eq(mirror.stores['selftest.counter'], expected(counter), 'mirror after resync');

  // hydration: deletes keys the snapshot lacks, no echo, acknowledged
  var subCalls = 0;
  counter.$subscribe(function () { subCalls++; }, { flush: 'sync', detached: true });
  counter.$patch({ extraKey: 'x' });
  S.flushPending(); mirror.feed(take());
  subCalls = 0;
  dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'n10', type: 'sync_state', payload: { state: { count: 5, items: [], meta: { tags: ['h'] }, when: { $type: 'Date', value: '2026-01-01T00:00:00.000Z' } } } });
  S.flushPending();
  msgs = take();
  ok(msgs.length === 1 && msgs[0].type === 'sync_state' && msgs[0].payload.reason === 'hydrated', 'hydration acknowledged by sync_state hydrated only (no echo)', msgs.map(function (m) { return m.type; }));
  ok(!('extraKey' in counter.$state), 'hydration deleted a key the snapshot lacks');
  ok(counter.when instanceof Date && counter.when.getUTCFullYear() === 2026, 'hydration decoded Date');
  ok(subCalls === 1, 'hydration is one $patch (one notification)', subCalls);
  eq(msgs[0].payload.state, { count: 5, items: [], meta: { tags: ['h'] }, when: { $type: 'Date', value: '2026-01-01T00:00:00.000Z' } }, 'hydrated state equals snapshot');
  mirror.feed(msgs);

  // forwarded ops: applied in one patch, not echoed
  subCalls = 0;
  dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'n11', type: 'apply_mutation', payload: { mutations: [{ type: 'direct', ops: [
    { op: 'set', path: ['count'], value: 6 },
    { op: 'splice', path: ['items'], index: 0, deleteCount: 0, items: [{ name: 'fw', qty: 2 }] },
    { op: 'set', path: ['meta', 'since'], value: { $type: 'Date', value: '2026-02-02T00:00:00.000Z' } },
    { op: 'delete', path: ['meta', 'tags'] }
  ] }] } });
  S.flushPending();
  msgs = take();
  ok(msgs.length === 0, 'forwarded ops not echoed', msgs);
  ok(subCalls === 1 && counter.count === 6 && counter.items[0].name === 'fw' && counter.meta.since instanceof Date && !('tags' in counter.meta), 'forwarded ops applied in one patch');
  // the hub applies the same ops to its mirror
  mirror.feed([{ v: 1, storeId: 'selftest.counter', messageId: 'fwd', type: 'apply_mutation', payload: { mutations: [{ type: 'direct', ops: [
    { op: 'set', path: ['count'], value: 6 },
    { op: 'splice', path: ['items'], index: 0, deleteCount: 0, items: [{ name: 'fw', qty: 2 }] },
    { op: 'set', path: ['meta', 'since'], value: { $type: 'Date', value: '2026-02-02T00:00:00.000Z' } },
    { op: 'delete', path: ['meta', 'tags'] }] }] } }]);
  eq(mirror.stores['selftest.counter'], expected(counter), 'mirror equals state after forwarded ops');
  // next local write continues the sequence
  counter.count++;
  S.flushPending(); mirror.feed(take());
  eq(mirror.stores['selftest.counter'], expected(counter), 'local write after forwarded ops mirrored');
  dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'n12', type: 'apply_mutation', payload: { mutations: [{ type: 'direct', ops: [{ op: 'set', path: ['nope', 'deeper'], value: 1 }] }] } });
  msgs = take(); mirror.feed(msgs);
  ok(msgs.length === 1 && msgs[0].type === 'error' && msgs[0].payload.code === 'op_failed', 'op that does not apply reported', msgs);

  // unserialisable state through ops and at creation
  counter.$patch({ fn: function () {} });
  S.flushPending();
  msgs = take(); mirror.feed(msgs);
  ok(msgs.length === 2 && msgs[1].type === 'error' && msgs[1].payload.code === 'unserializable_state' && S.deepEqual(msgs[1].payload.path, ['fn']) &&
    msgs[0].type === 'apply_mutation' && msgs[0].payload.mutations[0].ops[0].value.$type === 'undefined', 'function in state: undefined in its place, then the error', msgs);
  counter.$patch(function (s) { delete s.fn; });
  counter.meta.loop = {};
  counter.meta.loop.self = counter.meta.loop;
  S.flushPending();
  msgs = take(); mirror.feed(msgs);
  var cycErr = msgs.filter(function (m) { return m.type === 'error'; })[0];
  ok(cycErr && cycErr.payload.detail.kind === 'cycle' && cycErr.payload.path[0] === 'meta', 'cycle reported with its path', msgs);
  delete counter.meta.loop;
  S.flushPending(); mirror.feed(take());
  eq(mirror.stores['selftest.counter'], expected(counter), 'mirror after removing bad values');

  var useOdd = G.defineStore('selftest.odd', { state: function () { return { t: new Thing(), ok: 1 }; } });
  useOdd(pinia);
  msgs = take(); mirror.feed(msgs);
  ok(msgs.length === 2 && msgs[1].type === 'error' && msgs[1].payload.detail.kind === 'class_instance' && msgs[1].payload.detail.className === 'Thing' &&
    msgs[0].type === 'sync_state' && msgs[0].payload.state.t.$type === 'undefined' && msgs[0].seq === 1 && msgs[1].seq === 2, 'class instance at creation: sync_state (seq 1), then the error', msgs);

  // setup store: actions listed for plugins, refs as state, hydration through refs
  if (typeof G.ref === 'function') {
    var useSetup = G.defineStore('selftest.setup', function () {
      var n = G.ref(0), list = G.ref([]);
      function add(x) { list.value.push({ x: x }); n.value++; return n.value; }
      return { n: n, list: list, add: add };
    });
    var su = useSetup(pinia);
    msgs = take(); mirror.feed(msgs);
    eq(msgs[0].payload.state, { n: 0, list: [] }, 'setup store: created state unwraps refs');
    dispatch({ v: 1, storeId: 'selftest.setup', messageId: 's1', type: 'dispatch_action', payload: { action: 'add', args: ['a'] } });
    msgs = take(); mirror.feed(msgs);
    ok(msgs[msgs.length - 1].payload.ok === true && msgs[msgs.length - 1].payload.value === 1, 'setup store: action dispatched', msgs);
    eq(mirror.stores['selftest.setup'], expected(su), 'setup store: mirror equals state');
    dispatch({ v: 1, storeId: 'selftest.setup', messageId: 's2', type: 'sync_state', payload: { state: { n: 7, list: [{ x: 'h' }] } } });
    msgs = take(); mirror.feed(msgs);
    ok(su.n === 7 && su.list[0].x === 'h' && msgs.length === 1 && msgs[0].payload.reason === 'hydrated', 'setup store: hydrated through its refs', msgs);
    su.list.push({ x: 'b' });
    S.flushPending(); mirror.feed(take());
    eq(mirror.stores['selftest.setup'], expected(su), 'setup store: writes after hydration mirrored');
    su.$dispose(); mirror.feed(take());
  }

  // ---------------------------------------------------------------- 3. random sequences (fixed seed)

  function randomValue(r, depth) {
    var x = r();
    if (depth > 2 || x < 0.45) {
      var y = r();
      if (y < 0.3) return Math.floor(r() * 100);
      if (y < 0.5) return 's' + Math.floor(r() * 10);
      if (y < 0.6) return r() < 0.5;
      if (y < 0.7) return null;
      if (y < 0.75) return new Date(Math.floor(r() * 1e12));
      if (y < 0.8) return undefined;
      if (y < 0.84) return NaN;
      if (y < 0.88 && hasBigInt) return BigInt(Math.floor(r() * 1000));
      return r() * 10;
    }
    if (x < 0.7) { var a = []; var n = Math.floor(r() * 4); for (var i = 0; i < n; i++) a.push(randomValue(r, depth + 1)); return a; }
    if (x < 0.9) { var o = {}; var m = Math.floor(r() * 4); for (var j = 0; j < m; j++) o[randomKey(r)] = randomValue(r, depth + 1); return o; }
    if (x < 0.95) return new Map([[randomKey(r), randomValue(r, 3)]]);
    return new Set([randomValue(r, 3), 'z']);
  }
  var KEYS = ['a', 'b', 'c', '1', '10', '2', '$type', 'k', 'zz'];
  function randomKey(r) { return KEYS[Math.floor(r() * KEYS.length)]; }

  // picks a random reactive container inside the store's state
  function pickContainer(r, state) {
    var cur = state;
    for (var d = 0; d < 4; d++) {
      var kids = [];
      var keys = Object.keys(cur);
      for (var i = 0; i < keys.length; i++) {
        var v = cur[keys[i]];
        if (v !== null && typeof v === 'object' && (Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype)) kids.push(v);
      }
      if (!kids.length || r() < 0.35) break;
      cur = kids[Math.floor(r() * kids.length)];
    }
    return cur;
  }

  function randomWrite(r, c) {
    var x = r();
    if (Array.isArray(c)) {
      if (x < 0.2) c.push(randomValue(r, 1));
      else if (x < 0.3) c.pop();
      else if (x < 0.37) c.shift();
      else if (x < 0.44) c.unshift(randomValue(r, 1));
      else if (x < 0.6) c.splice(Math.floor(r() * (c.length + 1)), Math.floor(r() * 2), randomValue(r, 1));
      else if (x < 0.75) c[Math.floor(r() * (c.length + 2))] = randomValue(r, 1);
      else if (x < 0.82) c.length = Math.floor(r() * (c.length + 2));
      else if (x < 0.88) c.reverse();
      else if (x < 0.92) { if (c.length) delete c[Math.floor(r() * c.length)]; }
      else c.sort(function (a, b) { return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0; });
    } else {
      var keys = Object.keys(c);
      if (x < 0.7 || !keys.length) c[randomKey(r)] = randomValue(r, 1);
      else delete c[keys[Math.floor(r() * keys.length)]];
    }
  }

  function runRandom(seed, steps, flushMode, sequences) {
    var r = rng(seed);
    var p = G.createPinia();
    p.use(S.createSyncPlugin({ flush: flushMode }));
    var m = new Mirror();
    var bad = 0, firstBad = null;
    for (var q = 0; q < sequences; q++) {
      var id = 'selftest.rand.' + flushMode + '.' + q;
      var useR = G.defineStore(id, {
        state: function () { return { n: 0, list: [1, 2], obj: { a: { b: [] } }, '5': 'five' }; },
        actions: { bump: function (k) { this.n = (typeof this.n === 'number' ? this.n : 0) + k; if (Array.isArray(this.list)) this.list.push(k); else this.list = [k]; } }
      });
      var st = useR(p);
      m.feed(take());
      for (var s = 0; s < steps; s++) {
        var x = r();
        if (x < 0.6) randomWrite(r, pickContainer(r, st.$state));
        else if (x < 0.7) st.$patch({ obj: { a: { c: randomValue(r, 1) } }, list: [randomValue(r, 1)] });
        else if (x < 0.8) st.$patch(function (s2) { randomWrite(r, pickContainer(r, s2)); randomWrite(r, pickContainer(r, s2)); });
        else if (x < 0.85) st.bump(Math.floor(r() * 5));
        else if (x < 0.88) st.$state = { n: 1, extra: randomValue(r, 1) };
        else if (x < 0.9) st.$reset();
        else { S.flushPending(); m.feed(take()); }
        if (flushMode === 'sync' || r() < 0.3) {
          S.flushPending(); m.feed(take());
          if (!S.deepEqual(m.stores[id], expected(st))) {
            bad++;
            if (!firstBad) firstBad = { seq: q, step: s, mirror: m.stores[id], state: expected(st) };
            m.stores[id] = expected(st); // continue from a clean mirror
          }
        }
      }
      S.flushPending(); m.feed(take());
      if (!S.deepEqual(m.stores[id], expected(st))) { bad++; if (!firstBad) firstBad = { seq: q, end: true, mirror: m.stores[id], state: expected(st) }; }
      st.$dispose();
      m.feed(take());
    }
    ok(bad === 0, 'random sequences (' + flushMode + ', seed ' + seed + '): mirror equals state', firstBad);
    ok(m.errors.length === 0, 'random sequences (' + flushMode + '): protocol well-formed, seq continuous', m.errors.slice(0, 5));
    return m;
  }
  var mt = runRandom(12345, 60, 'tick', 40);
  var ms = runRandom(777, 40, 'sync', 20);
  ok(ms.log.filter(function (x) { return x.type === 'apply_mutation'; }).every(function (x) { return x.payload.mutations.length === 1; }), 'flush sync: one mutation per message');

  // ---------------------------------------------------------------- 4. derived ops (no op log, as on real Pinia)

  function FakeStore(id, initial) {
    var subs = [];
    var self = this;
    this.$id = id;
    this.$state = initial;
    this.$subscribe = function (cb) { subs.push(cb); };
    this.$patch = function (arg) {
      if (typeof arg === 'function') { arg(self.$state); notify('patch function'); }
      else { Object.assign(self.$state, arg); notify('patch object'); }
    };
    this.$dispose = function () { subs = []; };
    function notify(type) { for (var i = 0; i < subs.length; i++) subs[i]({ type: type, storeId: id, events: [] }, self.$state); }
    this.write = function (fn) { fn(self.$state); notify('direct'); };
    this.hello = function (x) { self.write(function (s) { s.n = x; }); return 'hi ' + x; };
  }
  (function derivedTests() {
    ['tick', 'sync'].forEach(function (mode) {
      var plugin = S.createSyncPlugin({ flush: mode });
      var r = rng(99);
      var m = new Mirror();
      var bad = 0, firstBad = null;
      for (var q = 0; q < 20; q++) {
        var fs = new FakeStore('selftest.fake.' + mode + q, { n: 0, list: [1, 2, 3], obj: { a: { b: [] } }, '7': 'x' });
        plugin({ store: fs, options: { actions: { hello: fs.hello } } });
        m.feed(take());
        for (var s = 0; s < 50; s++) {
          var x = r();
          if (x < 0.7) fs.write(function (st) { randomWrite(r, pickContainer(r, st)); });
          else if (x < 0.85) fs.$patch(function (st) { randomWrite(r, pickContainer(r, st)); randomWrite(r, pickContainer(r, st)); });
          else fs.$patch({ n: Math.floor(r() * 9), k: randomValue(r, 1) });
          if (r() < 0.4) {
            S.flushPending(); m.feed(take());
            var want = JSON.parse(JSON.stringify(S.encodeValue(fs.$state)));
            if (!S.deepEqual(m.stores[fs.$id], want)) { bad++; if (!firstBad) firstBad = { q: q, s: s, mirror: m.stores[fs.$id], want: want }; m.stores[fs.$id] = want; }
          }
        }
        S.flushPending(); m.feed(take());
        if (!S.deepEqual(m.stores[fs.$id], JSON.parse(JSON.stringify(S.encodeValue(fs.$state))))) bad++;
        // hydration and forwarded ops on the derived path: no echo, and later diffs start from there
        dispatch({ v: 1, storeId: fs.$id, messageId: 'h', type: 'sync_state', payload: { state: { n: 3, list: [] } } });
        var hm = take();
        ok(hm.length === 1 && hm[0].payload.reason === 'hydrated' && !('obj' in fs.$state), 'derived (' + mode + '): hydration deletes keys, no echo');
        m.feed(hm);
        dispatch({ v: 1, storeId: fs.$id, messageId: 'f', type: 'apply_mutation', payload: { mutations: [{ type: 'direct', ops: [{ op: 'set', path: ['n'], value: 4 }] }] } });
        S.flushPending();
        ok(take().length === 0 && fs.$state.n === 4, 'derived (' + mode + '): forwarded op applied, no echo');
        m.stores[fs.$id].n = 4;
        dispatch({ v: 1, storeId: fs.$id, messageId: 'a', type: 'dispatch_action', payload: { action: 'hello', args: [8] } });
        S.flushPending();
        var am = take(); m.feed(am);
        ok(am.length === 2 && am[0].type === 'apply_mutation' && am[1].payload.value === 'hi 8', 'derived (' + mode + '): action mutations before result');
        eq(m.stores[fs.$id], JSON.parse(JSON.stringify(S.encodeValue(fs.$state))), 'derived (' + mode + '): mirror after hydrate/forward/action');
        fs.$dispose();
        m.feed(take());
      }
      ok(bad === 0, 'derived ops (' + mode + '): mirror equals state over random sequences', firstBad);
      ok(m.errors.length === 0, 'derived ops (' + mode + '): protocol well-formed', m.errors.slice(0, 5));
    });
    // derived unserialisable value is reported once, not on every mutation
    var plugin = S.createSyncPlugin({ flush: 'sync' });
    var fs = new FakeStore('selftest.fake.fn', { f: function () {}, n: 0 });
    plugin({ store: fs, options: {} });
    var first = take();
    fs.write(function (st) { st.n = 1; });
    fs.write(function (st) { st.n = 2; });
    var later = take();
    ok(first.length === 2 && first[1].payload.code === 'unserializable_state' && later.length === 2 && later.every(function (x) { return x.type === 'apply_mutation'; }), 'derived: unserialisable value reported once', later);
    fs.$dispose();
    // array key-order change: whole object re-sent
    var fo = new FakeStore('selftest.fake.order', { o: { a: 1, b: 2 } });
    plugin({ store: fo, options: {} });
    var m2 = new Mirror(); m2.feed(take());
    fo.write(function (st) { delete st.o.a; st.o.a = 1; });
    m2.feed(take());
    eq(Object.keys(m2.stores['selftest.fake.order'].o), ['b', 'a'], 'derived: key order change reproduced');
    fo.$dispose(); take();
  })();

  // ---------------------------------------------------------------- 5. dispose, flush sync, inert

  var useDisp = G.defineStore('selftest.disp', { state: function () { return { a: 1 }; } });
  var d1 = useDisp(pinia);
  d1.a = 2;
  d1.$dispose();
  msgs = take();
  eq(msgs.map(function (m) { return m.type + '@' + m.seq; }), ['sync_state@1', 'apply_mutation@2', 'store_disposed@3'], 'dispose flushes, then store_disposed');
  var d2 = useDisp(pinia);
  msgs = take();
  ok(msgs.length === 1 && msgs[0].type === 'sync_state' && msgs[0].seq === 1 && msgs[0].payload.state.a === 2, 'new instance after dispose starts at seq 1 from the kept state', msgs);
  d2.$dispose(); take();

  var p2 = G.createPinia();
  p2.use(S.createSyncPlugin({ flush: 'sync' }));
  var useS = G.defineStore('selftest.syncflush', { state: function () { return { a: 0, l: [] }; } });
  var sf = useS(p2);
  take();
  sf.a = 1; sf.l.push(1, 2); sf.$patch({ a: 3 });
  msgs = take();
  ok(msgs.length === 3 && msgs.every(function (m) { return m.type === 'apply_mutation' && m.payload.mutations.length === 1; }), 'flush sync: posted synchronously, one mutation each', msgs.length);
  sf.$dispose(); take();

  var warned = 0, savedWarn = G.console && G.console.warn;
  if (G.console) G.console.warn = function () { warned++; };
  W.webkit = undefined;
  var threw = false;
  try {
    var p3 = G.createPinia();
    p3.use(S.createSyncPlugin());
    var inert1 = G.defineStore('selftest.inert1', { state: function () { return { a: 1 }; } })(p3);
    var inert2 = G.defineStore('selftest.inert2', { state: function () { return { a: 1 }; } })(p3);
    inert1.a = 5; inert2.a = 6;
    S.flushPending();
  } catch (e) { threw = e; }
  if (G.console) G.console.warn = savedWarn;
  W.webkit = { messageHandlers: handlers };
  ok(!threw && sent.length === 0 && warned <= 1, 'no native shell: inert, no throw, at most one warning', { threw: String(threw), sent: sent.length, warned: warned });
  take();

  ok(mirror.errors.length === 0, 'main mirror: protocol well-formed, seq continuous', mirror.errors.slice(0, 5));

  // ---------------------------------------------------------------- 6. own properties only (PROTOCOL.md A.2)

  (function ownPropertiesTests() {
    var protoKeysBefore = Object.getOwnPropertyNames(Object.prototype).join(',');
    var functionKeysBefore = Object.getOwnPropertyNames(Object).join(',');
    var pm = G.createPinia();
    pm.use(S.createSyncPlugin());
    // state from JSON, so "__proto__" is an own key (a literal would set the prototype)
    var initial = JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"prototype":3,"box":{}}');
    var useOwn = G.defineStore('selftest.own', { state: function () { return JSON.parse(JSON.stringify(initial)); } });
    var own = useOwn(pm);
    var m = new Mirror();
    m.feed(take());
    var state = own.$state;
    var proto = Object.getPrototypeOf(G.StateHubReactivity.toRaw(state));
    ok(proto === Object.prototype, '$state keeps Object.prototype as its prototype after creation');
    ok(Object.prototype.hasOwnProperty.call(m.stores['selftest.own'], '__proto__'), '"__proto__" sent as an ordinary key', m.stores['selftest.own']);
    // forwarded ops through each key
    dispatch({ v: 1, storeId: 'selftest.own', messageId: 'o1', type: 'apply_mutation', payload: { mutations: [{ type: 'direct', ops: [
      { op: 'set', path: ['__proto__', 'polluted'], value: 10 },
      { op: 'set', path: ['constructor', 'prototype', 'polluted'], value: 20 },
      { op: 'set', path: ['box', '__proto__'], value: { polluted: 30 } },
      { op: 'set', path: ['box', 'constructor'], value: 40 }
    ] }] } });
    var afterOps = take();
    m.feed(afterOps);
    ok(afterOps.every(function (x) { return x.type !== 'error'; }), 'forwarded ops through "__proto__"/"constructor"/"prototype" apply', afterOps);
    ok(({}).polluted === undefined && Object.prototype.polluted === undefined, 'Object.prototype untouched by forwarded ops');
    var rawState = G.StateHubReactivity.toRaw(own.$state);
    ok(Object.getPrototypeOf(rawState) === Object.prototype && Object.getPrototypeOf(rawState.box) === Object.prototype, "$state's prototypes untouched");
    ok(rawState.__proto__ && Object.prototype.hasOwnProperty.call(rawState, '__proto__') && Object.getOwnPropertyDescriptor(rawState, '__proto__').value.polluted === 10, 'own "__proto__" written');
    ok(Object.getOwnPropertyDescriptor(rawState.box, '__proto__').value.polluted === 30 && rawState.box.constructor === 40, 'keys created on a nested object');
    // a path that only exists on the prototype chain is an op failure
    dispatch({ v: 1, storeId: 'selftest.own', messageId: 'o2', type: 'apply_mutation', payload: { mutations: [{ type: 'direct', ops: [
      { op: 'set', path: ['box', 'hasOwnProperty', 'x'], value: 1 }] }] } });
    var afterFailure = take();
    m.feed(afterFailure);
    var failedOp = afterFailure.filter(function (x) { return x.type === 'error'; })[0];
    ok(failedOp && failedOp.payload.code === 'op_failed', 'a step into an inherited property is op_failed', failedOp);
    // hydration with each key
    dispatch({ v: 1, storeId: 'selftest.own', messageId: 'o3', type: 'sync_state', payload: { state: JSON.parse('{"__proto__":{"polluted":5},"constructor":6,"prototype":{"polluted":7}}') } });
    var hyd = take();
    rawState = G.StateHubReactivity.toRaw(own.$state);
    ok(hyd.length === 1 && hyd[0].payload.reason === 'hydrated', 'hydration answered', hyd);
    ok(Object.getPrototypeOf(rawState) === Object.prototype && Object.getOwnPropertyDescriptor(rawState, '__proto__').value.polluted === 5 && rawState.constructor === 6, 'hydration writes own keys only');
    eq(Object.keys(rawState), ['__proto__', 'constructor', 'prototype'], 'hydrated keys');
    // $patch, direct writes and tagged values with the same keys, forwarded to the mirror
    m.feed(hyd);
    own.$patch(JSON.parse('{"__proto__":{"polluted":8},"box":{"__proto__":{"polluted":9}}}'));
    G.StateHubReactivity.toRaw(own.$state);
    own.$state.prototype = { polluted: 11 };
    own.$patch(function (st) { st.tagged = JSON.parse('{"__proto__":1}'); st.when = new Map([['__proto__', { polluted: 12 }]]); });
    S.flushPending();
    m.feed(take());
    ok(({}).polluted === undefined && Object.prototype.polluted === undefined, 'Object.prototype untouched by $patch and writes');
    rawState = G.StateHubReactivity.toRaw(own.$state);
    ok(Object.getPrototypeOf(rawState) === Object.prototype && Object.getPrototypeOf(rawState.box) === Object.prototype && Object.getPrototypeOf(rawState.tagged) === Object.prototype, "$state's prototypes untouched by $patch");
    eq(m.stores['selftest.own'], expected(own), 'mirror equals the store with "__proto__" keys');
    var decoded = S.decodeValue(JSON.parse('{"$type":"Object","value":{"__proto__":{"$type":"Date","value":"1970-01-01T00:00:00.000Z"},"$type":1}}'));
    ok(Object.getPrototypeOf(decoded) === Object.prototype && decoded.__proto__ instanceof Date, 'tagged escape decodes "__proto__" as an own key');
    ok(Object.getOwnPropertyNames(Object.prototype).join(',') === protoKeysBefore && Object.getOwnPropertyNames(Object).join(',') === functionKeysBefore, 'Object.prototype and Object have no new properties');
    ok(m.errors.length === 0, 'own-properties mirror well-formed', m.errors.slice(0, 5));
    own.$dispose(); take();
  })();

  // ---------------------------------------------------------------- 7. action tagging (PROTOCOL.md A.5.2)

  (function actionTaggingTests() {
    var pa = G.createPinia();
    pa.use(S.createSyncPlugin());
    var useTagged = G.defineStore('selftest.tagged', {
      state: function () { return { n: 0, log: [] }; },
      actions: {
        outer: function () { this.n++; this.inner(); this.n++; },
        inner: function () { this.log.push('inner'); },
        patchy: function () { this.$patch({ n: 100 }); },
        fails: function () { this.n = -1; throw new Error('x'); }
      }
    });
    var t = useTagged(pa);
    take();
    t.n = 5;
    t.outer();
    t.patchy();
    try { t.fails(); } catch (e) { /* expected */ }
    t.n = 6;
    S.flushPending();
    var got = take();
    var muts = got.length === 1 ? got[0].payload.mutations : [];
    // alike on real Pinia: there the plugin diffs the direct writes apart at every action's start and end
    eq(muts.map(function (mu) { return [mu.type, mu.action === undefined ? null : mu.action]; }),
      [['direct', null], ['direct', 'outer'], ['direct', 'inner'], ['direct', 'outer'], ['patch object', 'patchy'], ['direct', 'fails'], ['direct', null]],
      'mutations tagged with the running action, nested innermost', muts);
    ok(!muts.length || JSON.stringify(Object.keys(muts[1])) === '["type","action","call","ops"]', 'mutation key order type, action, call, ops', muts[1]);
    if (muts.length === 7) {
      ok(muts[1].call === muts[3].call && muts[2].parent === muts[1].call && muts[2].root === muts[1].call && muts[2].call > muts[1].call &&
        muts[1].parent === undefined && muts[4].call > muts[2].call && muts[4].parent === undefined,
        'a nested call names its parent and root; the outer call keeps its id around it', muts);
      ok(JSON.stringify(Object.keys(muts[2])) === '["type","action","call","parent","root","ops"]', 'nested mutation key order type, action, call, parent, root, ops', muts[2]);
    }
    t.$dispose(); take();
  })();

  // The runtime calls the plugin's hooks directly while it is a store's only $onAction listener (js/runtime/pinia.js,
  // ACTION_HOOKS); a second listener makes it call every callback with a context. Both tag alike: the same messages,
  // the same action, call, parent, root and dispatch (call ids counted from the first), the same answers.
  (function actionHookTests() {
    function runOnce(withListener) {
      var pa = G.createPinia();
      pa.use(S.createSyncPlugin());
      var use = G.defineStore('selftest.hooks', {
        state: function () { return { n: 0, log: [] }; },
        actions: {
          outer: function () { this.n++; this.inner(); this.n++; return this.n; },
          inner: function () { this.log.push('inner'); },
          fails: function () { this.n = -1; throw new Error('x'); },
          odd: function () { return [undefined, new Date(0)]; }
        }
      });
      var s = use(pa);
      var seen = [];
      if (withListener) {
        s.$onAction(function (c) {
          seen.push(c.name);
          c.after(function (r) { seen.push('after ' + c.name + ' ' + safeJSON(r)); });
          c.onError(function (e) { seen.push('error ' + c.name + ' ' + e.message); });
        });
      }
      take();
      s.outer();
      try { s.fails(); } catch (e) { /* expected */ }
      dispatch({ v: 1, storeId: 'selftest.hooks', messageId: 'h1', type: 'dispatch_action', payload: { action: 'outer', args: [] } });
      dispatch({ v: 1, storeId: 'selftest.hooks', messageId: 'h2', type: 'dispatch_action', payload: { action: 'fails', args: [] } });
      dispatch({ v: 1, storeId: 'selftest.hooks', messageId: 'h3', type: 'dispatch_action', payload: { action: 'odd', args: [] } });
      s.n = 7;
      S.flushPending();
      var got = take(), base = null;
      s.$dispose(); take();
      got.forEach(function (m) {
        if (m.type === 'apply_mutation') {
          m.payload.mutations.forEach(function (mu) {
            if (mu.call === undefined) return;
            if (base === null) base = mu.call;
            mu.call -= base;
            if (mu.parent !== undefined) mu.parent -= base;
            if (mu.root !== undefined) mu.root -= base;
          });
        }
        if (m.type === 'action_result' && m.payload.error) m.payload.error.stack = '';
        if (m.type !== 'action_result') delete m.messageId;   // numbered across the engine
      });
      return { got: got, seen: seen };
    }
    var hooked = runOnce(false), called = runOnce(true);
    eq(hooked.got, called.got, 'the plugin alone (direct hooks) and beside another $onAction listener send the same messages and tags', { hooked: hooked.got });
    ok(hooked.got.some(function (m) { return m.type === 'apply_mutation' && m.payload.mutations.some(function (mu) { return mu.dispatch === 'h1' && mu.action === 'inner' && mu.parent !== undefined; }); }),
      'a dispatched call tags its nested call with the dispatch', hooked.got);
    eq(called.seen, ['outer', 'inner', 'after inner undefined', 'after outer 2', 'fails', 'error fails x', 'outer', 'inner', 'after inner undefined', 'after outer 1',
      'fails', 'error fails x', 'odd', 'after odd [null,"1970-01-01T00:00:00.000Z"]'], 'the other listener still sees every call, after and error', called.seen);
  })();

  // ---------------------------------------------------------------- 8. depth (PROTOCOL.md A.2 "Depth")

  (function depthTests() {
    var pd = G.createPinia();
    pd.use(S.createSyncPlugin());
    function chain(n) { var top = {}, cur = top; for (var i = 0; i < n; i++) { cur.c = {}; cur = cur.c; } cur.leaf = 0; return top; }
    var useDeep = G.defineStore('selftest.deep', { state: function () { return { d: chain(100) }; } });
    var deep = useDeep(pd);
    var m = new Mirror();
    m.feed(take());
    var node = deep.d;
    for (var i = 0; i < 100; i++) node = node.c;
    node.leaf = 1;
    S.flushPending();
    var sent1 = take();
    m.feed(sent1);
    var op1 = sent1.length === 1 ? sent1[0].payload.mutations[0].ops[0] : null;
    ok(op1 && op1.path.length <= 64, 'a write deeper than the op-path limit is sent as a set of its ancestor', op1 && op1.path.length);
    eq(m.stores['selftest.deep'], expected(deep), 'mirror equal after a deep write');
    deep.d = chain(600);
    S.flushPending();
    var sent2 = take();
    var tooDeep = sent2.filter(function (x) { return x.type === 'error' && x.payload.code === 'state_too_deep'; });
    ok(tooDeep.length === 1 && tooDeep[0].payload.detail.limit === 512, 'a state over 512 levels is reported as state_too_deep', sent2.map(function (x) { return x.type + ':' + (x.payload.code || ''); }));
    m.feed(sent2);
    function depthOf(v) {   // PROTOCOL.md A.8.1: 0 for a scalar, 1 + the deepest child for a container
      var best = 0, stack = [[v, 0]];
      while (stack.length) {
        var top = stack.pop(), x = top[0], d = top[1];
        if (x === null || typeof x !== 'object') { if (d > best) best = d; continue; }
        if (d + 1 > best) best = d + 1;
        for (var k in x) stack.push([x[k], d + 1]);
      }
      return best;
    }
    ok(depthOf(m.stores['selftest.deep']) <= 512, 'what was sent stays within the hub\'s depth cap', depthOf(m.stores['selftest.deep']));
    ok(m.errors.length === 0, 'depth mirror well-formed', m.errors.slice(0, 5));
    var refusedWarnings = 0, savedWarn2 = G.console && G.console.warn;
    if (G.console) G.console.warn = function () { refusedWarnings++; };
    dispatch({ v: 1, storeId: 'selftest.deep', messageId: 'n-20', type: 'error', payload: { code: 'too_deep', message: 'refused', detail: { depth: 513, limit: 512 } } });
    if (G.console) G.console.warn = savedWarn2;
    ok(take().length === 0 && refusedWarnings === 1, 'a native error message is reported on the console and answered with nothing');
    deep.$dispose(); take();
  })();

  // ---------------------------------------------------------------- 9. collections and unobservable writes

  (function collectionTests() {
    if (!precise) return;   // real Pinia: the plugin diffs, which covers both by construction
    var pc = G.createPinia();
    pc.use(S.createSyncPlugin());
    var useColl = G.defineStore('selftest.coll', {
      state: function () {
        return { m: new Map([['a', { x: 1 }]]), s: new Set([1]), nested: { inner: new Map([['k', new Set(['v'])]]) }, when: new Date(0), raw: G.markRaw({ q: 1 }), n: 0 };
      },
      actions: {
        touchDate: function () { this.when.setTime(1000); },
        touchRaw: function () { this.raw.q = 3; }
      }
    });
    var c = useColl(pc);
    var m = new Mirror();
    m.feed(take());
    c.m.set('b', 2);
    c.m.get('a').x = 5;
    c.s.add(2);
    c.s.delete(1);
    c.nested.inner.get('k').add('w');
    S.flushPending();
    var sent = take();
    m.feed(sent);
    eq(m.stores['selftest.coll'], expected(c), 'Map and Set edited in place: mirror equal after the tick');
    var paths = sent[0].payload.mutations[0].ops.map(function (o) { return o.op + ':' + JSON.stringify(o.path); });
    eq(paths, ['splice:["m","entries"]', 'set:["m"]', 'splice:["s","values"]', 'splice:["s","values"]', 'set:["nested","inner"]'],
      'entries added and deleted are splices of the tagged value\'s array; a write inside a member, or into a collection inside another, a set of the (outermost) collection');
    // filling a Map in a loop is one splice per run of inserts; members added are copied at the end of the tick
    var filled = {};
    c.m.clear();
    for (var f = 0; f < 500; f++) c.m.set('k' + f, { v: f });
    c.m.get('k7').v = 'changed in place';
    c.n = 2;
    c.m.set('last', filled);
    filled.after = true;
    S.flushPending();
    var fill = take();
    m.feed(fill);
    eq(m.stores['selftest.coll'], expected(c), 'Map filled in a loop, members changed in place: mirror equal');
    ok(fill.length === 1 && fill[0].payload.mutations[0].ops.length === 5 && JSON.stringify(fill[0]).length < 20000, 'a Map filled in one tick is sent once per run of writes (not once per write)', fill.length && fill[0].payload.mutations[0].ops.length);
    // flush 'sync': one entry op per write, its size independent of the Map's
    var ps = G.createPinia(), syncSent = [];
    ps.use(S.createSyncPlugin({ flush: 'sync', post: function (text) { syncSent.push(JSON.parse(text)); } }));
    var keyObject = { id: 1 };
    var big = G.defineStore('selftest.coll.sync', { state: function () {
      var entries = [];
      for (var b = 0; b < 2000; b++) entries.push(['k' + b, b]);
      return { m: new Map(entries), s: new Set(['x', 'y', NaN]), n: 0 };
    } })(ps);
    var ms = new Mirror();
    ms.feed(syncSent.splice(0));
    big.m.set('k5', 'five');
    big.m.set('new', { deep: [1] });
    big.m.delete('k0');
    big.m.set(keyObject, new Date(0));
    big.m.set(keyObject, 'replaced');
    big.s.add({ o: 1 });
    big.s.delete(NaN);
    big.s.delete('x');
    var perWrite = syncSent.map(function (msg) { return JSON.stringify(msg).length; });
    ms.feed(syncSent.splice(0));
    eq(ms.stores['selftest.coll.sync'], expected(big), 'flush sync: entry ops leave the mirror equal (Map set, add, delete, object key, Set add and delete, NaN)');
    ok(perWrite.length === 8 && perWrite.every(function (n) { return n < 300; }), 'flush sync: each write of a 2,000-entry Map is one small message', perWrite);
    var shapes = ms.log.slice(-8).map(function (msg) { var o = msg.payload.mutations[0].ops[0]; return o.op + ':' + JSON.stringify(o.path) + (o.op === 'splice' ? ':' + o.index + ',' + o.deleteCount : ''); });
    eq(shapes, ['set:["m","entries",5,1]', 'splice:["m","entries"]:2000,0', 'splice:["m","entries"]:0,1', 'splice:["m","entries"]:2000,0',
      'set:["m","entries",2000,1]', 'splice:["s","values"]:3,0', 'splice:["s","values"]:2,1', 'splice:["s","values"]:0,1'], 'flush sync: entry ops address the tagged value by position');
    // the same entry ops forwarded from another engine (native -> web apply_mutation) into a twin store
    var afterEight = JSON.parse(JSON.stringify(ms.stores['selftest.coll.sync']));
    var twin = G.defineStore('selftest.coll.twin', { state: function () {
      var entries = [];
      for (var b = 0; b < 2000; b++) entries.push(['k' + b, b]);
      return { m: new Map(entries), s: new Set(['x', 'y', NaN]), n: 0 };
    } })(pc);
    take();
    var forwarded = ms.log.slice(-8).map(function (msg) { return msg.payload.mutations[0]; });
    dispatch({ v: 1, storeId: 'selftest.coll.twin', messageId: 'n-coll', type: 'apply_mutation', payload: { mutations: forwarded } });
    S.flushPending();
    var twinSent = take();
    eq(expected(twin), afterEight, 'forwarded entry ops leave a twin store equal to the mirror');
    ok(twinSent.every(function (msg) { return msg.type !== 'error'; }) && twin.m.get('k5') === 'five' && twin.m.get('new').deep[0] === 1, 'forwarded entry ops: no error, live Map updated', twinSent);
    dispatch({ v: 1, storeId: 'selftest.coll.twin', messageId: 'n-coll-2', type: 'apply_mutation', payload: { mutations: [{ type: 'direct', ops: [{ op: 'set', path: ['m', 'entries', 1999, 1, 'deep', 0], value: 7 }] }] } });
    ok(twin.m.get('new').deep[0] === 7, 'a forwarded op inside a member changes the member in place');
    twin.$dispose(); take();
    big.m.clear();
    big.s.clear();
    ms.feed(syncSent.splice(0));
    eq(ms.stores['selftest.coll.sync'], expected(big), 'flush sync: clear empties the mirror\'s entries');
    big.$dispose();
    c.m.clear();
    S.flushPending();
    m.feed(take());
    eq(m.stores['selftest.coll'], expected(c), 'Map cleared: mirror equal');
    // unobservable writes: caught up by the end of the tick of the next reported write, or
    // when native flushes (flushPending)
    c.when.setTime(5);
    c.raw.q = 2;
    c.n = 1;
    S.flushPending();
    m.feed(take());
    eq(m.stores['selftest.coll'], expected(c), 'unobservable writes caught up by the time the batch leaves');
    // ... and at the end of the action that made them
    c.touchDate();
    c.touchRaw();
    S.flushPending();
    var fromActions = take();
    m.feed(fromActions);
    eq(m.stores['selftest.coll'], expected(c), 'unobservable writes caught up at the end of the action');
    ok(fromActions.length === 1 && fromActions[0].payload.mutations.map(function (mu) { return mu.action; }).join() === 'touchDate,touchRaw', 'catch-up tagged with the action', fromActions);
    ok(m.errors.length === 0, 'collections mirror well-formed', m.errors.slice(0, 5));
    c.$dispose(); take();
  })();

  // ---------------------------------------------------------------- 10. hot swap keeps state and mirror

  (function hotSwapTests() {
    if (!precise) return;
    var ph = G.createPinia();
    G.setActivePinia(ph);
    ph.use(S.createSyncPlugin());
    var useHot = G.defineStore('selftest.hot', { state: function () { return { n: 1, gone: true }; }, actions: { inc: function () { this.n++; } } });
    var hot = useHot(ph);
    var m = new Mirror();
    m.feed(take());
    hot.inc();
    S.flushPending();
    m.feed(take());
    G.StateHubPinia.hotSwap(function () {
      G.defineStore('selftest.hot', { state: function () { return { n: 0, added: 'yes' }; }, actions: { inc: function () { this.n += 10; } } });
    });
    S.flushPending();
    var swapMsgs = take();
    m.feed(swapMsgs);
    ok(swapMsgs.length === 1 && swapMsgs[0].type === 'apply_mutation' && swapMsgs[0].payload.mutations.length === 1, 'hot swap: one change reaches native, no new store', swapMsgs.map(function (x) { return x.type; }));
    eq(m.stores['selftest.hot'], { n: 2, added: 'yes' }, 'hot swap: state kept, keys added and removed in the mirror');
    hot.inc();
    S.flushPending();
    m.feed(take());
    eq(m.stores['selftest.hot'], { n: 12, added: 'yes' }, 'hot swap: new action runs on the kept state, mirrored');
    ok(m.errors.length === 0, 'hot swap mirror well-formed', m.errors.slice(0, 5));
    hot.$dispose(); take();
    G.setActivePinia(pinia);
  })();

  // ---------------------------------------------------------------- 12. whole-state text (js/README.md, "Sending a whole state")

  // The created and resync messages carry, byte for byte, JSON.stringify of the tagged encoding of the state
  // (S.encodeValue: encFast, or the careful encoder): the one-walk encoder that shares plain subtrees must write
  // the same text for every state, plain or not, including those it hands to the careful encoder.
  (function wholeStateTextTests() {
    var pw = G.createPinia();
    pw.use(S.createSyncPlugin());
    var r = rng(1822);
    function leaf() {
      var y = r();
      if (y < 0.25) return Math.floor(r() * 100) - 20;
      if (y < 0.4) return 's' + Math.floor(r() * 10) + (r() < 0.1 ? '"\\\u2028' : '');
      if (y < 0.48) return r() < 0.5;
      if (y < 0.55) return null;
      if (y < 0.6) return r() * 10;
      if (y < 0.63) return -0;
      if (y < 0.66) return new Date(r() < 0.1 ? NaN : Math.floor(r() * 1e12));
      if (y < 0.69) return undefined;
      if (y < 0.72) return [NaN, Infinity, -Infinity][Math.floor(r() * 3)];
      if (y < 0.74 && hasBigInt) return BigInt(Math.floor(r() * 1000));
      if (y < 0.75) return function f() {};
      if (y < 0.76) return new Thing();
      return 'x';
    }
    // Mostly plain JSON, so that most containers are shared and a few on the way to a tagged value are copied.
    function value(depth, plainOnly) {
      var x = r();
      if (depth > 4 || x < 0.4) { var v = leaf(); return plainOnly && (typeof v !== 'string' && typeof v !== 'number' || v !== v || v === Infinity || v === -Infinity) ? 1 : v; }
      var n = Math.floor(r() * 5), i;
      if (x < 0.65) {
        var a = [];
        for (i = 0; i < n; i++) a.push(value(depth + 1, plainOnly));
        if (!plainOnly && r() < 0.1) a[n + 1] = 7;   // a hole
        return a;
      }
      if (x < 0.93 || plainOnly) {
        var o = r() < 0.1 ? Object.create(null) : {};
        for (i = 0; i < n; i++) o[KEYS[Math.floor(r() * KEYS.length)]] = value(depth + 1, plainOnly);
        if (!plainOnly && r() < 0.05) Object.defineProperty(o, '__proto__', { value: value(depth + 1, true), enumerable: true, configurable: true, writable: true });
        return o;
      }
      if (x < 0.96) return new Map([[KEYS[Math.floor(r() * KEYS.length)], value(depth + 1, plainOnly)]]);
      return new Set([value(depth + 1, plainOnly), 'z']);
    }
    function stateText(msg) {
      var from = msg.indexOf('"state":') + 8, to = msg.lastIndexOf(',"reason":"');
      return msg.slice(from, to);
    }
    var same = 0, shared = 0, checked = 0, firstBad = null;
    function check(id, initial, note) {
      sent.length = 0;
      var store = G.defineStore(id, { state: function () { return initial; } })(pw);
      var want = JSON.stringify(S.encodeValue(store.$state));
      var created = sent.filter(function (t) { return t.indexOf('"reason":"created"') >= 0; })[0];
      dispatch({ v: 1, storeId: id, messageId: 'whole-' + checked, type: 'request_sync', payload: {} });
      var resync = sent.filter(function (t) { return t.indexOf('"reason":"resync"') >= 0; })[0];
      checked++;
      if (created && resync && stateText(created) === want && stateText(resync) === want) same++;
      else if (firstBad === null) firstBad = { note: note, want: want, created: created && stateText(created), resync: resync && stateText(resync) };
      if (JSON.stringify(S.encodeValue(store.$state)) !== want && firstBad === null) firstBad = { note: note + ': the state changed', want: want };
      store.$dispose();
      sent.length = 0;
    }
    for (var k = 0; k < 400; k++) {
      var st = { a: value(0, false), b: value(1, k % 3 === 0), c: 'c' + k };
      if (k % 7 === 0) st.big = Array.from({ length: 50 }, function (_, i) { return { id: i, name: 'n' + i, tags: ['t', i] }; });
      if (k % 11 === 0) st.big2 = [st.big || [], { when: new Date(k) }];   // a shared subtree beside a copied one
      check('selftest.whole.' + k, st, 'random state ' + k);
      try { if (JSON.stringify(st) === JSON.stringify(S.encodeValue(st))) shared++; } catch (e) { /* a BigInt: not plain */ }
    }
    var deep = { n: null }, cur = deep;
    for (var d = 0; d < 80; d++) { cur.n = { n: null, when: d === 79 ? new Date(3) : null }; cur = cur.n; }
    check('selftest.whole.deep', { chain: deep }, 'past the fast depth: the careful encoder');
    var esc = { $type: 'mine', inner: { d: new Date(1), list: [1, { $type: 'x' }] } };
    check('selftest.whole.escaped', { e: esc, plain: { a: [1, 2] } }, '"$type" keys escaped');
    check('selftest.whole.plain', { rows: [{ id: 1, name: 'a', tags: [true, false] }], empty: {}, none: [] }, 'plain JSON');
    Object.defineProperty(Object.prototype, 'selftestPolluted', { value: 1, enumerable: true, configurable: true, writable: true });
    try {
      check('selftest.whole.polluted', { a: { b: [1, { c: new Date(2) }] }, d: 'x' }, 'Object.prototype with an enumerable key');
    } finally {
      delete Object.prototype.selftestPolluted;
    }
    // The envelope around it, as send() assembles every other message: key order, ack, actionParameters.
    sent.length = 0;
    var withActions = G.defineStore('selftest.whole.envelope', {
      state: function () { return { when: new Date(7), n: 1 }; },
      actions: { add: function (by, note) { this.n += by; return note; }, reset: function () {} }
    })(pw);
    var createdText = sent[0];
    var cm = JSON.parse(createdText);
    ok(createdText === '{"v":1,"storeId":"selftest.whole.envelope","messageId":' + JSON.stringify(cm.messageId) + ',"seq":1,"type":"sync_state","payload":{"actionParameters":{"add":["by","note"]},"state":{"when":{"$type":"Date","value":"1970-01-01T00:00:00.007Z"},"n":1},"reason":"created"}}',
      'whole state: the created envelope, byte for byte', createdText);
    dispatch({ v: 1, storeId: 'selftest.whole.envelope', messageId: 'native-7', type: 'sync_state', payload: { state: { when: { $type: 'Date', value: '1970-01-01T00:00:00.008Z' }, n: 2 } } });
    sent.length = 0;
    dispatch({ v: 1, storeId: 'selftest.whole.envelope', messageId: 'native-8', type: 'request_sync', payload: {} });
    var rm = JSON.parse(sent[0]);
    ok(sent[0] === '{"v":1,"storeId":"selftest.whole.envelope","messageId":' + JSON.stringify(rm.messageId) + ',"seq":3,"ack":"native-7","type":"sync_state","payload":{"state":{"when":{"$type":"Date","value":"1970-01-01T00:00:00.008Z"},"n":2},"reason":"resync"}}',
      'whole state: the resync envelope with its ack, byte for byte', sent[0]);
    withActions.$dispose();
    sent.length = 0;
    ok(same === checked && firstBad === null, 'whole state: the created and resync texts are JSON.stringify(encodeValue(state)) (' + same + ' of ' + checked + ')', firstBad);
    ok(shared > 20 && shared < 380, 'whole state: the random states mix plain and tagged ones (' + shared + ' plain of 400)');
    G.setActivePinia(pinia);
  })();

  // ---------------------------------------------------------------- 13. setup-store state behind a wrapper

  // A shallowRef replaced through the store, and readonly / shallowReactive state written through
  // its source or its top level, reach the mirror (on real Pinia through the deep watcher and the diff).
  (function wrappedStateTests() {
    var pw = G.createPinia();
    G.setActivePinia(pw);
    if (G.StateHubPinia && typeof G.StateHubPinia.createApp === 'function') G.StateHubPinia.createApp({}).use(pw);
    pw.use(S.createSyncPlugin());
    var source = G.reactive({ n: 1 });
    var w = G.defineStore('selftest.wrapped', function () {
      return { rows: G.shallowRef([]), config: G.readonly(source), table: G.shallowReactive({ row: { n: 1 } }) };
    })(pw);
    var m = new Mirror();
    m.feed(take());
    w.rows = [1, 2];
    source.n = 2;
    w.table.row = { n: 3 };
    S.flushPending();
    m.feed(take());
    eq(m.stores['selftest.wrapped'], { rows: [1, 2], config: { n: 2 }, table: { row: { n: 3 } } },
      'a replaced shallowRef, a readonly state\'s source and a shallowReactive\'s top level reach the mirror');
    w.config.n = 5;
    S.flushPending();
    ok(take().length === 0 && w.config.n === 2, 'a write through readonly state changes nothing and sends nothing');
    ok(m.errors.length === 0, 'wrapped state mirror well-formed', m.errors.slice(0, 5));
    w.$dispose(); take();
    G.setActivePinia(pinia);
  })();

  // ---------------------------------------------------------------- 14. getters beside the state (PROTOCOL.md A.13)

  // Every getter with each whole state, only the changed ones with a mutation, no member for a store
  // without getters; a getter that throws is sent as undefined and reported by getter_failed. On real
  // Pinia the plugin finds them through what Pinia lists (a development build) or, for a setup store
  // on a production build, the computed refs its setup function returned.
  (function getterTests() {
    ['tick', 'sync'].forEach(function (flush) {
      var label = 'getters (flush ' + flush + '): ';
      var pg = G.createPinia();
      G.setActivePinia(pg);
      pg.use(S.createSyncPlugin({ flush: flush }));
      var ids = { options: 'selftest.getters.options.' + flush, setup: 'selftest.getters.setup.' + flush, none: 'selftest.getters.none.' + flush };
      var cart = G.defineStore(ids.options, {
        state: function () { return { items: [], tag: 'a' }; },
        getters: {
          count: function (s) { return s.items.length; },
          skus: function () { return this.items.map(function (item) { return item.sku; }); },
          first: function (s) { return s.items[0].sku; }
        },
        actions: { add: function (sku) { this.items.push({ sku: sku }); } }
      })(pg);
      var counter = G.defineStore(ids.setup, function () {
        var n = G.ref(1);
        var double = G.computed(function () { return n.value * 2; });
        function bump(by) { n.value += by; }
        return { n: n, double: double, bump: bump };
      })(pg);
      var plain = G.defineStore(ids.none, { state: function () { return { a: 1 }; } })(pg);
      var m = new Mirror();
      function of(msgs, id, type) { return msgs.filter(function (x) { return x.storeId === id && x.type === type; }); }
      function gettersOf(msgs, id) { return of(msgs, id, 'apply_mutation').map(function (x) { return x.payload.getters === undefined ? null : x.payload.getters; }); }
      function threwReports(msgs, id) {
        return of(msgs, id, 'error').filter(function (x) { return x.payload.code === 'getter_failed'; })
          .map(function (x) { return [x.payload.path, x.payload.detail.kind, x.payload.detail.getter, x.payload.detail.error && x.payload.detail.error.name]; });
      }
      var undef = { $type: 'undefined' };

      var msgs = take(); m.feed(msgs);
      var created = of(msgs, ids.options, 'sync_state')[0];
      eq(created && created.payload.getters, { count: 0, skus: [], first: undef }, label + 'created: every getter of an options store, one that throws sent as undefined');
      eq(threwReports(msgs, ids.options), [[['first'], 'threw', 'first', 'TypeError']], label + 'a getter that throws is reported after the message that carries it');
      var setupCreated = of(msgs, ids.setup, 'sync_state')[0];
      eq(setupCreated && setupCreated.payload.getters, { double: 2 }, label + 'created: the computed of a setup store');
      var plainCreated = of(msgs, ids.none, 'sync_state')[0];
      ok(plainCreated && !('getters' in plainCreated.payload), label + 'a store without getters sends no getters member', plainCreated);

      cart.add('A1');
      S.flushPending();
      msgs = take(); m.feed(msgs);
      var carried = gettersOf(msgs, ids.options);
      eq(carried[carried.length - 1], { count: 1, skus: ['A1'], first: 'A1' }, label + 'a write sends the getters it changed');
      cart.add('B7');
      S.flushPending();
      msgs = take(); m.feed(msgs);
      eq(gettersOf(msgs, ids.options), [{ count: 2, skus: ['A1', 'B7'] }], label + 'only the getters whose value changed');
      cart.tag = 'b';
      counter.bump(4);
      plain.a = 2;
      S.flushPending();
      msgs = take(); m.feed(msgs);
      eq(gettersOf(msgs, ids.options), [null], label + 'a write that changes no getter sends no getters member');
      eq(gettersOf(msgs, ids.setup), [{ double: 10 }], label + 'a setup store\'s computed follows its state');
      eq(gettersOf(msgs, ids.none), [null], label + 'a store without getters: none with its writes either');

      dispatch({ v: 1, storeId: ids.setup, messageId: 'g-resync-' + flush, type: 'request_sync', payload: { reason: 'manual' } });
      dispatch({ v: 1, storeId: ids.options, messageId: 'g-hydrate-' + flush, type: 'sync_state', payload: { state: { items: [], tag: 'h' } } });
      S.flushPending();
      msgs = take(); m.feed(msgs);
      var resync = of(msgs, ids.setup, 'sync_state')[0];
      eq(resync && [resync.payload.reason, resync.payload.getters], ['resync', { double: 10 }], label + 'a resync carries every getter');
      var hydrated = of(msgs, ids.options, 'sync_state')[0];
      eq(hydrated && [hydrated.payload.reason, hydrated.payload.getters], ['hydrated', { count: 0, skus: [], first: undef }], label + 'a hydration\'s answer carries every getter');
      eq(threwReports(msgs, ids.options), [[['first'], 'threw', 'first', 'TypeError']], label + 'a getter that throws again after it stopped is reported again');
      ok(m.errors.length === 0, label + 'mirror well-formed, seq continuous', m.errors.slice(0, 5));
      cart.$dispose(); counter.$dispose(); plain.$dispose(); take();
    });
    // A hot update replaces the getters (our runtime's hotSwap): their names are read again.
    if (precise) {
      var ph = G.createPinia();
      G.setActivePinia(ph);
      ph.use(S.createSyncPlugin());
      var define = function (getters) { return G.defineStore('selftest.getters.hot', { state: function () { return { n: 1 }; }, getters: getters }); };
      var hot = define({ double: function (s) { return s.n * 2; } })(ph);
      take();
      G.StateHubPinia.hotSwap(function () { define({ triple: function (s) { return s.n * 3; } }); });
      hot.n = 2;
      S.flushPending();
      var hotMsgs = take().filter(function (x) { return x.type === 'apply_mutation'; });
      eq(hotMsgs.length > 0 && hotMsgs[hotMsgs.length - 1].payload.getters, { triple: 6 }, 'getters: after a hot update, the new getters are sent');
      hot.$dispose(); take();
    }
    G.setActivePinia(pinia);
  })();

  // ---------------------------------------------------------------- 11. async tail (promises only)

  function finish() {
    restore();
    result.done = true; result.passed = passed; result.failed = failed;
    var line = 'plugin selftest: ' + passed + ' passed, ' + failed + ' failed';
    if (G.console && G.console.log) G.console.log(line);
    if (failed) throw new Error(line + '\n  ' + failures.join('\n  '));
    return line;
  }

  // unobservable writes after the first reported write of a tick: caught up at the end of the tick
  var tickStore = (function () {
    if (!precise) return null;
    var pt = G.createPinia();
    pt.use(S.createSyncPlugin());
    var store = G.defineStore('selftest.tickcatch', { state: function () { return { n: 0, when: new Date(0) }; } })(pt);
    take();
    return store;
  })();
  var tickMirror = new Mirror();
  var tail = Promise.resolve().then(function () {
    if (tickStore) {
      tickMirror.feed(take());
      tickStore.n = 1;            // first reported write of this tick
      tickStore.when.setTime(9);  // unobservable, later in the same tick
    }
    return Promise.resolve();
  }).then(function () {
    if (tickStore) {
      var sent = take();
      ok(sent.some(function (x) { return x.type === 'apply_mutation' && JSON.stringify(x.payload).indexOf('1970-01-01T00:00:00.009Z') !== -1; }), 'an unobservable write late in a tick is caught up at the end of that tick', sent);
      tickStore.$dispose(); take();
    }
  }).then(function () {
    // a real microtask batch
    counter.count = 100;
    counter.count = 101;
    return Promise.resolve();
  }).then(function () {
    var ms1 = take(); mirror.feed(ms1);
    // Two writes to one place in a tick are one op (the second replaces the first): a loop writing
    // `count` a million times before a stop must not pile up a million ops.
    ok(ms1.length === 1 && ms1[0].type === 'apply_mutation' && ms1[0].payload.mutations[0].ops.length === 1 &&
      ms1[0].payload.mutations[0].ops[0].value === 101, 'microtask flush: one message for the tick, one op for one place', ms1);
    dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'a1', type: 'dispatch_action', payload: { action: 'asyncAdd', args: [10] } });
    dispatch({ v: 1, storeId: 'selftest.counter', messageId: 'a2', type: 'dispatch_action', payload: { action: 'asyncFail', args: [] } });
    return new Promise(function (res) { var n = 0; (function spin() { if (++n > 50) res(); else Promise.resolve().then(spin); })(); });
  }).then(function () {
    var am = take(); mirror.feed(am);
    var r1 = am.filter(function (m) { return m.messageId === 'a1'; })[0];
    var r2 = am.filter(function (m) { return m.messageId === 'a2'; })[0];
    ok(r1 && r1.payload.ok === true && r1.payload.value === 109, 'async action answered when settled', r1);
    ok(r2 && r2.payload.ok === false && r2.payload.error.code === 'action_threw' && r2.payload.error.message === 'async nope', 'async rejection answered', r2);
    var idx1 = am.indexOf(r1), lastMut = -1;
    for (var i = 0; i < am.length; i++) if (am[i].type === 'apply_mutation') lastMut = i;
    ok(idx1 > 0 && am.slice(0, idx1).some(function (m) { return m.type === 'apply_mutation'; }), 'async action mutations before its result');
    eq(mirror.stores['selftest.counter'], expected(counter), 'mirror equals state after async actions');
    ok(mirror.errors.length === 0, 'seq continuous through async', mirror.errors.slice(0, 5));
    counter.$dispose(); take();
    return nestedDispatchTagging('tick');
  }).then(function () {
    return nestedDispatchTagging('sync');
  }).then(function () {
    return finish();
  }, function (e) { failed++; failures.push('async tail: ' + e); return finish(); });

  // A native dispatch of an async action that calls other actions after `await`s: every mutation carries
  // the dispatch's messageId and the dispatched call as its root, nested calls name it as parent, in both
  // flush modes alike (PROTOCOL.md A.5.2).
  function nestedDispatchTagging(flush) {
    var posted = [], pn = G.createPinia();
    pn.use(S.createSyncPlugin({ flush: flush, post: function (text) { posted.push(JSON.parse(text)); } }));
    var id = 'selftest.nest.' + flush;
    var nest = G.defineStore(id, {
      state: function () { return { n: 0, log: [] }; },
      actions: {
        outer: function () { var self = this; self.n++; return Promise.resolve().then(function () { self.inner('a'); return self.slow(); }).then(function () { self.n += 10; }); },
        inner: function (x) { this.log.push(x); },
        slow: function () { var self = this; return Promise.resolve().then(function () { self.log.push('slow'); }); }
      }
    })(pn);
    dispatch({ v: 1, storeId: id, messageId: 'n-nest-' + flush, type: 'dispatch_action', payload: { action: 'outer', args: [] } });
    return new Promise(function (res) { var n = 0; (function spin() { if (++n > 50) res(); else Promise.resolve().then(spin); })(); }).then(function () {
      var muts = [];
      posted.forEach(function (msg) { if (msg.type === 'apply_mutation') muts = muts.concat(msg.payload.mutations); });
      var result = posted.filter(function (msg) { return msg.type === 'action_result'; })[0];
      ok(result && result.payload.ok === true, 'nested dispatch (' + flush + '): answered', posted);
      var root = muts.length ? muts[0].call : -1;
      var shape = muts.map(function (mu) {
        return [mu.action, mu.call === root ? 'root' : mu.parent === root && mu.root === root ? 'child' : 'other', mu.dispatch];
      });
      var want = [['outer', 'root', 'n-nest-' + flush], ['inner', 'child', 'n-nest-' + flush], ['slow', 'child', 'n-nest-' + flush], ['outer', 'root', 'n-nest-' + flush]];
      eq(shape, want, 'nested dispatch (' + flush + '): every mutation tagged with its action, the dispatched call as root, and the dispatch');
      nest.$dispose();
    });
  }

  return tail;
})();
