/*
 * Example option store: the signed-in user.
 * Classic script: load after js/runtime/reactivity.js and js/runtime/pinia.js (and the sync
 * plugin, if any). Creates a pinia only when none is active, then instantiates the store.
 */
(function (global) {
  'use strict';

  var useUserStore = defineStore('user', {
    state: function () {
      return { id: null, name: '', loggedIn: false, roles: [] };
    },
    getters: {
      displayName: function (state) {
        return state.loggedIn ? (state.name || 'Anonymous') : 'Guest';
      }
    },
    actions: {
      login: function (name) {
        this.$patch({ id: 'u-' + String(name).toLowerCase().replace(/[^a-z0-9]+/g, '-'), name: name, loggedIn: true, roles: ['user'] });
      },
      logout: function () {
        this.$reset();
      }
    }
  });

  global.useUserStore = useUserStore;
  if (!getActivePinia()) setActivePinia(createPinia());
  useUserStore();
})(typeof globalThis !== 'undefined' ? globalThis : this);
