/// The web globals bare JavaScriptCore lacks and store code commonly touches, as one
/// classic script evaluated into every engine before anything else.
///
/// It evaluates to a function that receives the native helpers (`natives`), so nothing
/// private lands on `globalThis`. What it provides, and how far each goes:
/// - `window`, `self`: aliases of `globalThis`.
/// - `console.log/info/warn/error/debug`: arguments joined by spaces; strings as they are,
///   errors as their stack, other values as JSON, with what JSON cannot say written as
///   JavaScript shows it, unquoted (`[undefined,1]`, `{"f":[Function: f]}`, `12n`).
/// - `performance.now()`: milliseconds since the engine started, from the engine's clock
///   (virtual under the manual clock, so tests are deterministic).
/// - `crypto.randomUUID()`, `crypto.getRandomValues(typedArray)`: from the system's CSPRNG.
/// - `structuredClone(value)`: plain objects, arrays, Date, Map, Set, RegExp, typed arrays,
///   ArrayBuffer, boxed primitives and cycles; functions and symbols throw `DataCloneError`.
/// - `TextEncoder` / `TextDecoder`: UTF-8 only (as on the web for `TextEncoder`).
/// - `atob` / `btoa`: Latin-1 strings, throwing `InvalidCharacterError` like browsers.
/// - `URL` / `URLSearchParams`: parsing and building special (`http`, `https`, `ws`, `wss`,
///   `file`) and opaque URLs, relative resolution against a base, `searchParams` kept in
///   sync with `search`. Not implemented: IDNA/punycode hosts, IPv6 normalisation, and the
///   full WHATWG percent-encode sets (we encode what `encodeURIComponent` encodes).
/// - `queueMicrotask`: JavaScriptCore's own when present, behind a native checkpoint of the
///   turn's time limit.
/// - `FinalizationRegistry`: JavaScriptCore's, with each cleanup callback run by the engine in
///   a turn of its own, as a timer is (time limit, stops, what a cleanup throws reported);
///   `WebAssembly.compile` / `instantiate`: synchronous compiles in such a turn, settling the
///   page's promise (no `compileStreaming` / `instantiateStreaming`).
enum WebGlobalsScript {
    static let source = #"""
(function (natives) {
  'use strict';
  const g = globalThis;
  g.window = g;
  g.self = g;

  // console ---------------------------------------------------------------
  const RAW = '\u0001';
  const RAW_TEXT = /"\\u0001(?:[^"\\]|\\.)*?\\u0001"/g;
  function formatValue(v, seen) {
    if (typeof v === 'string') return v;
    if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
    if (v === undefined) return 'undefined';
    if (typeof v === 'function') return '[Function' + (v.name ? ': ' + v.name : ' (anonymous)') + ']';
    if (typeof v === 'symbol') return v.toString();
    if (typeof v === 'bigint') return v.toString() + 'n';
    if (v instanceof Error) return v.stack ? (String(v) + '\n' + v.stack) : String(v);
    try {
      // Values JSON has no word for are written as JavaScript shows them, unquoted: the
      // replacer marks their text and the marked strings lose their quotes afterwards.
      const text = JSON.stringify(v, function (key, value) {
        if (typeof value === 'bigint') return RAW + value.toString() + 'n' + RAW;
        if (typeof value === 'number' && !isFinite(value)) return RAW + String(value) + RAW;
        if (typeof value === 'function') return RAW + '[Function' + (value.name ? ': ' + value.name : '') + ']' + RAW;
        if (typeof value === 'symbol') return RAW + value.toString() + RAW;
        if (value === undefined) return RAW + 'undefined' + RAW;
        if (value instanceof Map) return { Map: Array.from(value.entries()) };
        if (value instanceof Set) return { Set: Array.from(value.values()) };
        return value;
      });
      return text === undefined ? String(v) : text.replace(RAW_TEXT, function (quoted) { return JSON.parse(quoted).slice(1, -1); });
    } catch (e) {
      return '[' + Object.prototype.toString.call(v).slice(8, -1) + ': ' + (e && e.message) + ']';
    }
  }
  function makeConsoleMethod(level) {
    return function () {
      let text = '';
      for (let i = 0; i < arguments.length; i++) text += (i ? ' ' : '') + formatValue(arguments[i]);
      natives.log(level, text);
    };
  }
  g.console = {
    log: makeConsoleMethod('log'), info: makeConsoleMethod('info'), warn: makeConsoleMethod('warn'),
    error: makeConsoleMethod('error'), debug: makeConsoleMethod('debug'), trace: makeConsoleMethod('debug'),
  };

