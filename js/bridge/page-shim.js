/*
 * StateHub page shim: the minimal "page" a JavaScriptCore engine lacks (docs/PROTOCOL.md B.6, docs/bridge.md).
 *
 * Classic script (no modules). Load it into an engine BEFORE js/bridge/bridge-client.js and the micro-app.
 * A WKWebView has a real DOM: there only window.StateHubPage is installed (document and location are left
 * alone when they exist).
 *
 * This is NOT a DOM. It covers exactly what the capability bridge and the theme need, and nothing else:
 *   - document.title: reading gives the last value set; setting it posts
 *       {"type":"title","title":"…"} on window.webkit.messageHandlers.page (native: the header title).
 *   - location.href = url, location.assign(url), location.replace(url): the page is NOT navigated; the URL
 *       is posted as {"type":"navigate","url":"…","via":"location.href|location.assign|location.replace"}.
 *       Native treats URLs of the legacy bridge scheme (jsbridge://…) as calls (B.5) and ignores the rest.
 *       location.href keeps reading the page's own URL (about:blank unless StateHubPage.setURL was called);
 *       location.reload() does nothing.
 *   - document.createElement('iframe'): an element whose src setter posts {"type":"navigate","url":…,
 *       "via":"iframe.src"} at once (attached or not; real browsers wait for attachment).
 *   - <style> elements: document.createElement('style'), document.head.appendChild / removeChild,
 *       document.head.children, document.getElementById(id), element.id, element.textContent: enough to keep
 *       one stylesheet per id and replace its text. document.body holds appended iframes and other elements.
 *   - window.StateHubPage (called by native through PageTransport.send, one JSON string argument):
 *       replaceStyleSheet('{"id":"theme","css":"…","ack":"s1"}'): the one <style id=…> in document.head gets
 *         the css (created on first use, its text replaced after: never a second sheet); posts
 *         {"type":"style_applied","ack":…,"id":…} (or {"type":"style_failed",…,"message":…}) when "ack" is given.
 *       answerLegacy('{"callback":"cb_1","result":{"data":…,"err":0,"msg":"ok"}}'): calls
 *         window[callback](result) with the result as an OBJECT (B.5); throws when window[callback] is not a
 *         function, so native records the answer as dropped.
 *       styleSheets(): [{id, css}] of the <style> elements in document.head, in order (tests, diagnostics).
 *       setURL(url): the URL location.href reports.
 * Nothing here evaluates strings as code.
 */
