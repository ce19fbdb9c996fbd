/*
 * StateHub Pinia: a Pinia-compatible store runtime written for StateHub, on top of
 * js/runtime/reactivity.js (load that first).
 *
 * Classic script (IIFE), no modules. Publishes globalThis.StateHubPinia and puts Pinia's
 * names (createPinia, defineStore, ...) and a minimal Vue app stand-in (createApp, inject,
 * hasInjectionContext) on globalThis.
 *
 * Every mutation object given to a $subscribe callback carries, under the symbol
 * key Symbol.for('statehub.ops'), the exact operations that changed the store's state since
 * that subscriber's previous notification. See js/README.md for the format.
 */
(function (global) {
  'use strict';

  const Reactivity = global.StateHubReactivity;
  if (!Reactivity) throw new Error('[\u{1F34D}]: load js/runtime/reactivity.js before js/runtime/pinia.js');
  const internals = Reactivity._internal;
  const { ref, reactive, toRaw, isRef, isReactive, isReadonly, isShallow, computed, isComputed, effectScope, markRaw, toRef, nextTick } = Reactivity;

  /**
   * @typedef {(string|number)[]} Path  steps from the state root: keys of objects, indices of arrays
   * @typedef {{ op: OpKind.set, path: Path, value: unknown }
   *   | { op: OpKind.delete, path: Path }
   *   | { op: OpKind.splice, path: Path, index: number, deleteCount: number, items: unknown[] }
   *   | the entry ops of a Map or Set (reactivity.js: mapSet, mapDelete, setAdd, setDelete, mapClear, setClear)} Op
   * @typedef {{ type: string, storeId: string, events: unknown, payload?: object }} Mutation
   *   what a $subscribe callback receives; its ops are under the symbol key OPS
   */

  const hasOwnProperty = Object.prototype.hasOwnProperty;
  const objectToString = Object.prototype.toString;
  const hasOwn = (object, key) => hasOwnProperty.call(object, key);
  const isObject = (value) => value !== null && typeof value === 'object';
  const isPlainObject = (value) =>
    isObject(value) && objectToString.call(value) === '[object Object]' && typeof value.toJSON !== 'function';
  // "__proto__" is an ordinary key in state: define it, never assign it (that would set the prototype).
  function defineOwn(object, key, value) {
    if (key === '__proto__') Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
    else object[key] = value;
  }

  // The one way this file warns: Pinia's development warnings, with Pinia's prefix and words.
  function warn(message) {
    if (global.console && typeof global.console.warn === 'function') global.console.warn('[\u{1F34D}]: ' + message);
  }

  const OPS = Symbol.for('statehub.ops');
  // A $subscribe option of this runtime only: a sync subscriber's function called as (type, ops)
  // instead of its callback (js/README.md, "The operation log"); real Pinia ignores it.
  const OPS_CALLBACK = Symbol.for('statehub.opsCallback');
  const OpKind = Object.freeze({ set: 'set', delete: 'delete', splice: 'splice', mapSet: 'mapSet', mapDelete: 'mapDelete',
    setAdd: 'setAdd', setDelete: 'setDelete', mapClear: 'mapClear', setClear: 'setClear' });
  const MutationType = Object.freeze({ direct: 'direct', patchObject: 'patch object', patchFunction: 'patch function' });
  // What a queued delivery to subscribers is.
  // `resume`: the rest of a delivery a stop cut short, its ops slot a DeliveryInFlight (resumeAfterStop).
  const Delivery = Object.freeze({ none: -2, drainOnly: -1, direct: 0, patchObject: 1, patchFunction: 2, resume: 3 });
  const piniaSymbol = Symbol('pinia');
  const skipHydrateSet = new WeakSet();
  const HOT_PREFIX = '__hot:';

  let activePinia = null;
  const setActivePinia = (pinia) => { activePinia = pinia; return pinia; };
  const getActivePinia = () => (activePinia === null ? undefined : activePinia);

  const records = new WeakMap();   // store (its raw object) -> its record
  const recordOf = (store) => records.get(toRaw(store));

  // ---------------------------------------------------------------------------
  // A minimal Vue app: enough for app.use(pinia), app.provide, inject, runWithContext
  // ---------------------------------------------------------------------------

  let currentApp = null;
  let appCount = 0;
  /** A stand-in for Vue's createApp(): plugins, provide/inject and runWithContext; nothing renders. */
  function createApp(rootComponent = {}) {
    const provides = Object.create(null);
    const installed = new Set();
    const app = {
      _uid: appCount++,   // as Vue's: plugins use it to tell apps apart
      _component: rootComponent,
      _context: { provides },
      config: { globalProperties: {} },
      use(plugin, ...options) {
        if (installed.has(plugin)) return app;
        installed.add(plugin);
        if (plugin && typeof plugin.install === 'function') plugin.install(app, ...options);
        else if (typeof plugin === 'function') plugin(app, ...options);
        return app;
      },
      provide(key, value) { provides[key] = value; return app; },
      runWithContext(fn) {
        const previous = currentApp;
        currentApp = app;
        try { return fn(); } finally { currentApp = previous; }
      },
      mount() { return app; },
      unmount() {}
    };
    return app;
  }
  function hasInjectionContext() { return currentApp !== null; }
  // Vue's inject(): outside an app context (no component here, so outside runWithContext) it
  // warns and returns undefined, default or not.
  function inject(key, defaultValue, treatDefaultAsFactory = false) {
    if (currentApp === null) {
      warnVue('inject() can only be used inside setup() or functional components.');
      return undefined;
    }
    const provides = currentApp._context.provides;
    if (key in provides) return provides[key];
    if (arguments.length > 1) return treatDefaultAsFactory && typeof defaultValue === 'function' ? defaultValue() : defaultValue;
    warnVue(`injection "${String(key)}" not found.`);
    return undefined;
  }
  // A getter named "__proto__" cannot be a store property: Pinia's own assignment of it sets the
  // prototype of the object it collects getters in, so real Pinia drops it without a word. Here
  // it is dropped too, with a warning, so that nothing disappears silently.
  function warnProtoGetter(id) {
    warn(`A getter cannot be named "__proto__"; it is not defined on store "${id}". Rename it.`);
  }

  function warnVue(message) {
    if (global.console && typeof global.console.warn === 'function') global.console.warn('[Vue warn]: ' + message);
  }
  const runInApp = (pinia, fn) => (pinia._a && typeof pinia._a.runWithContext === 'function' ? pinia._a.runWithContext(fn) : fn());

  // ---------------------------------------------------------------------------
  // Operation log dispatch
  // ---------------------------------------------------------------------------

  function makeMutation(type, storeId, events, payload, ops) {
    const mutation = { type, storeId, events };
    if (type === MutationType.patchObject) mutation.payload = payload;
    mutation[OPS] = ops;
    return mutation;
  }

  function notify(record, subscription, mutation) {
    try { subscription.callback(mutation, record.proxy); } catch (e) { internals.reportError(e); }
  }

  // ops: the operations of one write (several when the written object is reachable at
  // several paths of this store's state).
  // Unobservable writes (a markRaw object, a Date changed in place) are caught up at the first
  // reported write of a tick, at the end of that tick (before the sync plugin's batch leaves),
  // at the end of every action and of every $patch: no later than real Pinia's plugin, which
  // diffs when it flushes. Each catch-up costs one fingerprint per such value.
  let caughtUpThisTick = false;
  const hasUnobservable = internals.hasUnobservable;
  function catchUpAtWrite() {
    if (caughtUpThisTick || !hasUnobservable()) return;
    caughtUpThisTick = true;
    internals.catchUpUnobservable();
    Promise.resolve().then(catchUpAtEndOfTick);
  }
  function catchUpAtEndOfTick() {
    caughtUpThisTick = false;
    internals.catchUpUnobservable();
  }
  function recordOps(record, ops) {
    // a write that delivers at once (writeState.now, read once: what runs from here on is another write)
    const now = writeState.now;
    if (now) writeState.now = false;
    if (record.disposed) return;
    if (!caughtUpThisTick) catchUpAtWrite();
    if (record.patching > 0) { for (const op of ops) record.patchOps.push(op); return; }
    const batched = record.batchedSubscriptions;
    if (batched.length !== 0) {
      for (const subscription of batched) for (const op of ops) subscription.ops.push(op);
      if (record.listening && !record.flushQueued) { record.flushQueued = true; internals.queueJob(record.flushJob); }
    }
    if (record.syncSubscriptions.length === 0) return;
    if (!now) deliverLater(record, Delivery.direct, ops, null);
    else if (record.delivering) record.deliveryQueue.push(Delivery.direct, ops, null);
    else if (releasing) hold(record, Delivery.direct, ops, null);   // a subscriber's write: after the callbacks, as when held
    else deliverNow(record, ops);
  }

  // Deliveries to sync subscribers (and patch notifications) go through a per-store queue so
  // that every subscriber sees operations in the order they happened, even when a callback
  // writes to the store. While a write is in progress (its effects still running), deliveries
  // wait in the queue and are released when the write is done.
  const writeState = internals.W;
  // A write no effect reacts to (reactivity.js sets writeState.now): what deliverLater followed by the
  // write's end (releaseHeld) would do, without the queue. Writes made by the subscribers into other
  // stores are held until these callbacks return, as they are when the release runs them.
  function deliverNow(record, ops) {
    releasing = true;
    try {
      record.delivering = true;   // drainDeliveries and deliver, inline
      const subscriptions = record.syncSubscriptions;
      if (subscriptions.length === 1 && subscriptions[0].opsCallback !== null) {
        const subscription = subscriptions[0];
        if (subscription.active) {
          try { subscription.opsCallback(MutationType.direct, ops); } catch (e) { internals.reportError(e); }
        }
      } else deliver(record, Delivery.direct, ops, null);
      if (record.deliveryQueue.length !== 0) drainQueue(record);
      record.delivering = false;
      if (heldRecords.length !== 0) drainHeld();
    } finally {
      heldRecords.length = 0;
      releasing = false;
    }
  }
  const heldRecords = [];
  let releasing = false;
  function deliverLater(record, kind, ops, payload) {
    if (record.delivering) { record.deliveryQueue.push(kind, ops, payload); return; }
    if (writeState.depth > 0) { hold(record, kind, ops, payload); return; }
    drainDeliveries(record, kind, ops, payload);
  }
  function hold(record, kind, ops, payload) {
    record.deliveryQueue.push(kind, ops, payload);
    if (!record.held) { record.held = true; heldRecords.push(record); }
  }
  function drainDeliveries(record, kind, ops, payload) {
    record.delivering = true;   // deliver() never throws: callbacks are guarded in notify()
    if (kind !== Delivery.drainOnly) deliver(record, kind, ops, payload);
    if (record.deliveryQueue.length !== 0) drainQueue(record);
    record.delivering = false;
  }
  // Delivers the record's queue in order (it grows while it runs). An entry is off the queue
  // (queueNext) before it is delivered: a stop in it is not delivered twice (resumeAfterStop).
  function drainQueue(record) {
    const queue = record.deliveryQueue;
    for (let i = 0; i < queue.length; i += 3) { record.queueNext = i + 3; deliver(record, queue[i], queue[i + 1], queue[i + 2]); }
    queue.length = 0; record.queueNext = 0;
  }
  internals.setReleaseHook(releaseHeld);
  function releaseHeld() {
    if (releasing || heldRecords.length === 0) return;
    releasing = true;
    try {
      drainHeld();
    } finally {
      heldRecords.length = 0;
      releasing = false;
    }
  }
  function drainHeld() {
    for (let i = 0; i < heldRecords.length; i++) {   // grows while it runs, as a for-of would see
      const record = heldRecords[i];
      record.held = false;
      if (!record.delivering && record.deliveryQueue.length !== 0) drainDeliveries(record, Delivery.drainOnly);
    }
  }
  // A delivery to several subscribers says where it is on the record (flight*): a stop inside one
  // callback leaves the rest of it to the recovery, which takes up after that callback. The index
  // is into the list the delivery began with (flightSubscriptions; $subscribe and its stop make new
  // lists): one a callback unsubscribed from or added to is not the one the index counts in.
  function deliver(record, kind, ops, payload) {
    let from = 0, list = null;
    if (kind === Delivery.resume) { from = ops.from; list = ops.subscriptions; payload = ops.payload; kind = ops.kind; ops = ops.ops; }
    record.flightKind = kind; record.flightOps = ops; record.flightPayload = payload; record.flightNext = from;
    if (kind === Delivery.direct) {   // a direct write, sync subscribers only
      // one mutation object shared by the subscribers that take one, made only if one does
      const subscriptions = list !== null ? list : record.syncSubscriptions;
      record.flightSubscriptions = subscriptions;
      let mutation = null;
      for (let i = from; i < subscriptions.length; i++) {
        const subscription = subscriptions[i];
        if (!subscription.active) continue;
        record.flightNext = i + 1;
        if (subscription.opsCallback !== null) {
          try { subscription.opsCallback(MutationType.direct, ops); } catch (e) { internals.reportError(e); }   // notifyOps, inline: once per write
          continue;
        }
        if (mutation === null) mutation = makeMutation(MutationType.direct, record.id, ops.length === 1 ? ops[0] : ops, undefined, ops);
        notify(record, subscription, mutation);
      }
      record.flightKind = Delivery.none;
      return;
    }
    const type = kind === Delivery.patchObject ? MutationType.patchObject : MutationType.patchFunction;
    const subscriptions = list !== null ? list : record.subscriptions;
    record.flightSubscriptions = subscriptions;
    for (let i = from; i < subscriptions.length; i++) {
      const subscription = subscriptions[i];
      if (!subscription.active) continue;
      record.flightNext = i + 1;
      let subscriptionOps = ops;
      if (!subscription.sync) { subscriptionOps = subscription.ops; subscription.ops = []; }
      if (subscription.opsCallback !== null) notifyOps(subscription, type, subscriptionOps);
      else notify(record, subscription, makeMutation(type, record.id, subscriptionOps, payload, subscriptionOps));
    }
    record.flightKind = Delivery.none;
  }
  // A sync subscriber that gave OPS_CALLBACK (js/README.md, "The operation log"): its ops and the
  // mutation's type, without a mutation object.
  function notifyOps(subscription, type, ops) {
    try { subscription.opsCallback(type, ops); } catch (e) { internals.reportError(e); }
  }
  // A tick's direct writes reach the batched subscribers in the scheduler's flush: `pre` (the
  // default) ones in the pre queue, `post` ones after every pre job (Vue's watcher flushes).
  function makeFlushJob(record, post) {
    return () => {
      if (!post) record.flushQueued = false;
      if (!record.listening || record.disposed) return;   // absorbed by a $patch of this tick
      let postPending = false;
      for (const subscription of record.batchedSubscriptions) {
        if (!subscription.active || subscription.ops.length === 0) continue;
        if (subscription.post !== post) { postPending = true; continue; }
        const ops = subscription.ops;
        subscription.ops = [];
        notify(record, subscription, makeMutation(MutationType.direct, record.id, ops, undefined, ops));
      }
      if (postPending && !post) internals.queuePostJob(record.postFlushJob);
    };
  }

  internals.setOpHook(recordOps);

  // After a time-limit stop (docs/engine.md, "Recovery after a stop"): the stop skipped the
  // `finally` blocks that count patches, deliveries and hot swaps down, and dropped the
  // microtasks that turn listening back on. `reset` puts the counters back; `release` (after
  // the reactivity's reset and the sync plugin's) ends a patch the stop cut short and delivers
  // what was held, in order, so sync subscribers see every write that happened: a delivery the
  // stop cut short goes on with the subscribers after the callback it was stopped in (that one
  // is not called with it again: a runaway callback would run away again, in the recovery).
  // `reset(true)` is the engine's last attempt when the recovery keeps being stopped: what is
  // held is dropped, never delivered.
  const liveRecords = new Set();
  function resetAfterStop(dropHeld) {
    releasing = false; hotSwapping = 0; hotSwapped.length = 0; currentApp = null; caughtUpThisTick = false;
    for (const record of liveRecords) {
      if (dropHeld === true) dropDeliveries(record);
      else if (record.delivering) resumeAfterStop(record);
      record.delivering = false;
      record.listening = true;
      record.patchGeneration++;
    }
    if (dropHeld === true) heldRecords.length = 0;
  }
  function resumeAfterStop(record) {
    const rest = record.deliveryQueue.slice(record.queueNext);
    if (record.flightKind !== Delivery.none) {
      const inFlight = { kind: record.flightKind, ops: record.flightOps, payload: record.flightPayload, from: record.flightNext,
        subscriptions: record.flightSubscriptions };
      rest.unshift(Delivery.resume, inFlight, null);
    }
    record.deliveryQueue = rest; record.queueNext = 0;
    clearFlight(record);
  }
  function clearFlight(record) {
    record.flightKind = Delivery.none; record.flightOps = null; record.flightPayload = undefined; record.flightSubscriptions = null;
  }
  function dropDeliveries(record) {
    record.deliveryQueue = []; record.queueNext = 0; record.held = false;
    clearFlight(record);
    record.patching = 0; record.patchOps = []; record.patchPayload = undefined;
  }
  function releaseAfterStop() {
    for (const record of liveRecords) {
      if (record.patching > 0) { record.patching = 0; finishPatch(record, Delivery.patchFunction); }
      if (record.deliveryQueue.length !== 0 && !record.held) { record.held = true; heldRecords.push(record); }
      if (!record.flushQueued && record.batchedSubscriptions.some((subscription) => subscription.ops.length !== 0)) {
        record.flushQueued = true; internals.queueJob(record.flushJob);
      }
    }
    releaseHeld();
  }
  (global.__statehubStopRecovery || (global.__statehubStopRecovery = [])).push({ reset: resetAfterStop, release: releaseAfterStop });

  // ---------------------------------------------------------------------------
  // $patch
  // ---------------------------------------------------------------------------

  // Pinia's merge: plain objects merged deeply in place, Map and Set entries added, anything
  // else (arrays, refs, reactive objects) replaces what was there. Own keys only.
  function mergeReactiveObjects(target, patch) {
    if (target instanceof Map && patch instanceof Map) patch.forEach((value, key) => target.set(key, value));
    else if (target instanceof Set && patch instanceof Set) patch.forEach((value) => target.add(value));
    for (const key in patch) {
      if (!hasOwn(patch, key)) continue;
      const subPatch = patch[key];
      const targetValue = hasOwn(target, key) ? target[key] : undefined;
      if (isPlainObject(targetValue) && isPlainObject(subPatch) && !isRef(subPatch) && !isReactive(subPatch)) {
        mergeReactiveObjects(targetValue, subPatch);
      } else {
        defineOwn(target, key, subPatch);
      }
    }
    return target;
  }

  // Every $patch notifies when it ends, a nested one too (Pinia: the inner "patch object", then
  // the outer "patch function"); a notification carries the ops made since the previous one.
  function runPatch(record, kind, fn, payload) {
    const outerPayload = record.patchPayload;
    record.patchPayload = payload;
    record.patching++;
    try {
      fn();
      internals.catchUpUnobservable();
    } finally {
      record.patching--;
      finishPatch(record, kind);
      record.patchPayload = outerPayload;
    }
  }
  function finishPatch(record, kind) {
    const ops = record.patchOps;
    record.patchOps = [];
    for (const subscription of record.batchedSubscriptions) for (const op of ops) subscription.ops.push(op);
    record.listening = false;
    const generation = ++record.patchGeneration;
    nextTick().then(() => { if (record.patchGeneration === generation) record.listening = true; });
    deliverLater(record, kind, ops, record.patchPayload);
    record.patchPayload = undefined;
  }

  // ---------------------------------------------------------------------------
  // The pinia object
  // ---------------------------------------------------------------------------

  function createPinia() {
    const scope = effectScope(true);
    const statesRaw = {};                 // store id -> raw state
    const states = reactive(statesRaw);
    const plugins = [];
    let pinia;
    // pinia.state.value: the reactive map id -> state. Replacing a live store's entry
    // (pinia.state.value[id] = x) rebinds that store.
    const statesView = new Proxy(statesRaw, {
      get: (target, key) => states[key],
      has: (target, key) => key in states,
      ownKeys: () => Reflect.ownKeys(states),
      getOwnPropertyDescriptor: (target, key) => Reflect.getOwnPropertyDescriptor(statesRaw, key),
      set(target, key, value) {
        const store = pinia._s.get(key);
        if (store !== undefined) replaceRoot(recordOf(store), value);
        else states[key] = value;
        return true;
      },
      deleteProperty(target, key) { if (!pinia._s.has(key)) delete states[key]; return true; }
    });
    const stateRef = {
      __v_isRef: true,
      get value() { return statesView; },
      set value(next) {
        next = toRaw(next) || {};
        for (const id of Object.keys(statesRaw)) if (!hasOwn(next, id) && !pinia._s.has(id)) delete states[id];
        for (const id of Object.keys(next)) statesView[id] = next[id];
      }
    };
    pinia = markRaw({
      install(app) {
        setActivePinia(pinia);
        pinia._a = app;
        if (app) {
          if (typeof app.provide === 'function') app.provide(piniaSymbol, pinia);
          if (app.config && app.config.globalProperties) app.config.globalProperties.$pinia = pinia;
        }
        return pinia;
      },
      use(plugin) {
        plugins.push(plugin);   // as in Pinia: a plugin added twice runs twice
        // applied at once, to the stores that already exist as well (see js/README.md)
        pinia._s.forEach((store) => applyPlugin(recordOf(store), plugin));
        return pinia;
      },
      _p: plugins,
      _a: null,
      _e: scope,
      _s: new Map(),
      _h: statesRaw,
      state: stateRef
    });
    return pinia;
  }

  function disposePinia(pinia) {
    pinia._s.forEach((store) => store.$dispose());
    pinia._e.stop();
    pinia._s.clear();
    pinia._p.splice(0);
    const states = reactive(pinia._h);
    for (const id of Object.keys(pinia._h)) delete states[id];
    pinia._a = null;
    if (activePinia === pinia) activePinia = null;
  }

  function applyPlugin(record, plugin) {
    const pinia = record.pinia;
    // the store's scope innermost, as in Pinia: effects a plugin creates end with the store
    const extensions = runInApp(pinia, () => record.scope.run(() =>
      plugin({ store: record.store, app: pinia._a, pinia, options: record.pluginOptions })));
    if (!extensions || typeof extensions !== 'object') return;
    for (const key of Object.keys(extensions)) {
      record.customKeys.add(key);
      record.store[key] = extensions[key];   // refs are kept and unwrapped on read, as on a reactive store
    }
  }

  // A live store's state object replaced as a whole (pinia.state.value[id] = x, hot update).
  function replaceRoot(record, value) {
    const raw = toRaw(value);
    if (!isObject(raw)) throw new TypeError(`[\u{1F34D}]: the state of store "${record.id}" must be an object`);
    if (raw === record.root) return;
    const old = record.root;
    internals.unmarkStateRoot(old);
    reactive(record.pinia._h)[record.id] = raw;
    record.root = raw;
    record.proxy = reactive(raw);
    for (const boundRef of record.boundRefs) boundRef._b = record.proxy;
    internals.markStateRoot(raw, record);
    internals.trigger(old, 3);
    recordOps(record, [{ op: OpKind.set, path: [], value: internals.snapshot(raw) }]);
  }

  // ---------------------------------------------------------------------------
  // Stores
  // ---------------------------------------------------------------------------

  function noActivePiniaError() {
    return new Error('[\u{1F34D}]: "getActivePinia()" was called but there was no active Pinia. Are you trying to use a store before calling "app.use(pinia)"?\n' +
      'See https://pinia.vuejs.org/core-concepts/outside-component-usage.html for help.\n' +
      'This will fail in production.');
  }

  const ACTION_NAME = Symbol('action name');
  // An $onAction callback may carry hooks under this key (the sync plugin's does): while it is
  // a store's only listener, a call runs its hooks directly, with no context object, closures or
  // callback arrays per call (otherwise a third of a dispatched action's JavaScript without the
  // JIT). Real Pinia ignores the key and calls the callback, which does the same work.
  const ACTION_HOOKS = Symbol.for('statehub.actionHooks');
  // Wraps an action so that $onAction sees it. An already wrapped action (the setup helper's
  // `action(fn)`) is renamed instead: its name is the key it is returned under.
  function wrapAction(record, fn, name) {
    if (typeof fn === 'function' && hasOwn(fn, ACTION_NAME)) { fn[ACTION_NAME] = name; return fn; }
    const wrapped = function (...args) {
      activePinia = record.pinia;
      const context = this != null && this.$id === record.id ? this : record.store;
      const listeners = record.actionSubscriptions;
      if (listeners.length === 1 && listeners[0].hooks !== null && listeners[0].active) {
        return callWithHooks(listeners[0].hooks, wrapped[ACTION_NAME], fn, context, args);
      }
      let afterCallbacks = null, errorCallbacks = null, pendingCallbacks = null, i;
      if (listeners.length !== 0) {
        afterCallbacks = []; errorCallbacks = []; pendingCallbacks = [];
        const after = (callback) => { afterCallbacks.push(callback); };
        const onError = (callback) => { errorCallbacks.push(callback); };
        // StateHub's addition to the context: called when the action has returned a promise that
        // is still pending (the sync plugin's stop recovery tells such calls from a stopped one).
        const pending = (callback) => { pendingCallbacks.push(callback); };
        // indexed loops, not for...of: no iterator object per call
        for (i = 0; i < listeners.length; i++) {
          const listener = listeners[i];
          if (listener.active) listener.callback({ args, name: wrapped[ACTION_NAME], store: record.store, after, onError, pending });
        }
      }
      let result;
      try {
        result = fn.apply(context, args);
      } catch (error) {
        internals.catchUpUnobservable();
        if (errorCallbacks !== null) for (i = 0; i < errorCallbacks.length; i++) errorCallbacks[i](error);
        throw error;
      }
      internals.catchUpUnobservable();
      if (result instanceof Promise) {
        if (pendingCallbacks !== null) for (i = 0; i < pendingCallbacks.length; i++) pendingCallbacks[i]();
        // Pinia's chain, step for step: after() one microtask after the action's promise
        // settles, the caller's await two (an after() that throws goes to onError)
        return result.then((value) => {
          internals.catchUpUnobservable();
          if (afterCallbacks !== null) for (const callback of afterCallbacks) callback(value);
          return value;
        }).catch((error) => {
          internals.catchUpUnobservable();
          if (errorCallbacks !== null) for (const callback of errorCallbacks) callback(error);
          return Promise.reject(error);
        });
      }
      if (afterCallbacks !== null) for (i = 0; i < afterCallbacks.length; i++) afterCallbacks[i](result);
      return result;
    };
    Object.defineProperty(wrapped, ACTION_NAME, { value: name, writable: true, enumerable: false });
    return wrapped;
  }

  // One action call whose only listener has hooks: `start` where the callback would run,
  // `settle` where its `after` / `onError` callbacks would, `pending` where its `pending` one
  // would, each at the same point (and an async call's settling after the same promise steps).
  function callWithHooks(hooks, name, fn, context, args) {
    const token = hooks.start(name, args);
    let result;
    try {
      result = fn.apply(context, args);
    } catch (error) {
      internals.catchUpUnobservable();
      hooks.settle(token);
      throw error;
    }
    internals.catchUpUnobservable();
    if (result instanceof Promise) {
      hooks.pending(token);
      // settled at the microtask Pinia's after() / onError() would run (wrapAction)
      let settled = false;
      return result.then((value) => {
        internals.catchUpUnobservable();
        settled = true;
        hooks.settle(token);
        return value;
      }).catch((error) => {
        if (!settled) { internals.catchUpUnobservable(); hooks.settle(token); }
        return Promise.reject(error);
      });
    }
    hooks.settle(token);
    return result;
  }

  function stopWithScope(unsubscribe, detached) {
    if (!detached && Reactivity.getCurrentScope()) Reactivity.onScopeDispose(unsubscribe);
    return unsubscribe;
  }

  function newRecord(id, pinia, isSetup, definition) {
    const record = {
      wantsOps: false, id, pinia, store: null, root: null, proxy: null, isSetup, definition,
      subscriptions: [], syncSubscriptions: [], batchedSubscriptions: [], actionSubscriptions: [],
      patching: 0, patchOps: [], patchPayload: undefined, listening: true, patchGeneration: 0,
      flushQueued: false, flushJob: null, postFlushJob: null, delivering: false, held: false, deliveryQueue: [], disposed: false,
      queueNext: 0, flightKind: Delivery.none, flightOps: null, flightPayload: undefined, flightNext: 0, flightSubscriptions: null,
      scope: null, boundRefs: [], stateKeys: [], getterKeys: [], customKeys: new Set(), pluginOptions: null,
      hmr: { actions: {}, getters: {} }
    };
    record.flushJob = makeFlushJob(record, false);
    record.postFlushJob = makeFlushJob(record, true);
    liveRecords.add(record);
    return record;
  }

  // The store object: a reactive() object as in Pinia. State and getters are accessors on its
  // raw object (state reads and writes go to the state tree, where the op log sees them).
  function createStoreObject(record) {
    const storeRaw = {};
    const store = internals.storeProxy(storeRaw);
    record.store = store;
    records.set(storeRaw, record);
    const { id, pinia } = record;
    // every property of the raw object is defined through defineOnStore, which keeps the store
    // proxy's accessor cache right (js/README.md, "The store object and its accessor cache")
    const defineOnStore = internals.defineOnStore;
    const hidden = (key, value) => defineOnStore(storeRaw, key, { value, writable: true, configurable: true, enumerable: false });

    hidden('_p', pinia);
    hidden('$id', id);
    defineOnStore(storeRaw, '$state', {
      get: () => record.proxy,
      set: (value) => {
        if (record.hot) throw new Error('cannot set hotState');
        store.$patch(($state) => { Object.assign($state, value); });
      },
      enumerable: false, configurable: true
    });
    hidden('$patch', (patch) => {
      if (typeof patch === 'function') runPatch(record, Delivery.patchFunction, () => { patch(record.proxy); }, undefined);
      else runPatch(record, Delivery.patchObject, () => { mergeReactiveObjects(record.proxy, patch); }, patch);
    });
    hidden('$reset', record.isSetup
      ? () => { throw new Error(`\u{1F34D}: Store "${id}" is built using the setup syntax and does not implement $reset().`); }
      : () => {
          const fresh = record.definition.state ? record.definition.state() : {};
          store.$patch(($state) => { Object.assign($state, fresh); });
        });
    hidden('$subscribe', (callback, options = {}) => {
      if (typeof options === 'boolean') options = { detached: options };
      const sync = options.flush === 'sync';
      const opsCallback = sync && typeof options[OPS_CALLBACK] === 'function' ? options[OPS_CALLBACK] : null;
      const subscription = { callback, sync, post: options.flush === 'post', ops: [], active: true, opsCallback };
      record.subscriptions = record.subscriptions.concat([subscription]);
      record.wantsOps = true;
      if (sync) record.syncSubscriptions = record.syncSubscriptions.concat([subscription]);
      else record.batchedSubscriptions = record.batchedSubscriptions.concat([subscription]);
      return stopWithScope(() => {
        if (!subscription.active) return;
        subscription.active = false;
        const others = (x) => x !== subscription;
        record.subscriptions = record.subscriptions.filter(others);
        record.wantsOps = record.subscriptions.length !== 0;
        if (sync) record.syncSubscriptions = record.syncSubscriptions.filter(others);
        else record.batchedSubscriptions = record.batchedSubscriptions.filter(others);
      }, options.detached);
    });
    hidden('$onAction', (callback, detached) => {
      const given = typeof callback === 'function' ? callback[ACTION_HOOKS] : undefined;
      const hooks = given != null && typeof given.start === 'function' && typeof given.settle === 'function' &&
        typeof given.pending === 'function' ? given : null;
      const subscription = { callback, active: true, hooks };
      record.actionSubscriptions = record.actionSubscriptions.concat([subscription]);
      return stopWithScope(() => {
        subscription.active = false;
        record.actionSubscriptions = record.actionSubscriptions.filter((x) => x !== subscription);
      }, detached);
    });
    hidden('$dispose', () => {
      if (record.disposed) return;
      record.disposed = true;
      liveRecords.delete(record);
      record.scope.stop();
      for (const subscription of record.subscriptions) subscription.active = false;
      for (const subscription of record.actionSubscriptions) subscription.active = false;
      record.subscriptions = []; record.syncSubscriptions = []; record.batchedSubscriptions = []; record.actionSubscriptions = [];
      record.wantsOps = false;
      internals.unmarkStateRoot(record.root);
      if (pinia._s.get(id) === store) pinia._s.delete(id);
    });
    hidden('_hotUpdate', markRaw((newStore) => hotUpdate(record, newStore)));
    hidden('_hmrPayload', record.hmr);
    hidden('_customProperties', record.customKeys);
    return store;
  }

  function defineStateAccessor(record, key) {
    const storeRaw = toRaw(record.store);
    if (hasOwn(storeRaw, key) && record.stateKeys.indexOf(key) !== -1) return;
    if (record.stateKeys.indexOf(key) === -1) record.stateKeys.push(key);
    internals.defineStateAccessor(storeRaw, key, record);   // reads and writes record.proxy[key]
  }
  function defineGetterAccessor(record, key, computedRef) {
    // Pinia defines the store's own `$state` after the setup's and the getters' keys: a getter of
    // that name is shadowed, and the store keeps its state.
    if (key === '$state') return;
    if (record.getterKeys.indexOf(key) === -1) record.getterKeys.push(key);
    // through the proxy: effects that read an older getter of this name follow the new one
    Object.defineProperty(record.store, key, {
      get: () => computedRef.value,
      set: (value) => { computedRef.value = value; },
      enumerable: true, configurable: true
    });
  }
  function defineAction(record, key, fn) {
    internals.defineOnStore(toRaw(record.store), key, { value: wrapAction(record, fn, key), writable: true, configurable: true, enumerable: true });
  }

  // A ref from the setup function (or a ref inside an option store's state) becomes a key of
  // the state tree: its value lives there, the ref reads and writes it.
  function adoptRef(record, key, prop, hydrate) {
    const raw = record.root;
    if (prop instanceof internals.RefImpl && !prop.__v_isShallow) {
      if (!hydrate) defineOwn(raw, key, prop._b !== null ? toRaw(prop._b[prop._k]) : prop._rawValue);
      else {
        if (isObject(raw[key])) defineOwn(raw, key, toRaw(raw[key]));
        // Pinia hydrates with `ref.value = initialState[key]`: what setup computed or watched
        // from the ref sees the hydrated value (the ref is not yet bound: no op, no write back)
        if (prop._b === null) prop.value = raw[key];
      }
      internals.bindRef(prop, record.proxy, key);
      record.boundRefs.push(prop);
      return;
    }
    if (isObject(prop._object) && typeof prop._key !== 'undefined' && !isReactive(prop) && !prop.__v_isReadonly &&
        Object.isExtensible(toRaw(prop._object)) && !internals.isInStateTree(toRaw(prop._object))) {
      // toRef(object, key) / toRefs(object): the object's property follows the state tree
      const source = toRaw(prop._object), sourceKey = prop._key;
      if (!hydrate) defineOwn(raw, key, toRaw(source[sourceKey]));
      const view = () => record.proxy;
      internals.defineOnStore(source, sourceKey, {   // source may be another store's raw object
        get: () => view()[key],
        set: (value) => { view()[key] = value; },
        enumerable: true, configurable: true
      });
      return;
    }
    // shallowRef (stays shallow, as in Pinia), customRef, toRef of another store's state and
    // other refs are kept as refs in the state, unwrapped on read; what changes behind them is
    // caught up like any write no proxy sees
    if (hydrate) prop.value = raw[key];
    defineOwn(raw, key, prop);
  }

  function createStore(id, definition, isSetup, pinia, hot = false) {
    if (!pinia._e.active) throw new Error('Pinia destroyed');
    const statesRaw = pinia._h, states = reactive(statesRaw);
    const record = newRecord(id, pinia, isSetup, definition);
    record.hot = hot;
    record.scope = pinia._e.run(() => effectScope());
    const store = createStoreObject(record);
    // registered before setup runs: stores may use each other in setup and getters
    if (!hot) pinia._s.set(id, store);

    const initial = !hot && hasOwn(statesRaw, id) ? toRaw(statesRaw[id]) : undefined;
    const hydrating = initial !== undefined;

    if (!isSetup) {
      const options = definition;
      if (!hydrating) {
        const fresh = options.state ? options.state() : {};
        if (hot) record.root = toRaw(fresh);
        else { states[id] = fresh; record.root = toRaw(statesRaw[id]); }
      } else record.root = initial;
      record.proxy = reactive(record.root);
      for (const key of Object.keys(record.root)) {
        const value = record.root[key];
        if (value instanceof internals.RefImpl) adoptRef(record, key, value, false);
        defineStateAccessor(record, key);
      }
      const getters = options.getters || {};
      record.scope.run(() => {
        for (const name of Object.keys(getters)) {
          if (name === '__proto__') { warnProtoGetter(id); continue; }
          if (record.stateKeys.indexOf(name) !== -1) {
            warn(`A getter cannot have the same name as another state property. Rename one of them. Found with "${name}" in store "${id}".`);
          }
          const getter = getters[name];
          record.hmr.getters[name] = getter;
          defineGetterAccessor(record, name, markRaw(computed(() => { setActivePinia(pinia); return getter.call(store, store); })));
        }
      });
      const actions = options.actions || {};
      for (const name of Object.keys(actions)) {
        record.hmr.actions[name] = actions[name];
        defineAction(record, name, actions[name]);
      }
      record.pluginOptions = Object.assign({ actions: {} }, options);   // a copy, as Pinia gives plugins
    } else {
      record.root = hydrating ? initial : {};
      if (!hydrating && !hot) states[id] = record.root;
      record.proxy = reactive(record.root);
      const pluginOptions = Object.assign({ actions: {} }, definition.options || {});
      const helper = { action: (fn, name = '') => wrapAction(record, fn, name) };
      // the store's scope innermost, as in Pinia: effects made in setup end with $dispose()
      const result = runInApp(pinia, () => pinia._e.run(() => record.scope.run(() => definition.setup(helper)))) || {};
      for (const key of Object.keys(result)) {
        const prop = result[key];
        if ((isRef(prop) && !isComputed(prop)) || isReactive(prop)) {
          const hydrate = hydrating && hasOwn(record.root, key) && !skipHydrateSet.has(toRaw(prop)) && !skipHydrateSet.has(prop);
          if (isRef(prop)) adoptRef(record, key, prop, hydrate);
          else {
            if (hydrate) mergeReactiveObjects(prop, record.root[key]);
            // a readonly() or shallowReactive() stays one in the state, as Vue's set keeps it
            defineOwn(record.root, key, isReadonly(prop) || isShallow(prop) ? prop : toRaw(prop));
          }
          defineStateAccessor(record, key);
        } else if (isComputed(prop)) {
          if (key === '__proto__') { warnProtoGetter(id); continue; }
          record.hmr.getters[key] = prop;
          defineGetterAccessor(record, key, prop);
        } else if (typeof prop === 'function') {
          record.hmr.actions[key] = prop;
          pluginOptions.actions[key] = prop;
          defineAction(record, key, prop);
        } else {
          store[key] = prop;
        }
      }
      record.pluginOptions = pluginOptions;
    }
    if (!hot) {
      internals.markStateRoot(record.root, record);
      for (const plugin of pinia._p) applyPlugin(record, plugin);
      const state = record.root;
      if (typeof state.constructor === 'function' && !String(state.constructor).includes('[native code]') && !hasOwn(state, 'constructor')) {
        warn('The "state" must be a plain object. It cannot be\n\tstate: () => new MyClass()\n' + `Found in store "${id}".`);
      }
      if (hydrating && !isSetup && typeof definition.hydrate === 'function') definition.hydrate(record.proxy, initial);
    }
    return store;
  }

  // ---------------------------------------------------------------------------
  // Hot module replacement (Pinia's _hotUpdate): new state keys added, removed ones deleted,
  // existing state kept; actions and getters replaced. Subscribers and the op log see one
  // change: a `set` of the whole state.
  // ---------------------------------------------------------------------------

  // Copies old values into the new state where both have the key; plain objects recursively.
  function patchObject(newState, oldState) {
    for (const key in oldState) {
      if (!hasOwn(oldState, key) || !hasOwn(newState, key)) continue;
      const oldValue = oldState[key], newValue = newState[key];
      if (isPlainObject(newValue) && isPlainObject(oldValue) && !isRef(oldValue) && !isReactive(oldValue)) patchObject(newValue, oldValue);
      else defineOwn(newState, key, oldValue);
    }
    return newState;
  }

  function hotUpdate(record, newStore) {
    const fresh = recordOf(newStore);
    const store = record.store, storeRaw = toRaw(store);
    const newRoot = fresh.root, oldRoot = record.root;
    for (const key of Object.keys(newRoot)) {
      if (!hasOwn(oldRoot, key)) continue;
      const newValue = newRoot[key], oldValue = oldRoot[key];
      if (isPlainObject(newValue) && isPlainObject(oldValue)) patchObject(newValue, oldValue);
      else defineOwn(newRoot, key, oldValue);
    }
    // the store moves onto the new state object (the new setup's refs already read it)
    replaceRoot(record, newRoot);
    for (const key of record.stateKeys.slice()) {
      if (!hasOwn(newRoot, key)) { delete store[key]; record.stateKeys.splice(record.stateKeys.indexOf(key), 1); }
    }
    for (const key of Object.keys(newRoot)) defineStateAccessor(record, key);
    for (const key of Object.keys(record.hmr.actions)) if (!hasOwn(fresh.hmr.actions, key)) delete store[key];
    for (const key of Object.keys(record.hmr.getters)) {
      if (!hasOwn(fresh.hmr.getters, key)) { delete store[key]; record.getterKeys.splice(record.getterKeys.indexOf(key), 1); }
    }
    for (const [name, fn] of Object.entries(fresh.hmr.actions)) {
      Object.defineProperty(store, name, { value: wrapAction(record, fn, name), writable: true, configurable: true, enumerable: true });
    }
    record.scope.run(() => {
      for (const [name, getter] of Object.entries(fresh.hmr.getters)) {
        const computedRef = record.isSetup ? getter
          : markRaw(computed(() => { setActivePinia(record.pinia); return getter.call(store, store); }));
        defineGetterAccessor(record, name, computedRef);
      }
    });
    record.hmr = fresh.hmr;
    record.definition = fresh.definition;
    internals.defineOnStore(storeRaw, '_hmrPayload', { value: record.hmr, writable: true, configurable: true, enumerable: false });
    // the options plugins were given follow the new definition (the sync plugin reads its actions)
    record.pluginOptions.actions = Object.assign({}, fresh.hmr.actions);
  }

  // While a page's store code is swapped (StateHubPinia.hotSwap), defineStore() of an id that
  // already has a store in the active pinia hot-updates that store with the new definition.
  let hotSwapping = 0;
  const hotSwapped = [];
  function hotSwap(evaluate) {
    beginHotSwap();
    try { evaluate(); } finally { hotSwapping--; }
    return hotSwapped.splice(0);
  }
  // The same in two calls, for a host that evaluates the new code itself in between
  // (JavaScriptEngine.hotSwap): endHotSwap() returns the ids of the stores it updated.
  function beginHotSwap() { if (hotSwapping++ === 0) hotSwapped.length = 0; }
  function endHotSwap() {
    if (hotSwapping > 0) hotSwapping--;
    return hotSwapping === 0 ? hotSwapped.splice(0) : hotSwapped.slice();
  }

  function defineStore(idOrOptions, setup, setupOptions) {
    let id, definition;
    let isSetup = typeof setup === 'function';
    if (typeof idOrOptions === 'string') {
      id = idOrOptions;
      definition = isSetup ? { setup, options: setupOptions } : (setup || {});
    } else {
      definition = idOrOptions || {};
      id = definition.id;
      if (typeof id !== 'string') throw new Error('[\u{1F34D}]: "defineStore()" must be passed a store id as its first argument.');
      if (typeof definition.setup === 'function') { isSetup = true; definition = { setup: definition.setup, options: definition }; }
    }
    function useStore(pinia, hot) {
      pinia = pinia || (hasInjectionContext() ? inject(piniaSymbol, null) : null);
      if (pinia) setActivePinia(pinia);
      if (!activePinia) throw noActivePiniaError();
      pinia = activePinia;
      if (!pinia._s.has(id)) {
        createStore(id, definition, isSetup, pinia);
        useStore._pinia = pinia;
      }
      const store = pinia._s.get(id);
      if (hot) {
        const newStore = createStore(HOT_PREFIX + id, definition, isSetup, pinia, true);
        hot._hotUpdate(newStore);
      }
      return store;
    }
    useStore.$id = id;
    if (hotSwapping > 0 && activePinia && activePinia._s.has(id)) {
      useStore(activePinia, activePinia._s.get(id));
      hotSwapped.push(id);
    }
    return useStore;
  }

  /**
   * Pinia's acceptHMRUpdate: the function to give `import.meta.hot.accept`. It hot-updates the
   * stores of the new module that exist in the pinia the old definition used.
   */
  function acceptHMRUpdate(initialUseStore, hot) {
    return (newModule) => {
      const data = (hot && hot.data) || {};
      const pinia = data.pinia || initialUseStore._pinia;
      if (!pinia) return;
      data.pinia = pinia;
      for (const exportName in newModule) {
        const useStore = newModule[exportName];
        if (typeof useStore !== 'function' || typeof useStore.$id !== 'string' || !pinia._s.has(useStore.$id)) continue;
        if (useStore.$id !== initialUseStore.$id) {
          warn(`The id of the store changed from "${initialUseStore.$id}" to "${useStore.$id}". Reloading.`);
          return hot && typeof hot.invalidate === 'function' ? hot.invalidate() : undefined;
        }
        useStore(pinia, pinia._s.get(useStore.$id));
      }
    };
  }

  function storeToRefs(store) {
    const record = recordOf(store);
    const refs = {};
    if (!record) {   // not one of ours: Pinia's own rule
      const raw = toRaw(store);
      for (const key in raw) {
        const value = raw[key];
        if (isRef(value) || isReactive(value)) refs[key] = toRef(store, key);
      }
      return refs;
    }
    const storeRaw = toRaw(record.store);
    for (const key of record.stateKeys.concat(record.getterKeys)) refs[key] = toRef(store, key);
    for (const key of record.customKeys) {
      const value = hasOwn(storeRaw, key) ? storeRaw[key] : undefined;
      if (isRef(value) || isReactive(value)) refs[key] = toRef(store, key);
    }
    return refs;
  }

  function skipHydrate(object) {
    if (isObject(object)) { skipHydrateSet.add(object); skipHydrateSet.add(toRaw(object)); }
    return object;
  }

  // ---------------------------------------------------------------------------
  // Options-API helpers. `this` is expected to carry $pinia, as a Vue component would;
  // otherwise the active pinia is used.
  // ---------------------------------------------------------------------------

  let mapStoreSuffix = 'Store';
  function setMapStoreSuffix(suffix) { mapStoreSuffix = suffix; }
  const piniaOf = (context) => (context && context.$pinia ? context.$pinia : undefined);
  function mapStores(...stores) {
    if (Array.isArray(stores[0])) {
      warn('Directly pass all stores to "mapStores()" without putting them in an array:\n' +
        'Replace\n\tmapStores([useAuthStore, useCartStore])\nwith\n\tmapStores(useAuthStore, useCartStore)\n' +
        'This will fail in production if not fixed.');
      stores = stores[0];
    }
    const out = {};
    for (const useStore of stores) out[useStore.$id + mapStoreSuffix] = function () { return useStore(piniaOf(this)); };
    return out;
  }
  function eachKey(keysOrMapper, fn) {
    if (Array.isArray(keysOrMapper)) for (const key of keysOrMapper) fn(key, key);
    else for (const key of Object.keys(keysOrMapper)) fn(key, keysOrMapper[key]);
  }
  function mapState(useStore, keysOrMapper) {
    const out = {};
    eachKey(keysOrMapper, (name, source) => {
      out[name] = function () {
        const store = useStore(piniaOf(this));
        return typeof source === 'function' ? source.call(this, store) : store[source];
      };
    });
    return out;
  }
  function mapWritableState(useStore, keysOrMapper) {
    const out = {};
    eachKey(keysOrMapper, (name, source) => {
      out[name] = {
        get() { return useStore(piniaOf(this))[source]; },
        set(value) { useStore(piniaOf(this))[source] = value; }
      };
    });
    return out;
  }
  function mapActions(useStore, keysOrMapper) {
    const out = {};
    eachKey(keysOrMapper, (name, source) => {
      out[name] = function (...args) { return useStore(piniaOf(this))[source](...args); };
    });
    return out;
  }

  // Apply operations (as found under Symbol.for('statehub.ops')) to a plain object or to a
  // reactive one (then writes go through the proxy and are observed). Values are cloned.
  function applyOps(target, ops) {
    const clone = internals.snapshot;
    for (const op of ops) {
      const path = op.path, length = path.length;
      if (length === 0) {
        if (op.op !== OpKind.set) throw new Error(`applyOps: "${op.op}" needs a non-empty path`);
        const value = clone(op.value);
        for (const key of Object.keys(target)) delete target[key];   // key order follows the new state
        for (const key of Object.keys(value)) defineOwn(target, key, value[key]);
        continue;
      }
      let parent = target;
      const entryOp = ENTRY_OPS.has(op.op);
      const last = op.op === OpKind.splice || entryOp ? length : length - 1;
      for (let j = 0; j < last; j++) {
        parent = hasOwn(parent, path[j]) ? parent[path[j]] : undefined;   // own keys only
        if (!isObject(parent)) throw new Error('applyOps: no container at ' + JSON.stringify(path.slice(0, j + 1)));
      }
      if (entryOp) applyEntryOp(parent, op, clone);
      else if (op.op === OpKind.set) defineOwn(parent, path[length - 1], clone(op.value));
      else if (op.op === OpKind.delete) delete parent[path[length - 1]];
      else if (op.op === OpKind.splice) parent.splice(op.index, op.deleteCount, ...clone(op.items));
      else throw new Error(`applyOps: unknown op "${op.op}"`);
    }
    return target;
  }

  // Entry ops of a Map or Set (js/README.md): the entry is found by its position, so object
  // keys need not be the same objects.
  const ENTRY_OPS = new Set([OpKind.mapSet, OpKind.mapDelete, OpKind.setAdd, OpKind.setDelete, OpKind.mapClear, OpKind.setClear]);
  function applyEntryOp(collection, op, clone) {
    const isMap = op.op === OpKind.mapSet || op.op === OpKind.mapDelete || op.op === OpKind.mapClear;
    if (!(isMap ? collection instanceof Map || isMapProxy(collection) : collection instanceof Set || isSetProxy(collection))) {
      throw new Error(`applyOps: "${op.op}" needs a ${isMap ? 'Map' : 'Set'} at ${JSON.stringify(op.path)}`);
    }
    const memberAt = (index) => {
      let i = 0;
      for (const member of collection.keys()) { if (i === index) return { member }; i++; }
      throw new Error(`applyOps: no entry ${index} at ${JSON.stringify(op.path)}`);
    };
    switch (op.op) {
      case OpKind.mapSet: collection.set(op.added ? clone(op.key) : memberAt(op.index).member, clone(op.value)); break;
      case OpKind.mapDelete: case OpKind.setDelete: collection.delete(memberAt(op.index).member); break;
      case OpKind.setAdd: collection.add(clone(op.value)); break;
      default: collection.clear();
    }
  }
  const isMapProxy = (v) => toRaw(v) instanceof Map;
  const isSetProxy = (v) => toRaw(v) instanceof Set;

  const api = {
    createPinia, setActivePinia, getActivePinia, defineStore, storeToRefs, skipHydrate,
    disposePinia, MutationType, acceptHMRUpdate,
    mapStores, mapState, mapGetters: mapState, mapWritableState, mapActions, setMapStoreSuffix,
    createApp, inject, hasInjectionContext, hotSwap, beginHotSwap, endHotSwap,
    catchUpUnobservable: () => internals.catchUpUnobservable(),
    applyOps, OPS, piniaSymbol
  };
  global.StateHubPinia = api;
  for (const name of ['createPinia', 'setActivePinia', 'getActivePinia', 'defineStore', 'storeToRefs', 'MutationType',
    'skipHydrate', 'disposePinia', 'acceptHMRUpdate', 'mapStores', 'mapState', 'mapGetters', 'mapWritableState',
    'mapActions', 'setMapStoreSuffix', 'createApp', 'inject', 'hasInjectionContext']) global[name] = api[name];
})(typeof globalThis !== 'undefined' ? globalThis : this);