  // performance -------------------------------------------------------------
  g.performance = { now: natives.now, timeOrigin: 0 };

  // crypto ------------------------------------------------------------------
  const hex = [];
  for (let i = 0; i < 256; i++) hex.push((i + 0x100).toString(16).slice(1));
  g.crypto = {
    getRandomValues(array) {
      if (!ArrayBuffer.isView(array) || array instanceof Float32Array || array instanceof Float64Array) {
        const e = new TypeError('crypto.getRandomValues needs an integer typed array'); e.name = 'TypeMismatchError'; throw e;
      }
      if (array.byteLength > 65536) {
        const e = new Error('crypto.getRandomValues: more than 65536 bytes asked'); e.name = 'QuotaExceededError'; throw e;
      }
      const bytes = natives.randomBytes(array.byteLength);
      const view = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      for (let i = 0; i < bytes.length; i++) view[i] = bytes[i];
      return array;
    },
    randomUUID() {
      const b = natives.randomBytes(16);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      return hex[b[0]] + hex[b[1]] + hex[b[2]] + hex[b[3]] + '-' + hex[b[4]] + hex[b[5]] + '-' +
        hex[b[6]] + hex[b[7]] + '-' + hex[b[8]] + hex[b[9]] + '-' +
        hex[b[10]] + hex[b[11]] + hex[b[12]] + hex[b[13]] + hex[b[14]] + hex[b[15]];
    },
  };

  // structuredClone -----------------------------------------------------------
  function dataCloneError(what) {
    const e = new Error(what + ' could not be cloned.'); e.name = 'DataCloneError'; return e;
  }
  function clone(value, memory) {
    if (value === null || typeof value !== 'object') {
      if (typeof value === 'function') throw dataCloneError('A function');
      if (typeof value === 'symbol') throw dataCloneError('A symbol');
      return value;
    }
    if (memory.has(value)) return memory.get(value);
    let copy;
    if (Array.isArray(value)) {
      copy = new Array(value.length); memory.set(value, copy);
      for (let i = 0; i < value.length; i++) if (i in value) copy[i] = clone(value[i], memory);
      return copy;
    }
    if (value instanceof Date) { copy = new Date(value.getTime()); memory.set(value, copy); return copy; }
    if (value instanceof RegExp) { copy = new RegExp(value.source, value.flags); memory.set(value, copy); return copy; }
    if (value instanceof Map) {
      copy = new Map(); memory.set(value, copy);
      value.forEach((v, k) => copy.set(clone(k, memory), clone(v, memory)));
      return copy;
    }
    if (value instanceof Set) {
      copy = new Set(); memory.set(value, copy);
      value.forEach((v) => copy.add(clone(v, memory)));
      return copy;
    }
    if (value instanceof ArrayBuffer) { copy = value.slice(0); memory.set(value, copy); return copy; }
    if (ArrayBuffer.isView(value)) {
      const buffer = clone(value.buffer, memory);
      copy = value instanceof DataView ? new DataView(buffer, value.byteOffset, value.byteLength)
        : new value.constructor(buffer, value.byteOffset, value.length);
      memory.set(value, copy); return copy;
    }
    if (value instanceof Error) {
      copy = new Error(value.message); copy.name = value.name; if (value.stack) copy.stack = value.stack;
      memory.set(value, copy); return copy;
    }
    if (value instanceof Boolean || value instanceof Number || value instanceof String) {
      copy = Object(value.valueOf()); memory.set(value, copy); return copy;
    }
    if (value instanceof WeakMap || value instanceof WeakSet || value instanceof Promise) {
      throw dataCloneError(Object.prototype.toString.call(value).slice(8, -1));
    }
    copy = {}; memory.set(value, copy);
    for (const key of Object.keys(value)) copy[key] = clone(value[key], memory);
    return copy;
  }
  g.structuredClone = function structuredClone(value) {
    if (arguments.length === 0) throw new TypeError('structuredClone needs a value');
    return clone(value, new Map());
  };

