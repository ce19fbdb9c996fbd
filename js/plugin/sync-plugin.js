/*
 * StateHub sync plugin: a Pinia plugin that mirrors every store to native (docs/PROTOCOL.md, part A).
 *
 * Classic script (no modules). Publishes globalThis.StateHubSync. Runs unchanged on real Pinia + Vue in a
 * WKWebView and on StateHub's own runtime (js/runtime) inside the engine.
 *
 *   pinia.use(StateHubSync.createSyncPlugin({ flush: 'tick' | 'sync', post: optionalStringSink }))
 *
 * Web -> native: window.webkit.messageHandlers.nativeBridge.postMessage(jsonString)
 * Native -> web: window.nativeBridge.dispatch(jsonString)   (installed once by this file's plugins)
 */
(function (root) {
  'use strict';

  const OPS_KEY = Symbol.for('statehub.ops');
  // The runtime's $subscribe option for a sync subscriber that takes (type, ops) (js/README.md, "The operation log").
  const OPS_CALLBACK = Symbol.for('statehub.opsCallback');
  // Marks a runtime op whose value (a whole Map or Set) is copied when first read: in tick mode
  // it is encoded at flush, and an earlier one of the same path in the batch is dropped.
  const LAZY_VALUE = Symbol.for('statehub.lazyValue');
  const hasOwn = Object.prototype.hasOwnProperty;
  const ObjectProto = Object.prototype;
  const getProto = Object.getPrototypeOf;
  const objectKeys = Object.keys;
  const isArray = Array.isArray;
  const PROTOCOL_VERSION = 1;
  const MAX_FAST_DEPTH = 64;
  /** The operation kinds of docs/PROTOCOL.md A.2. */
  const OpKind = Object.freeze({ set: 'set', delete: 'delete', splice: 'splice' });
  /** The message types of docs/PROTOCOL.md A.1. */
  const MessageType = Object.freeze({
    syncState: 'sync_state', applyMutation: 'apply_mutation', actionResult: 'action_result',
    storeDisposed: 'store_disposed', error: 'error', dispatchAction: 'dispatch_action', requestSync: 'request_sync'
  });
  /**
   * @typedef {(string|number)[]} Path
   * @typedef {{ op: 'set', path: Path, value: unknown } | { op: 'delete', path: Path }
   *   | { op: 'splice', path: Path, index: number, deleteCount: number, items: unknown[] }} Op
   * @typedef {{ type: 'direct'|'patch object'|'patch function', action?: string, ops: Op[] }} WireMutation
   * @typedef {{ v: 1, storeId: string|null, messageId: string|number, seq?: number, ack?: string|number,
   *   type: string, payload: object }} Envelope  one message in either direction (A.1)
   */
  // A store's state nests at most this many state levels (PROTOCOL.md A.8.1): the containers on
  // the longest chain of the *encoded* state, so a Map costs three (its tag object, "entries",
  // the entry pair), a Set or an escaped object two, a plain object or array one, a Date / BigInt
  // / NaN / undefined tag one. The hub counts the same; a container that would go deeper is sent
  // as null and reported as `state_too_deep`, here (console) and to native.
  const MAX_STATE_DEPTH = 512;

  let schedule = typeof root.queueMicrotask === 'function'
    ? function (fn) { root.queueMicrotask(fn); }
    : function (fn) { Promise.resolve().then(fn); };

  // The one way this file reports to the console, always with the same prefix.
  function warn(message, error) {
    const console = root.console;
    if (!console) return;
    if (error !== undefined && typeof console.error === 'function') console.error('[StateHubSync] ' + message, error);
    else if (typeof console.warn === 'function') console.warn('[StateHubSync] ' + message);
  }

  // One copy per page: a second copy of this file (a page that ships its own under `statehub run`,
  // which loads StateHub's first) keeps the first copy's StateHubSync. Its registry routes native's
  // messages and numbers each store's seqs; a second registry would mirror every store twice.
  // `StateHubSync.createSyncPlugin()` called by the page then joins that registry (a store already
  // mirrored keeps one record). A copy of another protocol version is refused with a warning.
  const loaded = root.StateHubSync;
  if (loaded && typeof loaded === 'object' && typeof loaded.createSyncPlugin === 'function') {
    if (loaded.version !== PROTOCOL_VERSION) {
      warn('a second copy of sync-plugin.js (protocol ' + PROTOCOL_VERSION + ') was loaded over one of protocol ' +
        loaded.version + ': it is ignored and the first copy keeps mirroring the stores.');
    }
    return;
  }

  // ---------------------------------------------------------------------------------------------
  // Tagged encoding (PROTOCOL.md A.3)
  // ---------------------------------------------------------------------------------------------

  let BAIL = { bail: true }; // thrown by the fast encoder when the careful one must take over
  let sawEscape = false;      // set whenever an object with an own "$type" key was escaped

  function tagUndefined() { return { $type: 'undefined' }; }
  function tagNumber(n) { return { $type: 'Number', value: n !== n ? 'NaN' : (n > 0 ? 'Infinity' : '-Infinity') }; }
  function tagDate(d) {
    let t = d.getTime();
    return { $type: 'Date', value: t === t ? d.toISOString() : null };
  }
  function setKey(out, k, v) {
    if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  function isPlainProto(p) { return p === ObjectProto || p === null; }

  // Fast path: no path bookkeeping, no cycle detection (depth limit instead). Throws BAIL on anything
  // unserialisable or too deep; the caller then re-runs the careful encoder, which reports precisely.
  function encFast(v, d) {
    switch (typeof v) {
      case 'string': case 'boolean': return v;
      case 'number': return (v === v && v !== Infinity && v !== -Infinity) ? v : tagNumber(v);
      case 'undefined': return tagUndefined();
      case 'bigint': return { $type: 'BigInt', value: v.toString() };
      case 'object': {
        if (v === null) return null;
        if (d > MAX_FAST_DEPTH) throw BAIL;
        let i, n, out, x;
        if (isArray(v)) {
          n = v.length; out = new Array(n);
          for (i = 0; i < n; i++) {
            x = v[i];
            out[i] = x === undefined ? (i in v ? tagUndefined() : null) : encFast(x, d + 1);
          }
          return out;
        }
        let p = getProto(v);
        if (isPlainProto(p)) {
          let keys = objectKeys(v), escape = false, k;
          out = {}; n = keys.length;
          for (i = 0; i < n; i++) {
            k = keys[i];
            if (k === '$type') escape = true;
            setKey(out, k, encFast(v[k], d + 1));
          }
          if (escape) { sawEscape = true; return { $type: 'Object', value: out }; }
          return out;
        }
        if (v instanceof Date) return tagDate(v);
        if (v instanceof Map) {
          out = [];
          v.forEach(function (val, key) { out.push([encFast(key, d + 1), encFast(val, d + 1)]); });
          return { $type: 'Map', entries: out };
        }
        if (v instanceof Set) {
          out = [];
          v.forEach(function (val) { out.push(encFast(val, d + 1)); });
          return { $type: 'Set', values: out };
        }
        if (v.__v_isRef === true) return encFast(v.value, d + 1); // a Vue ref kept raw (inside arrays)
        throw BAIL;
      }
      default: throw BAIL; // function, symbol
    }
  }

  // The whole state's encoding in one walk (js/README.md, "Sending a whole state"): the tagged
  // encoding encFast would build, except that a container JSON.stringify already renders as that
  // encoding (plain JSON, as isJSONSafe says) is returned itself, not copied: only the containers on
  // the way to a value that needs a tag are. JSON.stringify of the result is the text of
  // JSON.stringify(encFast(v)); a plain-JSON state costs one walk that allocates nothing. Throws
  // BAIL where encFast would. Objects are walked with for-in, so the caller first checks that
  // Object.prototype has no enumerable property (protoIsClean). Each container is checked until its
  // first value that changes, then copied from there (copyArrayFrom, copyObjectFrom).
  function encShared(v, d) {
    switch (typeof v) {
      case 'string': case 'boolean': return v;
      case 'object': return v === null ? v : encSharedObject(v, d);
      default: return encFast(v, d);
    }
  }
  function protoIsClean() {
    for (const _ in ObjectProto) return false;   // an enumerable key, which for-in would list on every object
    return true;
  }
  // The encoding of x, a value inside a container at depth d (x itself when it needs none).
  function encSharedValue(x, d) {
    switch (typeof x) {
      case 'string': case 'boolean': return x;
      case 'number': return x === x && x !== Infinity && x !== -Infinity ? x : tagNumber(x);
      case 'object': return x === null ? x : encSharedObject(x, d);
      default: return encFast(x, d);
    }
  }
  // Kept small on purpose: it is the hot loop over a whole state, and the JIT compiles a small function sooner
  // (the shape, a switch on typeof per value, measured fastest of six with the JIT and without it).
  function encSharedObject(v, d) {
    if (d > MAX_FAST_DEPTH) throw BAIL;
    let x, e;
    if (isArray(v)) {
      for (let i = 0, n = v.length; i < n; i++) {
        x = v[i];
        switch (typeof x) {
          case 'string': case 'boolean': continue;
          case 'number': if (x === x && x !== Infinity && x !== -Infinity) continue; return copyArrayFrom(v, i, d, x);
          case 'object': if (x === null || (e = encSharedObject(x, d + 1)) === x) continue; return copyArrayFrom(v, i, d, e);
          default: return copyArrayFrom(v, i, d, x);
        }
      }
      return v;
    }
    if (!isPlainProto(getProto(v))) {
      if (v instanceof Date) return tagDate(v);
      if (v instanceof Map || v instanceof Set) return encFast(v, d);
      if (v.__v_isRef === true) return encShared(v.value, d + 1); // a Vue ref kept raw (inside arrays)
      throw BAIL;
    }
    for (let k in v) {
      if (k === '$type' || k === '__proto__') return copyObjectFrom(v, k, d, v[k], false);   // isJSONSafe's refusals
      x = v[k];
      switch (typeof x) {
        case 'string': case 'boolean': continue;
        case 'number': if (x === x && x !== Infinity && x !== -Infinity) continue; return copyObjectFrom(v, k, d, x, false);
        case 'object': if (x === null || (e = encSharedObject(x, d + 1)) === x) continue; return copyObjectFrom(v, k, d, e, true);
        default: return copyObjectFrom(v, k, d, x, false);
      }
    }
    return v;
  }
  // The copy of array v from its first value that changes, at i: x is that value as read, or its encoding
  // when it was an object (already encoded by the walk). The elements before i are plain: shared.
  function copyArrayFrom(v, i, d, x) {
    let n = v.length, out = new Array(n);
    for (let j = 0; j < i; j++) out[j] = v[j];
    out[i] = x !== null && typeof x === 'object' ? x : encSharedItem(v, i, x, d);
    for (i++; i < n; i++) out[i] = encSharedItem(v, i, v[i], d);
    return out;
  }
  function encSharedItem(v, i, x, d) {
    return x === undefined ? (i in v ? tagUndefined() : null) : encSharedValue(x, d + 1);   // a hole is null
  }
  // The copy of plain object v from key `at` (the keys before it are plain: shared); x is its value as read, or
  // its encoding when `encoded`. A "$type" key makes the copy the escaped form, as encFast does.
  function copyObjectFrom(v, at, d, x, encoded) {
    let out = {}, escape = false, copying = true;
    for (let k in v) {
      if (copying) {
        if (k !== at) { setKey(out, k, v[k]); continue; }
        copying = false;
        if (encoded) { setKey(out, k, x); continue; }
      }
      if (k === '$type') escape = true;
      setKey(out, k, encSharedValue(v[k], d + 1));
    }
    if (escape) { sawEscape = true; return { $type: 'Object', value: out }; }
    return out;
  }

  function pathText(path) { return path.length ? path.join('.') : '(root)'; }

  // How many state levels (PROTOCOL.md A.8.1) encoding v itself takes before its children: 0 for
  // what stays a scalar, 1 for an array, a plain object or a tag with scalar fields, 2 for a Set or
  // an object escaped under "$type" (the tag and its "values" / "value"), 3 for a non-empty Map (the
  // tag, "entries", the pair; an empty one 2).
  function ownLevels(v) {
    switch (typeof v) {
      case 'number': return (v === v && v !== Infinity && v !== -Infinity) ? 0 : 1;
      case 'undefined': case 'bigint': return 1;
      case 'object': {
        if (v === null) return 0;
        if (isArray(v)) return 1;
        if (v instanceof Map) return v.size > 0 ? 3 : 2;
        if (v instanceof Set) return 2;
        if (isPlainProto(getProto(v)) && hasOwn.call(v, '$type')) return 2;
        return 1;
      }
      default: return 0;
    }
  }

  // Careful path: keeps the path and the ancestors, replaces bad values by {"$type":"undefined"} and records
  // { kind, path, className? } in errors. `depth` counts state levels above v (encoded steps from the
  // store's root, PROTOCOL.md A.8.1), which `path` (a JavaScript path, for reports) does not.
  function encCareful(v, path, anc, errors, depth) {
    // Encoded here, v would take the state past the cap: it is sent as null (a scalar) instead.
    if (depth + ownLevels(v) > MAX_STATE_DEPTH) {
      errors.push({ kind: 'too_deep', path: path.slice(), depth: depth });
      return null;
    }
    switch (typeof v) {
      case 'string': case 'boolean': return v;
      case 'number': return (v === v && v !== Infinity && v !== -Infinity) ? v : tagNumber(v);
      case 'undefined': return tagUndefined();
      case 'bigint': return { $type: 'BigInt', value: v.toString() };
      case 'function': case 'symbol':
        errors.push({ kind: typeof v, path: path.slice() });
        return tagUndefined();
      case 'object': {
        if (v === null) return null;
        if (anc.indexOf(v) >= 0) {
          errors.push({ kind: 'cycle', path: path.slice() });
          return tagUndefined();
        }
        let i, n, out, x;
        anc.push(v);
        try {
          if (isArray(v)) {
            n = v.length; out = new Array(n);
            for (i = 0; i < n; i++) {
              x = v[i];
              path.push(i);
              out[i] = x === undefined ? (i in v ? tagUndefined() : null) : encCareful(x, path, anc, errors, depth + 1);
              path.pop();
            }
            return out;
          }
          let p = getProto(v);
          if (isPlainProto(p)) {
            let keys = objectKeys(v), escape = keys.indexOf('$type') >= 0, k, below = depth + (escape ? 2 : 1);
            out = {}; n = keys.length;
            for (i = 0; i < n; i++) {
              k = keys[i];
              path.push(k);
              setKey(out, k, encCareful(v[k], path, anc, errors, below));
              path.pop();
            }
            if (escape) { sawEscape = true; return { $type: 'Object', value: out }; }
            return out;
          }
          if (v instanceof Date) return tagDate(v);
          if (v instanceof Map) {
            out = []; i = 0;
            v.forEach(function (val, key) {
              path.push(i, 0); let ek = encCareful(key, path, anc, errors, depth + 3); path.pop();
              path.push(1); let ev = encCareful(val, path, anc, errors, depth + 3); path.pop(); path.pop();
              out.push([ek, ev]); i++;
            });
            return { $type: 'Map', entries: out };
          }
          if (v instanceof Set) {
            out = []; i = 0;
            v.forEach(function (val) {
              path.push(i); out.push(encCareful(val, path, anc, errors, depth + 2)); path.pop(); i++;
            });
            return { $type: 'Set', values: out };
          }
          if (v.__v_isRef === true) return encCareful(v.value, path, anc, errors, depth);
          let cn = v.constructor && typeof v.constructor.name === 'string' ? v.constructor.name : undefined;
          errors.push(cn ? { kind: 'class_instance', path: path.slice(), className: cn } : { kind: 'class_instance', path: path.slice() });
          return tagUndefined();
        } finally {
          anc.pop();
        }
      }
      default:
        errors.push({ kind: typeof v, path: path.slice() });
        return tagUndefined();
    }
  }

  /**
   * Encodes a JS value into the tagged JSON form (a fresh tree; primitives as is).
   * basePath: path prefix used in error reports; errors: array receiving { kind, path, className? } for each
   * unserialisable value (which is replaced by {"$type":"undefined"}). Without an errors array, bad values are
   * still replaced (never thrown). baseDepth: the state levels above the value (its op path's length; 0 for
   * values outside the state, such as action results).
   */
  function encodeValue(v, basePath, errors, baseDepth) {
    let t = typeof v;
    if (t === 'string' || t === 'boolean' || v === null) return v;
    if (t === 'number' && v === v && v !== Infinity && v !== -Infinity) return v;
    try {
      return encFast(v, 0);
    } catch (e) {
      if (e !== BAIL) throw e;
      return encCareful(v, basePath ? basePath.slice() : [], [], errors || [], baseDepth || 0);
    }
  }

  /** Decodes tagged values back into JS values. Works in place on trees from JSON.parse (returns the result). */
  function decodeValue(v) {
    if (v === null || typeof v !== 'object') return v;
    let i, n;
    if (isArray(v)) {
      for (i = 0, n = v.length; i < n; i++) {
        let x = v[i];
        if (x !== null && typeof x === 'object') v[i] = decodeValue(x);
      }
      return v;
    }
    let tag = hasOwn.call(v, '$type') ? v.$type : undefined;
    if (typeof tag === 'string') {
      switch (tag) {
        case 'undefined': return undefined;
        case 'Date': return v.value === null ? new Date(NaN) : new Date(v.value);
        case 'Map': {
          let m = new Map(), es = v.entries || [];
          for (i = 0; i < es.length; i++) m.set(decodeValue(es[i][0]), decodeValue(es[i][1]));
          return m;
        }
        case 'Set': {
          let s = new Set(), vs = v.values || [];
          for (i = 0; i < vs.length; i++) s.add(decodeValue(vs[i]));
          return s;
        }
        case 'BigInt': return typeof BigInt === 'function' ? BigInt(v.value) : Number(v.value);
        case 'Number': return v.value === 'NaN' ? NaN : (v.value === '-Infinity' ? -Infinity : Infinity);
        case 'Object': return decodePlain(v.value || {});
        default: break; // unknown tag: leave the object as is
      }
    }
    return decodePlain(v);
  }
  function decodePlain(o) {
    let keys = objectKeys(o);
    for (let i = 0; i < keys.length; i++) {
      let x = o[keys[i]];
      if (x !== null && typeof x === 'object') {
        let d = decodeValue(x);
        if (d !== x) setKey(o, keys[i], d);
      }
    }
    return o;
  }

  // ---------------------------------------------------------------------------------------------
  // Diff of two encoded trees (derived ops on real Pinia, PROTOCOL.md A.10)
  // ---------------------------------------------------------------------------------------------

  function isIndexKey(k) {
    // canonical array index: "0" or no leading zero, below 2^32 - 1
    let n = k.length;
    if (n === 0 || n > 10) return false;
    let c = k.charCodeAt(0);
    if (c === 48) return n === 1;
    for (let i = 0; i < n; i++) { c = k.charCodeAt(i); if (c < 48 || c > 57) return false; }
    return n < 10 || +k < 4294967295;
  }
  function isTagged(o) { return typeof o.$type === 'string'; }

  function deepEqual(a, b) {
    if (a === b) return true;
    if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
    let i, n;
    if (isArray(a)) {
      if (!isArray(b) || a.length !== b.length) return false;
      for (i = 0, n = a.length; i < n; i++) if (!deepEqual(a[i], b[i])) return false;
      return true;
    }
    if (isArray(b)) return false;
    let ka = objectKeys(a), kb = objectKeys(b);
    if (ka.length !== kb.length) return false;
    for (i = 0, n = ka.length; i < n; i++) {
      if (ka[i] !== kb[i]) return false; // key order is part of equality
      if (!deepEqual(a[ka[i]], b[ka[i]])) return false;
    }
    return true;
  }

  function emitSet(path, value, ops) { ops.push({ op: OpKind.set, path: path.slice(), value: value }); }

  function diffInto(a, b, path, ops) {
    if (a === b) return;
    if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
      let aa = isArray(a), ba = isArray(b);
      if (aa && ba) return diffArray(a, b, path, ops);
      if (!aa && !ba && !isTagged(a) && !isTagged(b)) return diffObject(a, b, path, ops);
      if (deepEqual(a, b)) return;
    }
    emitSet(path, b, ops);
  }

  function diffObject(a, b, path, ops) {
    let ka = objectKeys(a), kb = objectKeys(b), i, k;
    // Would deletes + appends reproduce b's key order? Integer-like keys sort themselves; others must keep
    // a's relative order, with new keys after all common ones.
    let common = [];
    for (i = 0; i < ka.length; i++) { k = ka[i]; if (!isIndexKey(k) && hasOwn.call(b, k)) common.push(k); }
    let j = 0;
    for (i = 0; i < kb.length; i++) {
      k = kb[i];
      if (isIndexKey(k)) continue;
      if (j < common.length) {
        if (k !== common[j]) { emitSet(path, b, ops); return; }
        j++;
      } else if (hasOwn.call(a, k)) { emitSet(path, b, ops); return; }
    }
    for (i = 0; i < ka.length; i++) {
      k = ka[i];
      if (!hasOwn.call(b, k)) { path.push(k); ops.push({ op: OpKind.delete, path: path.slice() }); path.pop(); }
    }
    for (i = 0; i < kb.length; i++) {
      k = kb[i];
      path.push(k);
      if (hasOwn.call(a, k)) diffInto(a[k], b[k], path, ops);
      else emitSet(path, b[k], ops);
      path.pop();
    }
  }

  function diffArray(a, b, path, ops) {
    let la = a.length, lb = b.length, i;
    if (la === lb) {
      for (i = 0; i < la; i++) {
        if (a[i] !== b[i]) { path.push(i); diffInto(a[i], b[i], path, ops); path.pop(); }
      }
      return;
    }
    let min = la < lb ? la : lb, pre = 0, suf = 0;
    while (pre < min && deepEqual(a[pre], b[pre])) pre++;
    while (suf < min - pre && deepEqual(a[la - 1 - suf], b[lb - 1 - suf])) suf++;
    ops.push({ op: OpKind.splice, path: path.slice(), index: pre, deleteCount: la - pre - suf, items: b.slice(pre, lb - suf) });
  }

  /** Ops that turn encoded tree a into encoded tree b (both in tagged form). */
  function diffStates(a, b) {
    let ops = [];
    diffInto(a, b, [], ops);
    return ops;
  }

  // ---------------------------------------------------------------------------------------------
  // Applying ops (forwarded native -> web ops on the live store; also used by tests on JSON mirrors)
  // ---------------------------------------------------------------------------------------------

  function OpError(reason, op) { this.reason = reason; this.op = op; }

  function stepOK(container, step) {
    if (isArray(container)) return typeof step === 'number' && step >= 0 && step % 1 === 0;
    return typeof step === 'string';
  }
  // One step down a path: own properties only, so "__proto__", "constructor" and "prototype" are
  // ordinary keys and never reach Object.prototype or a constructor.
  function childAt(container, step, o) {
    if (container === null || typeof container !== 'object' || !stepOK(container, step) || !hasOwn.call(container, step)) {
      throw new OpError('path does not exist', o);
    }
    return container[step];
  }

  /**
   * Applies ops (values already decoded, or raw JSON for a mirror) to root in place. Returns the new root
   * (changes only for a set at []). Throws an OpError when an op does not apply.
   * replaceRoot(root, value): how to replace the whole state (default: delete missing keys, assign all).
   */
  function applyOps(rootObj, ops, replaceRoot) {
    for (let i = 0; i < ops.length; i++) {
      let o = ops[i];
      if (o === null || typeof o !== 'object' || !isArray(o.path)) throw new OpError('malformed op', o);
      let path = o.path, n = path.length, parent = rootObj, j;
      if (o.op === OpKind.splice) {
        let target = rootObj;
        for (j = 0; j < n; j++) target = childAt(target, path[j], o);
        if (!isArray(target)) throw new OpError('splice target is not an array', o);
        let idx = o.index, dc = o.deleteCount, items = o.items || [];
        if (typeof idx !== 'number' || typeof dc !== 'number' || !isArray(items)) throw new OpError('malformed splice', o);
        if (idx > target.length) idx = target.length;
        target.splice.apply(target, [idx, dc].concat(items));
        continue;
      }
      if (n === 0) {
        if (o.op !== OpKind.set) throw new OpError('cannot delete the root', o);
        rootObj = replaceRoot ? replaceRoot(rootObj, o.value) : replaceAll(rootObj, o.value);
        continue;
      }
      for (j = 0; j < n - 1; j++) parent = childAt(parent, path[j], o);
      if (parent === null || typeof parent !== 'object') throw new OpError('parent is not a container', o);
      let last = path[n - 1];
      if (o.op === OpKind.set) {
        if (isArray(parent)) {
          if (last === 'length') {
            let len = o.value;
            if (typeof len !== 'number' || len < 0 || len % 1 !== 0) throw new OpError('bad length', o);
            while (parent.length < len) parent.push(null);
            parent.length = len;
          } else {
            if (!stepOK(parent, last)) throw new OpError('array index is not an integer', o);
            while (parent.length < last) parent.push(null);
            parent[last] = o.value;
          }
        } else {
          if (typeof last !== 'string') throw new OpError('object key is not a string', o);
          setKey(parent, last, o.value);
        }
      } else if (o.op === OpKind.delete) {
        if (isArray(parent)) {
          if (!stepOK(parent, last)) throw new OpError('array index is not an integer', o);
          if (last < parent.length) parent[last] = null;
        } else {
          if (typeof last !== 'string') throw new OpError('object key is not a string', o);
          delete parent[last];
        }
      } else {
        throw new OpError('unknown op ' + String(o.op), o);
      }
    }
    return rootObj;
  }

  function replaceAll(target, value) {
    if (value === null || typeof value !== 'object' || isArray(value)) throw new OpError('root must be an object', { op: OpKind.set, path: [] });
    let ks = objectKeys(target), i;
    for (i = 0; i < ks.length; i++) if (!hasOwn.call(value, ks[i])) delete target[ks[i]];
    let vk = objectKeys(value);
    for (i = 0; i < vk.length; i++) setKey(target, vk[i], value[vk[i]]);
    return target;
  }

  // Hole-faithful variant for the live store: deleting an array element leaves a hole (JS semantics), which
  // encodes as null, like the mirror.
  function applyOpsToStore(state, ops) {
    for (let i = 0; i < ops.length; i++) {
      let o = ops[i];
      if (o && o.op === OpKind.delete && isArray(o.path) && o.path.length && typeof o.path[o.path.length - 1] === 'number') {
        let parent = state, p = o.path, j;
        for (j = 0; j < p.length - 1; j++) parent = childAt(parent, p[j], o);
        if (!isArray(parent)) throw new OpError('array index on a non-array', o);
        delete parent[p[p.length - 1]];
        continue;
      }
      if (isArray(o && o.path) && applyIntoCollection(state, o)) continue;
      applyOps(state, [o]);
    }
  }
  // An op whose path goes through a live Map's "entries" or a Set's "values" (PROTOCOL.md A.3.1):
  // applied to an array copy of the collection, which is then written back when the op changed the
  // array itself or an entry's slot (a change deeper inside a member is made on the member in place).
  function applyIntoCollection(state, o) {
    let path = o.path, cur = state;
    for (let j = 0; j < path.length; j++) {
      if (cur === null || typeof cur !== 'object') return false;
      let isMap = cur instanceof Map, isSet = cur instanceof Set;
      if ((isMap && path[j] === 'entries') || (isSet && path[j] === 'values')) {
        let holder = { a: isMap ? Array.from(cur.entries()) : Array.from(cur.values()) };
        let inner = {}, keys = objectKeys(o);
        for (let k = 0; k < keys.length; k++) inner[keys[k]] = o[keys[k]];
        inner.path = ['a'].concat(path.slice(j + 1));
        applyOps(holder, [inner]);
        if (inner.path.length <= 3) {
          for (let k = 0; k < holder.a.length; k++) {
            if (isMap && !(isArray(holder.a[k]) && holder.a[k].length === 2)) throw new OpError('a Map entry is not a [key, value] pair', o);
          }
          cur.clear();
          for (let k = 0; k < holder.a.length; k++) { if (isMap) cur.set(holder.a[k][0], holder.a[k][1]); else cur.add(holder.a[k]); }
        }
        return true;
      }
      if (isMap || isSet || j === path.length - 1) return false;
      cur = childAt(cur, path[j], o);
    }
    return false;
  }

  // ---------------------------------------------------------------------------------------------
  // Store records and messaging
  // ---------------------------------------------------------------------------------------------

  let registry = new Map();       // storeId -> record (latest instance wins)
  let dirty = [];                 // records with a pending batch
  let flushScheduled = false;
  let messageCounter = 0;
  let defaultPost = null;         // transport of the most recent plugin with a shell, for store-less replies
  let warnedInert = false;

  function resolvePost(opt) {
    if (typeof opt === 'function') return opt;
    let w = root.window || root;
    let h = w && w.webkit && w.webkit.messageHandlers && w.webkit.messageHandlers.nativeBridge;
    if (h && typeof h.postMessage === 'function') return function (s) { h.postMessage(s); };
    return null;
  }

  function nextMessageId() { return 'w' + (++messageCounter); }

  function safePost(post, text) {
    try { post(text); } catch (e) { warn('postMessage failed', e); }
  }

  function send(record, type, payload, messageId, payloadText) {
    // The envelope is assembled by hand around JSON.stringify(payload): same text as stringifying the whole
    // object (key order v, storeId, messageId, seq, type, payload), measurably cheaper per message.
    let text = record.head + (messageId === undefined ? '"w' + (++messageCounter) + '"' : JSON.stringify(messageId)) +
      ',"seq":' + (record.seq + 1) + (record.ack === null ? '' : ',"ack":' + record.ack) + ',"type":"' + type + '","payload":' + (payloadText === undefined ? JSON.stringify(payload) : payloadText) + '}';
    safePost(record.post, text);
    if (type !== MessageType.error) afterPost(record);
    else record.seq++;   // queued errors wait for the next message of another type, as they always did
  }
  // The tail of every post of a store's message. The seq is counted once posted: a time-limit stop while
  // the text is built or in the post itself runs nothing after it, so the number is not spent on a message
  // that never left (the hub saw a gap and recorded a problem after every stopped timer that had written).
  // Then the errors queued for after this message (reportUnserializable: the message carries the
  // replacement they describe).
  function afterPost(record) {
    record.seq++;
    if (record.errQueue !== null) {
      let q = record.errQueue; record.errQueue = null;
      for (let i = 0; i < q.length; i++) send(record, MessageType.error, q[i]);
    }
    if (record.gettersRemoved) { record.gettersRemoved = false; postSyncState(record, 'resync'); }
  }

  // One mutation as its own apply_mutation (flush 'sync'): the text send() would write for it, assembled in one
  // expression, one JSON.stringify (of the ops) per write.
  function sendMutation(record, type, action, ops) {
    let getters = gettersPayload(record, false, true);
    let text = [record.head, '"w', ++messageCounter, '","seq":', record.seq + 1, record.ack === null ? '' : ',"ack":' + record.ack,
      ',"type":"apply_mutation","payload":{"mutations":[{"type":', TYPE_JSON[type] || JSON.stringify(String(type)),
      action === undefined ? '' : action.json, ',"ops":', JSON.stringify(ops), '}]', getters === null ? '' : ',"getters":' + getters, '}}'].join('');
    safePost(record.post, text);
    afterPost(record);
  }

  function sendStoreless(post, storeId, type, payload, messageId) {
    if (!post) return;
    safePost(post, JSON.stringify({
      v: PROTOCOL_VERSION, storeId: storeId === undefined ? null : storeId,
      messageId: messageId === undefined ? nextMessageId() : messageId, type: type, payload: payload
    }));
  }

  function errorPayload(code, message, path, detail) {
    let p = { code: code, message: message };
    if (path) p.path = path;
    if (detail) p.detail = detail;
    return p;
  }

  function reportUnserializable(record, errs, where) {
    for (let i = 0; i < errs.length; i++) {
      let e = errs[i];
      let detail = { kind: e.kind };
      if (e.className) detail.className = e.className;
      if (where) detail.where = where;
      let queue = record.errQueue || (record.errQueue = []);
      // queued: posted right after the message that carries the replacement (see send)
      if (e.kind === 'too_deep') {
        detail.limit = MAX_STATE_DEPTH;
        let text = 'store "' + record.id + '" would nest deeper than ' + MAX_STATE_DEPTH + ' state levels (PROTOCOL.md A.8.1) at ' +
          pathText(e.path.slice(0, 8)) + (e.path.length > 8 ? '\u2026 (' + e.path.length + ' steps)' : '') +
          '; the value there was sent to native as null';
        // Told where it happens too: the page's own console, not only native's problem list.
        warn('state_too_deep: ' + text);
        queue.push(errorPayload('state_too_deep', text, e.path.slice(0, MAX_STATE_DEPTH), detail));
        continue;
      }
      let what = e.kind === 'class_instance' ? (e.className ? 'an instance of ' + e.className : 'a class instance')
        : (e.kind === 'cycle' ? 'a cycle' : 'a ' + e.kind);
      queue.push(errorPayload('unserializable_state',
        'cannot serialise ' + what + ' at ' + pathText(e.path) + '; sent as {"$type":"undefined"}', e.path, detail));
    }
  }

  // The raw object behind a Vue / StateHub reactive proxy (walking raw data is several times faster than
  // walking through proxy traps). Refs left in a raw tree (setup stores on Vue) are unwrapped by the encoder.
  function rawOf(v) {
    let r;
    while (v !== null && typeof v === 'object' && (r = v.__v_raw) !== undefined && r !== v) v = r;
    return v;
  }

  // Full state as an encoded tree, with error reports deduplicated against the previous full encode of this store.
  function encodeState(record) {
    let state = rawOf(record.store.$state);
    sawEscape = false;
    try {
      let fast = encFast(state, 0);
      record.errKeys = null;
      if (sawEscape) record.escapes = true;
      return fast;
    } catch (e) {
      if (e !== BAIL) throw e;
    }
    return encodeStateCarefully(record, state);
  }
  // The careful encoder's reports, each new one once (see encodeState).
  function encodeStateCarefully(record, state) {
    let errs = [];
    sawEscape = false;
    let enc = encCareful(state, [], [], errs, 0);
    if (sawEscape) record.escapes = true;
    let keys = new Set(), fresh = [], prev = record.errKeys;
    for (let i = 0; i < errs.length; i++) {
      let key = errs[i].kind + '|' + JSON.stringify(errs[i].path);
      keys.add(key);
      if (!prev || !prev.has(key)) fresh.push(errs[i]);
    }
    record.errKeys = keys;
    reportUnserializable(record, fresh);
    return enc;
  }

  // The whole state as an encoded tree for JSON.stringify: one walk (encShared) that copies only what needs a tag,
  // so a plain-JSON state (the common case) is the state itself. JSON.stringify of it is the text of
  // JSON.stringify(encodeState(record)). Not to be kept: it shares the live state's containers.
  function encodeStateForText(record) {
    let state = rawOf(record.store.$state), enc;
    if (!protoIsClean()) return encodeState(record);
    sawEscape = false;
    try {
      enc = encShared(state, 0);
    } catch (e) {
      if (e !== BAIL) throw e;
      return encodeStateCarefully(record, state);
    }
    record.errKeys = null;
    if (sawEscape) record.escapes = true;
    return enc;
  }

  // JSON.stringify(encodeValue(v)) in one walk when it can (encShared), without reports: the fresh state sent
  // along with a snapshot request (docs/pool.md).
  function valueText(v) {
    if (protoIsClean()) {
      try { return JSON.stringify(encShared(v, 0)); } catch (e) { if (e !== BAIL) throw e; }
    }
    return JSON.stringify(encodeValue(v));
  }

  // A sync_state is one JSON.stringify of the whole envelope: the text send() would assemble around the payload
  // (keys v, storeId, messageId, seq, ack, type, payload; actionParameters, state, reason), but one flat string,
  // where a concatenation around a 1 MB state is a rope the crossing into native first copies into one (about
  // 0.4 ms for 1 MB in `statehub eval`).
  function postSyncState(record, reason) {
    let state = encodeStateForText(record), params = reason === 'created' ? actionParameters(record) : null;
    let envelope = { v: PROTOCOL_VERSION, storeId: record.id, messageId: nextMessageId(), seq: record.seq + 1 };
    if (record.ack !== null) envelope.ack = JSON.parse(record.ack);   // JSON text of a parsed value: the same text again
    envelope.type = MessageType.syncState;
    envelope.payload = params === null ? { state: state } : { actionParameters: params, state: state };
    let getters = gettersPayload(record, true);
    if (getters !== null) envelope.payload.getters = getters;
    envelope.payload.reason = reason;
    let text = JSON.stringify(envelope);
    // The derived path needs the state last sent as a tree; keep the (immutable) text and parse it only if needed.
    record.snapshot = null;
    record.snapshotText = record.mode !== 'precise' ? text : null;
    safePost(record.post, text);
    afterPost(record);
  }
  // Getters (PROTOCOL.md A.13): each getter's value travels beside the state, encoded as the state
  // is, in the `getters` member of a sync_state (all of them) and of an apply_mutation (those whose
  // JSON text changed since the last message that carried them).
  function isComputedRef(v) {
    return v !== null && typeof v === 'object' && v.__v_isRef === true && v.effect !== undefined && v.effect !== null;
  }
  // What Pinia itself lists (`_getters` in its development builds; `_hmrPayload.getters` there and on
  // our runtime), else an options store's `getters`, else the computed refs a setup store returned,
  // which real Pinia keeps on the raw store (a production build lists nothing else). Read on the raw
  // store (no proxy traps) and kept while the list they come from is the same object: a hot update
  // replaces it, and a production build, whose stores are scanned, has none.
  function getterNames(record) {
    try {
      let raw = record.raw || (record.raw = rawOf(record.store));
      let listed = raw._getters, hmr = raw._hmrPayload, declared = record.options && record.options.getters;
      let source = isArray(listed) ? listed : hmr && hmr.getters && typeof hmr.getters === 'object' ? hmr.getters
        : declared && typeof declared === 'object' ? declared : raw;
      if (source === record.getterSource) return record.getterNameList;
      let names = source === listed ? listed : source !== raw ? objectKeys(source)
        : objectKeys(raw).filter(function (k) { return isComputedRef(raw[k]); });
      record.getterSource = source;
      return (record.getterNameList = names);
    } catch (e) {
      return [];
    }
  }
  // The `getters` member to send, or null when there is nothing to send. A getter that throws, or
  // whose value holds what JSON cannot carry (a function, a cycle, a class instance), is sent as
  // {"$type":"undefined"} (or with that part replaced, as the state is) and reported once, by an
  // `error` getter_failed queued for after the message, and again only when how it fails changes.
  // With `asText`, the member's JSON text instead of the object (a flush-sync write's message is
  // assembled as text, and each getter's value is already encoded as JSON text here).
  function gettersPayload(record, all, asText) {
    let names = getterNames(record);
    if (names.length === 0) {
      if (record.getterTexts !== null && record.getterTexts.size > 0) forgetRemovedGetters(record, names, all);
      return null;
    }
    let sent = record.getterTexts || (record.getterTexts = new Map()), failed = record.getterFailures || (record.getterFailures = new Map()), out = null;
    for (let i = 0; i < names.length; i++) {
      let name = names[i];
      // `$state` is Pinia's own, whatever a getter of that name says (it is shadowed): not a getter.
      if (typeof name !== 'string' || name === '$state') continue;
      let errs = [], encoded, failure;
      try {
        encoded = encodeValue(rawOf(record.store[name]), [name], errs, 1);
      } catch (e) {
        encoded = tagUndefined(); failure = errorInfo(e);
      }
      let json = JSON.stringify(encoded), text = failure === undefined ? json : 'threw ' + failure.name + ': ' + failure.message;
      if (!all && sent.get(name) === text) continue;
      sent.set(name, text);
      if (asText) {
        out = (out === null ? '{' : out + ',') + JSON.stringify(name) + ':' + json;
      } else {
        if (out === null) out = {};
        setKey(out, name, encoded);
      }
      let how = failure !== undefined ? text : errs.length === 0 ? '' : errs.map(function (e) { return e.kind + ' ' + JSON.stringify(e.path); }).join('|');
      if (how !== (failed.get(name) || '')) {
        failed.set(name, how);
        reportGetterFailure(record, name, failure, errs);
      }
    }
    if (sent.size > names.length) forgetRemovedGetters(record, names, all);
    return asText && out !== null ? out + '}' : out;
  }
  // A getter the store no longer has (a hot update removed it) is forgotten here; an apply_mutation
  // cannot say a getter is gone, so a whole sync_state follows the message (afterPost), which
  // replaces every getter native holds.
  function forgetRemovedGetters(record, names, all) {
    let kept = new Set(names), sent = record.getterTexts, failed = record.getterFailures;
    sent.forEach(function (text, name) {
      if (!kept.has(name)) { sent.delete(name); failed.delete(name); if (!all) record.gettersRemoved = true; }
    });
  }
  function reportGetterFailure(record, name, failure, errs) {
    let queue = record.errQueue || (record.errQueue = []), where = 'getter "' + name + '" of store "' + record.id + '"';
    if (failure !== undefined) {
      queue.push(errorPayload('getter_failed', where + ' threw ' + failure.name + ': ' + failure.message + '; sent as {"$type":"undefined"}',
        [name], { kind: 'threw', getter: name, error: { name: failure.name, message: failure.message } }));
    }
    for (let i = 0; i < errs.length; i++) {
      let e = errs[i], detail = { kind: e.kind, getter: name };
      if (e.className) detail.className = e.className;
      if (e.kind === 'too_deep') detail.limit = MAX_STATE_DEPTH;
      let what = e.kind === 'too_deep' ? 'a value nested deeper than ' + MAX_STATE_DEPTH + ' state levels (sent as null)'
        : (e.kind === 'class_instance' ? (e.className ? 'an instance of ' + e.className : 'a class instance') : (e.kind === 'cycle' ? 'a cycle' : 'a ' + e.kind)) +
          ' (sent as {"$type":"undefined"})';
      queue.push(errorPayload('getter_failed', where + ' holds ' + what + ' at ' + pathText(e.path.slice(0, 8)), e.path.slice(0, MAX_STATE_DEPTH), detail));
    }
  }

  // The state of the last sync_state posted (snapshotText is that message's text).
  function snapshotOf(record) {
    if (record.snapshot === null && record.snapshotText !== null) { record.snapshot = JSON.parse(record.snapshotText).payload.state; record.snapshotText = null; }
    return record.snapshot;
  }

  // True when v is plain JSON that JSON.stringify renders faithfully (no tags needed, no "$type" key, no
  // undefined, no non-finite number, no holes, not too deep). Walks without allocating.
  function isJSONSafe(v, d) {
    switch (typeof v) {
      case 'string': case 'boolean': return true;
      case 'number': return v === v && v !== Infinity && v !== -Infinity;
      case 'object': {
        if (v === null) return true;
        if (d > MAX_FAST_DEPTH) return false;
        let i, n;
        if (isArray(v)) {
          for (i = 0, n = v.length; i < n; i++) {
            let x = v[i];
            if (x === undefined || (typeof x !== 'string' && typeof x !== 'number' && !isJSONSafe(x, d + 1))) return false;
            if (typeof x === 'number' && !(x === x && x !== Infinity && x !== -Infinity)) return false;
          }
          return true;
        }
        if (!isPlainProto(getProto(v))) return false;
        let keys = objectKeys(v);
        for (i = 0, n = keys.length; i < n; i++) {
          let k = keys[i];
          if (k === '$type' || k === '__proto__' || !isJSONSafe(v[k], d + 1)) return false;
        }
        return true;
      }
      default: return false;
    }
  }

  // Encodes the runtime's precise ops (values already cloned by the runtime, so owned by us) into protocol
  // ops. An op whose values are plain JSON is used as is (the runtime's op objects have the protocol's shape).
  function encodeOps(record, raw) {
    let n = raw.length;
    // The common write, one set of plain JSON in a store that never held a "$type" key, goes out as the
    // runtime gave it (the array too: callers copy it before keeping it, see queueMutation).
    if (n === 1 && !record.escapes) {
      let o = raw[0];
      if (o.op === OpKind.set && o[LAZY_VALUE] !== true) {   // a lazy op's value is copied when read: not here
        let v = o.value, t = typeof v, path = o.path, plain = true;
        if (!(t === 'string' || t === 'boolean' || (t === 'number' && v === v && v !== Infinity && v !== -Infinity) || v === null)) plain = isJSONSafe(v, 0);
        for (let j = 0; plain && j < path.length; j++) if (path[j] === '$type') plain = false;
        if (plain) return raw;
      }
    }
    let out = new Array(n), errs = null;
    sawEscape = false;
    for (let i = 0; i < n; i++) {
      let o = raw[i], kind = o.op, v;
      if (o[LAZY_VALUE] === true && record.flush !== 'sync' && !record.escapes) { out[i] = o; record.lazyOps = true; continue; }
      if (kind === OpKind.set) {
        v = o.value;
        if (isJSONSafe(v, 0)) { out[i] = o; continue; }
        if (!errs) errs = [];
        out[i] = { op: OpKind.set, path: o.path, value: encodeValue(v, o.path, errs, o.path.length) };
      } else if (kind === OpKind.delete) {
        out[i] = o;
      } else if (ENTRY_WIRE[kind] !== undefined) {
        if (!errs) errs = [];
        out[i] = entryWireOp(o, errs);
      } else if (kind === OpKind.splice) {
        let items = o.items || [];
        if (isJSONSafe(items, 0)) { out[i] = o; continue; }
        let enc = new Array(items.length);
        if (!errs) errs = [];
        for (let j = 0; j < items.length; j++) {
          enc[j] = (items[j] === undefined && !(j in items)) ? null : encodeValue(items[j], o.path.concat([o.index + j]), errs, o.path.length + 1);
        }
        out[i] = { op: OpKind.splice, path: o.path, index: o.index, deleteCount: o.deleteCount, items: enc };
      } else {
        out[i] = o;
      }
    }
    if (errs && errs.length) reportUnserializable(record, errs);
    if (sawEscape) record.escapes = true;
    else if (!record.escapes) {
      for (let i = 0; i < n; i++) if (raw[i].path.indexOf('$type') >= 0) { record.escapes = true; break; }
    }
    if (record.escapes) return fixEscapedPaths(record, out);
    return out;
  }

  // The runtime's entry ops of a Map or Set (js/README.md) as protocol ops on the tagged value's
  // array (PROTOCOL.md A.3.1): "entries" holds [key, value] pairs, "values" the members, both in
  // insertion order, so a new member is a splice at the end and a change an index into the array.
  let ENTRY_WIRE = { mapSet: 'entries', mapDelete: 'entries', mapClear: 'entries', setAdd: 'values', setDelete: 'values', setClear: 'values' };
  function entryWireOp(o, errs) {
    let kind = o.op, array = o.path.concat([ENTRY_WIRE[kind]]), i = o.index;
    switch (kind) {
      case 'mapSet': {
        // A Map's key and value sit three state levels below it ("entries", the index, 0 or 1).
        let value = wireValue(o.value, o.path.concat([i, 1]), errs, o.path.length + 3);
        if (!o.added) return { op: OpKind.set, path: array.concat([i, 1]), value: value };
        return { op: OpKind.splice, path: array, index: i, deleteCount: 0, items: [[wireValue(o.key, o.path.concat([i, 0]), errs, o.path.length + 3), value]] };
      }
      case 'setAdd': return { op: OpKind.splice, path: array, index: i, deleteCount: 0, items: [wireValue(o.value, o.path.concat([i]), errs, o.path.length + 2)] };
      case 'mapDelete': case 'setDelete': return { op: OpKind.splice, path: array, index: i, deleteCount: 1, items: [] };
      default: return { op: OpKind.set, path: array, value: [] };
    }
  }
  function wireValue(v, path, errs, depth) { return isJSONSafe(v, 0) ? v : encodeValue(v, path, errs, depth); }

  // Paths address the encoded tree (PROTOCOL.md A.3): below an object escaped as {"$type":"Object","value":...}
  // they go through "value". Only stores that ever held a "$type" key pay for this. A mutation of several ops
  // (whose intermediate states are gone) or one that adds or removes a "$type" key is sent as one set of the
  // whole state, which is exact because sync subscribers run right after each mutation.
  function fixEscapedPaths(record, ops) {
    let root = rawOf(record.store.$state);
    if (ops.length !== 1 || isEscapedObj(root)) return [wholeStateOp(record)];
    let o = ops[0], path = o.path, n = path.length;
    let upto = o.op === OpKind.splice ? n : n - 1;
    if (o.op !== OpKind.splice && n > 0 && path[n - 1] === '$type') return [wholeStateOp(record)];
    let out = [], cur = root, changed = false;
    for (let i = 0; i < upto; i++) {
      out.push(path[i]);
      cur = unref(rawOf(cur !== null && typeof cur === 'object' ? cur[path[i]] : undefined));
      if (isEscapedObj(cur)) { out.push('value'); changed = true; }
    }
    if (!changed) return ops;
    if (upto < n) out.push(path[n - 1]);
    let copy = {}, keys = objectKeys(o);
    for (let k = 0; k < keys.length; k++) copy[keys[k]] = o[keys[k]];
    copy.path = out;
    return [copy];
  }
  function unref(v) { return v !== null && typeof v === 'object' && v.__v_isRef === true ? v.value : v; }
  function isEscapedObj(v) {
    return v !== null && typeof v === 'object' && !isArray(v) && isPlainProto(getProto(v)) && hasOwn.call(v, '$type');
  }
  function wholeStateOp(record) {
    return { op: OpKind.set, path: [], value: encodeState(record) };
  }

  let TYPE_JSON = { 'direct': '"direct"', 'patch object': '"patch object"', 'patch function': '"patch function"' };

  // The action call running when a write happens (PROTOCOL.md A.5.2 `action`, `call`, `parent`, `root`,
  // `dispatch`): the innermost call of this store that has started and not yet settled, as $onAction reports
  // it. Calls are numbered per engine; a call's parent is the innermost call of any store running when it
  // started (after an `await`: the innermost one still pending, since JavaScript has no async context); a
  // call made by a native dispatch_action is a root and carries the dispatch's messageId, which its
  // descendants inherit.
  let actionCalls = 0;
  let runningCalls = [];          // every store's running calls, in start order
  let dispatching;                // messageId of the dispatch_action whose action is being called, else undefined
  const CALL = Symbol('action call');
  function runningAction(record) {
    let running = record.runningActions;
    return running.length === 0 ? undefined : running[running.length - 1];
  }
  // After a time-limit stop (docs/engine.md, "Recovery after a stop"): the stopped call never
  // settled and the `finally` blocks that count `suppress` and clear `dispatching` never ran, so
  // they are put back before the page runs anything else; a call still pending across the stop
  // loses its tag (its later writes are untagged). A batch whose flush the stop dropped is
  // flushed again.
  function resetAfterStop() {
    dispatching = undefined;
    // Calls whose synchronous part had returned (async, awaiting) are still pending and will
    // write again, untagged: JavaScript has no async context to tell them from the stopped
    // call, which never settles. Said once per store, as an `action_tag_lost` error (PROTOCOL.md
    // A.5.6), so the trace shows where the tags end.
    registry.forEach(function (record) {
      let lost = record.runningActions.filter(function (entry) { return entry.returned === true; });
      if (lost.length === 0 || record.disposed) return;
      let calls = lost.map(function (entry) { return { action: entry.name, call: entry.call }; });
      send(record, MessageType.error, errorPayload('action_tag_lost',
        'a stop cleared the running actions: the later writes of ' + calls.map(function (c) { return c.action + ' (call ' + c.call + ')'; }).join(', ') +
        ', still pending, are sent without their action tag', undefined, { calls: calls }));
    });
    runningCalls.length = 0;
    registry.forEach(function (record) { record.suppress = 0; record.runningActions.length = 0; });
    flushScheduled = dirty.length !== 0;
    if (flushScheduled) schedule(flushAll);
  }
  (root.__statehubStopRecovery || (root.__statehubStopRecovery = [])).push({ reset: resetAfterStop });
  // One running call as the plugin tracks it; `json` (the mutation's action fields as wire text) is
  // written the first time a batch of the call is sent, not for every call (most dispatched
  // actions write once or not at all).
  function ActionCall(name, call, parent, rootCall, dispatch) {
    this.name = name; this.call = call; this.parent = parent; this.root = rootCall; this.dispatch = dispatch;
    this.returned = false; this.text = null;
  }
  Object.defineProperty(ActionCall.prototype, 'json', {
    get: function () {
      if (this.text === null) {
        this.text = ',"action":' + JSON.stringify(this.name) + ',"call":' + this.call + (this.parent ? ',"parent":' + this.parent : '') +
          (this.root !== this.call ? ',"root":' + this.root : '') + (this.dispatch !== undefined ? ',"dispatch":' + JSON.stringify(this.dispatch) : '');
      }
      return this.text;
    }
  });
  const ACTION_HOOKS = Symbol.for('statehub.actionHooks');
  function trackActions(record, store) {
    if (typeof store.$onAction !== 'function') return;
    function start(name) {
      // derived mode (real Pinia): the direct writes before an action are diffed apart from its own
      if (record.derivedDirty) takeDerivedDirect(record);
      let outer = dispatching !== undefined || runningCalls.length === 0 ? null : runningCalls[runningCalls.length - 1];
      let call = ++actionCalls;
      let entry = new ActionCall(String(name), call, outer === null ? 0 : outer.call, outer === null ? call : outer.root,
        outer === null ? dispatching : outer.dispatch);
      dispatching = undefined;
      record.runningActions.push(entry);
      runningCalls.push(entry);
      return entry;
    }
    function settle(entry) {
      if (record.derivedDirty) takeDerivedDirect(record);
      removeCall(record.runningActions, entry);
      removeCall(runningCalls, entry);
    }
    function pending(entry) { entry.returned = true; }
    let listener = function (context) {
      let entry = start(context.name);
      // Marks the call as past its synchronous part, pending (StateHub's runtime only: Pinia's
      // context has no `pending`); a call the stop cut never gets there.
      if (typeof context.pending === 'function') context.pending(function () { pending(entry); });
      let done = function () { settle(entry); };
      context.after(done);
      context.onError(done);
    };
    // StateHub's runtime calls these directly, without a context and closures per call, while this is
    // the store's only listener (js/runtime/pinia.js, ACTION_HOOKS); real Pinia calls the listener.
    listener[ACTION_HOOKS] = { start: start, settle: settle, pending: pending };
    store.$onAction(listener, true);
  }
  // A call settles last-started-first-settled unless async calls interleave: look at the end first.
  function removeCall(list, entry) {
    let last = list.length - 1;
    if (last >= 0 && list[last] === entry) { list.length = last; return; }
    let at = list.indexOf(entry);
    if (at !== -1) list.splice(at, 1);
  }
  // A mutation in the wire shape (key order type, action, call, parent, root, dispatch, ops); the call it
  // belongs to is kept under a symbol for coalescing.
  function makeMutation(type, call, ops) {
    if (call === undefined) return { type: type, ops: ops };
    let mutation = { type: type, action: call.name, call: call.call };
    if (call.parent) mutation.parent = call.parent;
    if (call.root !== call.call) mutation.root = call.root;
    if (call.dispatch !== undefined) mutation.dispatch = call.dispatch;
    mutation.ops = ops;
    mutation[CALL] = call;
    return mutation;
  }

  function queueMutation(record, type, ops) {
    if (!ops.length) return;
    let action = runningAction(record);
    if (record.flush === 'sync') { sendMutation(record, type, action, ops); return; }
    let pending = record.pending;
    if (pending !== null && ops.length === 1 && type === 'direct') {
      // The common write of a tick: over the last op at the same place, it replaces it (pushOp, inline).
      let last = pending[pending.length - 1], lastOps = last.ops, op = ops[0], previous = lastOps[lastOps.length - 1];
      if (last.type === 'direct' && op.op === OpKind.set && previous !== undefined && previous.op === OpKind.set &&
          samePath(previous.path, op.path) && last[CALL] === action && (op[LAZY_VALUE] === true) === (previous[LAZY_VALUE] === true)) {
        lastOps[lastOps.length - 1] = op;
        if (record.pendingOps >= MAX_BATCH_OPS) flushDirty();
        return;
      }
    }
    if (ops.length > 1) ops = coalesced(ops);
    if (pending === null) {
      // a copy: a one-op array may be the runtime's own (encodeOps), which later writes must not extend
      if (ops.length === 1) ops = [ops[0]];
      record.pending = [makeMutation(type, action, ops)];
      record.pendingOps = batchWeight(ops);
      markDirty(record);
    } else {
      let last = pending[pending.length - 1];
      if (type === 'direct' && last.type === 'direct' && last[CALL] === action) {
        let before = last.ops.length;
        joinedItems = 0;
        for (let i = 0; i < ops.length; i++) pushOp(last.ops, ops[i]);
        record.pendingOps += last.ops.length - before + joinedItems;
      } else {
        if (ops.length === 1) ops = [ops[0]];
        pending.push(makeMutation(type, action, ops));
        record.pendingOps += batchWeight(ops);
      }
    }
    if (record.pendingOps >= MAX_BATCH_OPS) flushDirty();
  }
  // A tick's batch is sent early once a store's holds this many ops (PROTOCOL.md A.5.2). A loop writing
  // places the coalescing cannot join (`set.add` + `push` + `shift`, a `$patch` per turn) would otherwise
  // pile up ops for as long as it runs without calling native code: hundreds of MB, and after its stop one
  // message so large that applying it would hold the engine thread for seconds, to be reported as an
  // unstoppable turn that ends the run. Sending early calls native code, where the
  // time limit's turn check stops the loop as it does under `flush: 'sync'`.
  const MAX_BATCH_OPS = 1024;
  // What the bound counts: one per op, plus one per item an insert carries, since inserts joined into one
  // splice grow without adding ops (a Set filled and cleared in a loop, `tags.add(Math.random())`, would
  // send one splice of 100,000s of items: a message of many MB, cut into chunks, that the stop then cuts
  // short). So a batch is also sent once it carries 1,024 items, whatever its op count.
  let joinedItems = 0;
  function batchWeight(ops) {
    let weight = ops.length;
    for (let i = 0; i < ops.length; i++) if (ops[i].op === OpKind.splice && ops[i].items) weight += ops[i].items.length;
    return weight;
  }
  // A set (lazy or not) supersedes the one just before it at the same path; an insert
  // right after the previous insert into the same array joins it (a Map filled or an array pushed in a
  // loop is one splice per tick). The runtime's op objects are shared, so a joined splice is a copy.
  const JOINED = Symbol('joined splice');
  function pushOp(ops, op) {
    let previous = ops.length === 0 ? null : ops[ops.length - 1];
    if (previous === null) { ops.push(op); return; }
    if (op.op === OpKind.set && previous.op === OpKind.set && samePath(previous.path, op.path) &&
        (op[LAZY_VALUE] === true) === (previous[LAZY_VALUE] === true)) {
      // A write over the one just before it at the same place replaces it (both lazy or both not):
      // `this.n++` in a loop is one op per tick, not one per iteration (one per iteration, a loop
      // piles up hundreds of MB of ops before the time limit stops it).
      ops[ops.length - 1] = op;
    } else if (op.op === OpKind.splice && previous.op === OpKind.splice && op.deleteCount === 0 && previous.deleteCount === 0 &&
               op.index === previous.index + previous.items.length && samePath(previous.path, op.path)) {
      if (previous[JOINED] !== true) {
        previous = { op: OpKind.splice, path: previous.path, index: previous.index, deleteCount: 0, items: previous.items.slice(), [JOINED]: true };
        ops[ops.length - 1] = previous;
      }
      for (let i = 0; i < op.items.length; i++) previous.items.push(op.items[i]);
      joinedItems += op.items.length;
    } else ops.push(op);
  }
  function coalesced(ops) {
    const out = [];
    for (const op of ops) pushOp(out, op);
    return out;
  }
  function samePath(a, b) {
    if (a === b) return true;
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  // Encodes the lazy ops of a batch, now that it is sent.
  function encodeLazyOps(record, pending) {
    record.lazyOps = false;
    let errors = null;
    for (const mutation of pending) {
      const ops = mutation.ops;
      let entries = false;
      for (let i = 0; i < ops.length; i++) {
        const op = ops[i];
        if (op[LAZY_VALUE] !== true) continue;
        if (errors === null) errors = [];
        if (ENTRY_WIRE[op.op] !== undefined) { ops[i] = entryWireOp(op, errors); entries = true; }
        else ops[i] = { op: OpKind.set, path: op.path, value: encodeValue(op.value, op.path, errors, op.path.length) };
      }
      if (entries) mutation.ops = coalesced(ops);
    }
    if (errors !== null && errors.length) reportUnserializable(record, errors);
  }

  function markDirty(record) {
    if (record.isDirty) return;
    record.isDirty = true;
    dirty.push(record);
    if (!flushScheduled) { flushScheduled = true; schedule(flushAll); }
  }

  function flushAll() {
    flushScheduled = false;
    flushDirty();
  }
  // Every dirty store in the order it became dirty; the scheduled flush (if any) stays queued for later writes.
  function flushDirty() {
    let list = dirty; dirty = [];
    for (let i = 0; i < list.length; i++) flushStore(list[i]);
  }

  // Derived mode: direct writes of one tick are diffed once, at flush time (or before the next patch).
  function takeDerivedDirect(record) {
    if (!record.derivedDirty) return;
    record.derivedDirty = false;
    let next = encodeState(record);
    let ops = capOpPaths(diffStates(snapshotOf(record), next), next);
    record.snapshot = next;
    queueMutationRaw(record, 'direct', ops, record.derivedAction);
  }
  function queueMutationRaw(record, type, ops, action) {
    if (!ops.length) return;
    if (record.pending === null) record.pending = [makeMutation(type, action, ops)];
    else {
      let last = record.pending[record.pending.length - 1];
      if (type === 'direct' && last.type === 'direct' && last[CALL] === action) { for (let i = 0; i < ops.length; i++) last.ops.push(ops[i]); }
      else record.pending.push(makeMutation(type, action, ops));
    }
  }

  // Derived ops obey the op-path limit too (PROTOCOL.md A.2 "Depth"): an op deeper than MAX_OP_PATH steps
  // becomes a set of its ancestor at the limit, valued from the new encoded state (once per ancestor).
  const MAX_OP_PATH = 64;
  function capOpPaths(ops, next) {
    let out = null;
    for (let i = 0; i < ops.length; i++) {
      let o = ops[i];
      if (o.path.length <= MAX_OP_PATH) { if (out !== null) out.push(o); continue; }
      if (out === null) out = ops.slice(0, i);
      let cut = o.path.slice(0, MAX_OP_PATH), node = next;
      for (let j = 0; j < cut.length && node !== null && typeof node === 'object'; j++) node = node[cut[j]];
      let previous = out.length ? out[out.length - 1] : null;
      if (previous !== null && previous.op === OpKind.set && samePath(previous.path, cut)) continue;
      out.push({ op: OpKind.set, path: cut, value: node === undefined ? null : node });
    }
    return out === null ? ops : out;
  }

  function flushStore(record) {
    record.isDirty = false;
    record.plainMutation = null; record.plainTail = null;   // not kept alive past their batch (queuePlainSet)
    if (record.disposed) { record.pending = null; record.pendingOps = 0; return; }
    if (record.derivedDirty) takeDerivedDirect(record);
    let pending = record.pending;
    if (pending === null) return;
    record.pending = null;
    record.pendingOps = 0;
    if (record.lazyOps) encodeLazyOps(record, pending);
    let getters = gettersPayload(record, false);
    send(record, MessageType.applyMutation, getters === null ? { mutations: pending } : { mutations: pending, getters: getters });
  }

  // StateHub's runtime calls this with each mutation's type and ops (the OPS_CALLBACK option, below).
  function onOps(record, type, raw) {
    if (record.suppress > 0 || record.disposed) return;
    if (record.mode !== 'precise') enterPrecise(record);
    if (raw.length === 1 && !record.escapes) {
      let o = raw[0];
      if (o.op === OpKind.set && isPlainSet(o)) {
        // `n++` in a loop, inline: the write over the batch's last op at the same place replaces it (queuePlainSet)
        let pending = record.pending, running = record.runningActions;
        if (pending !== null && running.length === 0 && record.plainCall === undefined && type === 'direct') {
          let last = pending[pending.length - 1];
          if (last === record.plainMutation) {
            let lastOps = last.ops, at = lastOps.length - 1, previous = lastOps[at], a = previous.path, b = o.path;
            if (previous === record.plainTail && a.length === 1 && b.length === 1 && a[0] === b[0]) {
              lastOps[at] = o;
              record.plainTail = o;
              if (record.pendingOps >= MAX_BATCH_OPS) flushDirty();
              return;
            }
          }
        }
        queuePlainSet(record, type, raw, o);
        return;
      }
    }
    queueMutation(record, type, encodeOps(record, raw));
  }
  // encodeOps's first case: one set of plain JSON, not lazy, no "$type" in its path, which goes out as is.
  function isPlainSet(o) {
    if (o[LAZY_VALUE] === true) return false;   // a lazy op's value is copied when read: not here
    let v = o.value, t = typeof v, path = o.path;
    if (!(t === 'string' || t === 'boolean' || (t === 'number' && v === v && v !== Infinity && v !== -Infinity) || v === null) && !isJSONSafe(v, 0)) return false;
    for (let j = 0; j < path.length; j++) if (path[j] === '$type') return false;
    return true;
  }
  // queueMutation(record, type, raw) for such a set (ops === [o]), with the write over the batch's last op at
  // the same place (`n++` in a loop) found without reading the batch's symbols: record.plainTail is the last
  // op this path put at the end of a direct mutation of the batch (plainMutation, made for call plainCall),
  // valid while both are still the batch's last (any other change to the batch puts another object there).
  function queuePlainSet(record, type, raw, o) {
    let running = record.runningActions, action = running.length === 0 ? undefined : running[running.length - 1];
    if (record.flush === 'sync') { sendMutation(record, type, action, raw); return; }
    let pending = record.pending;
    if (pending !== null && type === 'direct') {
      let last = pending[pending.length - 1];
      if (last === record.plainMutation && record.plainCall === action) {
        let lastOps = last.ops, at = lastOps.length - 1, previous = lastOps[at];
        if (previous === record.plainTail && samePath(previous.path, o.path)) {
          lastOps[at] = o;
          record.plainTail = o;
          if (record.pendingOps >= MAX_BATCH_OPS) flushDirty();
          return;
        }
      }
    }
    queueMutation(record, type, raw);
    pending = record.pending;
    if (pending !== null && type === 'direct') {
      let last = pending[pending.length - 1], lastOps = last.ops;
      if (lastOps[lastOps.length - 1] === o) { record.plainMutation = last; record.plainTail = o; record.plainCall = action; }
    }
  }
  function enterPrecise(record) {
    if (record.mode === 'derived') {
      // switched runtimes mid-flight: settle the derived state first
      flushStore(record);
    }
    record.mode = 'precise';
    record.snapshot = null;
    record.snapshotText = null;
  }

  function onMutation(record, mutation) {
    if (record.suppress > 0 || record.disposed) return;
    let raw = mutation[OPS_KEY];
    let type = mutation.type;
    if (raw) {
      if (record.mode !== 'precise') enterPrecise(record);
      queueMutation(record, type, encodeOps(record, raw));
      return;
    }
    // No op log (real Pinia): derive ops by diffing against the last state sent.
    if (record.mode !== 'derived') {
      if (record.mode === 'precise') {
        // an op log went missing: resynchronise from a full state, then diff from there
        flushStore(record);
        record.mode = 'derived';
        postSyncState(record, 'resync');
        return;
      }
      record.mode = 'derived';
    }
    if (record.flush !== 'sync' && type === 'direct') {
      if (!record.derivedDirty) record.derivedAction = runningAction(record);
      record.derivedDirty = true;
      markDirty(record);
      return;
    }
    let next = encodeState(record);
    let ops = capOpPaths(diffStates(snapshotOf(record), next), next);
    record.snapshot = next;
    if (record.flush === 'sync') { queueMutation(record, type, ops); return; }
    // a patch after direct writes of this tick: those are inside this diff too, reported under the patch type
    record.derivedDirty = false;
    if (ops.length) { queueMutationRaw(record, type, ops, runningAction(record)); markDirty(record); }
  }

  // Silent re-baseline after a change native already knows about (hydration, forwarded ops).
  function rebaseline(record) {
    if (record.mode !== 'precise') {
      record.derivedDirty = false;
      record.snapshot = encodeState(record);
      record.snapshotText = null;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Native -> web
  // ---------------------------------------------------------------------------------------------

  function errorInfo(e) {
    if (e !== null && typeof e === 'object') {
      return {
        name: typeof e.name === 'string' ? e.name : (e.constructor && e.constructor.name) || 'Error',
        message: typeof e.message === 'string' ? e.message : safeString(e),
        stack: typeof e.stack === 'string' ? e.stack : ''
      };
    }
    return { name: typeof e, message: safeString(e), stack: '' };
  }
  function safeString(v) { try { return String(v); } catch (_) { return '[unprintable]'; } }

  function actionNames(record) {
    let acts = record.options && record.options.actions;
    return acts && typeof acts === 'object' ? acts : null;
  }

  // docs/PROTOCOL.md A.5.1 `actionParameters`: `{ name: [parameter names] }` (or null) for a created store, so a trace
  // hides `login(user, password)`'s password by position without being told. An action whose list the scanner gives
  // up on is left out and warned about: a trace would record its arguments in clear.
  function actionParameters(record) {
    let acts = actionNames(record), out = null;
    if (!acts) return null;
    for (let name in acts) {
      if (!hasOwn.call(acts, name) || typeof acts[name] !== 'function') continue;
      let names = parameterNames(acts[name]);
      if (typeof names === 'string') {
        warn('store ' + JSON.stringify(record.id) + ', action ' + JSON.stringify(name) + ': its parameter names could not be read (' + names +
          '), so a trace cannot hide a secret argument by its name; hide it by position: statehub run --redact-argument ' +
          record.id + '.' + name + ':INDEX (INDEX counts from 0; TraceRedaction.arguments in Swift)');
      } else if (names.length) (out || (out = {}))[name] = names;
    }
    return out;
  }

  // Captured when the plugin loads: a page that replaces them later cannot feed the scanner a made-up list. The
  // scanner calls nothing else a page could replace (no String, RegExp or Array method): indexing and loops only.
  const functionToString = Function.prototype.toString;
  const stringIndexOf = String.prototype.indexOf;
  const reflectApply = Reflect.apply;
  const MAX_PARAMETER_TEXT = 20000;

  // Where `needle` starts in `text` at or after `from`, or -1 (String.prototype.indexOf is the page's to replace).
  function textIndex(text, needle, from) {
    for (let a = from; a + needle.length <= text.length; a++) {
      let b = 0;
      while (b < needle.length && text[a + b] === needle[b]) b++;
      if (b === needle.length) return a;
    }
    return -1;
  }
  function isSpace(c) { return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f' || c === '\u00a0' || c === '\ufeff' || c === '\u2028' || c === '\u2029'; }
  function isNameStart(c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_' || c === '$' || c >= '\u0080'; }
  function isNamePart(c) { return isNameStart(c) || (c >= '0' && c <= '9'); }
  function trimmed(text) {
    let a = 0, b = text.length;
    while (a < b && isSpace(text[a])) a++;
    while (b > a && isSpace(text[b - 1])) b--;
    let out = '';
    for (; a < b; a++) out += text[a];
    return out;
  }
  // The name at `at` in `text` and where it ends, or null.
  function nameAt(text, at) {
    if (at >= text.length || !isNameStart(text[at])) return null;
    let name = '';
    while (at < text.length && isNamePart(text[at])) name += text[at++];
    return { name: name, end: at };
  }
  function skipSpace(text, at) { while (at < text.length && isSpace(text[at])) at++; return at; }

  // The declared parameter names of a function, from its source: a name (default dropped), "...name" for a rest
  // parameter, null for an object pattern (its keys are hidden by name as members); [] for none. A small scanner
  // (strings, comments, nesting) that gives up (returning why, as a string) on anything it cannot be sure of: a
  // regular expression (any `/` that is not a comment; a division is refused with it), an escape outside a string
  // (`p\u0061ssword`), a template literal with `${}`, an HTML-like comment (`<!--`, `-->`), a head and list over
  // MAX_PARAMETER_TEXT characters, a replaced Function.prototype.toString, native, bound or Proxy code (its source
  // shows `[native code]`, whatever its `length` says), an array pattern or a renamed binding (`[a, password]`,
  // `{ pw: password }`: no member name would hide the value), and any other unexpected text.
  function parameterNames(fn) {
    let src;
    if (Function.prototype.toString !== functionToString) return 'Function.prototype.toString was replaced';
    try { src = reflectApply(functionToString, fn, []); } catch (_) { return 'its source could not be read'; }
    if (typeof src !== 'string') return 'its source could not be read';
    // Anywhere in the source, so natively (the source is all of the function's text; textIndex would walk it in JS).
    if (reflectApply(stringIndexOf, src, ['[native code]']) >= 0) return 'native, bound or Proxy code, whose source shows no parameters';
    const unexpected = 'text the scanner does not understand';
    const htmlComment = 'an HTML-like comment (<!-- or -->) near the list';
    let n = src.length, i = 0, depth = 0, seg = '', segs = [], c, quote, end;
    // Skips the comment at i (src[i] === '/'), or returns false; -1 for one that never ends.
    function comment() {
      if (src[i + 1] !== '/' && src[i + 1] !== '*') return false;
      end = textIndex(src, src[i + 1] === '/' ? '\n' : '*/', i + 2);
      if (end < 0) return -1;
      i = src[i + 1] === '/' ? end : end + 1;
      return true;
    }
    function htmlLike() {
      return (src[i] === '<' && src[i + 1] === '!' && src[i + 2] === '-' && src[i + 3] === '-') ||
        (src[i] === '-' && src[i + 1] === '-' && src[i + 2] === '>');
    }
    // Skips the string or template literal at i, honouring escapes; a reason when it cannot.
    function literal() {
      for (quote = src[i], i++; i < n && src[i] !== quote; i++) {
        if (src[i] === '\\') i++;
        else if (quote === '`' && src[i] === '$' && src[i + 1] === '{') return 'a template literal with ${\u2026} in the list';
      }
      return i >= n ? unexpected : null;
    }
    // The head: up to the first '(' at depth 0 (method, function, arrow), or a lone name before '=>'.
    let head = '', why;
    for (; i < n; i++) {
      if (i > MAX_PARAMETER_TEXT) return 'the parameter list is over ' + MAX_PARAMETER_TEXT + ' characters';
      c = src[i];
      if (htmlLike()) return htmlComment;
      if (c === '/') { why = comment(); if (why === -1) return unexpected; if (!why) return 'a regular expression or a division before the list'; head += ' '; continue; }
      if (c === '\\') return 'an escape sequence in a name';
      if (c === '"' || c === "'") { if ((why = literal())) return why; head += ' x '; continue; }
      if (c === '[') { depth++; continue; }
      if (c === ']') { depth--; continue; }
      if (depth > 0) continue;
      if (c === '(') break;
      if (c === '{' || c === '`') return unexpected;
      if (c === '=' && src[i + 1] === '>') {
        // `name =>` or `async name =>`.
        let t = trimmed(head), at = 0, m = nameAt(t, 0);
        if (m && m.name === 'async' && m.end < t.length && isSpace(t[m.end])) m = nameAt(t, at = skipSpace(t, m.end));
        return m && m.end === t.length ? [m.name] : unexpected;
      }
      head += c;
    }
    if (i >= n) return unexpected;
    let h = trimmed(head), k0 = nameAt(h, 0);
    if (k0 && k0.name === 'class') return [];
    for (i++, depth = 0; i < n; i++) {
      if (i > MAX_PARAMETER_TEXT) return 'the parameter list is over ' + MAX_PARAMETER_TEXT + ' characters';
      c = src[i];
      if (htmlLike()) return htmlComment;
      if (c === '/') { why = comment(); if (why === -1) return unexpected; if (!why) return 'a regular expression or a division in the list'; seg += ' '; continue; }
      if (c === '\\') return 'an escape sequence in a name';
      if (c === '"' || c === "'" || c === '`') { if ((why = literal())) return why; seg += '""'; continue; }
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ']' || c === '}') depth--;
      else if (c === ')') { if (depth === 0) break; depth--; }
      else if (c === ',' && depth === 0) { segs[segs.length] = seg; seg = ''; continue; }
      if (depth < 0) return unexpected;
      seg += c;
    }
    if (i >= n) return unexpected;
    segs[segs.length] = seg;
    let names = [];
    for (let k = 0; k < segs.length; k++) {
      let p = trimmed(segs[k]), at = 0, rest = false, m;
      if (p === '') { if (k === segs.length - 1) break; return unexpected; }   // a trailing comma; `()` gives nothing
      if (p[0] === '.' && p[1] === '.' && p[2] === '.') { rest = true; at = skipSpace(p, 3); }
      if (p[at] === '{' || p[at] === '[') {
        // An object pattern's keys are hidden as member names; an array pattern has none, and a renamed binding's
        // key is not its name: either could hold a secret no name would hide.
        for (let q = at; q < p.length; q++) {
          if (p[q] === '[') return 'an array pattern or computed key in the list';
          if (p[q] === ':' && isNameStart(p[skipSpace(p, q + 1)] || '')) return 'a renamed binding ({ key: name }) in the list';
        }
        names[names.length] = null;
        continue;
      }
      m = nameAt(p, at);
      if (!m) return unexpected;
      let after = skipSpace(p, m.end);
      if (after < p.length && p[after] !== '=') return unexpected;
      names[names.length] = (rest ? '...' : '') + m.name;
    }
    return names;
  }

  function handleDispatchAction(msg, record, post) {
    let mid = msg.messageId;
    let p = msg.payload;
    if (!record) return dispatchRefused(msg, record, post, 'unknown_store', 'UnknownStore', 'no store "' + msg.storeId + '" in this engine');
    if (p === null || typeof p !== 'object' || typeof p.action !== 'string') return dispatchRefused(msg, record, post, 'bad_message', 'BadMessage', 'payload.action must be a string');
    if (p.args !== undefined && !isArray(p.args)) return dispatchRefused(msg, record, post, 'bad_message', 'BadMessage', 'payload.args must be an array');
    let name = p.action, store = record.store, acts = actionNames(record);
    let known = acts ? hasOwn.call(acts, name) : (name.charAt(0) !== '$' && name.charAt(0) !== '_');
    let action = known ? store[name] : undefined;   // read once: each read goes through the store's proxy
    if (typeof action !== 'function') {
      return dispatchRefused(msg, record, post, 'unknown_action', 'UnknownAction', 'store "' + record.id + '" has no action "' + name + '"');
    }
    let args = p.args ? decodeValue(p.args) : [];
    flushStore(record);
    let result;
    dispatching = mid;   // the action's call (if $onAction sees one) is a root tagged with this dispatch
    try {
      result = action.apply(store, args);
    } catch (e) {
      actionThrew(record, mid, e);
      return;
    } finally {
      dispatching = undefined;
    }
    if (result !== null && (typeof result === 'object' || typeof result === 'function') && typeof result.then === 'function') {
      let ok = function (value) { actionReturned(record, mid, value); };
      let threw = function (e) { actionThrew(record, mid, e); };
      try { result.then(ok, threw); } catch (e) { threw(e); }
    } else {
      actionReturned(record, mid, result);
    }
  }
  // A dispatch refused before its action ran (no closure per dispatch for it: the usual one runs).
  function dispatchRefused(msg, record, post, code, name, message) {
    let payload = { ok: false, error: { code: code, name: name, message: message, stack: '' } };
    if (record) send(record, MessageType.actionResult, payload, msg.messageId);
    else sendStoreless(post, msg.storeId, MessageType.actionResult, payload, msg.messageId);
  }
  // The action_result of a dispatch, after the action's own writes (flushed first).
  function actionReturned(record, mid, value) {
    if (record.disposed) return;
    flushStore(record);
    let t = typeof value;
    if (t === 'string' || t === 'boolean' || value === null || (t === 'number' && value === value && value !== Infinity && value !== -Infinity)) {
      // Plain JSON needs no encoding: the text JSON.stringify({ ok: true, value }) would write, without the object.
      send(record, MessageType.actionResult, undefined, mid, '{"ok":true,"value":' + JSON.stringify(value) + '}');
      return;
    }
    let errs = [];
    let enc = encodeValue(value, [], errs);
    if (errs.length) reportUnserializable(record, errs, 'action_result');
    send(record, MessageType.actionResult, { ok: true, value: enc }, mid);
  }
  function actionThrew(record, mid, e) {
    if (record.disposed) return;
    flushStore(record);
    let info = errorInfo(e);
    send(record, MessageType.actionResult, { ok: false, error: { code: 'action_threw', name: info.name, message: info.message, stack: info.stack } }, mid);
  }

  // `ack` (PROTOCOL.md A.1): the messageId of the last native message applied, as its JSON value (a string
  // from StateHub's hub; a number is echoed as a number). A message without a messageId is applied but
  // acknowledges nothing: `ack` keeps its previous value.
  function acknowledge(record, msg) {
    if (msg.messageId !== undefined && msg.messageId !== null) record.ack = JSON.stringify(msg.messageId);
  }

  function handleHydrate(msg, record) {
    let p = msg.payload;
    if (p === null || typeof p !== 'object' || p.state === null || typeof p.state !== 'object' || isArray(p.state)) {
      return badMessage(record.post, msg, 'payload.state must be an object', 'payload.state', record);
    }
    flushStore(record);
    applySnapshot(record, decodeValue(p.state));
    acknowledge(record, msg);
    postSyncState(record, 'hydrated');
  }

  // Makes the store equal to a decoded snapshot in one $patch(fn), echo suppressed (A.5.7).
  function applySnapshot(record, snap) {
    record.suppress++;
    try {
      record.store.$patch(function (state) {
        let ks = objectKeys(state), i;
        for (i = 0; i < ks.length; i++) if (!hasOwn.call(snap, ks[i])) delete state[ks[i]];
        let sk = objectKeys(snap);
        for (i = 0; i < sk.length; i++) setKey(state, sk[i], snap[sk[i]]);
      });
    } finally {
      record.suppress--;
    }
    record.derivedDirty = false;
  }

  // docs/pool.md: a store saved by native starts from its snapshot, applied as a hydration before the
  // store is announced, so the page's code, the mirror and every observer first see the saved state.
  // Native checks the snapshot (size, depth, shape against the fresh state) and answers null to drop it.
  function hydrateFromSnapshot(record) {
    let hook = root.StateHubSnapshots;
    if (!hook || typeof hook.has !== 'function' || typeof hook.take !== 'function') return;
    let snap;
    try {
      if (hook.has(record.id) !== true) return;
      // Both ways as JSON text: JSON.stringify / JSON.parse cost a fraction of converting a tree value by value.
      snap = hook.take(record.id, valueText(rawOf(record.store.$state)));
      if (typeof snap !== 'string') return;
      snap = JSON.parse(snap);
    } catch (e) {
      warn('the snapshot of store "' + record.id + '" could not be read; the store keeps its initial state', e);
      return;
    }
    if (snap === null || typeof snap !== 'object' || isArray(snap)) return;
    applySnapshot(record, decodeValue(snap));
  }

  function handleForwarded(msg, record) {
    let p = msg.payload;
    if (p === null || typeof p !== 'object' || !isArray(p.mutations)) {
      return badMessage(record.post, msg, 'payload.mutations must be an array', 'payload.mutations', record);
    }
    let all = [], i;
    for (i = 0; i < p.mutations.length; i++) {
      let m = p.mutations[i];
      if (m === null || typeof m !== 'object' || !isArray(m.ops)) {
        return badMessage(record.post, msg, 'payload.mutations[' + i + '].ops must be an array', 'payload.mutations[' + i + '].ops', record);
      }
      for (let j = 0; j < m.ops.length; j++) all.push(m.ops[j]);
    }
    for (i = 0; i < all.length; i++) {
      let o = all[i];
      if (o === null || typeof o !== 'object' || !isArray(o.path)) {
        return badMessage(record.post, msg, 'op ' + i + ' is malformed (needs op and path)', 'ops[' + i + ']', record);
      }
      if (o.value !== null && typeof o.value === 'object') o.value = decodeValue(o.value);
      if (isArray(o.items)) decodeValue(o.items);
    }
    flushStore(record);
    let failure = null;
    record.suppress++;
    try {
      record.store.$patch(function (state) {
        try { applyOpsToStore(state, all); } catch (e) {
          if (e instanceof OpError) failure = e; else throw e;
        }
      });
    } finally {
      record.suppress--;
    }
    rebaseline(record);
    acknowledge(record, msg);
    if (failure) {
      send(record, MessageType.error, errorPayload('op_failed', 'forwarded op does not apply: ' + failure.reason,
        failure.op && isArray(failure.op.path) ? failure.op.path : [], { op: failure.op && failure.op.op, reason: failure.reason }));
    }
  }

  function badMessage(post, msg, message, field, record, received) {
    let detail = {};
    if (received !== undefined) detail.received = received;
    if (field) detail.field = field;
    let payload = errorPayload('bad_message', message, null, detail);
    if (record) send(record, MessageType.error, payload);
    else sendStoreless(post, msg && typeof msg.storeId === 'string' ? msg.storeId : null, MessageType.error, payload);
  }

  function truncate(s) { s = typeof s === 'string' ? s : safeString(s); return s.length > 200 ? s.slice(0, 200) : s; }

  let KNOWN_TYPES = { dispatch_action: 1, sync_state: 1, apply_mutation: 1, request_sync: 1, error: 1 };

  function dispatchFromNative(json) {
    let post = defaultPost || resolvePost(null);
    let msg;
    try {
      msg = typeof json === 'string' ? JSON.parse(json) : json;
    } catch (e) {
      badMessage(post, null, 'native message is not valid JSON: ' + (e && e.message), null, null, truncate(json));
      return;
    }
    try {
      if (msg === null || typeof msg !== 'object' || isArray(msg)) {
        return badMessage(post, null, 'native message is not a JSON object', null, null, truncate(json));
      }
      if (msg.v !== undefined && msg.v !== PROTOCOL_VERSION) {
        return badMessage(post, msg, 'unsupported protocol version ' + safeString(msg.v), 'v', null, truncate(json));
      }
      if (typeof msg.type !== 'string' || !hasOwn.call(KNOWN_TYPES, msg.type)) {
        return badMessage(post, msg, 'unknown message type ' + JSON.stringify(msg.type === undefined ? null : msg.type), 'type', registry.get(msg.storeId), truncate(json));
      }
      if (msg.type === MessageType.error) {
        // native refused one of our messages (PROTOCOL.md A.5.10): say so, answer nothing
        const payload = msg.payload !== null && typeof msg.payload === 'object' ? msg.payload : {};
        warn('native refused a message of store ' + JSON.stringify(msg.storeId === undefined ? null : msg.storeId) + ': ' +
          safeString(payload.code) + (payload.message ? ' (' + truncate(payload.message) + ')' : ''));
        return;
      }
      if (typeof msg.storeId !== 'string') {
        if (msg.type === MessageType.dispatchAction && msg.messageId !== undefined) {
          sendStoreless(post, null, MessageType.actionResult, { ok: false, error: { code: 'bad_message', name: 'BadMessage', message: 'storeId must be a string', stack: '' } }, msg.messageId);
          return;
        }
        return badMessage(post, msg, 'storeId must be a string', 'storeId', null, truncate(json));
      }
      let record = registry.get(msg.storeId);
      if (msg.type === MessageType.dispatchAction) {
        if (msg.messageId === undefined || msg.messageId === null) {
          return badMessage(post, msg, 'dispatch_action needs a messageId', 'messageId', record, truncate(json));
        }
        return handleDispatchAction(msg, record, post);
      }
      if (!record) {
        sendStoreless(post, msg.storeId, MessageType.error, errorPayload('unknown_store', 'no store "' + msg.storeId + '" in this engine', null, { type: msg.type }));
        return;
      }
      if (msg.payload === undefined || msg.payload === null || typeof msg.payload !== 'object') {
        if (msg.type !== 'request_sync') return badMessage(record.post, msg, 'payload must be an object', 'payload', record, truncate(json));
      }
      if (msg.type === MessageType.syncState) return handleHydrate(msg, record);
      if (msg.type === MessageType.applyMutation) return handleForwarded(msg, record);
      if (msg.type === MessageType.requestSync) {
        // after a time-limit stop dropped the queued flush, this is what
        // lets later writes flush again (the flag would stay set forever).
        flushStore(record);
        flushScheduled = false;
        postSyncState(record, 'resync');
      }
    } catch (e) {
      warn('failed to handle a native message', e);
      try { badMessage(post, msg, 'failed to handle message: ' + (e && e.message), null, msg && registry.get(msg.storeId), truncate(json)); } catch (_) { /* never throw to native */ }
    }
  }

  function installDispatch() {
    let w = root.window || root;
    let nb = w.nativeBridge;
    if (!nb || typeof nb !== 'object') { nb = {}; w.nativeBridge = nb; }
    if (nb.dispatch !== dispatchFromNative) nb.dispatch = dispatchFromNative;
  }

  // ---------------------------------------------------------------------------------------------
  // The plugin
  // ---------------------------------------------------------------------------------------------

  function createSyncPlugin(config) {
    config = config || {};
    let flush = config.flush === 'sync' ? 'sync' : 'tick';
    let postOpt = config.post;

    return function stateHubSyncPlugin(context) {
      let store = context && context.store;
      if (!store || typeof store.$subscribe !== 'function') return;
      let post = resolvePost(postOpt);
      if (!post) {
        if (!warnedInert) {
          warnedInert = true;
          warn('no native shell (window.webkit.messageHandlers.nativeBridge is missing): the sync plugin is inactive.');
        }
        return;
      }
      defaultPost = post;
      installDispatch();

      let previous = registry.get(store.$id);
      if (previous && previous.store === store && !previous.disposed) {
        // Another sync plugin already handles this store (e.g. install.js's, then an app's own): one record
        // per store; the plugin applied last sets flush and transport.
        flushStore(previous);
        previous.flush = flush;
        if (postOpt) previous.post = post;
        return;
      }

      let record = {
        id: store.$id, head: '{"v":' + PROTOCOL_VERSION + ',"storeId":' + JSON.stringify(store.$id) + ',"messageId":', store: store, options: context.options, post: post, flush: flush,
        seq: 0, pending: null, pendingOps: 0, isDirty: false, suppress: 0, disposed: false,
        plainMutation: null, plainTail: null, plainCall: undefined,
        mode: 'unknown', snapshot: null, snapshotText: null, derivedDirty: false, derivedAction: undefined, errKeys: null, errQueue: null, escapes: false,
        runningActions: [], lazyOps: false,
        getterTexts: null, getterFailures: null, // by getter name: its value's JSON text last sent, how it failed (gettersPayload)
        raw: null, getterSource: null, getterNameList: null, // the raw store; where its getters' names were read, and them (getterNames)
        gettersRemoved: false,                  // a getter sent before is gone: a sync_state follows (forgetRemovedGetters)
        ack: null // JSON text of the messageId of the last native sync_state / apply_mutation applied (A.7)
      };
      registry.set(record.id, record);
      hydrateFromSnapshot(record);
      postSyncState(record, 'created');

      // On StateHub's runtime the ops come without a mutation object (OPS_CALLBACK); real Pinia ignores the option.
      let subscribeOptions = { flush: 'sync', detached: true };
      subscribeOptions[OPS_CALLBACK] = function (type, ops) { onOps(record, type, ops); };
      store.$subscribe(function (mutation) { onMutation(record, mutation); }, subscribeOptions);
      trackActions(record, store);

      let originalDispose = store.$dispose;
      if (typeof originalDispose === 'function') {
        let wrapped = function () {
          if (!record.disposed) flushStore(record);
          let r = originalDispose.apply(this, arguments);
          if (!record.disposed) {
            send(record, MessageType.storeDisposed, {});
            record.disposed = true;
            record.pending = null;
            if (registry.get(record.id) === record) registry.delete(record.id);
          }
          return r;
        };
        try { store.$dispose = wrapped; } catch (e) { /* fall through */ }
        if (store.$dispose !== wrapped) {
          try { Object.defineProperty(store, '$dispose', { value: wrapped, configurable: true, writable: true }); } catch (e) {
            warn('cannot wrap $dispose of store "' + record.id + '"; store_disposed will not be posted');
          }
        }
      }
    };
  }

  /** Flushes every pending batch now (tests, and native before a synchronous read). */
  function flushPending() {
    // on StateHub's runtime, writes no proxy saw (markRaw objects, Dates changed in place) first
    const runtime = root.StateHubPinia;
    if (runtime && typeof runtime.catchUpUnobservable === 'function') runtime.catchUpUnobservable();
    flushAll();
  }

  root.StateHubSync = {
    version: PROTOCOL_VERSION,
    createSyncPlugin: createSyncPlugin,
    encodeValue: encodeValue,
    decodeValue: decodeValue,
    diffStates: diffStates,
    applyOps: applyOps,
    deepEqual: deepEqual,
    flushPending: flushPending,
    dispatch: dispatchFromNative,
    OPS_KEY: OPS_KEY
  };
})(typeof globalThis !== 'undefined' ? globalThis : this);
