/*
 * Store-only behaviour that Pinia's v2 spec files check — store, rootState, state, lifespan
 * and storeSetup — written for StateHub's runtime (no Vue component needed). Loaded after
 * js/runtime/*.js and js/tests/harness.js; each test starts with a fresh active pinia.
 */
(function (global) {
  'use strict';
  const { describe, it, beforeEach, expect, mockFn } = global.StateHubSpec;
  const { ref, reactive, computed, watch, nextTick, effectScope, customRef, toRef, toRefs, isReactive, toRaw } = global.StateHubReactivity;
  const { createPinia, setActivePinia, getActivePinia, defineStore, skipHydrate, createApp, inject } = global.StateHubPinia;

  const mainOptions = () => ({
    state: () => ({ a: true, nested: { foo: 'foo', a: { b: 'string' } } }),
    getters: { nonA(state) { return !state.a; } }
  });

  describe('store (Pinia: store.spec)', () => {
    let pinia;
    beforeEach(() => { pinia = createPinia(); setActivePinia(pinia); });
    const useStore = defineStore('main', mainOptions());

    it('reuses a store', () => {
      expect(useStore()).toBe(useStore());
    });
    it('works with id as first argument and with the options form', () => {
      const byId = defineStore('id-first', { state: () => ({ n: 0 }) })();
      const byOptions = defineStore({ id: 'options-form', state: () => ({ n: 1 }) })();
      expect(byId.$id).toBe('id-first');
      expect(byOptions.n).toBe(1);
    });
    it('sets the initial state and is a reactive object', () => {
      const store = useStore();
      expect(store.$state).toEqual({ a: true, nested: { foo: 'foo', a: { b: 'string' } } });
      expect(isReactive(store)).toBe(true);
      expect(toRaw(store)).not.toBe(store);
    });
    it('can be watched as a whole, like any reactive object', () => {
      const store = useStore();
      const cb = mockFn();
      watch(store, cb, { flush: 'sync' });
      store.nested.foo = 'bar';
      store.$patch({ a: false });
      expect(cb).toHaveBeenCalledTimes(2);
      expect(toRaw(store).$id).toBe('main');
    });
    it('works without setting the active pinia when one is passed', () => {
      setActivePinia(undefined);
      const other = createPinia();
      const store = useStore(other);
      expect(store.a).toBe(true);
      expect(getActivePinia()).toBe(other);
    });
    it('can be reset', () => {
      const store = useStore();
      store.$state.a = false;
      const spy = mockFn();
      store.$subscribe(spy, { flush: 'sync' });
      store.$reset();
      expect(store.$state).toEqual({ a: true, nested: { foo: 'foo', a: { b: 'string' } } });
      expect(spy).toHaveBeenCalledTimes(1);
    });
    it('creates an empty state if no state option is provided', () => {
      expect(defineStore('empty', {})().$state).toEqual({});
    });
    it('can hydrate the state', () => {
      pinia.state.value.main = { a: false, nested: { foo: 'bar', a: { b: 'string 2' } } };
      const store = useStore();
      expect(store.$state).toEqual({ a: false, nested: { foo: 'bar', a: { b: 'string 2' } } });
    });
    it('can replace its state', () => {
      const store = useStore();
      const spy = mockFn();
      watch(() => store.a, spy, { flush: 'sync' });
      store.$state = { a: false, nested: { foo: 'bar', a: { b: 'hey' } } };
      expect(spy).toHaveBeenCalledTimes(1);
      expect(store.$state).toEqual({ a: false, nested: { foo: 'bar', a: { b: 'hey' } } });
      expect(pinia.state.value.main).toEqual({ a: false, nested: { foo: 'bar', a: { b: 'hey' } } });
    });
    it('does not share the state between stores of the same id in two pinias', () => {
      const first = useStore(createPinia());
      const second = useStore(createPinia());
      first.a = false;
      expect(second.a).toBe(true);
    });
    it('can be disposed: subscriptions stop, state stays, the next useStore is new', () => {
      const store = useStore();
      const spy = mockFn();
      store.$subscribe(spy, { flush: 'sync' });
      store.$onAction(spy);
      store.a = false;
      expect(spy).toHaveBeenCalledTimes(1);
      store.$dispose();
      expect(pinia._s.has('main')).toBe(false);
      store.a = true;
      expect(spy).toHaveBeenCalledTimes(1);
      const next = useStore();
      expect(next).not.toBe(store);
      expect(next.a).toBe(true);
    });
    it('warns when state is created with a class constructor, only once, never for plain objects', () => {
      class MyState { constructor() { this.n = 1; } }
      const useClass = defineStore('class-state', { state: () => new MyState() });
      useClass();
      useClass();
      expect('[🍍]: The "state" must be a plain object. It cannot be\n\tstate: () => new MyClass()\nFound in store "class-state".').toHaveBeenWarnedTimes(1);
      useStore();
      expect('must be a plain object').toHaveBeenWarnedTimes(1);
    });
    it('warns when a getter has the name of a state property', () => {
      defineStore('clash', { state: () => ({ anyName: 0 }), getters: { anyName: (state) => state.anyName } })();
      expect('[🍍]: A getter cannot have the same name as another state property. Rename one of them. Found with "anyName" in store "clash".').toHaveBeenWarned();
    });
    it('throws an error if no store id is provided', () => {
      expect(() => defineStore({})).toThrow('[🍍]: "defineStore()" must be passed a store id as its first argument.');
    });
    it('throws a clear error with no active pinia', () => {
      setActivePinia(undefined);
      expect(() => useStore()).toThrow('[🍍]: "getActivePinia()" was called but there was no active Pinia. Are you trying to use a store before calling "app.use(pinia)"?');
    });
    it('refuses to create stores once its pinia is destroyed', () => {
      global.StateHubPinia.disposePinia(pinia);
      setActivePinia(pinia);
      expect(() => useStore()).toThrow('Pinia destroyed');
    });
  });

  describe('root state (Pinia: rootState.spec)', () => {
    it('works with no stores and holds one state per store', () => {
      const pinia = createPinia();
      expect(pinia.state.value).toEqual({});
      setActivePinia(pinia);
      defineStore('a', { state: () => ({ a: 'a' }) })();
      defineStore('b', { state: () => ({ b: 'b' }) })();
      expect(pinia.state.value).toEqual({ a: { a: 'a' }, b: { b: 'b' } });
    });
    it('does not mix up different pinias', () => {
      const useA = defineStore('a', { state: () => ({ a: 'a' }) });
      const first = createPinia(), second = createPinia();
      useA(first).a = 'changed';
      useA(second);
      expect(first.state.value.a).toEqual({ a: 'changed' });
      expect(second.state.value.a).toEqual({ a: 'a' });
    });
  });

  describe('state (Pinia: state.spec)', () => {
    let pinia;
    beforeEach(() => { pinia = createPinia(); setActivePinia(pinia); });
    const useStore = defineStore('main', { state: () => ({ name: 'Eduardo', counter: 0, nested: { n: 0 } }) });

    it('is reactive and can be set on the store, on $state and with $patch', () => {
      const store = useStore();
      const upper = computed(() => store.name.toUpperCase());
      expect(upper.value).toBe('EDUARDO');
      store.name = 'Ed';
      expect(upper.value).toBe('ED');
      store.$state.name = 'Edu';
      expect(store.name).toBe('Edu');
      store.$patch({ name: 'a' });
      expect(store.$state.name).toBe('a');
      store.nested.n = 3;
      expect(store.$state.nested.n).toBe(3);
      store.$state.nested.n = 4;
      expect(store.nested.n).toBe(4);
      store.$patch({ nested: { n: 5 } });
      expect(store.nested.n).toBe(5);
    });
    it('can be watched, also through pinia.state', async () => {
      const store = useStore();
      const spy = mockFn(), rootSpy = mockFn();
      watch(() => store.name, spy);
      watch(() => pinia.state.value.main.name, rootSpy);
      store.name = 'Ed';
      await nextTick();
      expect(spy).toHaveBeenCalledTimes(1);
      expect(rootSpy).toHaveBeenCalledTimes(1);
    });
    it('can be given refs, which stay connected', () => {
      const name = ref('Eduardo'), counter = ref(0);
      const double = computed({ get: () => counter.value * 2, set: (v) => { counter.value = v / 2; } });
      const store = defineStore('refs', { state: () => ({ name, counter, double }) })();
      expect(pinia.state.value.refs).toEqual({ name: 'Eduardo', counter: 0, double: 0 });
      name.value = 'Ed';
      expect(store.name).toBe('Ed');
      store.name = 'Edu';
      expect(name.value).toBe('Edu');
      store.$patch({ counter: 2 });
      expect(counter.value).toBe(2);
      expect(store.double).toBe(4);
    });
    it('resets the state of an empty store', () => {
      const store = defineStore('empty', {})();
      store.$reset();
      expect(store.$state).toEqual({});
    });
    it('hydrates refs and reactive objects of setup stores', () => {
      pinia.state.value.hyd = { stuff: 1, a: 2, state: { count: 5, a: 2 } };
      const stuff = ref(2);
      const store = defineStore('hyd', () => {
        const a = ref(0);
        const state = reactive({ a, count: 0 });
        return { stuff, a, state, double: computed(() => stuff.value * 2) };
      })();
      expect(stuff.value).toBe(1);
      expect(store.$state).toEqual({ stuff: 1, a: 2, state: { count: 5, a: 2 } });
      expect(store.double).toBe(2);
      store.a = 0;
      expect(store.state).toEqual({ a: 0, count: 5 });
      store.stuff = 5;
      expect(stuff.value).toBe(5);
      expect(store.double).toBe(10);
      stuff.value = 15;
      expect(store.$state.stuff).toBe(15);
    });
    it('hydrates Set and Map in option stores', () => {
      pinia.state.value.coll = { set: new Set([1, 2]), map: new Map([['ssr', 'test']]) };
      const store = defineStore('coll', { state: () => ({ set: new Set(), map: new Map() }) })();
      expect(store.set).toBeInstanceOf(Set);
      expect([...store.set.values()]).toEqual([1, 2]);
      expect([...store.map.entries()]).toEqual([['ssr', 'test']]);
    });
    it('hydrates Set and Map in setup stores, refs and reactive alike', () => {
      pinia.state.value.coll = {
        setRef: new Set([1, 2]), setReactive: new Set([3, 4]),
        mapRef: new Map([['ref:ssr', 'test']]), mapReactive: new Map([['reactive:ssr', 'test']])
      };
      const store = defineStore('coll', () => ({
        setRef: ref(new Set()), setReactive: reactive(new Set()),
        mapRef: ref(new Map()), mapReactive: reactive(new Map())
      }))();
      expect(store.setReactive).toBeInstanceOf(Set);
      expect([...store.setRef.values()]).toEqual([1, 2]);
      expect([...store.setReactive.values()]).toEqual([3, 4]);
      expect([...store.mapRef.entries()]).toEqual([['ref:ssr', 'test']]);
      expect([...store.mapReactive.entries()]).toEqual([['reactive:ssr', 'test']]);
    });
    it('custom refs: skipped by hydrate() in option stores and skipHydrate() in setup stores', () => {
      let spy;
      const useCustomRef = () => {
        let value = 0;
        return customRef((track, trigger) => {
          spy = mockFn((next) => { value = next; trigger(); });
          return { get() { track(); return value; }, set: spy };
        });
      };
      pinia.state.value.custom = { myCustom: 24, other: 'ssr' };
      const options = defineStore('custom', {
        state: () => ({ myCustom: useCustomRef(), other: 'start' }),
        hydrate(storeState) { storeState.myCustom = useCustomRef(); }
      })();
      expect(options.myCustom).toBe(0);
      expect(options.other).toBe('ssr');
      options.myCustom++;
      options.$state.myCustom++;
      options.$patch({ myCustom: 0 });
      options.$patch((state) => { state.myCustom++; });
      expect(options.myCustom).toBe(1);
      expect(spy).toHaveBeenCalledTimes(4);

      pinia.state.value.customSetup = { myCustom: 24 };
      const setup = defineStore('customSetup', () => ({ myCustom: skipHydrate(useCustomRef()) }))();
      expect(setup.myCustom).toBe(0);
      setup.myCustom++;
      setup.$patch((state) => { state.myCustom++; });
      expect(setup.myCustom).toBe(2);
    });
  });

  describe('lifespan (Pinia: lifespan.spec)', () => {
    it('gets the active pinia inside setup and outside of it', () => {
      const pinia = createPinia();
      setActivePinia(pinia);
      let seen;
      defineStore('life', () => { seen = getActivePinia(); return {}; })();
      expect(seen).toBe(pinia);
    });
    it('state reactivity outlives the scope that created the store; $dispose stops it', () => {
      const pinia = createPinia();
      setActivePinia(pinia);
      const useCounter = defineStore('life', () => {
        const n = ref(0);
        const double = computed(() => n.value * 2);
        return { n, double };
      });
      const scope = effectScope();
      let store;
      scope.run(() => { store = useCounter(); });
      scope.stop();
      store.n++;
      expect(store.double).toBe(2);
      const spy = mockFn();
      watch(() => store.double, spy, { flush: 'sync' });
      store.n++;
      expect(spy).toHaveBeenCalledTimes(1);
    });
    it('disposing the pinia stops the watchers made in setup', () => {
      const pinia = createPinia();
      setActivePinia(pinia);
      const inStoreWatch = mockFn();
      const store = defineStore('life', () => {
        const n = ref(0);
        watch(n, inStoreWatch, { flush: 'sync' });
        return { n };
      })();
      store.n++;
      expect(inStoreWatch).toHaveBeenCalledTimes(1);
      global.StateHubPinia.disposePinia(pinia);
      store.n++;
      expect(inStoreWatch).toHaveBeenCalledTimes(1);
    });
  });

  describe('setup stores (Pinia: storeSetup.spec, combinedStores.spec)', () => {
    beforeEach(() => { setActivePinia(createPinia()); });
    const useStore = defineStore('main', () => {
      const name = ref('Eduardo');
      const counter = ref(0);
      const double = computed(() => counter.value * 2);
      function increment(amount = 1) { counter.value += amount; }
      return { name, counter, increment, double };
    });

    it('extracts the $state: refs are state, computed are getters, functions are actions', () => {
      const store = useStore();
      expect(store.$state).toEqual({ name: 'Eduardo', counter: 0 });
      store.increment();
      expect(store.double).toBe(2);
      expect(store.$state).not.toHaveProperty('double');
      expect(store.$state).not.toHaveProperty('increment');
    });
    it('can store a function in a ref', () => {
      const store = defineStore('fn', () => ({ fn: ref(() => {}), action() {} }))();
      expect(store.$state).toEqual({ fn: expect.any(Function) });
      store.action();
    });
    it('state spread with toRefs(reactive()) stays one with the store', () => {
      const store = defineStore('spread', () => {
        const state = reactive({ n: 0, list: [] });
        const increment = () => { state.n++; state.list.push(state.n); };
        return { ...toRefs(state), increment, double: computed(() => state.n * 2) };
      })();
      store.increment();
      expect(store.n).toBe(1);
      expect(store.$state).toEqual({ n: 1, list: [1] });
      store.n = 5;
      store.increment();
      expect(store.double).toBe(12);
    });
    it('a shallowRef returned from setup stays shallow; its changes still reach the StateHub op log by the end of the tick', async () => {
      const store = defineStore('shallow', () => ({ big: global.StateHubReactivity.shallowRef({ rows: [1] }), n: ref(0) }))();
      expect(isReactive(store.big)).toBe(false);
      const ops = [];
      store.$subscribe((mutation) => { ops.push(...mutation[Symbol.for('statehub.ops')]); }, { flush: 'sync' });
      store.big = { rows: [1, 2] };
      store.big.rows.push(3);
      store.n++;
      await nextTick();
      expect(store.$state.big).toEqual({ rows: [1, 2, 3] });
      expect(ops.some((op) => op.path.join() === 'big' && JSON.stringify(op.value) === '{"rows":[1,2,3]}')).toBe(true);
    });
    it('a toRef of another store\'s state stays linked to that store', () => {
      const useSource = defineStore('source', { state: () => ({ shared: 1 }) });
      const linked = defineStore('linked', () => ({ shared: toRef(useSource().$state, 'shared') }))();
      const source = useSource();
      linked.shared = 2;
      expect(source.shared).toBe(2);
      source.shared = 3;
      expect(linked.shared).toBe(3);
      expect(Object.getOwnPropertyDescriptor(toRaw(source.$state), 'shared').value).toBe(3);
    });
    it('can use app-level injections through createApp().provide', () => {
      const pinia = createPinia();
      const app = createApp({}).use(pinia);
      app.provide('hello', 'pinia');
      const store = defineStore('inj', () => ({ injected: ref(inject('hello', 'nope')) }))();
      expect(store.injected).toBe('pinia');
      expect(app.config.globalProperties.$pinia).toBe(pinia);
      expect(app.runWithContext(() => inject('hello'))).toBe('pinia');
      expect(inject('hello', 'outside')).toBeUndefined();   // as in Vue: no app context, no default
      expect('inject() can only be used inside setup()').toHaveBeenWarned();
      expect(app.runWithContext(() => inject('missing'))).toBeUndefined();
      expect('injection "missing" not found.').toHaveBeenWarned();
    });
    it('stores can use each other in setup', () => {
      const useA = defineStore('a', () => {
        const n = ref(0);
        const b = useB();
        return { n, changeB() { b.n++; }, getInnerB() { return b; } };
      });
      const useB = defineStore('b', () => {
        const n = ref(0);
        const a = useA();
        return { n, changeA() { a.n++; }, getInnerA() { return a; } };
      });
      const b = useB();
      const a = useA();
      expect(a).toBe(b.getInnerA());
      expect(b).toBe(a.getInnerB());
      b.changeA();
      a.changeB();
      expect(a.n).toBe(1);
      expect(b.n).toBe(1);
    });
  });
})(typeof globalThis !== 'undefined' ? globalThis : this);
