/*
 * StateHub capability bridge, web side (docs/PROTOCOL.md, part B).
 *
 * Classic script (no modules), one small file a micro-app includes beside the store runtime. Publishes
 * globalThis.StateHubBridge = { invokeNative, onNative, receive, installDevelopmentStub } and puts
 * invokeNative / onNative on globalThis.
 *
 *   invokeNative('showAlert', { message: 'Hi' }, { timeout: 5000 }).then(data => ..., err => err.code)
 *   let off = onNative('cartNavTapped', function (data) { ... }); off();
 *
 * Web -> native: window.webkit.messageHandlers.bridge.postMessage('{"v":1,"id":"c1","action":…,"payload":{…}}')
 * Native -> web: window.StateHubBridge.receive('{"id":"c1","ok":true,"data":…}') and
 *                window.StateHubBridge.receive('{"event":"…","data":…}')
 * Replies are correlated by id in a private Map: nothing is added to window per call.
 */
(function (root) {
  'use strict';

  if (root.StateHubBridge && root.StateHubBridge.__stateHubBridge === 1) return; // loaded twice: keep the first

  let PROTOCOL_VERSION = 1;
  let DEFAULT_TIMEOUT_MS = 15000;
  let pending = new Map();     // id -> { resolve, reject, action, timeout, deadline }
  let listeners = new Map();   // event -> array of callbacks (copy on write)
  let counter = 0;
  let stub = null;             // development stub: { handlers }

  // Timeouts share one timer, armed for the earliest deadline (setTimeout + clearTimeout per call would cost a
  // few µs each in the engine). It is cleared soon after the last pending call settles, so an idle page holds no
  // timer. Deadlines follow performance.now(), which follows the engine's clock (virtual in tests).
  let timer = null, timerDeadline = Infinity, idleCheckQueued = false;
  function now() { return root.performance && typeof root.performance.now === 'function' ? root.performance.now() : Date.now(); }
  function armFor(deadline) {
    if (timer !== null) {
      if (deadline >= timerDeadline) return;
      root.clearTimeout(timer);
    }
    timerDeadline = deadline;
    timer = root.setTimeout(sweep, Math.max(0, deadline - now()));
  }
  function sweep() {
    timer = null; timerDeadline = Infinity;
    let t = now() + 0.5, next = Infinity, expired = [];
    pending.forEach(function (entry, id) {
      if (entry.deadline <= t) expired.push(id);
      else if (entry.deadline < next) next = entry.deadline;
    });
    // A late timer (a busy page) can find several calls expired: reject them in deadline
    // order, so callers see timeouts in the order they were due.
    expired.sort(function (a, b) { return pending.get(a).deadline - pending.get(b).deadline; });
    for (let i = 0; i < expired.length; i++) {
      let entry = pending.get(expired[i]);
      pending.delete(expired[i]);
      entry.reject(bridgeError('timeout', entry.action + ': no reply from native within ' + entry.timeout + ' ms'));
    }
    if (next !== Infinity) armFor(next);
  }
  function queueIdleCheck() {
    if (idleCheckQueued || timer === null) return;
    idleCheckQueued = true;
    // a few microtask hops: a caller awaiting this reply and then calling again keeps the timer
    Promise.resolve().then(function () { return 0; }).then(function () { return 0; }).then(function () {
      idleCheckQueued = false;
      if (pending.size === 0 && timer !== null) { root.clearTimeout(timer); timer = null; timerDeadline = Infinity; }
    });
  }

  function bridgeError(code, message) {
    let e = new Error(message);
    e.name = 'StateHubBridgeError';
    e.code = code;
    return e;
  }

  function nativeHandler() {
    let w = root.window || root;
    let h = w && w.webkit && w.webkit.messageHandlers && w.webkit.messageHandlers.bridge;
    return h && typeof h.postMessage === 'function' ? h : null;
  }

  function report(msg, e) {
    if (root.console && typeof root.console.error === 'function') root.console.error('[StateHubBridge] ' + msg, e);
  }

  /**
   * Calls a native action. Resolves with the reply's data; rejects with an Error whose .code is one of
   * unknown_action, bad_payload, refused, url_not_allowed, payload_too_large, handler_failed, timeout,
   * no_native_shell. options.timeout in ms (default 15000; 0 or Infinity: none).
   */
  function invokeNative(action, payload, options) {
    return new Promise(function (resolve, reject) {
      if (typeof action !== 'string' || action.length === 0) {
        reject(bridgeError('bad_payload', 'invokeNative: action must be a non-empty string'));
        return;
      }
      if (payload === undefined || payload === null) payload = {};
      if (typeof payload !== 'object' || Array.isArray(payload)) {
        reject(bridgeError('bad_payload', action + ': payload must be an object'));
        return;
      }
      let h = nativeHandler();
      if (h === null && stub === null) {
        reject(bridgeError('no_native_shell', action + ': no native shell (window.webkit.messageHandlers.bridge is missing) ' +
          'and no development stub installed (StateHubBridge.installDevelopmentStub)'));
        return;
      }
      let id = 'c' + (++counter);
      let text;
      try {
        text = JSON.stringify({ v: PROTOCOL_VERSION, id: id, action: action, payload: payload });
      } catch (e) {
        reject(bridgeError('bad_payload', action + ': payload is not serialisable as JSON (' + (e && e.message) + ')'));
        return;
      }
      let timeout = options && options.timeout !== undefined ? Number(options.timeout) : DEFAULT_TIMEOUT_MS;
      let timed = timeout > 0 && timeout !== Infinity && typeof root.setTimeout === 'function';
      let entry = { resolve: resolve, reject: reject, action: action, timeout: timeout, deadline: timed ? now() + timeout : Infinity };
      pending.set(id, entry); // before posting: native may answer synchronously inside postMessage
      if (timed) armFor(entry.deadline);
      try {
        if (h !== null) h.postMessage(text);
        else runStub(text);
      } catch (e) {
        settle(id, false, null, { code: 'handler_failed', message: action + ': postMessage failed: ' + (e && e.message) });
      }
    });
  }

  function settle(id, ok, data, error) {
    let entry = pending.get(id);
    if (entry === undefined) return false; // unknown, settled or timed out: ignored
    pending.delete(id);
    if (pending.size === 0) queueIdleCheck();
    if (ok) entry.resolve(data === undefined ? null : data);
    else {
      let code = error && typeof error.code === 'string' ? error.code : 'handler_failed';
      let message = error && typeof error.message === 'string' ? error.message : entry.action + ' failed';
      entry.reject(bridgeError(code, message));
    }
    return true;
  }

  /** Subscribes to a native event; returns a function that unsubscribes (idempotent). */
  function onNative(event, callback) {
    if (typeof event !== 'string' || typeof callback !== 'function') throw new TypeError('onNative(event: string, callback: function)');
    let list = listeners.get(event) || [];
    listeners.set(event, list.concat([callback]));
    let active = true;
    return function unsubscribe() {
      if (!active) return;
      active = false;
      let cur = listeners.get(event);
      if (!cur) return;
      let i = cur.indexOf(callback);
      if (i < 0) return;
      let next = cur.slice(0, i).concat(cur.slice(i + 1));
      if (next.length) listeners.set(event, next); else listeners.delete(event);
    };
  }

  /**
   * Entry point for native: a reply { id, ok, data | error } or an event { event, data }, as a JSON string
   * (an already-parsed object is accepted too). Never throws.
   */
  function receive(message) {
    let msg;
    try {
      msg = typeof message === 'string' ? JSON.parse(message) : message;
    } catch (e) {
      report('receive: not JSON', message);
      return;
    }
    if (msg === null || typeof msg !== 'object') { report('receive: not an object', message); return; }
    if (msg.id !== undefined && msg.id !== null) {
      settle(String(msg.id), msg.ok === true, msg.data, msg.error);
      return;
    }
    if (typeof msg.event === 'string') {
      let list = listeners.get(msg.event);
      if (!list) return;
      for (let i = 0; i < list.length; i++) {
        try { list[i](msg.data === undefined ? null : msg.data); } catch (e) { report('listener for "' + msg.event + '" threw', e); }
      }
      return;
    }
    report('receive: neither a reply nor an event', message);
  }

  // ---- development stub (outside a native shell only) ------------------------------------------

  function runStub(text) {
    let req = JSON.parse(text);
    let handlers = stub.handlers;
    Promise.resolve().then(function () {
      let fn = handlers && Object.prototype.hasOwnProperty.call(handlers, req.action) ? handlers[req.action] : null;
      if (typeof fn !== 'function') {
        throw bridgeError('unknown_action', 'no handler for "' + req.action + '" in the development stub');
      }
      return fn(req.payload);
    }).then(function (data) {
      receive(JSON.stringify({ id: req.id, ok: true, data: data === undefined ? null : data }));
    }, function (e) {
      let code = e && typeof e.code === 'string' ? e.code : 'handler_failed';
      let message = e && typeof e.message === 'string' ? e.message : String(e);
      receive(JSON.stringify({ id: req.id, ok: false, error: { code: code, message: message } }));
    });
  }

  /**
   * For development outside a native shell (a desktop browser): handlers is { action: function (payload) →
   * value | Promise }. A handler may throw an Error with .code to answer with that code. Used only when no
   * native shell is present (a real shell always wins). Returns { emit(event, data), uninstall() }.
   */
  function installDevelopmentStub(handlers) {
    stub = { handlers: handlers || {} };
    let mine = stub;
    return {
      emit: function (event, data) { receive(JSON.stringify({ event: event, data: data === undefined ? null : data })); },
      uninstall: function () { if (stub === mine) stub = null; }
    };
  }

  let api = {
    __stateHubBridge: 1,
    version: PROTOCOL_VERSION,
    invokeNative: invokeNative,
    onNative: onNative,
    receive: receive,
    installDevelopmentStub: installDevelopmentStub,
    /** Number of calls awaiting a reply (diagnostics, tests). */
    pendingCount: function () { return pending.size; }
  };
  root.StateHubBridge = api;
  root.invokeNative = invokeNative;
  root.onNative = onNative;
})(typeof globalThis !== 'undefined' ? globalThis : this);