(function (root) {
  'use strict';

  let w = root.window || root;

  function post(message) {
    let h = w.webkit && w.webkit.messageHandlers && w.webkit.messageHandlers.page;
    if (h && typeof h.postMessage === 'function') h.postMessage(JSON.stringify(message));
  }

  // ---- elements -----------------------------------------------------------------------------------

  function Element(tagName) {
    this.tagName = String(tagName).toUpperCase();
    this.nodeName = this.tagName;
    this.id = '';
    this.textContent = '';
    this.parentNode = null;
    this.children = [];
    this.attributes = {};
  }
  Element.prototype.setAttribute = function (name, value) {
    name = String(name).toLowerCase();
    value = String(value);
    if (name === 'id') this.id = value;
    else if (name === 'src' && this.tagName === 'IFRAME') this.src = value;
    else this.attributes[name] = value;
  };
  Element.prototype.getAttribute = function (name) {
    name = String(name).toLowerCase();
    if (name === 'id') return this.id || null;
    if (name === 'src' && this.tagName === 'IFRAME') return this.src || null;
    return Object.prototype.hasOwnProperty.call(this.attributes, name) ? this.attributes[name] : null;
  };
  Element.prototype.appendChild = function (child) {
    if (!(child instanceof Element)) throw new TypeError('appendChild: not an element of the page shim');
    if (child.parentNode) child.parentNode.removeChild(child);
    this.children.push(child);
    child.parentNode = this;
    return child;
  };
  Element.prototype.removeChild = function (child) {
    let i = this.children.indexOf(child);
    if (i < 0) throw new Error('removeChild: not a child of this element');
    this.children.splice(i, 1);
    child.parentNode = null;
    return child;
  };
  Element.prototype.remove = function () {
    if (this.parentNode) this.parentNode.removeChild(this);
  };
  Object.defineProperty(Element.prototype, 'innerHTML', {
    get: function () { return this.textContent; },
    set: function (v) { this.textContent = String(v); }
  });

  function makeIframe() {
    let el = new Element('iframe');
    let src = '';
    Object.defineProperty(el, 'src', {
      enumerable: true,
      get: function () { return src; },
      set: function (v) { src = String(v); post({ type: 'navigate', url: src, via: 'iframe.src' }); }
    });
    return el;
  }

  function find(el, id) {
    for (let i = 0; i < el.children.length; i++) {
      let c = el.children[i];
      if (c.id === id) return c;
      let inner = find(c, id);
      if (inner) return inner;
    }
    return null;
  }

  // ---- document and location (engine only) -------------------------------------------------------

  let pageURL = 'about:blank';

  if (typeof root.document === 'undefined') {
    let head = new Element('head');
    let body = new Element('body');
    let title = '';
    let doc = {
      head: head,
      body: body,
      createElement: function (tag) {
        return String(tag).toLowerCase() === 'iframe' ? makeIframe() : new Element(tag);
      },
      getElementById: function (id) { id = String(id); return find(head, id) || find(body, id); },
      querySelectorAll: function (selector) {
        // Only "style" (and "iframe") are supported: the shim is not a DOM.
        let tag = String(selector).toUpperCase(), out = [];
        (function walk(el) { for (let i = 0; i < el.children.length; i++) { if (el.children[i].tagName === tag) out.push(el.children[i]); walk(el.children[i]); } })(head);
        (function walk(el) { for (let i = 0; i < el.children.length; i++) { if (el.children[i].tagName === tag) out.push(el.children[i]); walk(el.children[i]); } })(body);
        return out;
      }
    };
    Object.defineProperty(doc, 'title', {
      enumerable: true,
      get: function () { return title; },
      set: function (v) {
        v = String(v);
        if (v === title) return;
        title = v;
        post({ type: 'title', title: v });
      }
    });
    root.document = doc;
  }

  if (typeof root.location === 'undefined') {
    let loc = {
      assign: function (url) { post({ type: 'navigate', url: String(url), via: 'location.assign' }); },
      replace: function (url) { post({ type: 'navigate', url: String(url), via: 'location.replace' }); },
      reload: function () {},
      toString: function () { return pageURL; }
    };
    Object.defineProperty(loc, 'href', {
      enumerable: true,
      get: function () { return pageURL; },
      set: function (v) { post({ type: 'navigate', url: String(v), via: 'location.href' }); }
    });
    root.location = loc;
  }

  // ---- entry points for native -----------------------------------------------------------------

  function replaceStyleSheet(json) {
    let req = typeof json === 'string' ? JSON.parse(json) : json;
    try {
      if (!req || typeof req.id !== 'string' || typeof req.css !== 'string') {
        throw new TypeError('replaceStyleSheet: expected {"id": string, "css": string}');
      }
      let d = root.document;
      let el = d.getElementById(req.id);
      if (el && String(el.tagName).toUpperCase() !== 'STYLE') {
        throw new Error('replaceStyleSheet: element #' + req.id + ' is not a <style>');
      }
      if (!el) {
        el = d.createElement('style');
        el.id = req.id;
        d.head.appendChild(el);
      }
      el.textContent = req.css;
      if (typeof req.ack === 'string') post({ type: 'style_applied', ack: req.ack, id: req.id });
    } catch (e) {
      if (req && typeof req.ack === 'string') post({ type: 'style_failed', ack: req.ack, id: req.id, message: String(e && e.message) });
      else throw e;
    }
  }

  function answerLegacy(json) {
    let msg = typeof json === 'string' ? JSON.parse(json) : json;
    let name = msg && msg.callback;
    if (typeof name !== 'string' || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) {
      throw new TypeError('answerLegacy: callback is not an identifier');
    }
    let fn = w[name];
    if (typeof fn !== 'function') throw new TypeError('answerLegacy: window.' + name + ' is not a function');
    fn.call(w, msg.result);
  }

  function styleSheets() {
    let out = [];
    let head = root.document && root.document.head;
    if (!head || !head.children) return out;
    for (let i = 0; i < head.children.length; i++) {
      let el = head.children[i];
      if (String(el.tagName).toUpperCase() === 'STYLE') out.push({ id: el.id, css: el.textContent });
    }
    return out;
  }

  root.StateHubPage = {
    replaceStyleSheet: replaceStyleSheet,
    answerLegacy: answerLegacy,
    styleSheets: styleSheets,
    setURL: function (url) { pageURL = String(url); }
  };
})(typeof globalThis !== 'undefined' ? globalThis : this);
