/*
 * Makes a pinia active when none is. `statehub run`, HostedPage and WebViewPage activate one
 * through the sync plugin's install.js; a page that loads the runtime without the plugin (the
 * server's loader page in a browser) loads this after js/runtime/pinia.js, so an ordinary bundle
 * whose first line is `useCartStore()` finds a pinia, as it would under `statehub run`.
 */
(function (root) {
  'use strict';
  if (typeof root.getActivePinia === 'function' && !root.getActivePinia()) root.setActivePinia(root.createPinia());
})(typeof globalThis !== 'undefined' ? globalThis : this);