  // TextEncoder / TextDecoder ------------------------------------------------
  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(input = '') {
      const s = String(input);
      const out = [];
      for (let i = 0; i < s.length; i++) {
        let c = s.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
          const d = s.charCodeAt(i + 1);
          if (d >= 0xdc00 && d <= 0xdfff) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); i++; }
          else c = 0xfffd;
        } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
        if (c < 0x80) out.push(c);
        else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
        else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
        else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      }
      return new Uint8Array(out);
    }
    encodeInto(input, destination) {
      const bytes = this.encode(input);
      const n = Math.min(bytes.length, destination.length);
      destination.set(bytes.subarray(0, n));
      return { read: input.length, written: n };
    }
  }
  class TextDecoder {
    constructor(label = 'utf-8', options = {}) {
      const l = String(label).toLowerCase();
      if (l !== 'utf-8' && l !== 'utf8' && l !== 'unicode-1-1-utf-8') throw new RangeError('TextDecoder supports utf-8 only, not ' + label);
      this.fatal = !!options.fatal; this.ignoreBOM = !!options.ignoreBOM;
    }
    get encoding() { return 'utf-8'; }
    decode(input) {
      if (input === undefined) return '';
      const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
      let out = '';
      let i = 0;
      if (!this.ignoreBOM && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
      const fail = () => { if (this.fatal) throw new TypeError('The encoded data was not valid utf-8'); return 0xfffd; };
      while (i < bytes.length) {
        const b = bytes[i];
        let c, need;
        if (b < 0x80) { c = b; need = 0; } else if (b >= 0xc2 && b < 0xe0) { c = b & 31; need = 1; }
        else if (b >= 0xe0 && b < 0xf0) { c = b & 15; need = 2; } else if (b >= 0xf0 && b < 0xf5) { c = b & 7; need = 3; }
        else { out += String.fromCharCode(fail()); i++; continue; }
        let ok = i + need < bytes.length + 0 || need === 0;
        let j = 1;
        for (; j <= need; j++) {
          const n = bytes[i + j];
          if (n === undefined || (n & 0xc0) !== 0x80) { ok = false; break; }
          c = (c << 6) | (n & 63);
        }
        if (!ok || (need === 2 && c < 0x800) || (need === 3 && (c < 0x10000 || c > 0x10ffff)) || (c >= 0xd800 && c <= 0xdfff)) {
          out += String.fromCharCode(fail()); i += Math.max(1, j); continue;
        }
        out += String.fromCodePoint(c);
        i += need + 1;
      }
      return out;
    }
  }
  g.TextEncoder = TextEncoder;
  g.TextDecoder = TextDecoder;

  // atob / btoa ---------------------------------------------------------------
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  function invalidCharacter(message) { const e = new Error(message); e.name = 'InvalidCharacterError'; return e; }
  g.btoa = function btoa(input) {
    const s = String(input);
    let out = '';
    for (let i = 0; i < s.length; i += 3) {
      const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
      if (a > 255 || b > 255 || c > 255) throw invalidCharacter('btoa: the string contains characters outside Latin-1');
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += alphabet[n >> 18] + alphabet[(n >> 12) & 63] + (i + 1 < s.length ? alphabet[(n >> 6) & 63] : '=') + (i + 2 < s.length ? alphabet[n & 63] : '=');
    }
    return out;
  };
  g.atob = function atob(input) {
    let s = String(input).replace(/[\t\n\f\r ]/g, '');
    if (s.length % 4 === 0) s = s.replace(/==?$/, '');
    if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw invalidCharacter('atob: the string is not correctly encoded');
    let out = '';
    let bits = 0, value = 0;
    for (let i = 0; i < s.length; i++) {
      value = (value << 6) | alphabet.indexOf(s[i]); bits += 6;
      if (bits >= 8) { bits -= 8; out += String.fromCharCode((value >> bits) & 255); }
    }
    return out;
  };

  // URLSearchParams -------------------------------------------------------------
  const encodeParam = (s) => encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  const decodeParam = (s) => { try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch (e) { return s; } };
  class URLSearchParams {
    constructor(init = '') {
      this._list = [];
      this._url = null;
      if (init instanceof URLSearchParams) this._list = init._list.map((p) => [p[0], p[1]]);
      else if (typeof init === 'object' && init !== null) {
        if (typeof init[Symbol.iterator] === 'function') {
          for (const pair of init) {
            const p = Array.from(pair);
            if (p.length !== 2) throw new TypeError('URLSearchParams: each pair needs exactly two items');
            this._list.push([String(p[0]), String(p[1])]);
          }
        } else for (const key of Object.keys(init)) this._list.push([key, String(init[key])]);
      } else this._parse(String(init));
    }
    _parse(text) {
      this._list = [];
      if (text.startsWith('?')) text = text.slice(1);
      for (const part of text.split('&')) {
        if (!part) continue;
        const eq = part.indexOf('=');
        this._list.push(eq < 0 ? [decodeParam(part), ''] : [decodeParam(part.slice(0, eq)), decodeParam(part.slice(eq + 1))]);
      }
    }
    _changed() { if (this._url) { const s = this.toString(); this._url._search = s ? '?' + s : ''; } }
    get size() { return this._list.length; }
    append(name, value) { this._list.push([String(name), String(value)]); this._changed(); }
    delete(name, value) { this._list = this._list.filter((p) => !(p[0] === String(name) && (value === undefined || p[1] === String(value)))); this._changed(); }
    get(name) { const p = this._list.find((p) => p[0] === String(name)); return p ? p[1] : null; }
    getAll(name) { return this._list.filter((p) => p[0] === String(name)).map((p) => p[1]); }
    has(name, value) { return this._list.some((p) => p[0] === String(name) && (value === undefined || p[1] === String(value))); }
    set(name, value) {
      name = String(name); value = String(value);
      const i = this._list.findIndex((p) => p[0] === name);
      if (i < 0) this._list.push([name, value]);
      else { this._list[i][1] = value; this._list = this._list.filter((p, j) => j <= i || p[0] !== name); }
      this._changed();
    }
    sort() { this._list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)); this._changed(); }
    forEach(callback, thisArg) { for (const [k, v] of this._list) callback.call(thisArg, v, k, this); }
    keys() { return this._list.map((p) => p[0])[Symbol.iterator](); }
    values() { return this._list.map((p) => p[1])[Symbol.iterator](); }
    entries() { return this._list.map((p) => [p[0], p[1]])[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    toString() { return this._list.map((p) => encodeParam(p[0]) + '=' + encodeParam(p[1])).join('&'); }
  }

  // URL ------------------------------------------------------------------------
  const specialPorts = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ftp:': '21', 'file:': '' };
  function invalidURL(input) { return new TypeError('Invalid URL: ' + input); }
  function normalisePath(path) {
    const out = [];
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) {
      const seg = parts[i];
      const last = i === parts.length - 1;
      if (seg === '..' || seg.toLowerCase() === '%2e%2e') { if (out.length > 1) out.pop(); if (last) out.push(''); }
      else if (seg === '.' || seg.toLowerCase() === '%2e') { if (last) out.push(''); }
      else out.push(seg);
    }
    let result = out.join('/');
    if (!result.startsWith('/')) result = '/' + result;
    return result;
  }
  const encodePath = (s) => s.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@\/%]/g, (c) => encodeURIComponent(c));
  const encodeQuery = (s) => s.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@\/?%]/g, (c) => encodeURIComponent(c));
  class URL {
    constructor(input, base) {
      input = String(input).trim();
      const schemeMatch = /^([A-Za-z][A-Za-z0-9+.\-]*):/.exec(input);
      if (schemeMatch) this._parseAbsolute(input, schemeMatch[1].toLowerCase() + ':');
      else {
        if (base === undefined) throw invalidURL(input);
        const b = base instanceof URL ? base : new URL(base);
        this._resolve(input, b);
      }
      this._params = new URLSearchParams(this._search);
      this._params._url = this;
    }
    _parseAbsolute(input, protocol) {
      this._protocol = protocol;
      let rest = input.slice(protocol.length);
      this._username = ''; this._password = ''; this._hostname = ''; this._port = '';
      this._hash = ''; this._search = '';
      const hashAt = rest.indexOf('#');
      if (hashAt >= 0) { this._hash = rest.slice(hashAt); rest = rest.slice(0, hashAt); if (this._hash === '#') this._hash = ''; }
      const queryAt = rest.indexOf('?');
      if (queryAt >= 0) { this._search = encodeQuery(rest.slice(queryAt)); rest = rest.slice(0, queryAt); if (this._search === '?') this._search = ''; }
      const special = protocol in specialPorts;
      if (special) rest = rest.replace(/\\/g, '/');
      if (rest.startsWith('//') || (special && protocol !== 'file:')) {
        // `file:///tmp/a` has an empty host: only its two slashes go, or `tmp` became the host.
        rest = protocol === 'file:' && rest.startsWith('//') ? rest.slice(2) : rest.replace(/^\/*/, '');
        const slash = rest.indexOf('/');
        let authority = slash < 0 ? rest : rest.slice(0, slash);
        rest = slash < 0 ? '' : rest.slice(slash);
        const at = authority.lastIndexOf('@');
        if (at >= 0) {
          const userinfo = authority.slice(0, at); authority = authority.slice(at + 1);
          const colon = userinfo.indexOf(':');
          this._username = colon < 0 ? userinfo : userinfo.slice(0, colon);
          this._password = colon < 0 ? '' : userinfo.slice(colon + 1);
        }
        const portMatch = /:(\d*)$/.exec(authority);
        if (portMatch && !authority.endsWith(']')) {
          authority = authority.slice(0, portMatch.index);
          const port = portMatch[1];
          if (port !== '') {
            if (Number(port) > 65535) throw invalidURL(input);
            this._port = String(Number(port)) === specialPorts[protocol] ? '' : String(Number(port));
          }
        }
        if (special && protocol !== 'file:' && authority === '') throw invalidURL(input);
        if (/[\s<>^|%]/.test(authority) && !/%[0-9A-Fa-f]{2}/.test(authority)) throw invalidURL(input);
        this._hostname = special ? authority.toLowerCase() : authority;
        this._pathname = special ? normalisePath(encodePath(rest || '/')) : encodePath(rest);
        this._opaque = false;
      } else {
        this._pathname = special ? normalisePath(encodePath(rest)) : encodePath(rest);
        this._opaque = !special && !rest.startsWith('/');
      }
    }
    _resolve(input, b) {
      if (b._opaque) throw invalidURL(input);
      if (input.startsWith('//')) { this._parseAbsolute(b._protocol + input, b._protocol); return; }
      this._protocol = b._protocol; this._username = b._username; this._password = b._password;
      this._hostname = b._hostname; this._port = b._port; this._opaque = false;
      let rest = input; this._hash = ''; this._search = b._search;
      const hashAt = rest.indexOf('#');
      if (hashAt >= 0) { this._hash = rest.slice(hashAt); rest = rest.slice(0, hashAt); if (this._hash === '#') this._hash = ''; }
      const queryAt = rest.indexOf('?');
      if (queryAt >= 0) { this._search = encodeQuery(rest.slice(queryAt)); rest = rest.slice(0, queryAt); if (this._search === '?') this._search = ''; }
      if (rest === '') { this._pathname = b._pathname; if (queryAt < 0 && hashAt < 0) this._search = b._search; return; }
      if (queryAt < 0) this._search = '';
      if (rest.startsWith('/')) this._pathname = normalisePath(encodePath(rest));
      else this._pathname = normalisePath(encodePath(b._pathname.slice(0, b._pathname.lastIndexOf('/') + 1) + rest));
    }
    static canParse(input, base) { try { new URL(input, base); return true; } catch (e) { return false; } }
    get protocol() { return this._protocol; }
    set protocol(v) { v = String(v).replace(/:.*$/, '').toLowerCase() + ':'; if (/^[a-z][a-z0-9+.\-]*:$/.test(v)) this._protocol = v; }
    get username() { return this._username; }
    set username(v) { this._username = encodeURIComponent(String(v)); }
    get password() { return this._password; }
    set password(v) { this._password = encodeURIComponent(String(v)); }
    get hostname() { return this._hostname; }
    set hostname(v) { this._hostname = String(v).toLowerCase(); }
    get port() { return this._port; }
    set port(v) { v = String(v); this._port = v === '' || v === specialPorts[this._protocol] ? '' : String(parseInt(v, 10)); }
    get host() { return this._hostname + (this._port ? ':' + this._port : ''); }
    set host(v) { const m = /^([^:]*)(?::(\d*))?$/.exec(String(v)); if (m) { this.hostname = m[1]; if (m[2] !== undefined) this.port = m[2]; } }
    get origin() { return (this._protocol in specialPorts && this._protocol !== 'file:') ? this._protocol + '//' + this.host : 'null'; }
    get pathname() { return this._pathname; }
    set pathname(v) { v = String(v); this._pathname = this._opaque ? v : normalisePath(encodePath(v.startsWith('/') ? v : '/' + v)); }
    get search() { return this._search; }
    set search(v) { v = String(v); if (v.startsWith('?')) v = v.slice(1); this._search = v ? '?' + encodeQuery(v) : ''; this._params._parse(this._search); }
    get searchParams() { return this._params; }
    get hash() { return this._hash; }
    set hash(v) { v = String(v); if (v.startsWith('#')) v = v.slice(1); this._hash = v ? '#' + v : ''; }
    get href() {
      const hasAuthority = this._hostname !== '' || this._protocol === 'file:' || (this._protocol in specialPorts);
      const auth = this._username ? this._username + (this._password ? ':' + this._password : '') + '@' : '';
      return this._protocol + (hasAuthority && !this._opaque ? '//' + auth + this.host : '') + this._pathname + this._search + this._hash;
    }
    set href(v) { const u = new URL(v); Object.assign(this, u); this._params = new URLSearchParams(this._search); this._params._url = this; }
    toString() { return this.href; }
    toJSON() { return this.href; }
  }
  g.URL = URL;
  g.URLSearchParams = URLSearchParams;

  // Through a native call, so the turn's time limit is checked at each one (a callback
  // that re-queues itself would otherwise never be stopped; docs/engine.md).
  const checkpoint = natives.checkpoint;
  const engineQueueMicrotask = g.queueMicrotask;
  if (typeof engineQueueMicrotask === 'function') {
    g.queueMicrotask = function queueMicrotask(callback) {
      checkpoint();
      return engineQueueMicrotask(callback);
    };
  } else {
    g.queueMicrotask = function queueMicrotask(callback) {
      if (typeof callback !== 'function') throw new TypeError('queueMicrotask needs a function');
      checkpoint();
      Promise.resolve().then(callback);
    };
  }

  // FinalizationRegistry, WebAssembly's promises ------------------------------
  // JavaScriptCore runs cleanup callbacks, and a WebAssembly compile's or instantiation's work
  // (the page's start function, its imports' getters, the promise's reactions), from its run
  // loop, outside every call the engine makes: a stop there is never settled and leaves the
  // engine's microtasks undrained, and a throw is only printed to stderr. So JavaScriptCore
  // only ever calls a function that hands the page's work back to the engine (`handBack`),
  // which runs it in a turn of its own, as a timer runs; WebAssembly is compiled and
  // instantiated synchronously in such a turn. The engine's constructors and the builtins the
  // wrappers use are taken now, so a page that later replaces `Reflect.construct` cannot be
  // handed them (no `extends` either: the subclass would keep the engine's as prototype).
  const handBack = natives.handBack, construct = Reflect.construct, defineProperty = Object.defineProperty;
  const EngineFinalizationRegistry = g.FinalizationRegistry;
  if (typeof EngineFinalizationRegistry === 'function') {
    const FinalizationRegistry = function FinalizationRegistry(cleanup) {
      if (new.target === undefined) throw new TypeError('FinalizationRegistry needs new');
      if (typeof cleanup !== 'function') throw new TypeError('FinalizationRegistry needs a cleanup function');
      return construct(EngineFinalizationRegistry, [function (heldValue) { handBack(cleanup, heldValue, 'finalizer'); }], new.target);
    };
    FinalizationRegistry.prototype = EngineFinalizationRegistry.prototype;
    defineProperty(EngineFinalizationRegistry.prototype, 'constructor', { value: FinalizationRegistry, writable: true, configurable: true, enumerable: false });
    defineProperty(g, 'FinalizationRegistry', { value: FinalizationRegistry, writable: true, configurable: true, enumerable: false });
  }
  const wasm = g.WebAssembly;
  if (typeof wasm === 'object' && wasm !== null && typeof wasm.Module === 'function' && typeof wasm.Instance === 'function') {
    const EnginePromise = Promise, Module = wasm.Module, Instance = wasm.Instance;
    // The page gets a promise settled from one of the engine's turns, where `work` runs.
    const inATurn = function (work) {
      return new EnginePromise(function (resolve, reject) {
        handBack(function () {
          let value;
          try { value = work(); } catch (e) { reject(e); return; }
          resolve(value);
        }, undefined, 'settlement');
      });
    };
    const methods = {
      compile(bytes) { return inATurn(function () { return new Module(bytes); }); },
      instantiate(source, imports) {
        return inATurn(function () {
          if (source instanceof Module) return new Instance(source, imports);
          const module = new Module(source);
          return { module: module, instance: new Instance(module, imports) };
        });
      },
    };
    defineProperty(wasm, 'compile', { value: methods.compile, writable: true, configurable: true, enumerable: false });
    defineProperty(wasm, 'instantiate', { value: methods.instantiate, writable: true, configurable: true, enumerable: false });
    // Streaming needs `Response`, which this engine has not: JavaScriptCore's would run the
    // page's work on its run loop too.
    delete wasm.compileStreaming;
    delete wasm.instantiateStreaming;
  }
})
"""#
}
