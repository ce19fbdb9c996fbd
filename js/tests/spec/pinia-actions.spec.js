/*
 * Actions, $onAction, getters and composed stores — what Pinia's v2 spec files actions,
 * onAction, getters and combinedStores check without a Vue component, written for StateHub.
 */
(function (global) {
  'use strict';
  const { describe, it, beforeEach, expect, mockFn } = global.StateHubSpec;
  const { ref, computed, watch, nextTick } = global.StateHubReactivity;
  const { createPinia, setActivePinia, getActivePinia, defineStore } = global.StateHubPinia;

  const useB = defineStore('B', { state: () => ({ b: 'b' }) });
  const useA = defineStore('A', {
    state: () => ({ a: true, nested: { foo: 'foo', a: { b: 'string' } } }),
    getters: { nonA() { return !this.a; }, otherComputed() { return this.nonA; } },
    actions: {
      async getNonA() { return this.nonA; },
      simple() { this.toggle(); return 'simple'; },
      toggle() { return (this.a = !this.a); },
      setFoo(foo) { this.$patch({ nested: { foo } }); },
      combined() { this.toggle(); this.setFoo('bar'); },
      throws() { throw new Error('fail'); },
      async rejects() { throw 'fail'; },
      swap() { const bStore = useB(); const b = bStore.b; bStore.b = this.nested.foo; this.nested.foo = b; }
    }
  });

  describe('actions (Pinia: actions.spec)', () => {
    let pinia;
    beforeEach(() => { pinia = createPinia(); setActivePinia(pinia); });

    it('use the store as this, even when detached or called on another object', () => {
      const store = useA();
      expect(store.toggle()).toBe(false);
      const { toggle } = store;
      toggle();
      expect(store.a).toBe(true);
      toggle.call({ a: 'nope' });
      expect(store.a).toBe(false);
      expect(store.simple()).toBe('simple');
    });
    it('can call other actions and other stores', () => {
      const store = useA();
      store.combined();
      expect(store.$state).toEqual({ a: false, nested: { foo: 'bar', a: { b: 'string' } } });
      store.swap();
      expect(useB().b).toBe('bar');
      expect(store.nested.foo).toBe('b');
    });
    it('makes its pinia active when called, switching between pinias', () => {
      const first = createPinia(), second = createPinia();
      const inFirst = useA(first);
      const inSecond = useA(second);
      setActivePinia(second);
      inFirst.swap();
      expect(getActivePinia()).toBe(first);
      expect(useB(first).b).toBe('foo');
      expect(useB(second).b).toBe('b');
      inSecond.toggle();
      expect(getActivePinia()).toBe(second);
    });
    it('throws errors, sync and async, and they can be caught', async () => {
      const store = useA();
      expect(() => store.throws()).toThrow('fail');
      await expect(store.rejects()).rejects.toBe('fail');
      const caught = await store.rejects().catch((e) => e);
      expect(caught).toBe('fail');
    });
  });

  describe('$onAction (Pinia: onAction.spec)', () => {
    let store;
    beforeEach(() => { setActivePinia(createPinia()); store = useA(); });

    it('fires before the action with name, store and args, until unsubscribed', () => {
      const spy = mockFn();
      const stop = store.$onAction(spy);
      store.setFoo('bar');
      expect(spy).toHaveBeenCalledTimes(1);   // $patch inside it is not an action
      const first = spy.mock.calls[0][0];
      expect(first.name).toBe('setFoo');
      expect(first.args).toEqual(['bar']);
      expect(first.store).toBe(store);
      stop();
      store.toggle();
      expect(spy).toHaveBeenCalledTimes(1);
    });
    it('calls after with the returned or resolved value, onError with the error or reason', async () => {
      const after = mockFn(), onError = mockFn();
      store.$onAction((context) => { context.after(after); context.onError(onError); });
      store.toggle();
      expect(after).toHaveBeenLastCalledWith(false);
      await store.getNonA();
      expect(after).toHaveBeenLastCalledWith(true);
      expect(() => store.throws()).toThrow('fail');
      expect(onError.mock.calls[0][0].message).toBe('fail');
      await store.rejects().catch(() => {});
      expect(onError).toHaveBeenLastCalledWith('fail');
    });
    it('several listeners run in registration order; unsubscribing twice is harmless', () => {
      const order = [];
      const stop = store.$onAction(() => order.push(1));
      store.$onAction(() => order.push(2));
      stop(); stop();
      store.$onAction(() => order.push(3));
      store.toggle();
      expect(order).toEqual([2, 3]);
    });
    it('nested actions are reported outer first', () => {
      const names = [];
      store.$onAction(({ name }) => names.push(name));
      store.combined();
      expect(names).toEqual(['combined', 'toggle', 'setFoo']);
    });
    it('setup stores: functions wrapped with `action` are reported under the name they are returned with', () => {
      const useSetup = defineStore('withAction', ({ action }) => {
        const n = ref(0);
        const increment = action(() => { n.value++; });
        function incrementTwice() { increment(); increment(); }
        const renamed = action(function innerName() { n.value += 10; });
        return { n, increment, incrementTwice, later: renamed };
      });
      const setupStore = useSetup();
      const names = [];
      setupStore.$onAction(({ name }) => names.push(name));
      setupStore.incrementTwice();
      setupStore.later();
      expect(names).toEqual(['incrementTwice', 'increment', 'increment', 'later']);
      expect(setupStore.n).toBe(12);
    });
    it('two instances of a store id in two pinias keep their own listeners', () => {
      const other = useA(createPinia());
      const spy = mockFn();
      store.$onAction(spy);
      other.toggle();
      expect(spy).toHaveBeenCalledTimes(0);
    });
  });

  describe('getters (Pinia: getters.spec, combinedStores.spec)', () => {
    beforeEach(() => { setActivePinia(createPinia()); });
    const useStore = defineStore('getters', {
      state: () => ({ name: 'Eduardo', counter: 0 }),
      getters: {
        upperCaseName(store) { return store.name.toUpperCase(); },
        doubleCounter: (state) => state.counter * 2,
        composed() { return this.upperCaseName + ': ok'; },
        fromB() { return useB().b + ' ' + this.name; }
      }
    });

    it('adds getters to the store, cached until what they read changes', () => {
      const spy = mockFn((state) => state.name.toUpperCase());
      const store = defineStore('cached', { state: () => ({ name: 'a' }), getters: { upper: spy } })();
      expect(store.upper).toBe('A');
      expect(store.upper).toBe('A');
      expect(spy).toHaveBeenCalledTimes(1);
      store.name = 'b';
      expect(store.upper).toBe('B');
      expect(spy).toHaveBeenCalledTimes(2);
    });
    it('updates, uses other getters and other stores', () => {
      const store = useStore();
      expect(store.composed).toBe('EDUARDO: ok');
      store.name = 'Ed';
      expect(store.upperCaseName).toBe('ED');
      expect(store.fromB).toBe('b Ed');
      useB().b = 'B';
      expect(store.fromB).toBe('B Ed');
    });
    it('stays reactive when hydrating', () => {
      const pinia = createPinia();
      pinia.state.value.getters = { name: 'hydrated', counter: 1 };
      const store = useStore(pinia);
      expect(store.upperCaseName).toBe('HYDRATED');
      store.name = 'x';
      expect(store.upperCaseName).toBe('X');
    });
    it('supports getters with setters in setup stores', () => {
      const store = defineStore('setter', () => {
        const n = ref(1);
        const double = computed({ get: () => n.value * 2, set: (v) => { n.value = v / 2; } });
        return { n, double };
      })();
      store.double = 10;
      expect(store.n).toBe(5);
    });
    it('cross-used stores keep getters reactive', async () => {
      const useX = defineStore('x', () => {
        const n = ref(0);
        const otherDouble = computed(() => useY().n * 2);
        return { n, otherDouble };
      });
      const useY = defineStore('y', () => {
        const n = ref(0);
        const otherDouble = computed(() => useX().n * 2);
        return { n, otherDouble };
      });
      const x = useX(), y = useY();
      const spy = mockFn();
      watch(() => x.otherDouble, spy);
      y.n = 2;
      x.n = 3;
      expect(x.otherDouble).toBe(4);
      expect(y.otherDouble).toBe(6);
      await nextTick();
      expect(spy).toHaveBeenCalledTimes(1);
    });
  });
})(typeof globalThis !== 'undefined' ? globalThis : this);
