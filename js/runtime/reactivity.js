/*
 * StateHub reactivity: a small Vue-3-compatible reactivity system written for StateHub.
 *
 * Classic script (IIFE), no modules. Publishes globalThis.StateHubReactivity and puts
 * Vue's names (ref, reactive, computed, watch, ...) on globalThis.
 *
 * Besides reactivity it keeps the bookkeeping the store runtime needs for its operation
 * log: every raw object reachable from a registered "state root" knows its parents, so a
 * write anywhere in a store's state can be turned into operations with exact paths.
 * See js/README.md.
 */
(function (global) {
  'use strict';

  let hasOwnProperty = Object.prototype.hasOwnProperty;
  let objToString = Object.prototype.toString;
  let isArray = Array.isArray;
  function hasOwn(o, k) { return hasOwnProperty.call(o, k); }
  function isObject(v) { return v !== null && typeof v === 'object'; }
  function hasChanged(a, b) { return !Object.is(a, b); }
  // The one way this file warns (development messages worded as Vue words them).
  function warn(message, ...details) {
    if (global.console && typeof global.console.warn === 'function') global.console.warn('[Vue warn] ' + message, ...details);
  }
  // Writes an own data property. "__proto__" is an ordinary key in store state (it comes from
  // JSON), so it is defined, never assigned: assigning it would replace the prototype.
  function assignOwn(obj, key, value) {
    if (key === '__proto__') Object.defineProperty(obj, key, { value: value, enumerable: true, writable: true, configurable: true });
    else obj[key] = value;
  }
  function ownValue(obj, key) { return hasOwnProperty.call(obj, key) ? obj[key] : undefined; }

  let RAW = '__v_raw';
  let IS_REACTIVE = '__v_isReactive';
  let SKIP = '__v_skip';
  let ITERATE_KEY = Symbol('iterate');
  const MAP_KEY_ITERATE_KEY = Symbol('Map key iterate');
  /**
   * The kinds of operation the log records (docs/PROTOCOL.md A.2).
   * @typedef {(string|number)[]} Path  steps from a state root: object keys, array indices
   * @typedef {{ op: OpKind.set, path: Path, value: unknown } | { op: OpKind.delete, path: Path }
   *   | { op: OpKind.splice, path: Path, index: number, deleteCount: number, items: unknown[] }
   *   | { op: OpKind.mapSet, path: Path, index: number, key: unknown, value: unknown, added: boolean }
   *   | { op: OpKind.mapDelete, path: Path, index: number, key: unknown }
   *   | { op: OpKind.setAdd, path: Path, index: number, value: unknown }
   *   | { op: OpKind.setDelete, path: Path, index: number, value: unknown }
   *   | { op: OpKind.mapClear | OpKind.setClear, path: Path }} Op
   * Entry ops (js/README.md): `path` names the Map or Set, `index` the entry's position in
   * insertion order at the time of the write (a new entry is last).
   */
  const OpKind = Object.freeze({ set: 'set', delete: 'delete', splice: 'splice', mapSet: 'mapSet', mapDelete: 'mapDelete',
    setAdd: 'setAdd', setDelete: 'setDelete', mapClear: 'mapClear', setClear: 'setClear' });
  const IS_READONLY = '__v_isReadonly';
  const IS_SHALLOW = '__v_isShallow';
  // Depth limits (docs/PROTOCOL.md, "Depth"): a store's state nests at most MAX_STATE_DEPTH
  // levels; an op's path has at most MAX_OP_PATH steps; a deeper write is reported as a `set`
  // of its ancestor at MAX_OP_PATH steps, so no write is ever dropped.
  let MAX_STATE_DEPTH = 512;
  let MAX_OP_PATH = 64;
  let MAX_WALK = MAX_STATE_DEPTH + 8;   // parent links deeper than this are a cycle or beyond the cap

  // ---------------------------------------------------------------------------
  // Effects, dependency tracking
  // ---------------------------------------------------------------------------

  let activeEffect = null;
  let shouldTrack = true;
  let activeScope = null;
  let targetMap = new WeakMap();

  function ReactiveEffect(fn, scheduler) {
    this.fn = fn;
    this.scheduler = scheduler || null;
    this.deps = [];
    this.active = true;
    this.computed = false;
    this.onStop = null;
    if (activeScope !== null && activeScope.active) activeScope.effects.push(this);
  }
  ReactiveEffect.prototype.run = function () {
    if (!this.active) return this.fn();
    cleanupEffect(this);
    let prevEffect = activeEffect, prevTrack = shouldTrack;
    activeEffect = this; shouldTrack = true;
    runningEffects.push(this);
    try { return this.fn(); }
    finally { runningEffects.pop(); activeEffect = prevEffect; shouldTrack = prevTrack; }
  };
  // The effects whose run has begun and not ended, innermost last. A time-limit stop skips the
  // `finally` above, so the ones left here after a stop were cut short: their dependencies
  // were cleared and not tracked again (recovered by releaseAfterStop).
  const runningEffects = [];
  ReactiveEffect.prototype.stop = function () {
    if (this.active) {
      cleanupEffect(this);
      this.active = false;
      if (this.onStop) this.onStop();
    }
  };
  function cleanupEffect(e) {
    let deps = e.deps;
    for (let i = 0; i < deps.length; i++) deps[i].delete(e);
    deps.length = 0;
  }

  function trackDep(dep) {
    if (!dep.has(activeEffect)) {
      dep.add(activeEffect);
      activeEffect.deps.push(dep);
    }
  }
  function track(target, key) {
    if (activeEffect === null || !shouldTrack) return;
    let depsMap = targetMap.get(target);
    if (depsMap === undefined) targetMap.set(target, (depsMap = new Map()));
    let dep = depsMap.get(key);
    if (dep === undefined) depsMap.set(key, (dep = new Set()));
    trackDep(dep);
  }
  // One trigger is one batch, as in Vue 3.5: computed values are marked dirty first (their
  // dependents join the batch), then every other effect of the batch runs once, even when it
  // depends on the written key and on a computed that read it.
  let batchDepth = 0;
  const batchedEffects = new Set();
  function runEffects(list) {
    batchDepth++;
    try {
      for (const e of list) if (e.computed && e !== activeEffect) e.scheduler();
      for (const e of list) if (!e.computed && e !== activeEffect && e.active) batchedEffects.add(e);
    } finally {
      batchDepth--;
    }
    if (batchDepth === 0) flushBatchedEffects();
  }
  function flushBatchedEffects() {
    while (batchedEffects.size !== 0) {
      const effects = Array.from(batchedEffects);
      batchedEffects.clear();
      for (const e of effects) {
        if (!e.active) continue;
        if (e.scheduler !== null) e.scheduler(); else e.run();
      }
    }
  }
  function triggerDep(dep) {
    if (dep === undefined || dep.size === 0) return;
    runEffects(Array.from(dep));
  }
  // kind: 0 = set existing key, 1 = add key, 2 = delete key, 3 = everything on target
  function trigger(target, kind, key) {
    let depsMap = targetMap.get(target);
    if (depsMap === undefined) return;
    let list = [];
    let add = function (dep) { if (dep !== undefined) dep.forEach(function (e) { list.push(e); }); };
    if (kind === 3) depsMap.forEach(add);
    else {
      add(depsMap.get(key));
      if (kind !== 0) add(depsMap.get(isArray(target) ? 'length' : ITERATE_KEY));
      if (target instanceof Map) add(depsMap.get(kind === 0 ? ITERATE_KEY : MAP_KEY_ITERATE_KEY));
    }
    if (list.length) runEffects(list.length > 1 ? Array.from(new Set(list)) : list);
  }
  // True when trigger(target, had ? 0 : 1, key) on a plain object would run no effect.
  function noEffectFor(target, key, had) {
    const depsMap = targetMap.get(target);
    if (depsMap === undefined) return true;
    let dep = depsMap.get(key);
    if (dep !== undefined && dep.size !== 0) return false;
    return had || (dep = depsMap.get(ITERATE_KEY)) === undefined || dep.size === 0;
  }
  function pauseTracking() { let p = shouldTrack; shouldTrack = false; return p; }
  function resetTracking(p) { shouldTrack = p; }

  // ---------------------------------------------------------------------------
  // State roots and parent links (for the store runtime's operation log)
  // ---------------------------------------------------------------------------
  //
  // roots: raw object -> info (an opaque record owned by the store runtime)
  // parentsOf: raw child -> array of { parent: raw parent, key, several: maybe at several indices }
  // Links are hints, validated when paths are resolved, so stale links are harmless.
  // Every placement of an object into a rooted tree goes through register(), so a live
  // placement always has a link.

  let roots = new WeakMap();
  let rootCount = 0;
  let parentsOf = new WeakMap();
  let opHook = null;   // function (info, ops)
  // Ops are recorded before effects run (so they are in true order even when a sync watcher
  // writes), but the runtime delivers them to sync subscribers only once the write and its
  // effects are done: writes.depth > 0 while a logged write is in progress; releaseHook runs after.
  // writes.now: set by a write that delivers at once (objectSet below) while it hands its op over,
  // so pinia.js delivers it without waiting for the write's end.
  let writes = { depth: 0, now: false };
  let releaseHook = null;
  function endWrite() { if (--writes.depth === 0 && releaseHook !== null) releaseHook(); }

  // What reactive() can wrap, as in Vue: plain objects and arrays (TargetKind.common), Map, Set,
  // WeakMap, WeakSet (TargetKind.collection); nothing else (Date, class instances, markRaw).
  const TargetKind = Object.freeze({ invalid: 0, common: 1, collection: 2 });
  const COLLECTION_TAGS = new Set(['[object Map]', '[object Set]', '[object WeakMap]', '[object WeakSet]']);
  function targetKind(v) {
    if (v[SKIP] || v.__v_isRef === true || !Object.isExtensible(v)) return TargetKind.invalid;
    const tag = objToString.call(v);
    if (tag === '[object Object]' || tag === '[object Array]') return TargetKind.common;
    return COLLECTION_TAGS.has(tag) ? TargetKind.collection : TargetKind.invalid;
  }
  function canObserve(v) { return targetKind(v) !== TargetKind.invalid; }
  // Map and Set values sit in a state tree under the key IN_COLLECTION: ops never address the
  // inside of a Map or Set (PROTOCOL.md A.3), so a change anywhere in one is sent as a `set` of
  // the whole collection at the path of the outermost collection around it.
  const IN_COLLECTION = Symbol('in collection');
  function isIterableCollection(v) { return v instanceof Map || v instanceof Set; }
  function hasMember(collection, raw) {
    if (collection instanceof Set) return collection.has(raw);
    if (collection.has(raw)) return true;   // a Map key
    for (const value of collection.values()) if (value === raw) return true;
    return false;
  }
  // Marks the end of a path that leads into a collection (see collectPaths).
  function CollectionStep(collection) { this.collection = collection; }

  // Values in a state tree that no proxy can see change (markRaw objects, Date, other class
  // instances, what sits below a shallowReactive): value -> { parent, key, print }. Their
  // changes are caught up by catchUpUnobservable() when the store next reports a mutation.
  const unobservable = new Map();
  function fingerprint(v) {
    if (v instanceof Date) return v.getTime();   // a number: compared without building a string
    try {
      return JSON.stringify(v, function (k, x) {
        if (x instanceof Map) return { M: Array.from(x.entries()) };
        if (x instanceof Set) return { S: Array.from(x.values()) };
        if (x === undefined) return '\u0000u';
        if (typeof x === 'bigint') return 'n' + x;
        if (typeof x === 'number' && !isFinite(x)) return 'N' + x;
        return x;
      }) + '';
    } catch (e) {
      return '\u0000unprintable';   // a cycle: not sent anyway (the plugin reports it)
    }
  }
  function noteUnobservable(value, parent, key) {
    if (typeof value === 'function') return;   // a ref's fingerprint is its value's (toJSON)
    unobservable.set(value, { parent: parent, key: key, print: fingerprint(value) });
  }
  let catchingUp = false;
  // Emits a `set` for every unobservable value in a state tree whose content changed since it
  // was last sent, and forgets the ones no longer in place.
  function catchUpUnobservable() {
    if (catchingUp || unobservable.size === 0 || opHook === null) return;
    catchingUp = true;
    writes.depth++;
    try {
      // forEach, not an iterator of pairs: no allocation per value (this runs often)
      const changed = [];
      unobservable.forEach((entry, value) => {
        const parent = entry.parent, key = entry.key;
        const inPlace = key === IN_COLLECTION ? hasMember(parent, value)
          : (hasOwnProperty.call(parent, key) && parent[key] === value);
        if (!inPlace) { unobservable.delete(value); return; }
        const print = fingerprint(value);
        if (print === entry.print || (print !== print && entry.print !== entry.print)) return;   // NaN: an invalid Date stays invalid
        entry.print = print;
        changed.push(value, entry);
      });
      for (let i = 0; i < changed.length; i += 2) {
        const value = changed[i], entry = changed[i + 1];
        if (entry.key === IN_COLLECTION) emitCollection(entry.parent);
        else emitSet(entry.parent, entry.key, value);
      }
    } finally {
      catchingUp = false;
      endWrite();
    }
  }

  function addLink(child, parent, key) {
    let ents = parentsOf.get(child);
    if (ents === undefined) { parentsOf.set(child, [{ parent: parent, key: key, several: false }]); return; }
    let arr = isArray(parent);
    for (let i = 0; i < ents.length; i++) {
      let e = ents[i];
      if (e.parent === parent) {
        if (arr) { e.several = true; return; }   // may now sit at several indices: rescan later
        if (e.key === key) return;
      }
    }
    ents.push({ parent: parent, key: key, several: false });
  }

  // Deep-clone a raw value for an op (structuredClone-like, JSON-free) and, when `parent`
  // is given, register the links of the value and everything under it.
  function snapshot(v, parent, key, seen) {
    if (!isObject(v)) return v;
    if (v[RAW] !== undefined) {
      const wrapped = v;
      v = toRaw(v);
      // keep raw trees free of reactive proxies (a readonly or shallow one stays, as in Vue)
      if (parent !== null && key !== IN_COLLECTION && !keepsWrapper(wrapped)) parent[key] = v;
    }
    if (v.__v_isRef === true) return snapshot(v.value, null, null, seen);
    if (seen === undefined) seen = new Map();
    else {
      let s = seen.get(v);
      if (s !== undefined) return s;   // a cycle: keep it
      if (seen.size > MAX_WALK) return undefined;   // beyond the state depth cap: the plugin reports it
    }
    let out, i, k;
    if (isArray(v)) {
      let len = v.length;
      out = new Array(len);
      seen.set(v, out);
      let observable = canObserve(v);
      if (parent !== null && observable) addLink(v, parent, key);
      if (parent !== null && !observable) noteUnobservable(v, parent, key);
      let p2 = (parent !== null && observable) ? v : null;
      for (i = 0; i < len; i++) {
        if (i in v) out[i] = snapshot(v[i], p2, i, seen);
      }
      seen.delete(v);   // only ancestors count: a value shared twice is cloned twice
      return out;
    }
    let tag = objToString.call(v);
    if (tag === '[object Object]') {
      out = {};
      seen.set(v, out);
      let obs = canObserve(v);
      if (parent !== null && obs) addLink(v, parent, key);
      if (parent !== null && !obs) noteUnobservable(v, parent, key);
      let p3 = (parent !== null && obs) ? v : null;
      let keys = Object.keys(v);
      for (i = 0; i < keys.length; i++) { k = keys[i]; assignOwn(out, k, snapshot(v[k], p3, k, seen)); }
      seen.delete(v);
      return out;
    }
    if (v instanceof Date) {
      if (parent !== null) noteUnobservable(v, parent, key);
      return new Date(v.getTime());
    }
    if (isIterableCollection(v)) {
      const linked = parent !== null && canObserve(v);
      if (linked) addLink(v, parent, key);
      const owner = linked ? v : null;
      if (v instanceof Map) {
        out = new Map(); seen.set(v, out);
        v.forEach((val, mk) => { out.set(snapshot(mk, owner, IN_COLLECTION, seen), snapshot(val, owner, IN_COLLECTION, seen)); });
      } else {
        out = new Set(); seen.set(v, out);
        v.forEach((val) => { out.add(snapshot(val, owner, IN_COLLECTION, seen)); });
      }
      seen.delete(v);
      return out;
    }
    if (parent !== null) noteUnobservable(v, parent, key);
    if (v instanceof RegExp) return new RegExp(v.source, v.flags);
    if (typeof ArrayBuffer !== 'undefined') {
      if (v instanceof ArrayBuffer) return v.slice(0);
      if (ArrayBuffer.isView(v)) return typeof v.slice === 'function' ? v.slice() : new DataView(v.buffer.slice(0), v.byteOffset, v.byteLength);
    }
    if (typeof v === 'function') return v;
    // other objects (class instances with exotic tags, errors, ...): own enumerable props
    out = {}; seen.set(v, out);
    for (const ownKey of Object.keys(v)) assignOwn(out, ownKey, snapshot(v[ownKey], null, null, seen));
    return out;
  }

  // Register links for a whole tree (no clone), used when a root is registered.
  function registerTree(v, parent, key, depth) {
    if (!isObject(v) || depth > MAX_WALK) return;
    if (v[RAW] !== undefined) {
      const wrapped = v;
      v = toRaw(v);
      if (parent !== null && key !== IN_COLLECTION && !keepsWrapper(wrapped)) parent[key] = v;
    }
    // The kind is read once (a plain object's tag is not read twice), and primitives are skipped
    // before the call: a store's creation walks its whole initial state here (docs/pool.md).
    const kind = targetKind(v);
    if (kind === TargetKind.invalid) { if (parent !== null) noteUnobservable(v, parent, key); return; }
    if (parent !== null) addLink(v, parent, key);
    if (isArray(v)) { for (let i = 0; i < v.length; i++) { const c = v[i]; if (isObject(c)) registerTree(c, v, i, depth + 1); } }
    else if (v instanceof Map) v.forEach((val, mk) => { registerTree(mk, v, IN_COLLECTION, depth + 1); registerTree(val, v, IN_COLLECTION, depth + 1); });
    else if (v instanceof Set) v.forEach((val) => registerTree(val, v, IN_COLLECTION, depth + 1));
    else if (kind === TargetKind.common) { let keys = Object.keys(v); for (let j = 0; j < keys.length; j++) { const c = v[keys[j]]; if (isObject(c)) registerTree(c, v, keys[j], depth + 1); } }
  }

  function markStateRoot(raw, info) {
    raw = toRaw(raw);
    if (!roots.has(raw)) rootCount++;
    roots.set(raw, info);
    infoRoots.set(info, raw);
    registerTree(raw, null, null, 0);
  }
  function unmarkStateRoot(raw) {
    raw = toRaw(raw);
    if (roots.has(raw)) { roots.delete(raw); rootCount--; }
  }

  // Collect (info, path) pairs for every live position of `raw` in a rooted tree.
  // out is a flat array: info0, path0, info1, path1, ...
  // v is a readonly or shallow proxy of raw kept in a state (keepsWrapper): raw sits where v does.
  function wraps(v, raw) { return isObject(v) && v[RAW] !== undefined && toRaw(v) === raw; }
  function collectPaths(raw, suffix, out, depth) {
    let info = roots.get(raw);
    if (info !== undefined) out.push(info, suffix);
    let ents = parentsOf.get(raw);
    if (ents === undefined || depth > MAX_WALK) return;
    let stale = false;
    for (let i = 0; i < ents.length; i++) {
      let e = ents[i], p = e.parent;
      if (isArray(p)) {
        if (!e.several && (p[e.key] === raw || wraps(p[e.key], raw))) { collectPaths(p, [e.key].concat(suffix), out, depth + 1); continue; }
        let idx = p.indexOf(raw), first = idx, n = 0;
        while (idx !== -1) {
          n++;
          collectPaths(p, [idx].concat(suffix), out, depth + 1);
          idx = p.indexOf(raw, idx + 1);
        }
        if (n === 0) { e.parent = null; stale = true; }
        else { e.key = first; e.several = n > 1; }
      } else if (e.key === IN_COLLECTION) {
        if (hasMember(p, raw)) { pathsIntoCollections = true; collectPaths(p, [new CollectionStep(p)], out, depth + 1); }
        else { e.parent = null; stale = true; }
      } else if ((p[e.key] === raw || wraps(p[e.key], raw)) && hasOwnProperty.call(p, e.key)) {
        collectPaths(p, [e.key].concat(suffix), out, depth + 1);
      } else { e.parent = null; stale = true; }
    }
    if (stale) {
      let live = ents.filter(function (x) { return x.parent !== null; });
      if (live.length) parentsOf.set(raw, live); else parentsOf.delete(raw);
    }
  }
  // Fast path: one chain of single, valid parent links up to one root (the usual case).
  // Returns the path array (and sets singleInfo), or null when the general walk is needed.
  let singleInfo = null;
  function singlePath(raw) {
    let keys = null;
    for (let depth = 0; depth < MAX_OP_PATH; depth++) {
      let ents = parentsOf.get(raw);
      let info = roots.get(raw);
      if (info !== undefined) {
        if (ents !== undefined) return null;
        singleInfo = info;
        if (keys === null) return [];
        keys.reverse();
        return keys;
      }
      if (ents === undefined || ents.length !== 1) return null;
      let e = ents[0], p = e.parent, k = e.key;
      if (e.several || (p[k] !== raw && !wraps(p[k], raw))) return null;
      if (keys === null) keys = [k]; else keys.push(k);
      raw = p;
    }
    return null;
  }
  let single = [null, null];
  function pathsOf(raw) {
    pathsIntoCollections = false;
    let path = singlePath(raw);
    if (path !== null) {
      single[0] = singleInfo; single[1] = path;
      return single;
    }
    let out = [];
    collectPaths(raw, [], out, 0);
    return out;
  }

  // op emitters (only called when rootCount > 0 and opHook set). The ops of one write are
  // handed over together, one call per store: opHook(info, [op, ...]).
  let infoRoots = new WeakMap();   // info -> raw root, to resolve capped paths
  // Hands ops to the runtime, each op path capped at MAX_OP_PATH steps: a longer one becomes a
  // `set` of its ancestor at the cap (a fresh snapshot of that ancestor as it is now).
  let pathsIntoCollections = false;   // set when collectPaths met a CollectionStep
  function hand(info, ops) {
    if (pathsIntoCollections) ops = wholeCollections(ops);
    for (let i = 0; i < ops.length; i++) {
      let o = ops[i];
      if (o.path.length > MAX_OP_PATH) ops[i] = ancestorSet(info, o.path);
    }
    opHook(info, ops);
  }
  // An op whose path leads into a Map or Set becomes one `set` of that whole collection.
  function wholeCollections(ops) {
    const out = [], done = [];
    for (const o of ops) {
      const at = o.path.findIndex((step) => step instanceof CollectionStep);
      if (at === -1) { out.push(o); continue; }
      const collection = o.path[at].collection;
      if (done.indexOf(collection) !== -1) continue;
      done.push(collection);
      out.push(lazyCollectionSet(o.path.slice(0, at), collection));
    }
    return out;
  }
  // A `set` of a whole Map or Set whose value is copied when first read: a subscriber that
  // reads it at once gets the collection as it is now; one that reads it later (the sync
  // plugin, at the end of the tick, after dropping the earlier sets of the same collection)
  // gets it as it is then, which is what applying the later ops would give anyway. Filling a
  // Map in a loop thus costs one copy per tick, not one per write. Marked with LAZY_VALUE.
  // A later entry op of the same collection (mapSet, setAdd, ...) would then be applied twice, so
  // the entry methods settle (copy) the collection's outstanding lazy sets before they write.
  const LAZY_VALUE = Symbol.for('statehub.lazyValue');
  const lazyOutstanding = new WeakMap();   // collection -> its lazy sets not yet copied
  function lazyCollectionSet(path, collection) {
    let copy, copied = false;
    const op = {
      op: OpKind.set,
      path,
      get value() {
        if (!copied) { copied = true; copy = snapshotCollection(collection); }
        return copy;
      },
      [LAZY_VALUE]: true
    };
    const list = lazyOutstanding.get(collection);
    if (list === undefined) lazyOutstanding.set(collection, [op]);
    else list.push(op);
    return op;
  }
  function settleLazy(collection) {
    const list = lazyOutstanding.get(collection);
    lazyOutstanding.delete(collection);
    for (const op of list) void op.value;
  }
  // A copy of a Map or Set in a state tree, its members linked to it.
  function snapshotCollection(collection) {
    const seen = new Map();
    if (collection instanceof Map) {
      const out = new Map();
      seen.set(collection, out);
      collection.forEach((value, key) => { out.set(snapshot(key, collection, IN_COLLECTION, seen), snapshot(value, collection, IN_COLLECTION, seen)); });
      return out;
    }
    const out = new Set();
    seen.set(collection, out);
    collection.forEach((value) => { out.add(snapshot(value, collection, IN_COLLECTION, seen)); });
    return out;
  }
  // A Map or Set changed in place: an entry op at each of its paths (kind: Vue's trigger type,
  // 0 set of an existing key, 1 add, 2 delete, 3 clear; index: the entry's position, -1 when
  // not yet known). A collection inside another one, or a member no proxy saw change (kind
  // undefined: a Date in a Set), is sent as a `set` of the (outermost) collection.
  function emitCollection(raw, kind, key, member, index) {
    const out = pathsOf(raw);
    if (out.length === 0) return;
    if (!anyWants(out)) { registerTree(raw, null, null, 0); return; }
    const ops = [];
    let make = null;
    for (let i = 0; i < out.length; i += 2) {
      const path = out[i + 1].slice();
      if (kind === undefined || (pathsIntoCollections && path.some((step) => step instanceof CollectionStep))) { ops.push(lazyCollectionSet(path, raw)); continue; }
      if (make === null) make = entryOps(raw, kind, key, member, index);
      ops.push(make(path));
    }
    deliverOps(out, ops);
  }
  // Makes the entry op of one write, one per path. A member that is an object is copied when
  // first read (LAZY_VALUE, as for whole-collection sets): a batched reader sees it as it is at
  // the end of the tick, so `map.set(k, item); item.x = 1` (a write into the raw item, which no
  // proxy sees) still reaches the mirror. Later writes into the member through a proxy are
  // whole-collection sets, which supersede it.
  function entryOps(raw, kind, key, member, index) {
    const isMap = raw instanceof Map;
    if (kind === 3) { const op = isMap ? OpKind.mapClear : OpKind.setClear; return (path) => ({ op, path }); }
    if (index < 0) index = indexOfMember(raw, key);
    if (kind === 2) {
      const gone = isObject(key) ? snapshot(key, null, null) : key;
      return isMap ? (path) => ({ op: OpKind.mapDelete, path, index, key: gone })
        : (path) => ({ op: OpKind.setDelete, path, index, value: gone });
    }
    let copy, copied = false;
    const value = isMap ? member : key;
    const read = () => {
      if (!copied) { copied = true; copy = snapshot(value, null, null); }
      return copy;
    };
    const lazy = isObject(value);
    const mapKey = isMap && isObject(key) ? snapshot(key, null, null) : key;
    return (path) => {
      const op = isMap ? { op: OpKind.mapSet, path, index, key: mapKey, value: undefined, added: kind === 1 }
        : { op: OpKind.setAdd, path, index, value: undefined };
      if (!lazy) op.value = value;
      else { Object.defineProperty(op, 'value', { get: read, enumerable: true, configurable: true }); op[LAZY_VALUE] = true; }
      return op;
    };
  }
  // Position of a Map key or Set value in insertion order (SameValueZero, as Map uses).
  function indexOfMember(collection, key) {
    let i = 0;
    for (const k of collection.keys()) {
      if (k === key || (k !== k && key !== key)) return i;
      i++;
    }
    return -1;
  }
  function ancestorSet(info, path) {
    let node = infoRoots.get(info), parent = null, key = null;
    let cut = path.slice(0, MAX_OP_PATH);
    for (let i = 0; i < cut.length && isObject(node); i++) { parent = node; key = cut[i]; node = node[key]; }
    return { op: OpKind.set, path: cut, value: isObject(node) ? snapshot(node, parent, key) : node };
  }
  function deliverOps(out, ops) {
    if (out.length === 2) { if (out[0].wantsOps) hand(out[0], ops); return; }
    let done = [];
    for (let i = 0; i < out.length; i += 2) {
      let info = out[i];
      if (done.indexOf(info) !== -1) continue;
      done.push(info);
      if (!info.wantsOps) continue;
      let mine = [];
      for (let j = i; j < out.length; j += 2) if (out[j] === info) mine.push(ops[j >> 1]);
      hand(info, mine);
    }
  }
  function anyWants(out) {
    for (let i = 0; i < out.length; i += 2) if (out[i].wantsOps) return true;
    return false;
  }
  // now: the caller delivers at once (objectSet, writes.depth 0): the op of a single path is handed
  // over with writes.now set; several paths (several stores maybe) are held and released together,
  // as any write's are.
  function emitSet(target, key, value, now) {
    if (parentsOf.get(target) === undefined) {   // fastest path: a write at the top of a state
      let rinfo = roots.get(target);
      if (rinfo === undefined) return;
      if (!rinfo.wantsOps) { if (isObject(value)) registerTree(value, target, key, 0); return; }
      let op = { op: OpKind.set, path: [key], value: isObject(value) ? snapshot(value, target, key) : value };
      if (now) writes.now = true;
      opHook(rinfo, [op]);
      return;
    }
    let out = pathsOf(target);
    if (out.length === 0) return;
    let obj = isObject(value);
    if (!anyWants(out)) { if (obj) registerTree(value, target, key, 0); return; }
    if (out.length === 2) {
      let p1 = out[1].slice(); p1.push(key);
      let op = { op: OpKind.set, path: p1, value: obj ? snapshot(value, target, key) : value };
      if (now) writes.now = true;
      hand(out[0], [op]);
      return;
    }
    let ops = [];
    for (let i = 0; i < out.length; i += 2) {
      let path = out[i + 1].slice(); path.push(key);
      ops.push({ op: OpKind.set, path: path, value: obj ? snapshot(value, target, key) : value });
    }
    if (!now) { deliverOps(out, ops); return; }
    writes.depth++;
    try { deliverOps(out, ops); } finally { endWrite(); }
  }
  function emitDelete(target, key) {
    let out = pathsOf(target);
    if (out.length === 0 || !anyWants(out)) return;
    let ops = [];
    for (let i = 0; i < out.length; i += 2) {
      let path = out[i + 1].slice(); path.push(key);
      ops.push({ op: OpKind.delete, path: path });
    }
    deliverOps(out, ops);
  }
  function emitSplice(target, index, deleteCount, items) {
    let out = pathsOf(target);
    if (out.length === 0) return;
    if (!anyWants(out)) { for (let q = 0; q < items.length; q++) registerTree(items[q], target, index + q, 0); return; }
    let ops = [];
    for (let i = 0; i < out.length; i += 2) {
      let snap = new Array(items.length);
      for (let j = 0; j < items.length; j++) snap[j] = snapshot(items[j], target, index + j);
      ops.push({ op: OpKind.splice, path: out[i + 1].slice(), index: index, deleteCount: deleteCount, items: snap });
    }
    deliverOps(out, ops);
  }
  function emitWhole(target) {   // the array itself replaced at each of its paths
    let out = pathsOf(target);
    if (out.length === 0) return;
    if (!anyWants(out)) { for (let q = 0; q < target.length; q++) registerTree(target[q], target, q, 0); return; }
    let ops = [];
    for (let i = 0; i < out.length; i += 2) {
      let copy = new Array(target.length);
      for (let j = 0; j < target.length; j++) if (j in target) copy[j] = snapshot(target[j], target, j);
      ops.push({ op: OpKind.set, path: out[i + 1].slice(), value: copy });
    }
    deliverOps(out, ops);
  }

  function indexKey(key) {   // array index as a number, or -1
    if (typeof key !== 'string') return -1;
    let c = key.charCodeAt(0);
    if (c < 48 || c > 57) return -1;
    let n = +key;
    return (n >>> 0) === n && n !== 4294967295 && String(n) === key ? n : -1;
  }

  // ---------------------------------------------------------------------------
  // reactive()
  // ---------------------------------------------------------------------------

  let proxyMap = new WeakMap();

  function toReactive(v) { return isObject(v) ? reactive(v) : v; }

  function getTrap(target, key, receiver) {
    if (key === RAW) return target;
    if (key === IS_REACTIVE) return true;
    if (key === IS_READONLY || key === IS_SHALLOW) return false;
    if (key === '__proto__' && !hasOwnProperty.call(target, key)) return Reflect.get(target, key);
    let res = target[key];
    if (typeof key === 'symbol') return res;
    if (activeEffect !== null && shouldTrack) track(target, key);
    if (res !== null && typeof res === 'object') {
      if (res.__v_isRef === true) return res.value;
      return reactive(res);
    }
    return res;
  }
  function arrayGetTrap(target, key, receiver) {
    if (key === RAW) return target;
    if (key === IS_REACTIVE) return true;
    if (key === IS_READONLY || key === IS_SHALLOW) return false;
    if (typeof key === 'string' && hasOwnProperty.call(arrayInstrumentations, key)) return arrayInstrumentations[key];
    let res = target[key];
    if (typeof key === 'symbol') return res;
    if (activeEffect !== null && shouldTrack) track(target, key);
    if (res !== null && typeof res === 'object') return reactive(res);
    return res;
  }

  // Objects that hold refs as Vue does (stored as refs, unwrapped on read): stores. Their
  // accessor properties (state and getters) are written through their setters, which do
  // their own triggering.
  // refHolders: store raw object -> its accessor cache (storeProxy, below).
  const refHolders = new WeakMap();
  function objectSet(target, key, value, receiver) {
    if (proxyMap.get(target) !== receiver && shallowProxyMap.get(target) !== receiver) return Reflect.set(target, key, value, receiver);
    const accessors = refHolders.get(target);
    if (accessors !== undefined) {
      const entry = accessors.entry(key);
      if (entry !== null && isObject(value) && value.__v_isRef === true) {
        // a ref replaces the accessor (as assigning a ref over a ref does in Vue), e.g. a hot-updated getter
        Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
        accessors.forget(key);
        trigger(target, 0, key);
        return true;
      }
      if (entry !== null && entry.set !== undefined) { entry.set.call(receiver, value); return true; }
      if (entry !== null) { warn(`Set operation on key "${String(key)}" failed: it has a getter and no setter.`); return true; }
    }
    return setOwn(target, key, value, receiver, accessors === undefined);
  }
  // objectSet past its checks: receiver is target's reactive proxy and key no accessor of a store
  // (plain: target is no store, so a ref assigned is bound, not kept). A store's state key is
  // written here directly (storeProxy), its state root already known to be a plain reactive object.
  function setOwn(target, key, value, receiver, plain) {
    if (isObject(value) && value[RAW] !== undefined && !keepsWrapper(value)) value = value[RAW];
    let had = hasOwnProperty.call(target, key);
    let old = had ? target[key] : undefined;
    if (had && isObject(old) && old.__v_isRef === true && !(isObject(value) && value.__v_isRef === true)) {
      writeKeptRef(target, key, old, value);
      return true;
    }
    if (plain && isObject(value) && value instanceof RefImpl) {
      // A plain ref assigned into a reactive object: keep its value here and bind the ref to
      // this property (reads and writes through either side meet, and stay in the op log).
      let rv = value._b !== null ? toRaw(value._b[value._k]) : value._rawValue;
      bindRef(value, receiver, key);
      value = rv;
      old = had ? target[key] : undefined;
      if (had && Object.is(old, value)) return true;
    }
    if (had && Object.is(old, value)) return true;
    if (key !== '__proto__') target[key] = value; else assignOwn(target, key, value);
    if (rootCount !== 0 && opHook !== null && typeof key === 'string') {
      if (writes.depth === 0 && unobservable.size === 0 && noEffectFor(target, key, had)) {
        // No effect runs for this write, so nothing can come between its op and the op's delivery:
        // deliver at once (js/README.md, "When sync subscribers are called"). An effect a subscriber
        // creates now does not run for this write, as in Vue, where a write runs the effects it found.
        try { emitSet(target, key, value, true); } finally { writes.now = false; }
        return true;
      }
      writes.depth++;
      try { emitSet(target, key, value); trigger(target, had ? 0 : 1, key); } finally { endWrite(); }
    } else trigger(target, had ? 0 : 1, key);
    return true;
  }
  // A ref kept in a state (a shallowRef or customRef a setup store returned) written through the
  // state, as Vue does: `ref.value = value`. The write is a `set` of the key with the ref's new
  // value, recorded before the ref's effects run, like any other write.
  function writeKeptRef(target, key, ref, value) {
    const logged = rootCount !== 0 && opHook !== null && typeof key === 'string';
    if (ref instanceof RefImpl && ref._b === null) {
      const raw = ref.__v_isShallow ? value : toRaw(value);
      if (!hasChanged(raw, ref._rawValue)) return;
      ref._rawValue = raw;
      ref._value = ref.__v_isShallow ? value : toReactive(value);
      if (!logged) { triggerDep(ref.dep); return; }
      writes.depth++;
      try { sentAsIs(ref); emitSet(target, key, ref); triggerDep(ref.dep); } finally { endWrite(); }
      return;
    }
    if (!logged) { ref.value = value; return; }
    writes.depth++;
    try { ref.value = value; sentAsIs(ref); emitSet(target, key, ref); } finally { endWrite(); }
  }
  // An unobservable value whose content was just sent in an op: a catch-up must not send it again.
  function sentAsIs(value) {
    const entry = unobservable.get(value);
    if (entry !== undefined) entry.print = fingerprint(value);
  }
  function arraySet(target, key, value, receiver) {
    if (proxyMap.get(target) !== receiver && shallowProxyMap.get(target) !== receiver) return Reflect.set(target, key, value, receiver);
    if (isObject(value) && value[RAW] !== undefined && !keepsWrapper(value)) value = value[RAW];
    let oldLen = target.length;
    if (key === 'length') {
      let newLen = value;
      target.length = value;          // throws RangeError on invalid length, like an array
      newLen = target.length;
      if (newLen === oldLen) return true;
      if (rootCount !== 0 && opHook !== null) {
        writes.depth++;
        try {
          if (newLen < oldLen) emitSplice(target, newLen, oldLen - newLen, []);
          else emitSplice(target, oldLen, 0, new Array(newLen - oldLen).fill(null));
          trigger(target, 3);
        } finally { endWrite(); }
      } else trigger(target, 3);
      return true;
    }
    let idx = indexKey(key);
    if (idx === -1) {  // non-index property on an array: reactive, not part of JSON state
      let hadP = hasOwnProperty.call(target, key);
      if (hadP && Object.is(target[key], value)) return true;
      target[key] = value;
      trigger(target, hadP ? 0 : 1, key);
      return true;
    }
    if (idx < oldLen) {
      let hadI = idx in target;
      if (hadI && Object.is(target[idx], value)) return true;
      target[idx] = value;
      if (rootCount !== 0 && opHook !== null) {
        writes.depth++;
        try { emitSet(target, idx, value); trigger(target, hadI ? 0 : 1, key); } finally { endWrite(); }
      } else trigger(target, hadI ? 0 : 1, key);
      return true;
    }
    target[idx] = value;
    if (rootCount !== 0 && opHook !== null) {
      let items = new Array(idx - oldLen + 1).fill(null);
      items[items.length - 1] = value;
      writes.depth++;
      try { emitSplice(target, oldLen, 0, items); trigger(target, 3); } finally { endWrite(); }
    } else trigger(target, 3);
    return true;
  }
  // accessors: a store's accessor cache (its own traps pass it), undefined for other objects.
  function deleteTrap(target, key, accessors) {
    let had = hasOwnProperty.call(target, key);
    let ok = delete target[key];
    if (ok && had) {
      if (accessors !== undefined) accessors.forget(key);   // before the effects below read the key
      if (rootCount !== 0 && opHook !== null && typeof key === 'string') {
        writes.depth++;
        try {
          if (isArray(target)) {
            let idx = indexKey(key);
            if (idx !== -1) emitSet(target, idx, null);   // a hole: JSON null
          } else emitDelete(target, key);
          trigger(target, 2, key);
        } finally { endWrite(); }
      } else trigger(target, 2, key);
    }
    return ok;
  }
  function hasTrap(target, key) {
    if (typeof key !== 'symbol' && activeEffect !== null && shouldTrack) track(target, key);
    return key in target;
  }
  function ownKeysTrap(target) {
    if (activeEffect !== null && shouldTrack) track(target, isArray(target) ? 'length' : ITERATE_KEY);
    return Reflect.ownKeys(target);
  }

  // Object.defineProperty(state, key, { value }) is a write like any other (the sync plugin
  // uses it for "__proto__" keys); accessors and non-default attributes pass through.
  function definePropertyTrap(target, key, desc, accessors) {
    let plainData = hasOwnProperty.call(desc, 'value') && !desc.get && !desc.set &&
      desc.enumerable !== false && desc.writable !== false && desc.configurable !== false;
    if (plainData && typeof key === 'string' && !isArray(target)) {
      let receiver = proxyMap.get(target) || shallowProxyMap.get(target);
      if (receiver !== undefined) return objectSet(target, key, desc.value, receiver);
    }
    let had = hasOwnProperty.call(target, key);
    let ok = Reflect.defineProperty(target, key, desc);
    if (ok) {
      if (accessors !== undefined) accessors.forget(key);
      trigger(target, had ? 0 : 1, key);
    }
    return ok;
  }

  let objectHandlers = { get: getTrap, set: objectSet, deleteProperty: deleteTrap, has: hasTrap, ownKeys: ownKeysTrap, defineProperty: definePropertyTrap };
  // A store: a reactive object whose state and getters are accessors. What an accessor returns
  // is returned as is, as Vue returns a ref's value from a reactive object (a shallowRef's
  // value stays raw, a getter's object is not made reactive); data properties behave as usual.
  //
  // Each store proxy caches, per key, what its raw object holds there (js/README.md, "The store
  // object and its accessor cache"): null for no accessor, else the accessor's get/set, and for
  // a state accessor its holder ({ root, proxy }, the store's record) and state key, so reads
  // and writes reach the state root through the state proxy's own trap functions instead of
  // through the accessor and a second proxy. A descriptor per access cost more than the rest of
  // a store write.
  const MAX_CACHED_KEYS = 256;   // absent keys are cached too: bounded, then the cache starts over
  const stateAccessors = new WeakMap();   // getter of a state accessor -> { holder, key, set }
  function StoreAccessors(raw) {
    this.raw = raw;
    this.byKey = Object.create(null);
    this.size = 0;
  }
  StoreAccessors.prototype.entry = function (key) {
    const known = this.byKey[key];
    return known !== undefined ? known : this.learn(key);
  };
  StoreAccessors.prototype.learn = function (key) {
    const descriptor = Object.getOwnPropertyDescriptor(this.raw, key);
    let entry = null;
    if (descriptor !== undefined && (descriptor.get !== undefined || descriptor.set !== undefined)) {
      const state = stateAccessors.get(descriptor.get);
      const isState = state !== undefined && state.set === descriptor.set;
      entry = { get: descriptor.get, set: descriptor.set, holder: isState ? state.holder : null, key: isState ? state.key : key,
        root: null, proxy: null, direct: false };
    }
    if (this.size >= MAX_CACHED_KEYS) { this.byKey = Object.create(null); this.size = 0; }
    this.byKey[key] = entry;
    this.size++;
    return entry;
  };
  StoreAccessors.prototype.forget = function (key) {
    if (this.byKey[key] !== undefined) this.byKey[key] = undefined;
  };
  StoreAccessors.prototype.forgetAll = function () { this.byKey = Object.create(null); this.size = 0; };
  // True when a state accessor's current state root is a plain object behind its reactive()
  // proxy, so the proxy's traps are getTrap and objectSet; follows a replaced root.
  function stateDirect(entry) {
    const holder = entry.holder, root = holder.root, proxy = holder.proxy;
    if (entry.root !== root || entry.proxy !== proxy) {
      entry.root = root; entry.proxy = proxy;
      entry.direct = isObject(root) && proxyMap.get(root) === proxy && !isArray(root) &&
        objToString.call(root) === '[object Object]' && !refHolders.has(root);
    }
    return entry.direct;
  }
  function storeProxy(raw) {
    const accessors = new StoreAccessors(raw);
    refHolders.set(raw, accessors);
    let proxy = null;
    const handlers = {
      get(target, key, receiver) {
        if (typeof key === 'string' && key !== RAW && key !== IS_REACTIVE) {
          let entry = accessors.byKey[key];
          if (entry === undefined) entry = accessors.learn(key);
          if (entry !== null && entry.get !== undefined) {
            if (activeEffect !== null && shouldTrack) track(target, key);
            const holder = entry.holder;   // stateDirect(entry), its cached answer inline
            if (holder !== null && (entry.root === holder.root && entry.proxy === holder.proxy ? entry.direct : stateDirect(entry))) return getTrap(entry.root, entry.key, entry.proxy);
            return entry.get.call(receiver);
          }
        }
        return getTrap(target, key, receiver);
      },
      set(target, key, value, receiver) {
        if (receiver === proxy && typeof key === 'string') {
          let entry = accessors.byKey[key];
          if (entry === undefined) entry = accessors.learn(key);
          // a ref assigned over a state accessor replaces it: objectSet below does that
          let holder;
          if (entry !== null && (holder = entry.holder) !== null && !(isObject(value) && value.__v_isRef === true) &&
              (entry.root === holder.root && entry.proxy === holder.proxy ? entry.direct : stateDirect(entry))) {
            setOwn(entry.root, entry.key, value, entry.proxy, true);   // objectSet's checks are stateDirect's
            return true;
          }
        }
        return objectSet(target, key, value, receiver);
      },
      deleteProperty: (target, key) => deleteTrap(target, key, accessors),
      has: hasTrap,
      ownKeys: ownKeysTrap,
      defineProperty: (target, key, desc) => definePropertyTrap(target, key, desc, accessors)
    };
    proxy = new Proxy(raw, handlers);
    proxyMap.set(raw, proxy);
    return proxy;
  }
  // Defines a property on an object that may be a store's raw object, keeping its proxy's
  // accessor cache right (pinia.js defines every property of its stores' raw objects here).
  function defineOnStore(object, key, descriptor) {
    Object.defineProperty(object, key, descriptor);
    const accessors = refHolders.get(object);
    if (accessors !== undefined) accessors.forget(key);
  }
  // A state accessor on a store's raw object: reads and writes holder.proxy[key], the state
  // tree's proxy (holder.root its raw object; both replaced together when the root is).
  function defineStateAccessor(storeRaw, key, holder) {
    const get = () => holder.proxy[key];
    const set = (value) => { holder.proxy[key] = value; };
    stateAccessors.set(get, { holder, key, set });
    defineOnStore(storeRaw, key, { get, set, enumerable: true, configurable: true });
  }
  // For code that changed a store's raw object directly (not through the store).
  function forgetStoreKeys(store) {
    const accessors = refHolders.get(toRaw(store));
    if (accessors !== undefined) accessors.forgetAll();
  }
  let arrayHandlers = { get: arrayGetTrap, set: arraySet, deleteProperty: deleteTrap, has: hasTrap, ownKeys: ownKeysTrap };

  // Array methods run on the raw array (fast, one notification, one op).
  let arrayInstrumentations = Object.create(null);
  function rawArgs(args) { for (let i = 0; i < args.length; i++) { let a = args[i]; if (isObject(a) && a[RAW] !== undefined) args[i] = a[RAW]; } return args; }
  function afterSplice(raw, index, deleteCount, items) {
    if (deleteCount === 0 && items.length === 0) return;
    if (rootCount !== 0 && opHook !== null) {
      writes.depth++;
      try { emitSplice(raw, index, deleteCount, items); trigger(raw, 3); } finally { endWrite(); }
    } else trigger(raw, 3);
  }
  arrayInstrumentations.push = function () {
    let raw = toRaw(this), items = rawArgs(Array.prototype.slice.call(arguments));
    let start = raw.length;
    let n = Array.prototype.push.apply(raw, items);
    afterSplice(raw, start, 0, items);
    return n;
  };
  arrayInstrumentations.unshift = function () {
    let raw = toRaw(this), items = rawArgs(Array.prototype.slice.call(arguments));
    let n = Array.prototype.unshift.apply(raw, items);
    afterSplice(raw, 0, 0, items);
    return n;
  };
  arrayInstrumentations.pop = function () {
    let raw = toRaw(this);
    if (raw.length === 0) return undefined;
    let r = raw.pop();
    afterSplice(raw, raw.length, 1, []);
    return toReactive(r);
  };
  arrayInstrumentations.shift = function () {
    let raw = toRaw(this);
    if (raw.length === 0) return undefined;
    let r = raw.shift();
    afterSplice(raw, 0, 1, []);
    return toReactive(r);
  };
  arrayInstrumentations.splice = function (start, deleteCount) {
    let raw = toRaw(this), len = raw.length, argc = arguments.length;
    if (argc === 0) return [];
    let s = Math.trunc(+start) || 0;
    s = s < 0 ? Math.max(len + s, 0) : Math.min(s, len);
    let items = rawArgs(Array.prototype.slice.call(arguments, 2));
    let removed = argc === 1 ? raw.splice(s) : Array.prototype.splice.apply(raw, [s, deleteCount].concat(items));
    afterSplice(raw, s, removed.length, items);
    for (let i = 0; i < removed.length; i++) removed[i] = toReactive(removed[i]);
    return removed;
  };
  // Vue's set trap triggers only for an element that changed: a method that leaves every element
  // (and every hole) as it was reports nothing.
  function sameElements(before, after) {
    for (let i = 0; i < after.length; i++) {
      if (!Object.is(before[i], after[i]) || (i in before) !== (i in after)) return false;
    }
    return true;
  }
  function wholeArrayMethod(name) {
    return function () {
      let raw = toRaw(this);
      let args = Array.prototype.slice.call(arguments);
      if (name === 'sort' && typeof args[0] === 'function') {
        let cmp = args[0];
        args[0] = function (a, b) { return cmp(toReactive(a), toReactive(b)); };
      }
      if (name === 'fill') rawArgs(args);
      const before = raw.slice();
      Array.prototype[name].apply(raw, args);
      if (!sameElements(before, raw)) {
        if (rootCount !== 0 && opHook !== null) {
          writes.depth++;
          try { emitWhole(raw); trigger(raw, 3); } finally { endWrite(); }
        } else trigger(raw, 3);
      }
      return this;
    };
  }
  ['sort', 'reverse', 'fill', 'copyWithin'].forEach(function (m) { arrayInstrumentations[m] = wholeArrayMethod(m); });
  ['includes', 'indexOf', 'lastIndexOf'].forEach(function (m) {
    arrayInstrumentations[m] = function () {
      let raw = toRaw(this);
      track(raw, 'length'); // coarse: any change re-runs
      for (let i = 0; i < raw.length; i++) track(raw, String(i));
      let res = Array.prototype[m].apply(raw, arguments);
      if (res === -1 || res === false) return Array.prototype[m].apply(raw, rawArgs(Array.prototype.slice.call(arguments)));
      return res;
    };
  });

  // ---------------------------------------------------------------------------
  // shallowReactive, readonly, shallowReadonly
  // ---------------------------------------------------------------------------

  // shallowReactive: only the top level is reactive; values are returned as stored (refs too).
  function shallowGet(target, key, receiver) {
    if (key === RAW) return target;
    if (key === IS_REACTIVE || key === IS_SHALLOW) return true;
    if (key === IS_READONLY) return false;
    if (isArray(target) && typeof key === 'string' && hasOwnProperty.call(arrayInstrumentations, key)) return arrayInstrumentations[key];
    const res = target[key];
    if (typeof key !== 'symbol' && activeEffect !== null && shouldTrack) track(target, key);
    return res;
  }
  const shallowObjectHandlers = { get: shallowGet, set: objectSet, deleteProperty: deleteTrap, has: hasTrap, ownKeys: ownKeysTrap, defineProperty: definePropertyTrap };
  const shallowArrayHandlers = { get: shallowGet, set: arraySet, deleteProperty: deleteTrap, has: hasTrap, ownKeys: ownKeysTrap };

  // readonly: reads go through the target (a reactive proxy stays reactive underneath), values
  // come back readonly, writes warn and change nothing.
  function makeReadonlyHandlers(shallow) {
    return {
      get(target, key, receiver) {
        if (key === RAW) return target;
        if (key === IS_READONLY) return true;
        if (key === IS_SHALLOW) return shallow;
        if (key === IS_REACTIVE) return isReactive(target);
        const res = target[key];
        if (shallow || typeof key === 'symbol' || !isObject(res)) return res;
        if (res.__v_isRef === true) return isArray(target) && indexKey(key) !== -1 ? res : res.value;
        return readonly(res);
      },
      set(target, key) {
        warn(`Set operation on key "${String(key)}" failed: target is readonly.`, target);
        return true;
      },
      deleteProperty(target, key) {
        warn(`Delete operation on key "${String(key)}" failed: target is readonly.`, target);
        return true;
      },
      defineProperty(target, key) {
        warn(`Set operation on key "${String(key)}" failed: target is readonly.`, target);
        return true;
      }
    };
  }
  const readonlyHandlers = makeReadonlyHandlers(false);
  const shallowReadonlyHandlers = makeReadonlyHandlers(true);

  // ---------------------------------------------------------------------------
  // Map, Set, WeakMap, WeakSet (Vue's collection handlers: methods instrumented)
  // ---------------------------------------------------------------------------

  // A collection in a state tree changed in place: its ops, then its effects.
  // index: the entry's position (known for adds and needed before a delete), else -1.
  function afterCollectionWrite(raw, kind, key, member, index) {
    if (rootCount !== 0 && opHook !== null && isIterableCollection(raw)) {
      // link a new member now (its own later writes are then reported)
      if (isObject(member)) registerTree(member, raw, IN_COLLECTION, 0);
      if (isObject(key) && raw instanceof Map) registerTree(key, raw, IN_COLLECTION, 0);
      writes.depth++;
      try { emitCollection(raw, kind, key, member, index); trigger(raw, kind, key); } finally { endWrite(); }
    } else trigger(raw, kind, key);
  }
  const wantsEntryIndex = (raw) => rootCount !== 0 && opHook !== null && isIterableCollection(raw);
  function trackRead(raw, key) { if (activeEffect !== null && shouldTrack) track(raw, key); }

  function makeCollectionInstrumentations(readonlyKind, shallow) {
    const wrap = shallow ? (v) => v : readonlyKind ? toReadonly : toReactive;
    const readonlyWrite = (what) => function (key) {
      warn(`${what} operation ${arguments.length ? `on key "${String(key)}" ` : ''}failed: target is readonly.`, toRaw(this));
      return what === 'Delete' ? false : what === 'Clear' ? undefined : this;
    };
    const iterator = (method) => function (...args) {
      const target = this[RAW], raw = toRaw(target);
      const isMap = raw instanceof Map;
      const pairs = method === 'entries' || (method === Symbol.iterator && isMap);
      const keysOnly = method === 'keys' && isMap;
      const inner = target[method](...args);
      if (!readonlyKind) trackRead(raw, keysOnly ? MAP_KEY_ITERATE_KEY : ITERATE_KEY);
      return {
        next() {
          const { value, done } = inner.next();
          return done ? { value, done } : { value: pairs ? [wrap(value[0]), wrap(value[1])] : wrap(value), done };
        },
        [Symbol.iterator]() { return this; }
      };
    };
    const methods = {
      get(key) {
        const target = this[RAW], raw = toRaw(target), rawKey = toRaw(key);
        if (!readonlyKind) { if (key !== rawKey) trackRead(raw, key); trackRead(raw, rawKey); }
        if (raw.has(key)) return wrap(target.get(key));
        if (raw.has(rawKey)) return wrap(target.get(rawKey));
        if (target !== raw) target.get(key);   // readonly(reactive(map)): let the inner proxy track
        return undefined;
      },
      get size() {
        const target = this[RAW];
        if (!readonlyKind) trackRead(toRaw(target), ITERATE_KEY);
        return target.size;
      },
      has(key) {
        const target = this[RAW], raw = toRaw(target), rawKey = toRaw(key);
        if (!readonlyKind) { if (key !== rawKey) trackRead(raw, key); trackRead(raw, rawKey); }
        return key === rawKey ? target.has(key) : target.has(key) || target.has(rawKey);
      },
      forEach(callback, thisArg) {
        const observed = this, target = observed[RAW], raw = toRaw(target);
        if (!readonlyKind) trackRead(raw, ITERATE_KEY);
        return target.forEach((value, key) => callback.call(thisArg, wrap(value), wrap(key), observed));
      }
    };
    if (readonlyKind) {
      methods.add = readonlyWrite('Add'); methods.set = readonlyWrite('Set');
      methods.delete = readonlyWrite('Delete'); methods.clear = readonlyWrite('Clear');
    } else {
      methods.add = function (value) {
        const raw = toRaw(this), rawValue = shallow ? value : toRaw(value);
        if (lazyOutstanding.has(raw)) settleLazy(raw);
        if (!raw.has(rawValue) && !raw.has(value)) {
          raw.add(rawValue);
          afterCollectionWrite(raw, 1, rawValue, rawValue, raw.size - 1);
        }
        return this;
      };
      methods.set = function (key, value) {
        const raw = toRaw(this);
        if (lazyOutstanding.has(raw)) settleLazy(raw);
        if (!shallow) value = toRaw(value);
        let had = raw.has(key);
        if (!had) { key = toRaw(key); had = raw.has(key); }
        const old = raw.get(key);
        raw.set(key, value);
        if (!had) afterCollectionWrite(raw, 1, key, value, raw.size - 1);
        else if (hasChanged(value, old)) afterCollectionWrite(raw, 0, key, value, -1);
        return this;
      };
      methods.delete = function (key) {
        const raw = toRaw(this);
        if (lazyOutstanding.has(raw)) settleLazy(raw);
        let had = raw.has(key);
        if (!had) { key = toRaw(key); had = raw.has(key); }
        const index = had && wantsEntryIndex(raw) ? indexOfMember(raw, key) : -1;
        const result = raw.delete(key);
        if (had) afterCollectionWrite(raw, 2, key, undefined, index);
        return result;
      };
      methods.clear = function () {
        const raw = toRaw(this);
        if (lazyOutstanding.has(raw)) settleLazy(raw);
        const hadItems = raw.size !== 0;
        const result = raw.clear();
        if (hadItems) afterCollectionWrite(raw, 3, undefined, undefined, -1);
        return result;
      };
    }
    for (const method of ['keys', 'values', 'entries', Symbol.iterator]) methods[method] = iterator(method);
    return methods;
  }
  function makeCollectionHandlers(readonlyKind, shallow) {
    const methods = makeCollectionInstrumentations(readonlyKind, shallow);
    return {
      get(target, key, receiver) {
        if (key === RAW) return target;
        if (key === IS_REACTIVE) return !readonlyKind || isReactive(target);
        if (key === IS_READONLY) return readonlyKind;
        if (key === IS_SHALLOW) return shallow;
        return Reflect.get(hasOwnProperty.call(methods, key) && key in target ? methods : target, key, receiver);
      }
    };
  }
  const collectionHandlers = makeCollectionHandlers(false, false);
  const shallowCollectionHandlers = makeCollectionHandlers(false, true);
  const readonlyCollectionHandlers = makeCollectionHandlers(true, false);
  const shallowReadonlyCollectionHandlers = makeCollectionHandlers(true, true);

  const shallowProxyMap = new WeakMap();
  const readonlyProxyMap = new WeakMap();
  const shallowReadonlyProxyMap = new WeakMap();

  function createProxy(target, cache, commonHandlers, arrayCommonHandlers, collectionKindHandlers) {
    const existing = cache.get(target);
    if (existing !== undefined) return existing;
    const kind = targetKind(target);
    if (kind === TargetKind.invalid) return target;
    const handlers = kind === TargetKind.collection ? collectionKindHandlers : isArray(target) ? arrayCommonHandlers : commonHandlers;
    const proxy = new Proxy(target, handlers);
    cache.set(target, proxy);
    return proxy;
  }

  function reactive(target) {
    if (!isObject(target)) return target;
    const existing = proxyMap.get(target);   // the hot path: every nested read of a state
    if (existing !== undefined) return existing;
    if (target[RAW] !== undefined) return target;   // already a proxy: reactive, shallow or readonly
    return createProxy(target, proxyMap, objectHandlers, arrayHandlers, collectionHandlers);
  }
  function shallowReactive(target) {
    if (!isObject(target) || target[RAW] !== undefined) return target;
    return createProxy(target, shallowProxyMap, shallowObjectHandlers, shallowArrayHandlers, shallowCollectionHandlers);
  }
  function readonly(target) {
    if (!isObject(target) || isReadonly(target)) return target;
    return createProxy(target, readonlyProxyMap, readonlyHandlers, readonlyHandlers, readonlyCollectionHandlers);
  }
  function shallowReadonly(target) {
    if (!isObject(target) || isReadonly(target)) return target;
    return createProxy(target, shallowReadonlyProxyMap, shallowReadonlyHandlers, shallowReadonlyHandlers, shallowReadonlyCollectionHandlers);
  }
  function toReadonly(v) { return isObject(v) ? readonly(v) : v; }
  function isReadonly(v) { return isObject(v) && v[IS_READONLY] === true; }
  function isShallow(v) { return isObject(v) && v[IS_SHALLOW] === true; }
  function isReactive(v) {
    if (!isObject(v)) return false;
    if (isReadonly(v)) return isReactive(v[RAW]);
    return v[IS_REACTIVE] === true;
  }
  function isProxy(v) { return isObject(v) && v[RAW] !== undefined; }
  // A readonly or shallow proxy written into a reactive object is stored as the proxy (Vue's set
  // trap keeps it), so it stays readonly or shallow when read back; a reactive one is stored raw.
  function keepsWrapper(proxy) { return proxy[IS_READONLY] === true || proxy[IS_SHALLOW] === true; }
  function toRaw(v) {
    let r = isObject(v) ? v[RAW] : undefined;
    return r !== undefined ? toRaw(r) : v;
  }
  function markRaw(v) {
    if (isObject(v) && Object.isExtensible(v) && !hasOwnProperty.call(v, SKIP)) {
      Object.defineProperty(v, SKIP, { value: true, configurable: true, enumerable: false, writable: true });
    }
    return v;
  }

  // ---------------------------------------------------------------------------
  // refs
  // ---------------------------------------------------------------------------

  function RefImpl(value, shallow) {
    this.__v_isRef = true;
    this.__v_isShallow = !!shallow;
    this._rawValue = shallow ? value : toRaw(value);
    this._value = shallow ? value : toReactive(value);
    this.dep = undefined;
    this._b = null;   // bound: reads and writes go to this._b[this._k] (setup store state)
    this._k = undefined;
  }
  Object.defineProperty(RefImpl.prototype, 'value', {
    get: function () {
      if (this._b !== null) return this._b[this._k];
      if (activeEffect !== null && shouldTrack) trackDep(this.dep || (this.dep = new Set()));
      return this._value;
    },
    set: function (v) {
      if (this._b !== null) { this._b[this._k] = v; return; }
      let raw = this.__v_isShallow ? v : toRaw(v);
      if (hasChanged(raw, this._rawValue)) {
        this._rawValue = raw;
        this._value = this.__v_isShallow ? v : toReactive(v);
        triggerDep(this.dep);
      }
    },
    configurable: true
  });
  RefImpl.prototype.toJSON = function () { return this.value; };

  // Make a ref read and write `proxy[key]` from now on (used for setup-store state);
  // effects already depending on the ref are moved onto that property.
  function bindRef(r, proxy, key) {
    let raw = toRaw(proxy);
    if (r.dep !== undefined && r.dep.size) {
      let depsMap = targetMap.get(raw);
      if (depsMap === undefined) targetMap.set(raw, (depsMap = new Map()));
      let dep = depsMap.get(key);
      if (dep === undefined) depsMap.set(key, (dep = new Set()));
      r.dep.forEach(function (e) { if (!dep.has(e)) { dep.add(e); e.deps.push(dep); } });
    }
    r._b = proxy; r._k = key;
  }

  function ref(v) { return isRef(v) ? v : new RefImpl(v, false); }
  function shallowRef(v) { return isRef(v) ? v : new RefImpl(v, true); }
  function isRef(v) { return isObject(v) && v.__v_isRef === true; }
  function unref(v) { return isRef(v) ? v.value : v; }
  function triggerRef(r) { if (r.dep) triggerDep(r.dep); }

  function CustomRefImpl(factory) {
    this.__v_isRef = true;
    let self = this;
    this.dep = new Set();
    let fns = factory(function () { if (activeEffect !== null && shouldTrack) trackDep(self.dep); },
                      function () { triggerDep(self.dep); });
    this._get = fns.get; this._set = fns.set;
  }
  Object.defineProperty(CustomRefImpl.prototype, 'value', {
    get: function () { return this._get(); },
    set: function (v) { this._set(v); },
    configurable: true
  });
  function customRef(factory) { return new CustomRefImpl(factory); }

  function ObjectRefImpl(object, key, defaultValue) {
    this.__v_isRef = true;
    this._object = object; this._key = key; this._defaultValue = defaultValue;
  }
  Object.defineProperty(ObjectRefImpl.prototype, 'value', {
    get: function () { let v = this._object[this._key]; return v === undefined ? this._defaultValue : v; },
    set: function (v) { this._object[this._key] = v; },
    configurable: true
  });
  function GetterRefImpl(getter) { this.__v_isRef = true; this.__v_isReadonly = true; this._getter = getter; }
  Object.defineProperty(GetterRefImpl.prototype, 'value', { get: function () { return this._getter(); }, configurable: true });

  function toRef(source, key, defaultValue) {
    if (isRef(source)) return source;
    if (typeof source === 'function') return new GetterRefImpl(source);
    if (isObject(source) && arguments.length > 1) {
      let v = source[key];
      return isRef(v) ? v : new ObjectRefImpl(source, key, defaultValue);
    }
    return ref(source);
  }
  function toRefs(object) {
    let out = isArray(object) ? new Array(object.length) : {};
    for (let k in object) out[k] = new ObjectRefImpl(object, k);
    return out;
  }
  function toValue(v) { return typeof v === 'function' ? v() : unref(v); }

  // ---------------------------------------------------------------------------
  // computed
  // ---------------------------------------------------------------------------

  function ComputedRefImpl(getter, setter) {
    this.__v_isRef = true;
    this.__v_isReadonly = !setter;
    this._setter = setter;
    this._dirty = true;
    this._value = undefined;
    this.dep = undefined;
    let self = this;
    this.effect = new ReactiveEffect(getter, function () {
      if (!self._dirty) { self._dirty = true; triggerDep(self.dep); }
    });
    this.effect.computed = true;
  }
  Object.defineProperty(ComputedRefImpl.prototype, 'value', {
    get: function () {
      if (activeEffect !== null && shouldTrack) trackDep(this.dep || (this.dep = new Set()));
      if (this._dirty || !this.effect.active) {
        this._dirty = false;
        try { this._value = this.effect.run(); }
        catch (e) { this._dirty = true; throw e; }
      }
      return this._value;
    },
    set: function (v) {
      if (this._setter) this._setter(v);
      else warn('Write operation failed: computed value is readonly');
    },
    configurable: true
  });
  function computed(getterOrOptions) {
    if (typeof getterOrOptions === 'function') return new ComputedRefImpl(getterOrOptions, null);
    return new ComputedRefImpl(getterOrOptions.get, getterOrOptions.set);
  }
  function isComputed(v) { return v instanceof ComputedRefImpl; }

  // ---------------------------------------------------------------------------
  // scheduler, nextTick
  // ---------------------------------------------------------------------------

  let queue = [];
  let flushPromise = null;
  let resolved = Promise.resolve();
  function reportError(e) {
    if (typeof global.reportError === 'function') { try { global.reportError(e); return; } catch (_) {} }
    if (global.console && console.error) console.error(e);
  }
  function queueJob(job) {
    if (job._queued) return;
    job._queued = true;
    queue.push(job);
    if (flushPromise === null) flushPromise = resolved.then(flushJobs);
  }
  // flush: 'post' callbacks run after every 'pre' job of the same flush (Vue runs them after
  // rendering; there is no rendering here).
  const postQueue = [];
  function queuePostJob(job) {
    if (job._queued) return;
    job._queued = true;
    postQueue.push(job);
    if (flushPromise === null) flushPromise = resolved.then(flushJobs);
  }
  function runQueue(list) {
    for (let i = 0; i < list.length; i++) {
      const job = list[i];
      job._queued = false;
      try { job(); } catch (e) { reportError(e); }
    }
    list.length = 0;
  }
  function flushJobs() {
    try {
      while (queue.length !== 0 || postQueue.length !== 0) {
        runQueue(queue);
        runQueue(postQueue);
      }
    } finally {
      queue.length = 0;
      postQueue.length = 0;
      flushPromise = null;
    }
  }
  function nextTick(fn) {
    let p = flushPromise || resolved;
    return fn ? p.then(this ? fn.bind(this) : fn) : p;
  }

  // ---------------------------------------------------------------------------
  // effect scopes
  // ---------------------------------------------------------------------------

  function EffectScope(detached) {
    this.active = true;
    this.effects = [];
    this.cleanups = [];
    this.scopes = [];
    this.parent = activeScope;
    if (!detached && activeScope !== null) activeScope.scopes.push(this);
  }
  EffectScope.prototype.run = function (fn) {
    if (!this.active) return undefined;
    let prev = activeScope;
    activeScope = this;
    try { return fn(); } finally { activeScope = prev; }
  };
  EffectScope.prototype.on = function () { this._prev = activeScope; activeScope = this; };
  EffectScope.prototype.off = function () { activeScope = this._prev || null; };
  EffectScope.prototype.stop = function () {
    if (!this.active) return;
    this.active = false;
    let i;
    for (i = 0; i < this.effects.length; i++) this.effects[i].stop();
    for (i = 0; i < this.cleanups.length; i++) { try { this.cleanups[i](); } catch (e) { reportError(e); } }
    for (i = 0; i < this.scopes.length; i++) this.scopes[i].stop();
    if (this.parent && this.parent.scopes) {
      let idx = this.parent.scopes.indexOf(this);
      if (idx !== -1) this.parent.scopes.splice(idx, 1);
    }
    this.effects.length = 0; this.cleanups.length = 0; this.scopes.length = 0;
  };
  function effectScope(detached) { return new EffectScope(detached); }
  function getCurrentScope() { return activeScope === null ? undefined : activeScope; }
  function onScopeDispose(fn) { if (activeScope !== null) activeScope.cleanups.push(fn); }

  // ---------------------------------------------------------------------------
  // watch, watchEffect
  // ---------------------------------------------------------------------------

  // Reads everything under v (down to `depth` levels) so that a deep watcher depends on it.
  function traverse(v, depth = Infinity, seen = new Set()) {
    if (depth <= 0 || !isObject(v) || v[SKIP]) return v;
    if (seen.has(v)) return v;
    seen.add(v);
    depth--;
    if (isRef(v)) traverse(v.value, depth, seen);
    else if (isArray(v)) { for (let i = 0; i < v.length; i++) traverse(v[i], depth, seen); }
    else if (v instanceof Map || v instanceof Set) { v.forEach((x) => { traverse(x, depth, seen); }); }
    else {
      for (const k in v) traverse(v[k], depth, seen);
      for (const sym of Object.getOwnPropertySymbols(v)) if (Object.prototype.propertyIsEnumerable.call(v, sym)) traverse(v[sym], depth, seen);
    }
    return v;
  }

  let INITIAL = {};
  function doWatch(source, cb, options) {
    options = options || {};
    let deep = options.deep, flush = options.flush || 'pre', once = !!options.once;
    let getter, isMulti = false, forceTrigger = false;
    let cleanup = null;
    function onCleanup(fn) { cleanup = fn; }
    if (isRef(source)) { getter = function () { return source.value; }; forceTrigger = !!source.__v_isShallow; }
    else if (isReactive(source)) {
      getter = function () { return source; };
      if (deep === undefined) deep = true;
      else if (deep === false) deep = 1;   // Vue: a reactive source with deep: false is watched one level deep
    }
    else if (isArray(source)) {
      isMulti = true;
      getter = function () {
        return source.map(function (s) {
          if (isRef(s)) return s.value;
          if (isReactive(s)) return traverse(s, deep === false ? 1 : deep === true || deep === undefined ? Infinity : deep);
          if (typeof s === 'function') return s();
          return s;
        });
      };
    } else if (typeof source === 'function') {
      if (cb) getter = source;
      else getter = function () { if (cleanup) { let c = cleanup; cleanup = null; c(); } return source(onCleanup); };
    } else {
      getter = function () {};
      warn('Invalid watch source: ', source);
    }
    if (cb && deep) {
      const base = getter, levels = deep === true ? Infinity : deep;
      getter = () => traverse(base(), levels);
    }
    let oldValue = isMulti ? [] : INITIAL;
    let effect;
    // pause(): triggers are remembered, not run; resume() runs the job once if any came.
    let paused = false, triggeredWhilePaused = false;
    function job() {
      if (!effect.active) return;
      if (paused) { triggeredWhilePaused = true; return; }
      if (!cb) { effect.run(); return; }
      let nv = effect.run();
      let changed = deep || forceTrigger || (isMulti
        ? nv.some(function (v, i) { return hasChanged(v, oldValue[i]); })
        : hasChanged(nv, oldValue));
      if (changed) {
        if (cleanup) { let c = cleanup; cleanup = null; c(); }
        let ov = oldValue === INITIAL ? undefined : oldValue;
        oldValue = nv;
        const previousWatcher = currentWatcherCleanup;
        currentWatcherCleanup = onCleanup;
        try { cb(nv, ov, onCleanup); } finally { currentWatcherCleanup = previousWatcher; }
        if (once) stop();
      }
    }
    let scheduler = flush === 'sync' ? job : flush === 'post' ? () => queuePostJob(job) : () => queueJob(job);
    effect = new ReactiveEffect(getter, scheduler);
    function stop() { effect.stop(); if (cleanup) { let c = cleanup; cleanup = null; c(); } }
    if (cb) {
      if (options.immediate) job();
      else oldValue = effect.run();
    } else effect.run();
    stop.stop = stop;
    stop.pause = () => { paused = true; };
    stop.resume = () => {
      if (!paused) return;
      paused = false;
      if (triggeredWhilePaused) { triggeredWhilePaused = false; job(); }
    };
    return stop;
  }
  // onWatcherCleanup(fn) inside a watch callback: fn runs before the callback's next run and
  // when the watcher stops (Vue 3.5).
  let currentWatcherCleanup = null;
  function onWatcherCleanup(fn) {
    if (currentWatcherCleanup !== null) currentWatcherCleanup(fn);
    else warn('onWatcherCleanup() was called when there was no active watcher to associate with.');
  }
  function watch(source, cb, options) { return doWatch(source, cb, options); }
  function watchEffect(fn, options) { return doWatch(fn, null, options); }
  function watchSyncEffect(fn) { return doWatch(fn, null, { flush: 'sync' }); }

  // ---------------------------------------------------------------------------
  // after a time-limit stop (docs/engine.md, "Recovery after a stop")
  // ---------------------------------------------------------------------------

  // JavaScriptCore's termination skips `finally` blocks and drops the queued microtasks, so a
  // stop can leave the counters above where it landed (writes.depth > 0 holds every later
  // delivery forever) and the scheduler waiting on a flush that will never run. The engine
  // runs every `reset` registered in globalThis.__statehubStopRecovery, then every `release`
  // in reverse order, before the page runs anything else. `reset(true)` (the engine's last
  // attempt when the recovery keeps being stopped) also forgets the effects a stop cut short.
  function resetAfterStop(dropHeld) {
    writes.depth = 0; writes.now = false; batchDepth = 0; catchingUp = false;
    activeEffect = null; shouldTrack = true; activeScope = null; currentWatcherCleanup = null;
    flushPromise = null;
    if (dropHeld === true) runningEffects.length = 0;
  }
  function releaseAfterStop() {
    flushBatchedEffects();
    // An effect cut short lost its dependencies (and a computed kept a stale value it thinks is
    // fresh): its scheduler marks the computed dirty or runs the watcher again, which tracks
    // them again; the watcher's callback sees the value the stop left.
    const interrupted = runningEffects.splice(0);
    for (const e of interrupted) {
      if (!e.active) continue;
      try { if (e.scheduler !== null) e.scheduler(); else e.run(); } catch (error) { reportError(error); }
    }
    if ((queue.length !== 0 || postQueue.length !== 0) && flushPromise === null) flushPromise = resolved.then(flushJobs);
  }
  (global.__statehubStopRecovery || (global.__statehubStopRecovery = [])).push({ reset: resetAfterStop, release: releaseAfterStop });

  // ---------------------------------------------------------------------------
  // publish
  // ---------------------------------------------------------------------------

  let api = {
    ref: ref, shallowRef: shallowRef, isRef: isRef, unref: unref, toRef: toRef, toRefs: toRefs,
    toValue: toValue, customRef: customRef, triggerRef: triggerRef,
    reactive: reactive, isReactive: isReactive, isProxy: isProxy, toRaw: toRaw, markRaw: markRaw,
    shallowReactive: shallowReactive, readonly: readonly, shallowReadonly: shallowReadonly,
    isReadonly: isReadonly, isShallow: isShallow,
    computed: computed, isComputed: isComputed,
    watch: watch, watchEffect: watchEffect, watchSyncEffect: watchSyncEffect, onWatcherCleanup: onWatcherCleanup,
    watchPostEffect: (fn) => doWatch(fn, null, { flush: 'post' }),
    effectScope: effectScope, getCurrentScope: getCurrentScope, onScopeDispose: onScopeDispose,
    nextTick: nextTick,
    // internal: used by pinia.js (not Vue API)
    _internal: {
      markStateRoot: markStateRoot, unmarkStateRoot: unmarkStateRoot,
      setOpHook: function (fn) { opHook = fn; },
      setReleaseHook: function (fn) { releaseHook = fn; },
      W: writes,
      snapshot: function (v) { return snapshot(v, null, null); },
      bindRef: bindRef, trigger: trigger, track: track, queueJob: queueJob, queuePostJob: queuePostJob,
      pauseTracking: pauseTracking, resetTracking: resetTracking,
      reportError: reportError, RefImpl: RefImpl, ReactiveEffect: ReactiveEffect,
      catchUpUnobservable: catchUpUnobservable,
      hasUnobservable: () => unobservable.size !== 0,
      isInStateTree: (raw) => roots.has(raw) || parentsOf.has(raw),
      storeProxy: storeProxy, defineOnStore: defineOnStore, defineStateAccessor: defineStateAccessor,
      forgetStoreKeys: forgetStoreKeys
    }
  };
  global.StateHubReactivity = api;
  ['ref', 'reactive', 'computed', 'watch', 'watchEffect', 'nextTick', 'effectScope', 'getCurrentScope',
   'onScopeDispose', 'toRef', 'toRefs', 'toValue', 'unref', 'isRef', 'isReactive', 'isProxy', 'markRaw',
   'toRaw', 'shallowRef', 'customRef', 'triggerRef', 'shallowReactive', 'readonly', 'shallowReadonly',
   'isReadonly', 'isShallow', 'onWatcherCleanup', 'watchSyncEffect', 'watchPostEffect'].forEach(function (name) { global[name] = api[name]; });
})(typeof globalThis !== 'undefined' ? globalThis : this);
