/*
 * The store proxy's accessor cache (js/README.md, "The store object and its accessor cache"):
 * every way a store's property can change kind after the store has read it once, and the state
 * root the cached state accessors follow. Each test reads the keys first, so the cache holds
 * them, then changes the store and checks what a fresh lookup would give. Loaded after
 * js/runtime/*.js and js/tests/harness.js; each test starts with a fresh active pinia.
 */
(function (global) {
  'use strict';
  const { describe, it, beforeEach, expect, mockFn } = global.StateHubSpec;
  const { ref, computed, watch, isReactive, toRaw } = global.StateHubReactivity;
  const P = global.StateHubPinia;
  const { createPinia, setActivePinia, defineStore } = P;
  const OPS = Symbol.for('statehub.ops');

  const counterOptions = () => ({
    state: () => ({ n: 1, nested: { x: 1 } }),
    getters: { double: (state) => state.n * 2, box: (state) => ({ n: state.n }) },
    actions: { bump() { this.n++; } }
  });

  describe('StateHub store accessor cache', () => {
    let pinia;
    beforeEach(() => { pinia = createPinia(); setActivePinia(pinia); });

    it('a state key redefined through the store reads and writes the new property', () => {
      const store = defineStore('redefined', counterOptions())();
      expect(store.n).toBe(1);
      store.n = 2;
      let backing = 40;
      Object.defineProperty(store, 'n', { get: () => backing, set: (v) => { backing = v; }, enumerable: true, configurable: true });
      expect(store.n).toBe(40);
      store.n = 41;
      expect(backing).toBe(41);
      expect(store.$state.n).toBe(2);   // the state was not written
    });

    it('a state key redefined as data through the store holds the value, not the state', () => {
      const store = defineStore('redefined-data', counterOptions())();
      store.n++;
      Object.defineProperty(store, 'n', { value: 'mine', writable: true, enumerable: true, configurable: false });
      expect(store.n).toBe('mine');
      store.n = 'again';
      expect(store.n).toBe('again');
      expect(store.$state.n).toBe(2);
    });

    it('a deleted state key is gone from the store, and writing it no longer writes the state', () => {
      const store = defineStore('deleted', counterOptions())();
      const ops = [];
      store.$subscribe((mutation) => { for (const op of mutation[OPS]) ops.push(op); }, { flush: 'sync' });
      store.n = 3;
      expect(delete store.n).toBe(true);
      expect(store.n).toBe(undefined);
      expect('n' in store).toBe(false);
      store.n = 5;                               // a data property of the store now
      expect(store.n).toBe(5);
      expect(store.$state.n).toBe(3);
      expect(ops).toEqual([{ op: 'set', path: ['n'], value: 3 }]);
    });

    it('an effect re-run by the delete itself already reads the new property', () => {
      const store = defineStore('deleted-effect', counterOptions())();
      const seen = [];
      watch(() => store.n, (value) => { seen.push(value); }, { flush: 'sync' });
      store.n = 2;
      delete store.n;
      expect(seen.length).toBe(2);            // the watcher saw the property go
      expect(seen[1]).toBe(undefined);
    });

    it('a getter read before it existed is returned as the getter returns it once a hot update adds it', () => {
      const store = defineStore('hot-getter', { state: () => ({ n: 1 }) })();
      expect(store.box).toBe(undefined);       // cached: no such property
      P.hotSwap(() => { defineStore('hot-getter', counterOptions()); });
      expect(store.box).toEqual({ n: 1 });
      expect(isReactive(store.box)).toBe(false);   // a getter's object is not made reactive
      expect(store.double).toBe(2);
    });

    it('a hot update: new keys, removed keys, replaced getters and actions', () => {
      const store = defineStore('hot', {
        state: () => ({ a: 1, b: 2 }),
        getters: { g: (state) => state.a + 100 },
        actions: { act() { return 'old'; } }
      })();
      expect([store.a, store.b, store.c, store.g, store.act()]).toEqual([1, 2, undefined, 101, 'old']);
      P.hotSwap(() => {
        defineStore('hot', {
          state: () => ({ a: 0, c: 3 }),
          getters: { g: (state) => state.a + 200 },
          actions: { act() { return 'new'; } }
        });
      });
      expect([store.a, store.b, store.c, store.g, store.act()]).toEqual([1, undefined, 3, 201, 'new']);
      store.b = 'store only';                  // b left the state: no longer a state key
      expect(store.$state.b).toBe(undefined);
      expect(store.b).toBe('store only');
      store.c = 4;                             // c joined it
      expect(store.$state.c).toBe(4);
    });

    it('a ref assigned over a getter replaces the getter', () => {
      const store = defineStore('ref-over-getter', counterOptions())();
      expect(store.double).toBe(2);
      store.double = ref(100);
      expect(store.double).toBe(100);
      store.n = 5;
      expect(store.double).toBe(100);
    });

    it('$patch, $state and $reset are read back through the cached accessors', () => {
      const store = defineStore('patched', counterOptions())();
      expect([store.n, store.double, store.nested.x]).toEqual([1, 2, 1]);
      store.$patch({ n: 2, nested: { x: 2 } });
      expect([store.n, store.double, store.nested.x]).toEqual([2, 4, 2]);
      store.$patch((state) => { state.n = 3; });
      expect(store.n).toBe(3);
      store.$state = { n: 4, nested: { x: 4 } };
      expect([store.n, store.double, store.nested.x]).toEqual([4, 8, 4]);
      store.$reset();
      expect([store.n, store.double, store.nested.x]).toEqual([1, 2, 1]);
    });

    it('a replaced state root (pinia.state.value[id] = x) is read and written through the cached accessors', () => {
      const store = defineStore('replaced', counterOptions())();
      const ops = [];
      store.$subscribe((mutation) => { for (const op of mutation[OPS]) ops.push(op); }, { flush: 'sync' });
      expect(store.n).toBe(1);
      store.n++;
      pinia.state.value.replaced = { n: 10, nested: { x: 10 } };
      expect(store.n).toBe(10);
      expect(store.nested.x).toBe(10);
      store.n++;
      expect(pinia.state.value.replaced.n).toBe(11);
      expect(store.$state.n).toBe(11);
      expect(ops.map((op) => [op.op, op.path])).toEqual([['set', ['n']], ['set', []], ['set', ['n']]]);
      expect(ops[2].value).toBe(11);
    });

    it('a state accessor copied to another key reads and writes its own state key', () => {
      const store = defineStore('alias', counterOptions())();
      Object.defineProperty(store, 'alias', Object.getOwnPropertyDescriptor(toRaw(store), 'n'));
      expect(store.alias).toBe(1);
      store.alias = 7;
      expect(store.n).toBe(7);
      expect(store.$state).toEqual({ n: 7, nested: { x: 1 } });
    });

    it('a change to the raw store object is seen after forgetStoreKeys', () => {
      const store = defineStore('raw-change', counterOptions())();
      expect(store.n).toBe(1);
      Object.defineProperty(toRaw(store), 'n', { value: 'raw', writable: true, enumerable: true, configurable: true });
      global.StateHubReactivity._internal.forgetStoreKeys(store);
      expect(store.n).toBe('raw');
    });

    it('writes through the cached state accessors run effects and getters as before', () => {
      const store = defineStore('effects', counterOptions())();
      const seen = mockFn();
      watch(() => store.double, seen, { flush: 'sync' });
      const doubled = computed(() => store.n * 10);
      expect(doubled.value).toBe(10);
      store.n++;
      store.bump();
      expect(seen).toHaveBeenCalledTimes(2);
      expect(doubled.value).toBe(30);
      expect(store.double).toBe(6);
    });

    it('many absent keys read do not break the cache (it starts over past its bound)', () => {
      const store = defineStore('many-keys', counterOptions())();
      for (let i = 0; i < 1000; i++) expect(store['absent' + i]).toBe(undefined);
      expect(store.n).toBe(1);
      store.n = 2;
      expect(store.$state.n).toBe(2);
      Object.defineProperty(store, 'absent999', { value: 9, writable: true, enumerable: true, configurable: true });
      expect(store.absent999).toBe(9);
    });
  });
})(typeof globalThis !== 'undefined' ? globalThis : this);
