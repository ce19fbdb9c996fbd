/*
 * Example option store: a shopping cart.
 * Classic script: load after js/runtime/reactivity.js and js/runtime/pinia.js (and the sync
 * plugin, if any). Creates a pinia only when none is active, then instantiates the store.
 * checkout() waits on setTimeout, which the host must provide.
 */
(function (global) {
  'use strict';

  function wait(ms) {
    return new Promise(function (resolve) { setTimeout(resolve, ms); });
  }

  var useCartStore = defineStore('cart', {
    state: function () {
      return { items: [] };   // [{ id, name, price, qty }]
    },
    getters: {
      count: function (state) {
        return state.items.reduce(function (n, item) { return n + item.qty; }, 0);
      },
      total: function (state) {
        var cents = state.items.reduce(function (sum, item) { return sum + Math.round(item.price * 100) * item.qty; }, 0);
        return cents / 100;
      }
    },
    actions: {
      add: function (item) {
        var qty = item.qty == null ? 1 : item.qty;
        var existing = this.items.find(function (i) { return i.id === item.id; });
        if (existing) existing.qty += qty;
        else this.items.push({ id: item.id, name: item.name, price: item.price, qty: qty });
      },
      remove: function (id) {
        var index = this.items.findIndex(function (i) { return i.id === id; });
        if (index !== -1) this.items.splice(index, 1);
      },
      checkout: async function () {
        await wait(10);
        if (this.items.length === 0) throw new Error('cart is empty');
        var order = {
          items: this.items.map(function (i) { return { id: i.id, name: i.name, price: i.price, qty: i.qty }; }),
          count: this.count,
          total: this.total
        };
        this.items = [];
        return order;
      }
    }
  });

  global.useCartStore = useCartStore;
  if (!getActivePinia()) setActivePinia(createPinia());
  useCartStore();
})(typeof globalThis !== 'undefined' ? globalThis : this);
