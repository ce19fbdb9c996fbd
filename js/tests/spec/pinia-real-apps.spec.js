/*
 * Store behaviour that apps built on Pinia + Vue rely on and Pinia's own spec files do not
 * pin down: shallow and readonly state from setup stores, effects owned by a store, hydration
 * of setup stores, writes that change nothing, nested patches, subscriber order by flush,
 * $onAction timing and storeToRefs' keys. Every test not named StateHub (those check the op
 * log) passes unchanged on Pinia 2.2 + Vue 3.5 (js/tests/compare-real-pinia.mjs). Loaded after
 * js/runtime/*.js and js/tests/harness.js.
 */
(function (global) {
  'use strict';
  const { describe, it, beforeEach, expect, mockFn } = global.StateHubSpec;
  const { ref, reactive, computed, watch, watchEffect, nextTick, effectScope, onScopeDispose, shallowRef,
    shallowReactive, readonly, isReactive, isReadonly, isShallow } = global.StateHubReactivity;
  const { createPinia, setActivePinia, defineStore, storeToRefs, createApp } = global.StateHubPinia;

  let pinia;
  const fresh = () => { pinia = createPinia(); setActivePinia(pinia); };

  describe('shallow and readonly state of setup stores', () => {
    beforeEach(fresh);

    it('a shallowRef replaced through the store is reported and read back', () => {
      const store = defineStore('shallow-replace', () => ({ rows: shallowRef([]) }))();
      const cb = mockFn();
      store.$subscribe(cb, { flush: 'sync' });
      store.rows = [1];
      expect(cb).toHaveBeenCalledTimes(1);
      expect(store.rows).toEqual([1]);
      expect(pinia.state.value['shallow-replace'].rows).toEqual([1]);
    });
    it('StateHub: a shallowRef replaced through the store is one set of its key in the op log', () => {
      const store = defineStore('shallow-ops', () => ({ rows: shallowRef([]) }))();
      const logged = [];
      store.$subscribe((mutation) => logged.push(...mutation[Symbol.for('statehub.ops')]), { flush: 'sync' });
      store.rows = [1];
      store.rows = store.rows;
      expect(logged).toEqual([{ op: 'set', path: ['rows'], value: [1] }]);
    });
    it('a shallowRef replaced through the store reaches a batched subscriber', async () => {
      const store = defineStore('shallow-replace-batched', () => ({ rows: shallowRef([]) }))();
      const cb = mockFn();
      store.$subscribe(cb);
      store.rows = [1, 2];
      await nextTick();
      expect(cb).toHaveBeenCalledTimes(1);
      expect(store.$state.rows).toEqual([1, 2]);
    });
    it('a shallowRef written through its own .value is seen by effects reading the store', () => {
      const rows = shallowRef([]);
      const store = defineStore('shallow-own', () => ({ rows }))();
      const seen = [];
      watch(() => store.rows, (value) => seen.push(value.length), { flush: 'sync' });
      rows.value = [1, 2, 3];
      store.rows = [4];
      expect(seen).toEqual([3, 1]);
      expect(rows.value).toEqual([4]);
    });
    it('readonly() returned from a setup store stays readonly', () => {
      const source = reactive({ n: 1 });
      const store = defineStore('readonly-state', () => ({ config: readonly(source) }))();
      const cb = mockFn();
      store.$subscribe(cb, { flush: 'sync' });
      store.config.n = 2;
      expect(store.config.n).toBe(1);
      expect(isReadonly(store.config)).toBe(true);
      expect(cb).toHaveBeenCalledTimes(0);
      expect('target is readonly').toHaveBeenWarned();
      source.n = 3;
      expect(store.config.n).toBe(3);
    });
    it('StateHub: readonly and shallowReactive state: writes through them and their source are in the op log', () => {
      const source = reactive({ n: 1 });
      const store = defineStore('wrapped-ops', () => ({ config: readonly(source), table: shallowReactive({ row: { n: 1 } }) }))();
      const logged = [];
      store.$subscribe((mutation) => logged.push(...mutation[Symbol.for('statehub.ops')]), { flush: 'sync' });
      source.n = 2;
      store.table.row = { n: 3 };
      expect(logged).toEqual([{ op: 'set', path: ['config', 'n'], value: 2 }, { op: 'set', path: ['table', 'row'], value: { n: 3 } }]);
      expect(JSON.parse(JSON.stringify(store.$state))).toEqual({ config: { n: 2 }, table: { row: { n: 3 } } });
    });
    it('shallowReactive() returned from a setup store stays shallow', () => {
      const store = defineStore('shallow-reactive-state', () => ({ table: shallowReactive({ row: { n: 1 } }) }))();
      expect(isShallow(store.table)).toBe(true);
      expect(isReactive(store.table.row)).toBe(false);
      const seen = [];
      watch(() => store.table.row.n, (n) => seen.push(n), { flush: 'sync' });
      store.table.row.n = 2;
      expect(seen).toEqual([]);
      store.table.row = { n: 5 };
      expect(seen).toEqual([5]);
    });
  });

  describe('effects created by a store belong to the store', () => {
    beforeEach(fresh);

    it('$dispose() stops the watchers, effects and scopes made in setup and runs onScopeDispose', () => {
      const source = ref(0);
      const watched = mockFn(), effect = mockFn(), nested = mockFn(), disposed = mockFn();
      const store = defineStore('owned-effects', () => {
        watch(source, watched, { flush: 'sync' });
        watchEffect(() => effect(source.value), { flush: 'sync' });
        effectScope().run(() => watch(source, nested, { flush: 'sync' }));
        onScopeDispose(disposed);
        return { n: ref(0) };
      })();
      source.value = 1;
      expect(watched).toHaveBeenCalledTimes(1);
      expect(effect).toHaveBeenCalledTimes(2);
      expect(nested).toHaveBeenCalledTimes(1);
      store.$dispose();
      expect(disposed).toHaveBeenCalledTimes(1);
      source.value = 2;
      expect(watched).toHaveBeenCalledTimes(1);
      expect(effect).toHaveBeenCalledTimes(2);
      expect(nested).toHaveBeenCalledTimes(1);
    });
    it("a plugin's watchers end with the store's $dispose()", () => {
      const source = ref(0);
      const watched = mockFn(), disposed = mockFn();
      createApp({}).use(pinia);   // Pinia applies plugins once installed
      pinia.use(() => { watch(source, watched, { flush: 'sync' }); onScopeDispose(disposed); });
      const store = defineStore('plugin-effects', { state: () => ({ n: 0 }) })();
      source.value = 1;
      expect(watched).toHaveBeenCalledTimes(1);
      store.$dispose();
      expect(disposed).toHaveBeenCalledTimes(1);
      source.value = 2;
      expect(watched).toHaveBeenCalledTimes(1);
    });
  });

  describe('hydrating a setup store from pinia.state.value', () => {
    beforeEach(fresh);

    it('a computed read during setup follows the hydrated value', () => {
      pinia.state.value.hydrated = { n: 5 };
      const store = defineStore('hydrated', () => {
        const n = ref(1);
        const double = computed(() => n.value * 2);
        const atSetup = double.value;
        return { n, double, atSetup: () => atSetup };
      })();
      expect(store.atSetup()).toBe(2);
      expect(store.n).toBe(5);
      expect(store.double).toBe(10);
    });
    it('a deep watch made in setup sees writes after hydration', () => {
      pinia.state.value['hydrated-watch'] = { list: [1] };
      const cb = mockFn();
      const store = defineStore('hydrated-watch', () => {
        const list = ref([]);
        watch(list, cb, { deep: true, flush: 'sync' });
        return { list };
      })();
      expect(cb).toHaveBeenCalledTimes(1);
      store.list.push(2);
      expect(cb).toHaveBeenCalledTimes(2);
      expect(store.list).toEqual([1, 2]);
    });
    it('a store used again after $dispose() runs its new watcher, not the old one', () => {
      const calls = [];
      let generation = 0;
      const useStore = defineStore('reused', () => {
        const mine = ++generation;
        const n = ref(0);
        watch(n, (value) => calls.push(`${mine}:${value}`), { flush: 'sync' });
        return { n };
      });
      useStore().n = 1;
      useStore().$dispose();
      const second = useStore();
      second.n = 2;
      // hydration assigns the kept value to the new ref: the new watcher sees it, the old one nothing
      expect(calls).toEqual(['1:1', '2:1', '2:2']);
    });
  });

  describe('writes that change nothing', () => {
    beforeEach(fresh);

    it('sort() of a sorted array and reverse() of a one-element array notify nobody', async () => {
      const store = defineStore('no-change', { state: () => ({ list: [1, 2, 3], one: ['x'] }) })();
      const sync = mockFn(), batched = mockFn();
      store.$subscribe(sync, { flush: 'sync' });
      store.$subscribe(batched);
      store.list.sort();
      store.one.reverse();
      store.list.fill(2, 1, 2);
      await nextTick();
      expect(sync).toHaveBeenCalledTimes(0);
      expect(batched).toHaveBeenCalledTimes(0);
      store.list.reverse();
      await nextTick();
      expect(store.list).toEqual([3, 2, 1]);
      expect(sync).toHaveBeenCalled();   // Vue: once per changed index; StateHub: one set of the array
      expect(batched).toHaveBeenCalledTimes(1);
    });
  });

  describe('patches and subscriber order', () => {
    beforeEach(fresh);

    it('a $patch inside a $patch function is reported, then the outer one', () => {
      const store = defineStore('nested-patch', { state: () => ({ a: 0, b: 0 }) })();
      const types = [];
      store.$subscribe((mutation) => types.push(mutation.type), { flush: 'sync' });
      store.$patch(() => { store.$patch({ a: 1 }); store.b = 1; });
      expect(types.slice(0, 1)).toEqual(['patch object']);
      expect(types[types.length - 1]).toBe('patch function');
      expect(store.$state).toEqual({ a: 1, b: 1 });
    });
    it("flush: 'post' subscribers run after every pre subscriber", async () => {
      const store = defineStore('post-order', { state: () => ({ n: 0 }) })();
      const order = [];
      store.$subscribe(() => order.push('post'), { flush: 'post' });
      store.$subscribe(() => order.push('pre'));
      store.$subscribe(() => order.push('default'), { flush: 'pre' });
      store.n++;
      await nextTick();
      expect(order).toEqual(['pre', 'default', 'post']);
    });
  });

  describe('$onAction timing', () => {
    beforeEach(fresh);

    it("an async action's after() and the caller's await run at the microtasks Pinia's do", async () => {
      const store = defineStore('action-timing', { actions: { async load() { return 1; } } })();
      const order = [];
      store.$onAction(({ after }) => after(() => order.push('after')));
      const call = store.load().then(() => order.push('caller'));
      const tick = (n) => Promise.resolve().then(() => { order.push(`tick ${n}`); });
      await Promise.all([tick(1), Promise.resolve().then(() => tick(2)), Promise.resolve().then(() => Promise.resolve().then(() => tick(3))), call]);
      expect(order).toEqual(['after', 'tick 1', 'tick 2', 'caller', 'tick 3']);
    });
  });

  describe('storeToRefs keys', () => {
    beforeEach(fresh);

    it('gives the state present at creation, getters and plugin refs, not keys added by $patch', () => {
      createApp({}).use(pinia);
      pinia.use(() => ({ extra: ref(1) }));
      const store = defineStore('refs-keys', { state: () => ({ a: 1 }), getters: { twice: (s) => s.a * 2 } })();
      store.$patch({ added: 2 });
      expect(Object.keys(storeToRefs(store)).sort()).toEqual(['a', 'extra', 'twice']);
    });
  });

  describe('a getter named like a store property', () => {
    beforeEach(fresh);

    it('a getter named $state is shadowed by the store\'s own $state', () => {
      const store = defineStore('named-state', { state: () => ({ n: 1 }), getters: { $state: () => 'fake' } })();
      expect(store.$state).toEqual({ n: 1 });
      store.$patch({ n: 2 });
      expect(store.$state.n).toBe(2);
    });
  });
})(typeof globalThis !== 'undefined' ? globalThis : this);
