/*
 * StateHub: equips the engine's pinias with the sync plugin (js/plugin/sync-plugin.js).
 *
 * Classic script, loaded by the engine after js/runtime/reactivity.js, js/runtime/pinia.js and
 * js/plugin/sync-plugin.js, before any store code:
 *   - makes a pinia active if none is (createPinia() + setActivePinia), so stores written as
 *     `if (!getActivePinia()) setActivePinia(createPinia())` or plain `useX()` find one;
 *   - applies one shared sync plugin to it and to every pinia created later (createPinia is wrapped,
 *     on globalThis and on StateHubPinia);
 *   - reads globalThis.StateHubSyncConfig ({ flush: 'tick' | 'sync' }) if set before loading.
 * A page on real Pinia (WKWebView) does not load this file: it calls
 *   pinia.use(StateHubSync.createSyncPlugin())
 * itself. If a store ends up with two sync plugins, the one applied last sets flush and transport.
 */
(function (root) {
  'use strict';
  let S = root.StateHubSync;
  if (!S || typeof root.createPinia !== 'function') {
    if (root.console && root.console.warn) root.console.warn('[StateHubSync] install.js: load the runtime and sync-plugin.js first');
    return;
  }
  if (S.installed) return; // loaded twice
  let MARK = Symbol.for('statehub.sync.equipped');
  let config = root.StateHubSyncConfig || {};
  let plugin = S.createSyncPlugin({ flush: config.flush === 'sync' ? 'sync' : 'tick' });

  function equip(pinia) {
    if (pinia && typeof pinia.use === 'function' && !pinia[MARK]) {
      try { Object.defineProperty(pinia, MARK, { value: true, configurable: true }); } catch (e) { /* frozen: may equip twice, harmless */ }
      pinia.use(plugin);
    }
    return pinia;
  }

  let originalCreatePinia = root.createPinia;
  let createPinia = function () { return equip(originalCreatePinia.apply(this, arguments)); };
  root.createPinia = createPinia;
  if (root.StateHubPinia && root.StateHubPinia.createPinia === originalCreatePinia) root.StateHubPinia.createPinia = createPinia;

  let active = typeof root.getActivePinia === 'function' ? root.getActivePinia() : undefined;
  if (active) equip(active);
  else if (typeof root.setActivePinia === 'function') root.setActivePinia(createPinia());

  S.installed = { plugin: plugin, equip: equip, originalCreatePinia: originalCreatePinia };
})(typeof globalThis !== 'undefined' ? globalThis : this);
