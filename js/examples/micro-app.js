/*
 * Example micro-app using the capability bridge (js/bridge/bridge-client.js; docs/PROTOCOL.md part B).
 *
 * Classic script: load after js/bridge/bridge-client.js. Asks the shell for its initial data, puts a
 * "Cart" button in the header's right side, reacts when it is tapped, shows an alert, sets the title and
 * reports that it finished loading (or that it failed). Runs unchanged in a WKWebView, in the engine
 * (`statehub run js/examples/micro-app.js`: its page already has the bridge client), or in a desktop browser with a
 * development stub (StateHubBridge.installDevelopmentStub({...})).
 *
 * Publishes globalThis.microApp = { ready: Promise, taps: [] } so hosts and tests can observe it.
 */
(function (global) {
  'use strict';

  var app = { ready: null, taps: [], initialData: null };
  global.microApp = app;

  // Tapping the header item configured below sends its action back as an event.
  onNative('cartNavTapped', function (data) {
    app.taps.push(data);
    invokeNative('gotoWebview', { url: 'https://shop.example.com/cart', title: 'Cart' }).catch(function (e) {
      console.warn('gotoWebview failed: ' + e.code + ': ' + e.message);
    });
  });

  app.ready = invokeNative('getInitialData', {}, { timeout: 5000 })
    .then(function (data) {
      app.initialData = { apiBaseURL: data.apiBaseURL, userId: data.userId }; // the token stays out of logs
      if (typeof document !== 'undefined' && document) document.title = 'Shop';
      return invokeNative('configNative', {
        configs: [{
          type: 'nav_item_right',
          title: 'Cart',
          icon_url: 'https://cdn.example.com/icons/cart.png',
          action: 'cartNavTapped',
          action_parameters: { from: 'header' }
        }]
      });
    })
    .then(function () {
      return invokeNative('showAlert', { title: 'Welcome', message: 'Hello ' + app.initialData.userId, buttons: ['OK'] });
    })
    .then(function (choice) {
      app.alertChoice = choice && choice.index;
      return invokeNative('didFinishLoading', {});
    })
    .then(function () { return 'loaded'; }, function (e) {
      console.warn('micro-app failed to load: ' + e.code + ': ' + e.message);
      if (e.code === 'no_native_shell') return 'no shell';
      return invokeNative('didFailLoading', { message: e.message, code: e.code }).then(
        function () { return 'failed'; }, function () { return 'failed'; });
    });
})(typeof globalThis !== 'undefined' ? globalThis : this);
