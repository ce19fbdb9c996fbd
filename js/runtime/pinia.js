/*
 * StateHub Pinia: a Pinia-compatible store runtime written for StateHub, on top of
 * js/runtime/reactivity.js (load that first).
 *
 * Classic script (IIFE), no modules. Publishes globalThis.StateHubPinia and puts Pinia's
 * names (createPinia, defineStore, ...) on globalThis.
 *
 * Every mutation object given to a $subscribe callback carries, under the symbol
 * key Symbol.for('statehub.ops'), the exact operations that changed the store's state since
 * that subscriber's previous notification. See js/README.md for the format.
 */
(function (global) {
  'use strict';

  var R = global.StateHubReactivity;
  if (!R) throw new Error('StateHub: load js/runtime/reactivity.js before js/runtime/pinia.js');
  var I = R._internal;
  var ref = R.ref, reactive = R.reactive, toRaw = R.toRaw, isRef = R.isRef, isReactive = R.isReactive,
      computed = R.computed, isComputed = R.isComputed, effectScope = R.effectScope,
      markRaw = R.markRaw, toRef = R.toRef, nextTick = R.nextTick;
  var hasOwnProperty = Object.prototype.hasOwnProperty;
  var objToString = Object.prototype.toString;
  function hasOwn(o, k) { return hasOwnProperty.call(o, k); }
  function isObject(v) { return v !== null && typeof v === 'object'; }
  // "__proto__" is an ordinary key in state: define it, never assign it (that would set the prototype).
  function defineOwn(obj, key, value) {
    if (key === '__proto__') Object.defineProperty(obj, key, { value: value, enumerable: true, writable: true, configurable: true });
    else obj[key] = value;
  }
  function isPlainObject(o) {
    return isObject(o) && objToString.call(o) === '[object Object]' && typeof o.toJSON !== 'function';
  }

  var OPS = Symbol.for('statehub.ops');
  var MutationType = Object.freeze({ direct: 'direct', patchObject: 'patch object', patchFunction: 'patch function' });
  var piniaSymbol = Symbol('pinia');
  var skipHydrateSet = new WeakSet();

  var activePinia = null;
  function setActivePinia(p) { activePinia = p; return p; }
  function getActivePinia() { return activePinia === null ? undefined : activePinia; }

  var records = new WeakMap();   // store object -> internal record

  // ---------------------------------------------------------------------------
  // operation log dispatch
  // ---------------------------------------------------------------------------

  function makeMutation(type, storeId, events, payload, ops) {
    var m = { type: type, storeId: storeId, events: events };
    if (type === MutationType.patchObject) m.payload = payload;
    m[OPS] = ops;
    return m;
  }

  function callSub(S, sub, m) {
    try { sub.cb(m, S.proxy); } catch (e) { I.reportError(e); }
  }

  // ops: the operations of one write (several when the written object is reachable at
  // several paths of this store's state).
  // Writes no proxy can see (a markRaw object, a Date changed in place) are caught up as ops
  // before the next reported write, at the end of every action and of every $patch: no later
  // than real Pinia's plugin, which diffs at those moments. (Cost: one fingerprint per such
  // value per reported write; a Date's is its time.)
  function recordOp(S, ops) {
    if (S.disposed) return;
    I.catchUpUnobservable();
    var i, j;
    if (S.patching > 0) { for (i = 0; i < ops.length; i++) S.patchOps.push(ops[i]); return; }
    var b = S.batchSubs;
    if (b.length !== 0) {
      for (i = 0; i < b.length; i++) { var so = b[i].ops; for (j = 0; j < ops.length; j++) so.push(ops[j]); }
      if (S.listening && !S.flushQueued) { S.flushQueued = true; I.queueJob(S.flushJob); }
    }
    if (S.syncSubs.length !== 0) dispatch(S, 0, ops, null);
  }

  // Deliveries to sync subscribers (and patch notifications) go through a per-store queue so
  // that every subscriber sees operations in the order they happened, even when a callback
  // writes to the store.
  // While a write is in progress (its effects still running), deliveries wait in the queue
  // and are released when the write is done.
  var W = I.W, held = [], releasing = false;
  function dispatch(S, kind, ops, payload) {
    if (S.dispatching) { S.dq.push(kind, ops, payload); return; }
    if (W.depth > 0) {
      S.dq.push(kind, ops, payload);
      if (!S.held) { S.held = true; held.push(S); }
      return;
    }
    drain(S, kind, ops, payload);
  }
  function drain(S, kind, ops, payload) {
    S.dispatching = true;   // deliver() never throws: callbacks are guarded in callSub
    if (kind !== -1) deliver(S, kind, ops, payload);
    for (var i = 0; i < S.dq.length; i += 3) deliver(S, S.dq[i], S.dq[i + 1], S.dq[i + 2]);
    if (S.dq.length !== 0) S.dq.length = 0;
    S.dispatching = false;
  }
  I.setReleaseHook(function () {
    if (releasing || held.length === 0) return;
    releasing = true;
    try {
      for (var i = 0; i < held.length; i++) {
        var S = held[i];
        S.held = false;
        if (!S.dispatching && S.dq.length !== 0) drain(S, -1);
      }
    } finally {
      held.length = 0;
      releasing = false;
    }
  });
  function deliver(S, kind, ops, payload) {
    var i, sub, subs;
    if (kind === 0) {   // a direct write, sync subscribers only
      subs = S.syncSubs;
      var m = makeMutation(MutationType.direct, S.id, ops.length === 1 ? ops[0] : ops, undefined, ops);
      for (i = 0; i < subs.length; i++) { sub = subs[i]; if (sub.active) callSub(S, sub, m); }
      return;
    }
    var type = kind === 1 ? MutationType.patchObject : MutationType.patchFunction;
    subs = S.subs;
    for (i = 0; i < subs.length; i++) {
      sub = subs[i];
      if (!sub.active) continue;
      var subOps = ops;
      if (!sub.sync) { subOps = sub.ops; sub.ops = []; }
      callSub(S, sub, makeMutation(type, S.id, subOps, payload, subOps));
    }
  }
  function makeFlushJob(S) {
    return function () {
      S.flushQueued = false;
      if (!S.listening || S.disposed) return;   // absorbed by a $patch of this tick
      var subs = S.batchSubs;
      for (var i = 0; i < subs.length; i++) {
        var sub = subs[i];
        if (!sub.active || sub.ops.length === 0) continue;
        var ops = sub.ops; sub.ops = [];
        callSub(S, sub, makeMutation(MutationType.direct, S.id, ops, undefined, ops));
      }
    };
  }

  I.setOpHook(recordOp);

  // ---------------------------------------------------------------------------
  // $patch helpers
  // ---------------------------------------------------------------------------

  function mergeReactiveObjects(target, patch) {
    for (var key in patch) {
      if (!hasOwn(patch, key)) continue;
      var sub = patch[key];
      var tv = hasOwn(target, key) ? target[key] : undefined;
      if (isPlainObject(tv) && isPlainObject(sub) && hasOwn(target, key) && !isRef(sub) && !isReactive(sub)) {
        mergeReactiveObjects(tv, sub);
      } else {
        defineOwn(target, key, sub);
      }
    }
    return target;
  }

  function runPatch(S, kind, fn) {
    S.patching++;
    var outer = S.patching === 1;
    try { fn(); if (outer) I.catchUpUnobservable(); }
    finally {
      S.patching--;
      if (outer) finishPatch(S, kind);
    }
  }
  function finishPatch(S, kind) {
    var ops = S.patchOps;
    S.patchOps = [];
    var b = S.batchSubs;
    for (var i = 0; i < b.length; i++) { var so = b[i].ops; for (var j = 0; j < ops.length; j++) so.push(ops[j]); }
    S.listening = false;
    var gen = ++S.patchGen;
    nextTick().then(function () { if (S.patchGen === gen) S.listening = true; });
    dispatch(S, kind, ops, S.patchPayload);
    S.patchPayload = undefined;
  }

  // ---------------------------------------------------------------------------
  // the pinia object
  // ---------------------------------------------------------------------------

  function createPinia() {
    var scope = effectScope(true);
    var hubRaw = {};
    var hub = reactive(hubRaw);
    var plugins = [];
    var pinia;
    // pinia.state: a ref-like object; pinia.state.value is the reactive map id -> state.
    // Replacing a live store's entry (pinia.state.value[id] = x) rebinds that store.
    var hubView = new Proxy(hubRaw, {
      get: function (t, k) { return hub[k]; },
      has: function (t, k) { return k in hub; },
      ownKeys: function () { return Reflect.ownKeys(hub); },
      getOwnPropertyDescriptor: function (t, k) { return Reflect.getOwnPropertyDescriptor(hubRaw, k); },
      set: function (t, k, v) {
        var store = pinia._s.get(k);
        if (store !== undefined) replaceRoot(records.get(store), v);
        else hub[k] = v;
        return true;
      },
      deleteProperty: function (t, k) { if (!pinia._s.has(k)) delete hub[k]; return true; }
    });
    var stateRef = {
      __v_isRef: true,
      get value() { return hubView; },
      set value(v) {
        v = toRaw(v) || {};
        Object.keys(hubRaw).forEach(function (k) { if (!hasOwn(v, k) && !pinia._s.has(k)) delete hub[k]; });
        Object.keys(v).forEach(function (k) { hubView[k] = v[k]; });
      }
    };
    pinia = markRaw({
      install: function (app) {
        setActivePinia(pinia);
        pinia._a = app;
        if (app) {
          if (typeof app.provide === 'function') app.provide(piniaSymbol, pinia);
          if (app.config && app.config.globalProperties) app.config.globalProperties.$pinia = pinia;
        }
        return pinia;
      },
      use: function (plugin) {
        plugins.push(plugin);
        // applied at once, to the stores that already exist as well (see README)
        pinia._s.forEach(function (store) { applyPlugin(records.get(store), plugin); });
        return pinia;
      },
      _p: plugins,
      _a: null,
      _e: scope,
      _s: new Map(),
      _h: hubRaw,
      state: stateRef
    });
    return pinia;
  }

  function disposePinia(pinia) {
    pinia._s.forEach(function (store) { store.$dispose(); });
    pinia._e.stop();
    pinia._s.clear();
    pinia._p.splice(0);
    var hub = reactive(pinia._h);
    Object.keys(pinia._h).forEach(function (k) { delete hub[k]; });
    pinia._a = null;
    if (activePinia === pinia) activePinia = null;
  }

  function applyPlugin(S, plugin) {
    var pinia = S.pinia;
    var ext = S.scope.run(function () {
      return pinia._e.run(function () {
        return plugin({ store: S.store, app: pinia._a, pinia: pinia, options: S.pluginOptions });
      });
    });
    if (ext && typeof ext === 'object') {
      Object.keys(ext).forEach(function (k) {
        var v = ext[k];
        if (isRef(v) && !(k in S.store)) {
          Object.defineProperty(S.store, k, {
            get: function () { return v.value; }, set: function (nv) { v.value = nv; },
            enumerable: true, configurable: true
          });
          S.refKeys.push(k);
        } else {
          S.store[k] = v;
        }
      });
    }
  }

  // A live store's state object replaced as a whole (pinia.state.value[id] = x).
  function replaceRoot(S, value) {
    var raw = toRaw(value);
    if (!isObject(raw)) throw new TypeError('StateHub Pinia: the state of store "' + S.id + '" must be an object');
    if (raw === S.root) return;
    var old = S.root;
    I.unmarkStateRoot(old);
    reactive(S.pinia._h)[S.id] = raw;
    S.root = raw;
    S.proxy = reactive(raw);
    for (var i = 0; i < S.boundRefs.length; i++) S.boundRefs[i]._b = S.proxy;
    I.markStateRoot(raw, S);
    I.trigger(old, 3);
    recordOp(S, [{ op: 'set', path: [], value: I.snapshot(raw) }]);
  }

  // ---------------------------------------------------------------------------
  // stores
  // ---------------------------------------------------------------------------

  function noActivePinia(id) {
    return new Error('[StateHub Pinia]: store "' + id + '" was used but there is no active Pinia. ' +
      'Call setActivePinia(createPinia()) (or app.use(pinia)) before calling useStore(), ' +
      'or pass a pinia: useStore(pinia).');
  }

  function wrapAction(S, name, fn) {
    var wrapped = function () {
      setActivePinia(S.pinia);
      var args = Array.prototype.slice.call(arguments);
      var ctx = (this != null && this.$id === S.id) ? this : S.store;
      var afterList = null, errorList = null;
      var listeners = S.actionSubs;
      if (listeners.length !== 0) {
        afterList = []; errorList = [];
        var after = function (cb) { afterList.push(cb); };
        var onError = function (cb) { errorList.push(cb); };
        for (var i = 0; i < listeners.length; i++) {
          if (listeners[i].active) listeners[i].cb({ args: args, name: name, store: S.store, after: after, onError: onError });
        }
      }
      var ret;
      try { ret = fn.apply(ctx, args); }
      catch (e) {
        I.catchUpUnobservable();
        if (errorList !== null) for (var j = 0; j < errorList.length; j++) errorList[j](e);
        throw e;
      }
      I.catchUpUnobservable();
      if (ret instanceof Promise) ret.then(I.catchUpUnobservable, I.catchUpUnobservable);
      if (afterList === null) return ret;
      if (ret instanceof Promise) {
        return ret.then(function (v) {
          for (var k = 0; k < afterList.length; k++) afterList[k](v);
          return v;
        }).catch(function (e) {
          for (var k = 0; k < errorList.length; k++) errorList[k](e);
          return Promise.reject(e);
        });
      }
      for (var k = 0; k < afterList.length; k++) afterList[k](ret);
      return ret;
    };
    wrapped._actionName = name;
    return wrapped;
  }

  function whenScopeStops(unsubscribe, detached) {
    if (!detached && R.getCurrentScope()) R.onScopeDispose(unsubscribe);
    return unsubscribe;
  }

  function createStore(id, setupOrOptions, isSetup, pinia) {
    var hubRaw = pinia._h, hub = reactive(hubRaw);
    var S = {
      wantsOps: false, id: id, pinia: pinia, store: null, root: null, proxy: null, isSetup: isSetup,
      subs: [], syncSubs: [], batchSubs: [], actionSubs: [],
      patching: 0, patchOps: [], patchPayload: undefined, listening: true, patchGen: 0,
      flushQueued: false, flushJob: null, dispatching: false, held: false, dq: [], disposed: false,
      scope: null, boundRefs: [], stateKeys: [], getterKeys: [], refKeys: [], pluginOptions: null
    };
    S.flushJob = makeFlushJob(S);
    S.scope = pinia._e.run(function () { return effectScope(); });

    var store = {};
    S.store = store;
    records.set(store, S);

    function stateAccessor(key) {
      if (hasOwn(store, key)) return;
      S.stateKeys.push(key);
      Object.defineProperty(store, key, {
        get: function () { return S.proxy[key]; },
        set: function (v) { S.proxy[key] = v; },
        enumerable: true, configurable: true
      });
    }
    function getterAccessor(key, c) {
      S.getterKeys.push(key);
      Object.defineProperty(store, key, {
        get: function () { return c.value; },
        set: function (v) { c.value = v; },
        enumerable: true, configurable: true
      });
    }

    // the $ API
    store._p = pinia;
    store.$id = id;
    Object.defineProperty(store, '$state', {
      get: function () { return S.proxy; },
      set: function (v) { store.$patch(function ($state) { Object.assign($state, v); }); },
      enumerable: false, configurable: true
    });
    store.$patch = function (arg) {
      if (typeof arg === 'function') runPatch(S, 2, function () { arg(S.proxy); });
      else {
        if (S.patching === 0) S.patchPayload = arg;
        runPatch(S, 1, function () { mergeReactiveObjects(S.proxy, arg); });
      }
    };
    store.$reset = isSetup
      ? function () {
          throw new Error('[StateHub Pinia]: store "' + id + '" is built using the setup syntax and does not implement $reset().');
        }
      : function () {
          var fresh = setupOrOptions.state ? setupOrOptions.state() : {};
          store.$patch(function ($state) { Object.assign($state, fresh); });
        };
    store.$subscribe = function (cb, options) {
      if (typeof options === 'boolean') options = { detached: options };
      options = options || {};
      var sync = options.flush === 'sync';
      var sub = { cb: cb, sync: sync, ops: [], active: true };
      S.subs = S.subs.concat([sub]);
      S.wantsOps = true;
      if (sync) S.syncSubs = S.syncSubs.concat([sub]); else S.batchSubs = S.batchSubs.concat([sub]);
      return whenScopeStops(function () {
        if (!sub.active) return;
        sub.active = false;
        var rm = function (x) { return x !== sub; };
        S.subs = S.subs.filter(rm);
        S.wantsOps = S.subs.length !== 0;
        if (sync) S.syncSubs = S.syncSubs.filter(rm); else S.batchSubs = S.batchSubs.filter(rm);
      }, options.detached);
    };
    store.$onAction = function (cb, detached) {
      var sub = { cb: cb, active: true };
      S.actionSubs = S.actionSubs.concat([sub]);
      return whenScopeStops(function () {
        sub.active = false;
        S.actionSubs = S.actionSubs.filter(function (x) { return x !== sub; });
      }, detached);
    };
    store.$dispose = function () {
      if (S.disposed) return;
      S.disposed = true;
      S.scope.stop();
      S.subs.forEach(function (s) { s.active = false; });
      S.actionSubs.forEach(function (s) { s.active = false; });
      S.subs = []; S.syncSubs = []; S.batchSubs = []; S.actionSubs = [];
      S.wantsOps = false;
      I.unmarkStateRoot(S.root);
      if (pinia._s.get(id) === store) pinia._s.delete(id);
    };
    ['_p', '$id', '$patch', '$reset', '$subscribe', '$onAction', '$dispose'].forEach(function (k) {
      Object.defineProperty(store, k, { enumerable: false });
    });

    var initial = hasOwn(hubRaw, id) ? toRaw(hubRaw[id]) : undefined;

    if (!isSetup) {
      var options = setupOrOptions;
      var hydrating = initial !== undefined;
      if (!hydrating) {
        hub[id] = options.state ? options.state() : {};
        initial = toRaw(hubRaw[id]);
      }
      S.root = initial;
      S.proxy = reactive(initial);
      Object.keys(initial).forEach(stateAccessor);
      var getters = options.getters || {};
      S.scope.run(function () {
        Object.keys(getters).forEach(function (name) {
          var g = getters[name];
          var c = markRaw(computed(function () { setActivePinia(pinia); return g.call(store, store); }));
          getterAccessor(name, c);
        });
      });
      var actions = options.actions || {};
      Object.keys(actions).forEach(function (name) {
        var w = wrapAction(S, name, actions[name]);
        Object.defineProperty(store, name, { value: w, writable: true, configurable: true, enumerable: true });
      });
      S.pluginOptions = options;
      I.markStateRoot(S.root, S);
      if (hydrating && typeof options.hydrate === 'function') options.hydrate(S.proxy, S.proxy);
    } else {
      var raw = initial !== undefined ? initial : {};
      if (initial === undefined) hub[id] = raw;
      S.root = raw;
      S.proxy = reactive(raw);
      var pluginOptions = Object.assign({ actions: {} }, setupOrOptions.options || {});
      var helper = {
        action: function (fn, name) { return wrapAction(S, name || fn.name || 'action', fn); }
      };
      var result = S.scope.run(function () { return pinia._e.run(function () { return setupOrOptions.setup(helper); }); }) || {};
      Object.keys(result).forEach(function (key) {
        var prop = result[key];
        if ((isRef(prop) && !isComputed(prop)) || isReactive(prop)) {
          var hydrate = initial !== undefined && hasOwn(raw, key) && !skipHydrateSet.has(toRaw(prop)) && !skipHydrateSet.has(prop);
          if (prop instanceof I.RefImpl) {
            if (!hydrate) defineOwn(raw, key, prop._rawValue);
            else if (isObject(raw[key])) raw[key] = toRaw(raw[key]);
            I.bindRef(prop, S.proxy, key);
            S.boundRefs.push(prop);
          } else if (isReactive(prop)) {
            if (hydrate && isPlainObject(raw[key])) mergeReactiveObjects(prop, raw[key]);
            defineOwn(raw, key, toRaw(prop));
          } else {
            if (hydrate) prop.value = raw[key];
            defineOwn(raw, key, prop);    // other refs (toRef, customRef) are kept as refs, unwrapped on read
          }
          stateAccessor(key);
        } else if (isComputed(prop)) {
          getterAccessor(key, prop);
        } else if (typeof prop === 'function') {
          var w = prop._actionName !== undefined ? prop : wrapAction(S, key, prop);
          pluginOptions.actions[key] = prop;
          Object.defineProperty(store, key, { value: w, writable: true, configurable: true, enumerable: true });
        } else {
          store[key] = prop;
        }
      });
      S.pluginOptions = pluginOptions;
      I.markStateRoot(S.root, S);
    }

    pinia._s.set(id, store);
    pinia._p.forEach(function (plugin) { applyPlugin(S, plugin); });
    return store;
  }

  function defineStore(idOrOptions, setup, setupOptions) {
    var id, options, isSetup = typeof setup === 'function';
    if (typeof idOrOptions === 'string') {
      id = idOrOptions;
      options = isSetup ? { setup: setup, options: setupOptions } : (setup || {});
    } else {
      options = idOrOptions || {};
      id = options.id;
      if (typeof options.setup === 'function') { isSetup = true; options = { setup: options.setup, options: options }; }
    }
    if (typeof id !== 'string') throw new TypeError('[StateHub Pinia]: defineStore() needs a string id');
    function useStore(pinia) {
      pinia = pinia || activePinia;
      if (!pinia) throw noActivePinia(id);
      setActivePinia(pinia);
      var existing = pinia._s.get(id);
      if (existing !== undefined) return existing;
      return createStore(id, options, isSetup, pinia);
    }
    useStore.$id = id;
    return useStore;
  }

  function storeToRefs(store) {
    var S = records.get(toRaw(store));
    var refs = {};
    if (!S) {   // not one of ours: best effort
      Object.keys(store).forEach(function (k) { var v = store[k]; if (isRef(v) || isReactive(v)) refs[k] = toRef(store, k); });
      return refs;
    }
    S.stateKeys.concat(S.getterKeys, S.refKeys).forEach(function (k) { refs[k] = toRef(store, k); });
    // state keys added after creation (via $patch or $state) are reachable as refs too
    Object.keys(S.root).forEach(function (k) { if (!hasOwn(refs, k)) refs[k] = toRef(S.proxy, k); });
    return refs;
  }

  function skipHydrate(obj) {
    if (isObject(obj)) { skipHydrateSet.add(obj); skipHydrateSet.add(toRaw(obj)); }
    return obj;
  }

  // HMR does not exist in the engine: accepted and ignored.
  function acceptHMRUpdate(initialUseStore, hot) {
    return function () {};
  }

  // Options-API helpers (simple versions). `this` is expected to carry $pinia, as a Vue
  // component would; otherwise the active pinia is used.
  var mapStoreSuffix = 'Store';
  function setMapStoreSuffix(s) { mapStoreSuffix = s; }
  function piniaOf(ctx) { return ctx && ctx.$pinia ? ctx.$pinia : undefined; }
  function mapStores() {
    var out = {};
    Array.prototype.slice.call(arguments).forEach(function (useStore) {
      out[useStore.$id + mapStoreSuffix] = function () { return useStore(piniaOf(this)); };
    });
    return out;
  }
  function eachKey(keysOrMapper, fn) {
    if (Array.isArray(keysOrMapper)) keysOrMapper.forEach(function (k) { fn(k, k); });
    else Object.keys(keysOrMapper).forEach(function (k) { fn(k, keysOrMapper[k]); });
  }
  function mapState(useStore, keysOrMapper) {
    var out = {};
    eachKey(keysOrMapper, function (name, src) {
      out[name] = function () {
        var store = useStore(piniaOf(this));
        return typeof src === 'function' ? src.call(this, store) : store[src];
      };
    });
    return out;
  }
  function mapWritableState(useStore, keysOrMapper) {
    var out = {};
    eachKey(keysOrMapper, function (name, src) {
      out[name] = {
        get: function () { return useStore(piniaOf(this))[src]; },
        set: function (v) { useStore(piniaOf(this))[src] = v; }
      };
    });
    return out;
  }
  function mapActions(useStore, keysOrMapper) {
    var out = {};
    eachKey(keysOrMapper, function (name, src) {
      out[name] = function () { var s = useStore(piniaOf(this)); return s[src].apply(s, arguments); };
    });
    return out;
  }

  // Apply operations (as found under Symbol.for('statehub.ops')) to a plain object or to a
  // reactive one (then writes go through the proxy and are observed). Values are cloned.
  function applyOps(target, ops) {
    var clone = I.snapshot;
    for (var i = 0; i < ops.length; i++) {
      var op = ops[i], path = op.path, n = path.length;
      if (n === 0) {
        if (op.op !== 'set') throw new Error('applyOps: "' + op.op + '" needs a non-empty path');
        var v = clone(op.value);
        Object.keys(target).forEach(function (k) { delete target[k]; });   // key order follows the new state
        Object.keys(v).forEach(function (k) { defineOwn(target, k, v[k]); });
        continue;
      }
      var parent = target;
      var last = op.op === 'splice' ? n : n - 1;
      for (var j = 0; j < last; j++) {
        parent = hasOwn(parent, path[j]) ? parent[path[j]] : undefined;   // own keys only
        if (!isObject(parent)) throw new Error('applyOps: no container at ' + JSON.stringify(path.slice(0, j + 1)));
      }
      if (op.op === 'set') defineOwn(parent, path[n - 1], clone(op.value));
      else if (op.op === 'delete') delete parent[path[n - 1]];
      else if (op.op === 'splice') {
        var items = clone(op.items);
        parent.splice.apply(parent, [op.index, op.deleteCount].concat(items));
      } else throw new Error('applyOps: unknown op "' + op.op + '"');
    }
    return target;
  }

  var api = {
    createPinia: createPinia, setActivePinia: setActivePinia, getActivePinia: getActivePinia,
    defineStore: defineStore, storeToRefs: storeToRefs, skipHydrate: skipHydrate,
    disposePinia: disposePinia, MutationType: MutationType, acceptHMRUpdate: acceptHMRUpdate,
    mapStores: mapStores, mapState: mapState, mapGetters: mapState, mapWritableState: mapWritableState,
    mapActions: mapActions, setMapStoreSuffix: setMapStoreSuffix,
    applyOps: applyOps, OPS: OPS, piniaSymbol: piniaSymbol
  };
  global.StateHubPinia = api;
  ['createPinia', 'setActivePinia', 'getActivePinia', 'defineStore', 'storeToRefs', 'MutationType',
   'skipHydrate', 'disposePinia', 'acceptHMRUpdate'].forEach(function (name) { global[name] = api[name]; });
})(typeof globalThis !== 'undefined' ? globalThis : this);
