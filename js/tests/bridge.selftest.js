/*
 * Self-test of js/bridge/bridge-client.js (docs/PROTOCOL.md, part B).
 *
 * Runs in a plain global scope where js/bridge/bridge-client.js is already loaded (the store runtime may be
 * loaded too; it is not needed). Installs its own fake window.webkit.messageHandlers.bridge (restored at the
 * end) that plays native: it records requests and answers through StateHubBridge.receive.
 *
 * The script's completion value is a promise; it settles once every check ran (the timeout check waits
 * ~20 ms on setTimeout, so a host must run timers until globalThis.bridgeSelftestResult.done). Prints
 * "bridge selftest: N passed, 0 failed" and throws (rejects) on failure.
 */
(function () {
  'use strict';
  var G = typeof globalThis !== 'undefined' ? globalThis : this;
  var W = G.window || G;
  var B = G.StateHubBridge;
  var passed = 0, failed = 0, failures = [];
  var result = { done: false, passed: 0, failed: 0, failures: failures };
  G.bridgeSelftestResult = result;

  function ok(cond, name, info) {
    if (cond) { passed++; return true; }
    failed++;
    var s; try { s = JSON.stringify(info); } catch (e) { s = String(info); }
    failures.push(name + (info !== undefined ? ' — ' + s : ''));
    return false;
  }

  var savedWebkit = W.webkit;
  var handlers = {};
  if (savedWebkit && savedWebkit.messageHandlers) for (var k in savedWebkit.messageHandlers) handlers[k] = savedWebkit.messageHandlers[k];
  var requests = [];
  var mode = 'queue'; // 'queue': record only; 'sync': answer inside postMessage
  handlers.bridge = {
    postMessage: function (s) {
      var req = JSON.parse(s);
      requests.push({ text: s, req: req });
      if (mode === 'sync') B.receive(JSON.stringify({ id: req.id, ok: true, data: { echo: req.payload } }));
    }
  };
  W.webkit = { messageHandlers: handlers };
  function restore() { W.webkit = savedWebkit; }
  function reply(req, obj) { obj.id = req.id; B.receive(JSON.stringify(obj)); }

  ok(typeof G.invokeNative === 'function' && G.invokeNative === B.invokeNative && typeof G.onNative === 'function', 'globals published');
  ok(typeof B.receive === 'function' && typeof B.installDevelopmentStub === 'function', 'StateHubBridge API');

  var checks = [];
  function expectResolve(p, name, test) {
    checks.push(p.then(function (v) { ok(test(v), name, v); }, function (e) { ok(false, name, { rejected: e && e.code, message: e && e.message }); }));
  }
  function expectReject(p, code, name, test) {
    checks.push(p.then(function (v) { ok(false, name, { resolved: v }); }, function (e) {
      ok(e instanceof Error && e.code === code && (!test || test(e)), name, { code: e && e.code, message: e && e.message });
    }));
  }

  // 1. request format, correlation, nothing added to window per call
  var keysBefore = Object.getOwnPropertyNames(W).length;
  var calls = [];
  for (var i = 0; i < 100; i++) calls.push(G.invokeNative('getInitialData', { n: i }, { timeout: 0 }));
  ok(Object.getOwnPropertyNames(W).length === keysBefore, 'nothing added to window per call');
  ok(requests.length === 100, '100 requests posted', requests.length);
  var r0 = requests[0];
  ok(typeof r0.text === 'string' && r0.req.v === 1 && typeof r0.req.id === 'string' && r0.req.action === 'getInitialData' && r0.req.payload.n === 0,
    'request is a JSON string { v:1, id, action, payload }', r0.req);
  ok(JSON.stringify(Object.keys(r0.req)) === '["v","id","action","payload"]', 'request key order');
  var ids = {};
  requests.forEach(function (r) { ids[r.req.id] = 1; });
  ok(Object.keys(ids).length === 100, 'ids unique');
  ok(B.pendingCount() === 100, 'pending tracked privately', B.pendingCount());
  // answer in reverse order: each caller gets its own reply
  var batch = requests.splice(0);
  for (var j = batch.length - 1; j >= 0; j--) reply(batch[j].req, { ok: true, data: { n: batch[j].req.payload.n * 2 } });
  calls.forEach(function (p, n) { expectResolve(p, 'concurrent call ' + n + ' resolved with its own reply', function (v) { return v.n === n * 2; }); });

  // 2. coded errors
  var pErr = G.invokeNative('gotoWebview', { url: 'http://evil.example' }, { timeout: 0 });
  reply(requests.shift().req, { ok: false, error: { code: 'url_not_allowed', message: 'gotoWebview: host evil.example is not on the allowlist' } });
  expectReject(pErr, 'url_not_allowed', 'error reply rejects with .code', function (e) { return /allowlist/.test(e.message); });
  var pUnknown = G.invokeNative('teleport', {}, { timeout: 0 });
  reply(requests.shift().req, { ok: false, error: { code: 'unknown_action', message: 'no handler for teleport' } });
  expectReject(pUnknown, 'unknown_action', 'unknown action rejects with code unknown_action');
  var pNoCode = G.invokeNative('showAlert', { message: 'x' }, { timeout: 0 });
  reply(requests.shift().req, { ok: false });
  expectReject(pNoCode, 'handler_failed', 'error reply without code: handler_failed');
  expectReject(G.invokeNative('', {}), 'bad_payload', 'empty action refused locally');
  expectReject(G.invokeNative('showAlert', [1]), 'bad_payload', 'array payload refused locally');
  var cyc = {}; cyc.self = cyc;
  expectReject(G.invokeNative('showAlert', cyc), 'bad_payload', 'unserialisable payload refused locally');
  ok(requests.length === 0, 'locally refused calls post nothing', requests.length);

  // 3. payload defaults to {}, data defaults to null, synchronous replies inside postMessage
  mode = 'sync';
  expectResolve(G.invokeNative('didFinishLoading'), 'reply delivered synchronously inside postMessage', function (v) { return v && v.echo && Object.keys(v.echo).length === 0; });
  mode = 'queue';
  requests.length = 0;
  var pNull = G.invokeNative('didFinishLoading', undefined, { timeout: 0 });
  reply(requests.shift().req, { ok: true });
  expectResolve(pNull, 'missing data resolves to null', function (v) { return v === null; });

  // 4. events
  var got = [], got2 = [];
  var off = G.onNative('cartNavTapped', function (d) { got.push(d); });
  G.onNative('cartNavTapped', function (d) { got2.push(d); });
  var offThrow = G.onNative('cartNavTapped', function () { throw new Error('listener bug'); });
  var savedError = G.console && G.console.error; var errorsLogged = 0;
  if (G.console) G.console.error = function () { errorsLogged++; };
  B.receive(JSON.stringify({ event: 'cartNavTapped', data: { from: 'header' } }));
  B.receive('{not json');
  B.receive(JSON.stringify({ event: 'other', data: 1 }));
  B.receive(JSON.stringify({ id: 'c999999', ok: true, data: 1 })); // unknown id: ignored
  B.receive(JSON.stringify([1, 2]));
  off(); off();
  offThrow();
  B.receive(JSON.stringify({ event: 'cartNavTapped' }));
  if (G.console) G.console.error = savedError;
  ok(got.length === 1 && got[0].from === 'header', 'event delivered to listener');
  ok(got2.length === 2 && got2[1] === null, 'other listener keeps receiving after unsubscribe; missing data is null', got2);
  ok(errorsLogged >= 2, 'listener errors and junk are reported, never thrown', errorsLogged);

  // 5. no native shell, development stub
  W.webkit = undefined;
  expectReject(G.invokeNative('getInitialData', {}), 'no_native_shell', 'outside a shell: no_native_shell', function (e) { return /no native shell/.test(e.message); });
  var dev = B.installDevelopmentStub({
    getInitialData: function () { return { apiBaseURL: 'https://api.example.com', userId: 'dev', token: 't' }; },
    showAlert: function (p) { if (!p || typeof p.message !== 'string') { var e = new Error('showAlert: payload.message: expected String'); e.code = 'bad_payload'; throw e; } return Promise.resolve({ index: 0 }); }
  });
  expectResolve(G.invokeNative('getInitialData', {}), 'development stub answers', function (v) { return v.userId === 'dev'; });
  expectResolve(G.invokeNative('showAlert', { message: 'hi' }), 'development stub async handler', function (v) { return v.index === 0; });
  expectReject(G.invokeNative('showAlert', {}), 'bad_payload', 'development stub coded error', function (e) { return /payload\.message/.test(e.message); });
  expectReject(G.invokeNative('gotoNative', { page: 'x' }), 'unknown_action', 'development stub unknown action');
  var stubEvents = [];
  var offStub = G.onNative('navTap', function (d) { stubEvents.push(d); });
  dev.emit('navTap', { a: 1 });
  offStub();
  ok(stubEvents.length === 1 && stubEvents[0].a === 1, 'development stub emits events');
  dev.uninstall();
  expectReject(G.invokeNative('getInitialData', {}), 'no_native_shell', 'stub uninstalled: no_native_shell again');
  W.webkit = { messageHandlers: handlers };

  // 6. timeout (needs setTimeout from the host), late reply ignored
  if (typeof G.setTimeout === 'function') {
    var pTimeout = G.invokeNative('showAlert', { message: 'slow' }, { timeout: 20 });
    var slowReq = requests.shift().req;
    checks.push(pTimeout.then(function (v) { ok(false, 'timeout rejects', v); }, function (e) {
      ok(e.code === 'timeout' && /20 ms/.test(e.message), 'timeout rejects with code timeout', { code: e.code, message: e.message });
      reply(slowReq, { ok: true, data: 'late' }); // must be ignored, not throw
    }));
    // timeouts share one timer: a later, shorter timeout must still fire first
    var order = [];
    var pLong = G.invokeNative('slowA', {}, { timeout: 40 });
    var pShort = G.invokeNative('slowB', {}, { timeout: 10 });
    requests.splice(0);
    checks.push(Promise.all([
      pLong.then(null, function (e) { order.push('long:' + e.code); }),
      pShort.then(null, function (e) { order.push('short:' + e.code); })
    ]).then(function () {
      ok(order.join() === 'short:timeout,long:timeout', 'shorter timeout fires first', order);
      ok(B.pendingCount() === 0, 'timed-out calls forgotten', B.pendingCount());
    }));
  } else {
    ok(true, 'timeout check skipped: no setTimeout in this host');
  }

  function finish() {
    restore();
    result.done = true; result.passed = passed; result.failed = failed;
    var line = 'bridge selftest: ' + passed + ' passed, ' + failed + ' failed';
    if (G.console && G.console.log) G.console.log(line);
    if (failed) throw new Error(line + '\n  ' + failures.join('\n  '));
    return line;
  }
  return Promise.all(checks).then(finish, function (e) { failed++; failures.push('unexpected: ' + e); return finish(); });
})();
