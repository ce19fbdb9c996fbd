/*
 * Self-test of js/runtime (reactivity.js + pinia.js). Plain classic script, no modules.
 *
 * Expects the runtime already loaded into the global scope. Runs under JavaScriptCore (uses
 * `print` when present) or node (`console.log`); needs only Promise microtasks, no timers.
 *
 * Synchronous tests run first: if any fails, the script throws before returning. Async tests
 * then run on microtasks. At the end it prints exactly one line
 *   runtime selftest: N passed, M failed
 * (failures are printed above it), stores { passed, failed, failures, done: true } in
 * globalThis.__stateHubRuntimeSelftest, and, if M > 0, throws (a rejected promise).
 */
(function (global) {
  'use strict';

  var out = typeof global.print === 'function' ? global.print : function (s) { console.log(s); };
  var OPS = Symbol.for('statehub.ops');
  var P = global.StateHubPinia, R = global.StateHubReactivity;
  var applyOps = P.applyOps;
  var syncTests = [], asyncTests = [];
  var passed = 0, failed = 0, failures = [];
  var result = { passed: 0, failed: 0, failures: failures, done: false };
  global.__stateHubRuntimeSelftest = result;

  function test(name, fn) { syncTests.push([name, fn]); }
  function atest(name, fn) { asyncTests.push([name, fn]); }
  function fail(msg) { throw new Error(msg); }
  function ok(c, msg) { if (!c) fail(msg || 'expected true'); }
  function J(v) { return JSON.stringify(v); }
  function eq(a, b, msg) { if (a !== b) fail((msg ? msg + ': ' : '') + 'expected ' + J(b) + ', got ' + J(a)); }
  function jeq(a, b, msg) { var x = J(a), y = J(b); if (x !== y) fail((msg ? msg + ': ' : '') + 'expected ' + y + ', got ' + x); }
  function throwsLike(fn, re, msg) {
    try { fn(); } catch (e) { if (re && !re.test(String(e && e.message))) fail((msg || '') + ' wrong error: ' + e.message); return e; }
    fail((msg || 'expected a throw'));
  }
  function tick() { return nextTick(); }
  function fresh() { var p = createPinia(); setActivePinia(p); return p; }
  function jcopy(v) { return JSON.parse(JSON.stringify(v)); }
  var uid = 0;
  function sid(s) { return (s || 'store') + '_' + (++uid); }

  // ---------------------------------------------------------------- reactivity
  test('reactive: nested objects and arrays are observed', function () {
    var s = reactive({ a: { b: 1 }, list: [1, 2, 3] });
    var runs = 0, seen;
    var stop = watch(s, function () { runs++; seen = J(s); }, { flush: 'sync' });
    s.a.b = 2; eq(runs, 1, 'nested write');
    s.list[0] = 9; eq(runs, 2, 'index write');
    s.list.push(4); eq(runs, 3, 'push');
    s.list.pop(); s.list.shift(); s.list.unshift(0); s.list.splice(1, 1); eq(runs, 7, 'array methods');
    s.list.sort(function (x, y) { return y - x; }); s.list.reverse(); eq(runs, 9, 'sort/reverse');
    s.list.sort(); eq(runs, 9, 'sort of a sorted array: nothing changed, no run');
    s.list.length = 1; eq(runs, 10, 'length');
    delete s.a.b; eq(runs, 11, 'delete');
    eq(seen, J(s));
    stop();
    s.a.c = 1; eq(runs, 11, 'stopped');
    ok(isReactive(s.a) && isReactive(s.list), 'nested proxies');
    ok(toRaw(s.a) === toRaw(s).a, 'toRaw');
    ok(reactive(toRaw(s)) === s, 'same proxy');
  });
  test('computed: cached, lazy, recognisable', function () {
    var s = reactive({ n: 1 });
    var calls = 0;
    var c = computed(function () { calls++; return s.n * 2; });
    eq(calls, 0, 'lazy');
    eq(c.value, 2); eq(c.value, 2); eq(c.value, 2); eq(calls, 1, 'cached');
    s.n = 5; eq(calls, 1, 'not eager'); eq(c.value, 10); eq(calls, 2);
    ok(isRef(c) && R.isComputed(c) && !!c.effect, 'recognisable');
    var d = computed(function () { return c.value + 1; });
    eq(d.value, 11); s.n = 6; eq(d.value, 13, 'chained');
    var w = computed({ get: function () { return s.n; }, set: function (v) { s.n = v; } });
    w.value = 3; eq(s.n, 3, 'writable computed');
  });
  test('refs, toRef(s), markRaw, shallowRef, unref, effectScope', function () {
    var r = ref({ x: 1 });
    ok(isReactive(r.value), 'deep ref');
    var sr = shallowRef({ x: 1 });
    ok(!isReactive(sr.value), 'shallowRef');
    var s = reactive({ a: 1, b: 2 });
    var refs = toRefs(s); refs.a.value = 5; eq(s.a, 5, 'toRefs');
    var t = toRef(s, 'b'); s.b = 7; eq(t.value, 7, 'toRef');
    eq(unref(t), 7); eq(unref(3), 3);
    var m = markRaw({ z: 1 }); s.m = m; ok(!isReactive(s.m), 'markRaw');
    var scope = effectScope(), runs = 0;
    scope.run(function () { watch(function () { return s.a; }, function () { runs++; }, { flush: 'sync' }); });
    s.a = 1; eq(runs, 1); scope.stop(); s.a = 2; eq(runs, 1, 'scope stopped');
    ok(isRef(customRef(function (track, trigger) { return { get: function () { track(); return 1; }, set: function () { trigger(); } }; })), 'customRef');
  });
  atest('watch: default flush batches per tick; nextTick waits for it', function () {
    var s = reactive({ n: 0 }), calls = [];
    watch(function () { return s.n; }, function (v, old) { calls.push([v, old]); });
    s.n = 1; s.n = 2; s.n = 3;
    eq(calls.length, 0, 'async');
    return tick().then(function () { jeq(calls, [[3, 0]]); });
  });

  // ---------------------------------------------------------------- pinia object
  test('createPinia / install / use before install applies immediately', function () {
    var p = createPinia();
    ok(isRef(p.state) && typeof p.state.value === 'object', 'state ref');
    var provided = null, app = { provide: function (k, v) { provided = v; }, config: { globalProperties: {} } };
    var seen = [];
    p.use(function (ctx) { seen.push(ctx.store.$id); return { fromPlugin: 1 }; });
    var id = sid('pre');
    var useS = defineStore(id, { state: function () { return { a: 1 }; } });
    var s = useS(p);
    jeq(seen, [id], 'plugin applied before install');
    eq(s.fromPlugin, 1);
    p.install(app);
    ok(getActivePinia() === p && provided === p && app.config.globalProperties.$pinia === p, 'install');
    var late = [];
    p.use(function (ctx) { late.push(ctx.store.$id); });
    jeq(late, [id], 'use() applies to existing stores too');
  });
  test('useStore without an active pinia throws a clear error', function () {
    setActivePinia(undefined);
    var useS = defineStore(sid('nopinia'), { state: function () { return {}; } });
    throwsLike(function () { useS(); }, /no active Pinia/);
    fresh();
  });
  test('same instance per id per pinia; defineStore({id}) form', function () {
    var p = fresh(), id = sid('same');
    var a = defineStore(id, { state: function () { return { x: 1 }; } });
    var b = defineStore({ id: id, state: function () { return { x: 2 }; } });
    ok(a() === a() && a() === b(), 'same instance');
    eq(b().x, 1);
    var p2 = createPinia();
    ok(a(p) !== a(p2), 'per pinia');
    eq(getActivePinia(), p2, 'useStore(pinia) makes it active');
    setActivePinia(p);
  });
  test('hydration: existing pinia.state.value[id] skips state()', function () {
    var p = fresh(), id = sid('hyd'), called = 0;
    p.state.value[id] = { count: 42 };
    var s = defineStore(id, { state: function () { called++; return { count: 0 }; } })();
    eq(called, 0); eq(s.count, 42);
    var id2 = sid('hydsetup');
    p.state.value[id2] = { n: 5, keep: 1 };
    var s2 = defineStore(id2, function () { return { n: ref(0), keep: skipHydrate(ref(9)) }; })();
    eq(s2.n, 5, 'setup hydrated'); eq(s2.keep, 9, 'skipHydrate');
  });
  test('$dispose keeps state; next useStore starts from it', function () {
    var p = fresh(), id = sid('disp');
    var useS = defineStore(id, { state: function () { return { n: 0 }; } });
    var s = useS(), calls = 0;
    s.$subscribe(function () { calls++; }, { flush: 'sync' });
    s.n = 3; eq(calls, 1);
    s.$dispose();
    ok(p.state.value[id] !== undefined && p.state.value[id].n === 3, 'state kept');
    s.$state.n = 4; eq(calls, 1, 'subscription stopped');
    var s2 = useS();
    ok(s2 !== s, 'new instance'); eq(s2.n, 4);
  });

  // ---------------------------------------------------------------- stores
  test('option store: getters cached, this and first arg are the store, actions', function () {
    fresh();
    var calls = 0;
    var useS = defineStore(sid('opt'), {
      state: function () { return { n: 2, items: [] }; },
      getters: {
        double: function (s) { calls++; return s.n * 2; },
        quad: function () { return this.double * 2; },
        same: function (s) { return s === this; }
      },
      actions: {
        inc: function (by) { this.n += by || 1; return this.n; },
        twice: function () { this.inc(); return this.inc(); },
        async later(v) { await Promise.resolve(); this.n = v; return 'ok'; }
      }
    });
    var s = useS();
    eq(s.double, 4); eq(s.double, 4); eq(s.double, 4); eq(calls, 1, 'cached');
    eq(s.quad, 8); ok(s.same, 'this === store');
    s.n = 3; eq(s.double, 6); eq(calls, 2);
    var inc = s.inc; eq(inc(2), 5, 'detached this'); eq(inc.call({}, 1), 6, 'foreign this');
    eq(s.twice(), 8);
  });
  test('a getter named __proto__ is not defined, with a warning naming the store', function () {
    fresh();
    var warnings = [], savedWarn = global.console && global.console.warn;
    if (global.console) global.console.warn = function (m) { warnings.push(String(m)); };
    try {
      var optionsId = sid('proto'), setupId = sid('protoSetup');
      var getters = { double: function (st) { return st.n * 2; } };
      Object.defineProperty(getters, '__proto__', { value: function () { return 'bad'; }, enumerable: true });
      var s = defineStore(optionsId, { state: function () { return { n: 2 }; }, getters: getters })();
      var t = defineStore(setupId, function () {
        var n = ref(1), out = { n: n, double: computed(function () { return n.value * 2; }) };
        Object.defineProperty(out, '__proto__', { value: computed(function () { return 'bad'; }), enumerable: true });
        return out;
      })();
      eq(s.double, 4); eq(t.double, 2);
      ok(!Object.prototype.hasOwnProperty.call(s, '__proto__'), 'no own __proto__ on the options store');
      ok(!Object.prototype.hasOwnProperty.call(t, '__proto__'), 'no own __proto__ on the setup store');
      eq(Object.getPrototypeOf(toRaw(s)), Object.prototype, 'the prototype is untouched');
      eq(warnings.length, 2, 'one warning a store: ' + J(warnings));
      ok(warnings[0].indexOf('"__proto__"') !== -1 && warnings[0].indexOf(optionsId) !== -1, warnings[0]);
      ok(warnings[1].indexOf(setupId) !== -1, warnings[1]);
    } finally {
      if (global.console) global.console.warn = savedWarn;
    }
  });
  test('setup store: refs/reactive = state, computed = getters, functions = actions', function () {
    fresh();
    var useS = defineStore(sid('setup'), function () {
      var n = ref(1), obj = reactive({ a: 1 }), plain = 'x';
      var double = computed(function () { return n.value * 2; });
      function inc() { n.value++; }
      function incTwice() { s.inc(); s.inc(); }
      var s;
      return { n: n, obj: obj, double: double, inc: inc, incTwice: incTwice, plain: plain, _bind: function (x) { s = x; } };
    });
    var s = useS(); s._bind(s);
    jeq(s.$state, { n: 1, obj: { a: 1 } });
    eq(s.double, 2); s.inc(); eq(s.n, 2); eq(s.double, 4);
    s.n = 10; eq(s.double, 20, 'store write reaches computed');
    var names = [];
    s.$onAction(function (c) { names.push(c.name); });
    s.incTwice(); jeq(names, ['incTwice', 'inc', 'inc'], 'nested actions outer first');
    throwsLike(function () { s.$reset(); }, /setup syntax/);
    var st = storeToRefs(s);
    ok(isRef(st.n) && isRef(st.double) && st.inc === undefined, 'storeToRefs');
    st.n.value = 1; eq(s.n, 1);
  });
  test('$patch object: deep merge in place, arrays replace, new keys; one notification each', function () {
    fresh();
    var s = defineStore(sid('patch'), { state: function () { return { a: { b: 1, c: { d: 1 } }, list: [1, 2], keep: 1 }; } })();
    var calls = [];
    s.$subscribe(function (m, state) { calls.push(['sync', m.type, m.payload, state === s.$state]); }, { flush: 'sync' });
    s.$subscribe(function (m) { calls.push(['pre', m.type, m.payload]); });
    var inner = toRaw(s.$state).a;
    var payload = { a: { c: { e: 2 } }, list: [3], added: true };
    s.$patch(payload);
    ok(toRaw(s.$state).a === inner, 'merged in place');
    jeq(s.$state, { a: { b: 1, c: { d: 1, e: 2 } }, list: [3], keep: 1, added: true });
    eq(calls.length, 2, 'each subscriber once, synchronously');
    ok(calls[0][2] === payload && calls[1][2] === payload, 'payload is the very object');
    eq(calls[0][1], 'patch object'); ok(calls[0][3], 'state argument');
    s.$patch(function (st) { st.keep = 2; st.list.push(4); });
    eq(calls.length, 4); eq(calls[2][1], 'patch function'); eq(calls[2][2], undefined);
    ok(!('payload' in { type: calls[2][1] }));
  });
  test('$state set and $reset notify once as patch function', function () {
    fresh();
    var s = defineStore(sid('reset'), { state: function () { return { n: 0, list: [] }; } })();
    var types = [];
    s.$subscribe(function (m) { types.push(m.type); }, { flush: 'sync' });
    s.$state = { n: 5 };
    eq(s.n, 5); jeq(types, ['patch function']);
    s.list.push(1); s.$reset();
    jeq(s.$state, { n: 0, list: [] }); jeq(types, ['patch function', 'direct', 'patch function']);
  });
  atest('$subscribe: default flush batches direct writes per tick; sync once per write', function () {
    fresh();
    var s = defineStore(sid('sub'), { state: function () { return { n: 0 }; } })();
    var pre = [], sync = 0;
    s.$subscribe(function (m, st) { pre.push([m.type, m.storeId, st.n]); });
    s.$subscribe(function () { sync++; }, { flush: 'sync' });
    s.n = 1; s.n = 2; s.n = 3;
    eq(sync, 3); eq(pre.length, 0);
    return tick().then(function () { jeq(pre, [['direct', s.$id, 3]]); });
  });
  atest('direct writes right after a $patch are absorbed for non-sync subscribers', function () {
    fresh();
    var s = defineStore(sid('absorb'), { state: function () { return { n: 0, m: 0 }; } })();
    var pre = [], sync = [], copy = jcopy(s.$state);
    s.$subscribe(function (m) { pre.push(m.type); applyOps(copy, m[OPS]); });
    s.$subscribe(function (m) { sync.push(m.type); }, { flush: 'sync' });
    s.n = 1;
    s.$patch({ m: 1 });
    s.n = 2;
    return tick().then(function () {
      jeq(pre, ['patch object'], 'absorbed');
      jeq(sync, ['direct', 'patch object', 'direct']);
      s.m = 5;
      return tick();
    }).then(function () {
      jeq(pre, ['patch object', 'direct']);
      jeq(copy, s.$state, 'absorbed ops delivered with the next notification');
    });
  });
  test('$subscribe in an effect scope is removed with it unless detached', function () {
    fresh();
    var s = defineStore(sid('scope'), { state: function () { return { n: 0 }; } })();
    var a = 0, b = 0, scope = effectScope();
    scope.run(function () {
      s.$subscribe(function () { a++; }, { flush: 'sync' });
      s.$subscribe(function () { b++; }, { flush: 'sync', detached: true });
    });
    s.n = 1; scope.stop(); s.n = 2;
    eq(a, 1); eq(b, 2);
    var c = 0, un = s.$subscribe(function () { c++; }, { flush: 'sync' });
    un(); s.n = 3; eq(c, 0, 'unsubscribe');
  });
  atest('$onAction: order, after, onError, async, unsubscribe', function () {
    fresh();
    var s = defineStore(sid('act'), {
      state: function () { return { n: 0 }; },
      actions: {
        add: function (x) { this.n += x; return this.n; },
        boom: function () { throw new Error('boom'); },
        async later(x) { await Promise.resolve(); return x * 2; },
        async fails() { await Promise.resolve(); throw new Error('nope'); },
        outer: function () { return this.add(1); }
      }
    })();
    var log = [];
    var un = s.$onAction(function (c) {
      log.push('1:' + c.name + ':' + J(c.args));
      ok(c.store === s, 'store');
      c.after(function (r) { log.push('after:' + c.name + ':' + r); });
      c.onError(function (e) { log.push('err:' + c.name + ':' + e.message); });
    });
    s.$onAction(function (c) { log.push('2:' + c.name); });
    eq(s.add(2), 2);
    jeq(log, ['1:add:[2]', '2:add', 'after:add:2']);
    log.length = 0;
    throwsLike(function () { s.boom(); }, /boom/);
    jeq(log, ['1:boom:[]', '2:boom', 'err:boom:boom']);
    log.length = 0;
    s.outer();
    jeq(log, ['1:outer:[]', '2:outer', '1:add:[1]', '2:add', 'after:add:3', 'after:outer:3']);
    log.length = 0;
    return s.later(4).then(function (v) {
      eq(v, 8); jeq(log, ['1:later:[4]', '2:later', 'after:later:8']);
      log.length = 0;
      return s.fails().then(function () { fail('should reject'); }, function (e) { eq(e.message, 'nope'); });
    }).then(function () {
      jeq(log, ['1:fails:[]', '2:fails', 'err:fails:nope']);
      un(); log.length = 0; s.add(1); jeq(log, ['2:add']);
    });
  });
  test('plugins: context, returned properties, registration order', function () {
    var p = fresh(), order = [];
    p.use(function (ctx) { order.push('a'); ok(ctx.pinia === p && ctx.store && ctx.options, 'context'); return { hello: ref('hi'), plain: 1 }; });
    p.use(function () { order.push('b'); });
    var s = defineStore(sid('plug'), { state: function () { return {}; }, actions: { x: function () {} } })();
    jeq(order, ['a', 'b']); eq(s.hello, 'hi'); eq(s.plain, 1);
  });
  test('plugin adding state the documented Pinia way stays in the op log', function () {
    var p = fresh();
    p.use(function (ctx) {
      var store = ctx.store;
      if (!Object.prototype.hasOwnProperty.call(store.$state, 'hasError')) store.$state.hasError = ref(false);
      return { hasError: toRef(store.$state, 'hasError') };
    });
    var s = defineStore(sid('plugstate'), { state: function () { return { n: 0 }; } })();
    var copy = jcopy(s.$state);
    s.$subscribe(function (m) { applyOps(copy, m[OPS]); }, { flush: 'sync' });
    eq(s.hasError, false);
    s.hasError = true;
    jeq(copy, { n: 0, hasError: true });
  });
  test('MutationType, acceptHMRUpdate, map helpers', function () {
    jeq(MutationType, { direct: 'direct', patchObject: 'patch object', patchFunction: 'patch function' });
    eq(typeof acceptHMRUpdate(function () {}, {}), 'function');
    var p = fresh(), id = sid('map');
    var useS = defineStore(id, { state: function () { return { n: 1 }; }, actions: { inc: function () { this.n++; } } });
    var comp = { $pinia: p };
    var stores = P.mapStores(useS), st = P.mapState(useS, ['n']), ac = P.mapActions(useS, { bump: 'inc' });
    ac.bump.call(comp); eq(st.n.call(comp), 2); ok(stores[id + 'Store'].call(comp) === useS());
  });
  test('pinia.state.value[id] replaced: the store follows, ops say so', function () {
    var p = fresh(), id = sid('repl');
    var s = defineStore(id, { state: function () { return { a: 1 }; }, getters: { g: function (st) { return st.a; } } })();
    var copy = jcopy(s.$state);
    s.$subscribe(function (m) { applyOps(copy, m[OPS]); }, { flush: 'sync' });
    eq(s.g, 1);
    p.state.value[id] = { a: 2, b: 3 };
    eq(s.a, 2); eq(s.g, 2); jeq(copy, { a: 2, b: 3 });
    s.a = 4; jeq(copy, { a: 4, b: 3 });
  });

  // ---------------------------------------------------------------- operation log
  function opsOf(store, fn) {
    var got = [];
    var un = store.$subscribe(function (m) { got = got.concat(m[OPS]); }, { flush: 'sync' });
    fn(); un();
    return got;
  }
  test('ops: symbol-keyed (invisible to keys and JSON), exact shapes', function () {
    fresh();
    var s = defineStore(sid('ops'), { state: function () { return { items: [{ id: 1, qty: 1 }], filters: { color: 'red' }, n: 0 }; } })();
    var m0 = null;
    var un = s.$subscribe(function (m) { m0 = m; }, { flush: 'sync' });
    s.n = 1; un();
    ok(Array.isArray(m0[OPS]) && Object.keys(m0).indexOf(String(OPS)) === -1 && JSON.stringify(m0).indexOf('statehub') === -1, 'invisible to keys and JSON');
    jeq(J(m0).indexOf('statehub') === -1, true);
    jeq(opsOf(s, function () { s.items[0].qty = 2; }), [{ op: 'set', path: ['items', 0, 'qty'], value: 2 }]);
    jeq(opsOf(s, function () { delete s.filters.color; }), [{ op: 'delete', path: ['filters', 'color'] }]);
    jeq(opsOf(s, function () { s.items.push({ id: 2, qty: 1 }, { id: 3, qty: 1 }); }),
      [{ op: 'splice', path: ['items'], index: 1, deleteCount: 0, items: [{ id: 2, qty: 1 }, { id: 3, qty: 1 }] }]);
    jeq(opsOf(s, function () { s.items.splice(1, 2); }), [{ op: 'splice', path: ['items'], index: 1, deleteCount: 2, items: [] }]);
    jeq(opsOf(s, function () { s.items.pop(); s.items.unshift(7); s.items.shift(); }), [
      { op: 'splice', path: ['items'], index: 0, deleteCount: 1, items: [] },
      { op: 'splice', path: ['items'], index: 0, deleteCount: 0, items: [7] },
      { op: 'splice', path: ['items'], index: 0, deleteCount: 1, items: [] }]);
    s.items = [3, 1, 2];
    jeq(opsOf(s, function () { s.items.sort(); }), [{ op: 'set', path: ['items'], value: [1, 2, 3] }]);
    jeq(opsOf(s, function () { s.items.length = 1; }), [{ op: 'splice', path: ['items'], index: 1, deleteCount: 2, items: [] }]);
    jeq(opsOf(s, function () { s.items[3] = 9; }), [{ op: 'splice', path: ['items'], index: 1, deleteCount: 0, items: [null, null, 9] }]);
    jeq(opsOf(s, function () { s.items.length = 5; }), [{ op: 'splice', path: ['items'], index: 4, deleteCount: 0, items: [null] }]);
  });
  test('ops: values are snapshots; non-JSON values cloned raw', function () {
    fresh();
    var s = defineStore(sid('snap'), { state: function () { return { o: null, d: null }; } })();
    var obj = { x: 1 };
    var ops = opsOf(s, function () { s.o = obj; });
    s.o.x = 2;
    eq(ops[0].value.x, 1, 'later writes do not alter a recorded op');
    ok(ops[0].value !== obj && !isReactive(ops[0].value), 'clone, not proxy');
    var date = new Date(5);
    ops = opsOf(s, function () { s.d = date; });
    ok(ops[0].value instanceof Date && ops[0].value !== date && ops[0].value.getTime() === 5, 'Date cloned');
    ops = opsOf(s, function () { s.$state.u = undefined; });
    ok('value' in ops[0] && ops[0].value === undefined, 'undefined kept');
  });
  test('ops: aliasing emits every path', function () {
    fresh();
    var s = defineStore(sid('alias'), { state: function () { return { a: { q: 1 }, list: [] }; } })();
    s.b = 1;
    var copy = jcopy(s.$state);
    s.$subscribe(function (m) { applyOps(copy, m[OPS]); }, { flush: 'sync' });
    s.$state.b = s.$state.a;
    s.list.push(s.a, s.a);
    s.a.q = 2;
    jeq(copy, s.$state);
    s.list.reverse(); s.list[0].q = 3; jeq(copy, s.$state);
    var ops = opsOf(s, function () { s.a.q = 4; });
    eq(ops.length, 4, 'a, b, list[0], list[1]');
  });
  test('ops stay in order when a sync watcher writes; subscribers see fresh getters', function () {
    fresh();
    var s = defineStore(sid('order'), {
      state: function () { return { items: [{ q: 0 }] }; },
      getters: { total: function (st) { return st.items.reduce(function (a, i) { return a + i.q; }, 0); } }
    })();
    var copy = jcopy(s.$state), totals = [];
    s.$subscribe(function (m) { applyOps(copy, m[OPS]); totals.push(s.total); }, { flush: 'sync' });
    watch(function () { return s.items[0] && s.items[0].q; }, function (v) { if (v === 1) s.items = [{ q: 5 }]; }, { flush: 'sync' });
    s.items[0].q = 1;
    jeq(copy, s.$state); jeq(totals, [5, 5]);
  });
  test('applyOps on a reactive target goes through the proxy', function () {
    fresh();
    var s = defineStore(sid('apply'), { state: function () { return { list: [1], o: { k: 1 } }; } })();
    var seen = [];
    s.$subscribe(function (m) { seen = seen.concat(m[OPS]); }, { flush: 'sync' });
    s.$patch(function (st) {
      applyOps(st, [{ op: 'splice', path: ['list'], index: 1, deleteCount: 0, items: [2] }, { op: 'delete', path: ['o', 'k'] }, { op: 'set', path: ['o', 'z'], value: { y: 1 } }]);
    });
    jeq(s.$state, { list: [1, 2], o: { z: { y: 1 } } });
    eq(seen.length, 3);
  });

  // randomized invariant: applying ops to a JSON copy reproduces the JSON state
  var seed = 20251122;
  function rnd() { seed = (seed + 0x6D2B79F5) | 0; var t = Math.imul(seed ^ (seed >>> 15), 1 | seed); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }
  function ri(n) { return Math.floor(rnd() * n); }
  function pick(a) { return a[ri(a.length)]; }
  var KEYS = ['a', 'b', 'c', 'x', '1'];
  function rval(depth) {
    depth = depth || 0;
    var r = rnd(), i, n;
    if (depth > 2 || r < 0.5) return pick([0, 1, 'x', true, null, ri(100)]);
    if (r < 0.75) { var o = {}; n = ri(4); for (i = 0; i < n; i++) o[pick(KEYS)] = rval(depth + 1); return o; }
    var a = []; n = ri(4); for (i = 0; i < n; i++) a.push(rval(depth + 1)); return a;
  }
  function containers(v, path, out) {
    if (v === null || typeof v !== 'object') return;
    out.push(path);
    if (Array.isArray(v)) v.forEach(function (x, i) { containers(x, path.concat(i), out); });
    else Object.keys(v).forEach(function (k) { containers(v[k], path.concat(k), out); });
  }
  function at(root, path) { var c = root; for (var i = 0; i < path.length; i++) c = c[path[i]]; return c; }
  function inside(hay, needle) {
    if (hay === needle) return true;
    if (hay === null || typeof hay !== 'object') return false;
    return Object.keys(hay).some(function (k) { return inside(hay[k], needle); });
  }
  function mutate(st) {
    var paths = []; containers(toRaw(st), [], paths);
    var path = pick(paths), c = at(st, path), len, val = rval();
    if (rnd() < 0.15 && paths.length > 1) {
      var src = pick(paths.slice(1));
      if (!inside(toRaw(at(st, src)), toRaw(c))) val = at(st, src);
    }
    if (Array.isArray(c)) {
      len = c.length;
      switch (ri(12)) {
        case 0: c.push(val); break;
        case 1: c.pop(); break;
        case 2: c.shift(); break;
        case 3: c.unshift(val); break;
        case 4: c.splice(ri(len + 1), ri(3), val); break;
        case 5: c.sort(function (x, y) { return J(x) < J(y) ? -1 : J(x) > J(y) ? 1 : 0; }); break;
        case 6: c.reverse(); break;
        case 7: c.length = ri(len + 3); break;
        case 8: c[ri(len + 3)] = val; break;
        case 9: if (len) c.fill(val, ri(len)); break;
        case 10: if (len) c.copyWithin(0, ri(len)); break;
        default: if (len) delete c[ri(len)];
      }
    } else {
      var keys = Object.keys(c);
      if (keys.length && rnd() < 0.25) delete c[pick(keys)];
      else c[pick(KEYS)] = val;
    }
  }
  function canon(v) {
    if (Array.isArray(v)) return v.map(canon);
    if (v && typeof v === 'object') { var o = {}; Object.keys(v).sort().forEach(function (k) { o[k] = canon(v[k]); }); return o; }
    return v;
  }
  function same(a, b) { return J(canon(jcopy(a))) === J(canon(jcopy(b))); }
  atest('randomized: ops reproduce state for sync and batched subscribers (300 sequences)', function () {
    var n = 0, errors = [];
    function one() {
      fresh();
      var isSetup = rnd() < 0.3;
      var init = function () { return { items: [{ id: 1, q: [1, 2] }], obj: { a: { b: 1 } }, n: 0 }; };
      var useS = isSetup
        ? defineStore(sid('rs'), function () { var s = init(); return { items: ref(s.items), obj: reactive(s.obj), n: ref(s.n) }; })
        : defineStore(sid('ro'), { state: init });
      var s = useS();
      var syncCopy = jcopy(s.$state), batchCopy = jcopy(s.$state);
      s.$subscribe(function (m, st) {
        applyOps(syncCopy, m[OPS]);
        if (!same(syncCopy, st)) errors.push('sync ' + m.type + ' ' + J(m[OPS]));
      }, { flush: 'sync' });
      s.$subscribe(function (m, st) {
        applyOps(batchCopy, m[OPS]);
        if (!same(batchCopy, st)) errors.push('batched ' + m.type);
      });
      var steps = 5 + ri(20), chain = Promise.resolve();
      for (var i = 0; i < steps; i++) {
        chain = chain.then(function () {
          var r = rnd();
          if (r < 0.65) mutate(s.$state);
          else if (r < 0.75) s.$patch({ obj: { a: rval() }, x: rval() });
          else if (r < 0.85) s.$patch(function (st) { mutate(st); mutate(st); });
          else if (r < 0.9) s.$state = { n: ri(9), items: [rval()] };
          else return tick();
        });
      }
      return chain.then(tick).then(function () {
        s.n = -1; s.n = -2;
        return tick();
      }).then(function () {
        if (!same(batchCopy, s.$state)) errors.push('batched at end');
        if (errors.length) fail(errors[0]);
      });
    }
    function loop() {
      if (n++ >= 300) return undefined;
      return one().then(loop);
    }
    return loop();
  });

  // ---------------------------------------------------------------- runner
  function summary() { return 'runtime selftest: ' + passed + ' passed, ' + failed + ' failed'; }
  function record(name, e) {
    failed++;
    var msg = name + ': ' + (e && e.message ? e.message : String(e));
    failures.push(msg);
    out('FAIL ' + msg);
  }
  function finish() {
    result.passed = passed; result.failed = failed; result.done = true;
    out(summary());
    if (failed) throw new Error(summary());
  }
  for (var i = 0; i < syncTests.length; i++) {
    try { syncTests[i][1](); passed++; } catch (e) { record(syncTests[i][0], e); }
  }
  if (failed) { finish(); }
  var chain = Promise.resolve();
  asyncTests.forEach(function (t) {
    chain = chain.then(function () { return t[1](); }).then(function () { passed++; }, function (e) { record(t[0], e); });
  });
  return chain.then(finish);
})(typeof globalThis !== 'undefined' ? globalThis : this);
