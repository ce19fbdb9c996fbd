/*
 * StateHub: sends a web -> native store message that is over native's size cap as
 * `chunk` messages (docs/PROTOCOL.md A.11), so a large state reaches the mirror instead
 * of looping on "oversize; resync requested".
 *
 * Classic script, loaded after the sync plugin (its own file so the plugin stays as it is):
 * wraps window.webkit.messageHandlers.nativeBridge.postMessage. Reads
 * globalThis.StateHubSyncConfig.maxMessageBytes (native's cap; default 8 MiB).
 */
(function (root) {
  'use strict';
  var w = root.window || root;
  var handler = w.webkit && w.webkit.messageHandlers && w.webkit.messageHandlers.nativeBridge;
  if (!handler || typeof handler.postMessage !== 'function' || handler.__statehubChunking) return;
  var config = root.StateHubSyncConfig || {};
  var cap = typeof config.maxMessageBytes === 'number' && config.maxMessageBytes > 0 ? config.maxMessageBytes : 8388608;
  // A UTF-16 code unit is at most 3 UTF-8 bytes, and at most 6 once JSON-escaped (\u001f).
  var slice = Math.max(256, Math.floor((cap - 512) / 6));
  var original = handler.postMessage;
  var transfers = 0;

  function bounds(text) {
    var out = [];
    var start = 0;
    while (start < text.length) {
      var end = Math.min(text.length, start + slice);
      var last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xD800 && last <= 0xDBFF) end -= 1; // keep surrogate pairs whole
      out.push([start, end]);
      start = end;
    }
    return out;
  }

  function randomHex() {
    var c = root.crypto;
    if (c && typeof c.getRandomValues === 'function') {
      var word = c.getRandomValues(new Uint32Array(1))[0];
      return ('0000000' + word.toString(16)).slice(-8);
    }
    return ('0000000' + Math.floor(Math.random() * 0x100000000).toString(16)).slice(-8);
  }

  function post(text) {
    if (typeof text !== 'string' || text.length * 3 <= cap) return original.call(handler, text);
    var head = /^\{"v":1,"storeId":("(?:[^"\\]|\\.)*"|null)/.exec(text);
    var storeId = head ? head[1] : 'null';
    // Hard to guess (PROTOCOL.md A.11): a name another script of the page forges cannot
    // collide with this transfer.
    var transfer = 't' + (++transfers) + '-' + randomHex();
    var parts = bounds(text);
    for (var i = 0; i < parts.length; i++) {
      var data = text.slice(parts[i][0], parts[i][1]);
      original.call(handler, '{"v":1,"storeId":' + storeId + ',"messageId":"' + transfer + '.' + i +
        '","type":"chunk","payload":{"transfer":"' + transfer + '","index":' + i + ',"count":' + parts.length +
        ',"data":' + JSON.stringify(data) + '}}');
    }
  }

  handler.postMessage = post;
  handler.__statehubChunking = true;
})(typeof globalThis !== 'undefined' ? globalThis : this);
