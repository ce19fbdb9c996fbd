/*
 * What Vue's reactivity specifies and stores rely on: collections, shallow and readonly
 * proxies, refs, watchers, effect scopes. Written for StateHub from Vue's documented
 * behaviour; runs with js/tests/harness.js after js/runtime/reactivity.js.
 */
(function (global) {
  'use strict';
  const { describe, it, expect, mockFn } = global.StateHubSpec;
  const R = global.StateHubReactivity;
  const { reactive, ref, computed, watch, watchEffect, effectScope, getCurrentScope, onScopeDispose,
    markRaw, toRaw, isReactive, isReadonly, isShallow, isProxy, shallowRef, shallowReactive, readonly,
    shallowReadonly, toRef, toRefs, customRef, triggerRef, nextTick, isRef, unref } = R;

  describe('collections', () => {
    it('Map: get, has, size and iteration are tracked; set, delete and clear trigger', () => {
      const map = reactive(new Map([['a', 1]]));
      const seen = mockFn();
      watchEffect(() => { seen(map.get('a'), map.has('b'), map.size, Array.from(map.keys()).join()); }, { flush: 'sync' });
      expect(seen).toHaveBeenLastCalledWith(1, false, 1, 'a');
      map.set('a', 2);
      expect(seen).toHaveBeenLastCalledWith(2, false, 1, 'a');
      map.set('b', 3);
      expect(seen).toHaveBeenLastCalledWith(2, true, 2, 'a,b');
      map.delete('a');
      expect(seen).toHaveBeenLastCalledWith(undefined, true, 1, 'b');
      map.clear();
      expect(seen).toHaveBeenLastCalledWith(undefined, false, 0, '');
      const calls = seen.mock.calls.length;
      map.delete('missing');
      map.clear();
      expect(seen).toHaveBeenCalledTimes(calls);
    });
    it('Map: values are reactive, entries and forEach wrap them, keys stay identical', () => {
      const key = {};
      const map = reactive(new Map([[key, { n: 1 }]]));
      expect(isReactive(map.get(key))).toBe(true);
      for (const [k, v] of map) { expect(isReactive(k)).toBe(true); expect(isReactive(v)).toBe(true); }
      const runs = mockFn();
      watchEffect(() => { map.forEach((v) => runs(v.n)); }, { flush: 'sync' });
      map.get(key).n = 2;
      expect(runs).toHaveBeenLastCalledWith(2);
      expect(toRaw(map).get(key)).toEqual({ n: 2 });
    });
    it('Map: a reactive value is stored raw', () => {
      const inner = reactive({ a: 1 });
      const map = reactive(new Map());
      map.set('x', inner);
      expect(toRaw(map).get('x')).toBe(toRaw(inner));
      expect(map.get('x')).toBe(inner);
    });
    it('Set: add, delete, has, size, iteration', () => {
      const set = reactive(new Set([1]));
      const seen = mockFn();
      watchEffect(() => { seen(set.has(2), set.size, [...set].join()); }, { flush: 'sync' });
      set.add(2);
      expect(seen).toHaveBeenLastCalledWith(true, 2, '1,2');
      set.add(2);
      expect(seen).toHaveBeenCalledTimes(2);
      set.delete(1);
      expect(seen).toHaveBeenLastCalledWith(true, 1, '2');
      expect(set instanceof Set).toBe(true);
    });
    it('WeakMap and WeakSet are reactive too', () => {
      const k = {};
      const wm = reactive(new WeakMap()), ws = reactive(new WeakSet());
      const seen = mockFn();
      watchEffect(() => { seen(wm.get(k), ws.has(k)); }, { flush: 'sync' });
      wm.set(k, 1);
      ws.add(k);
      expect(seen).toHaveBeenLastCalledWith(1, true);
      expect(isReactive(wm) && isReactive(ws)).toBe(true);
    });
    it('a Map inside a reactive object is reactive', () => {
      const state = reactive({ m: new Map() });
      expect(isReactive(state.m)).toBe(true);
      const runs = mockFn();
      watch(() => state.m.size, runs, { flush: 'sync' });
      state.m.set(1, 1);
      expect(runs).toHaveBeenCalledTimes(1);
    });
    it('readonly collections refuse writes with a warning', () => {
      const map = readonly(new Map([['a', 1]]));
      map.set('a', 2);
      expect(map.get('a')).toBe(1);
      expect('Set operation on key "a" failed: target is readonly.').toHaveBeenWarned();
      expect(isReadonly(map)).toBe(true);
    });
  });

  describe('markRaw, shallowReactive, shallowRef, readonly', () => {
    it('markRaw objects are never made reactive', () => {
      const raw = markRaw({ a: 1 });
      expect(isReactive(reactive(raw))).toBe(false);
      const state = reactive({ raw });
      expect(isReactive(state.raw)).toBe(false);
    });
    it('shallowReactive is reactive at the top only and returns values as stored', () => {
      const inner = { n: 1 };
      const state = shallowReactive({ inner, r: ref(1) });
      expect(isReactive(state)).toBe(true);
      expect(isShallow(state)).toBe(true);
      expect(isReactive(state.inner)).toBe(false);
      expect(state.inner).toBe(inner);
      expect(isRef(state.r)).toBe(true);
      const runs = mockFn();
      watchEffect(() => { runs(state.inner.n); }, { flush: 'sync' });
      state.inner.n = 2;
      expect(runs).toHaveBeenCalledTimes(1);
      state.inner = { n: 3 };
      expect(runs).toHaveBeenLastCalledWith(3);
    });
    it('shallowRef triggers on .value only; triggerRef forces it', () => {
      const r = shallowRef({ n: 1 });
      const runs = mockFn();
      watchEffect(() => { runs(r.value.n); }, { flush: 'sync' });
      r.value.n = 2;
      expect(runs).toHaveBeenCalledTimes(1);
      triggerRef(r);
      expect(runs).toHaveBeenLastCalledWith(2);
      r.value = { n: 3 };
      expect(runs).toHaveBeenLastCalledWith(3);
      expect(isReactive(r.value)).toBe(false);
    });
    it('readonly: deep, warns on writes, tracks through a reactive source', () => {
      const source = reactive({ a: { b: 1 } });
      const view = readonly(source);
      expect(isReadonly(view) && isReadonly(view.a)).toBe(true);
      expect(isReactive(view)).toBe(true);
      expect(isProxy(view)).toBe(true);
      expect(toRaw(view)).toBe(toRaw(source));
      view.a.b = 2;
      expect(source.a.b).toBe(1);
      expect('target is readonly').toHaveBeenWarned();
      const runs = mockFn();
      watchEffect(() => { runs(view.a.b); }, { flush: 'sync' });
      source.a.b = 5;
      expect(runs).toHaveBeenLastCalledWith(5);
      const plain = readonly({ x: { y: 1 } });
      expect(isReactive(plain)).toBe(false);
      const shallowView = shallowReadonly({ x: { y: 1 } });
      expect(isReadonly(shallowView.x)).toBe(false);
    });
  });

  describe('refs', () => {
    it('toRef and toRefs stay connected to their source', () => {
      const state = reactive({ a: 1, b: 2 });
      const a = toRef(state, 'a');
      const { b } = toRefs(state);
      a.value = 10;
      state.b = 20;
      expect(state.a).toBe(10);
      expect(b.value).toBe(20);
      expect(toRef(state, 'missing', 'fallback').value).toBe('fallback');
      expect(toRef(() => state.a).value).toBe(10);
      expect(unref(a)).toBe(10);
    });
    it('customRef controls tracking and triggering', () => {
      let stored = 1;
      const track = mockFn();
      const r = customRef((trackFn, triggerFn) => ({
        get() { track(); trackFn(); return stored; },
        set(v) { stored = v; triggerFn(); }
      }));
      const runs = mockFn();
      watchEffect(() => { runs(r.value); }, { flush: 'sync' });
      r.value = 2;
      expect(runs).toHaveBeenLastCalledWith(2);
      expect(track).toHaveBeenCalledTimes(2);
    });
    it('a ref in a reactive object is unwrapped, in an array it is not', () => {
      const count = ref(1);
      const state = reactive({ count, list: [count] });
      expect(state.count).toBe(1);
      expect(isRef(state.list[0])).toBe(true);
    });
  });

  describe('watch and watchEffect', () => {
    it('default flush is asynchronous and batches writes of a tick', async () => {
      const state = reactive({ n: 0 });
      const cb = mockFn();
      watch(() => state.n, cb);
      state.n = 1;
      state.n = 2;
      expect(cb).toHaveBeenCalledTimes(0);
      await nextTick();
      expect(cb).toHaveBeenCalledTimes(1);
      expect(cb.mock.calls[0].slice(0, 2)).toEqual([2, 0]);
    });
    it('flush sync calls once per write; flush post runs after pre', async () => {
      const state = reactive({ n: 0 });
      const order = [];
      watch(() => state.n, () => order.push('post'), { flush: 'post' });
      watch(() => state.n, () => order.push('pre'));
      watch(() => state.n, () => order.push('sync'), { flush: 'sync' });
      state.n = 1;
      expect(order).toEqual(['sync']);
      await nextTick();
      expect(order).toEqual(['sync', 'pre', 'post']);
    });
    it('deep watches nested writes, deep: 1 only the first level; a reactive source is deep', () => {
      const state = reactive({ a: { b: { c: 1 } }, m: new Map() });
      const deep = mockFn(), shallow = mockFn(), implicit = mockFn();
      watch(() => state.a, deep, { deep: true, flush: 'sync' });
      watch(() => state.a, shallow, { deep: 1, flush: 'sync' });
      watch(state, implicit, { flush: 'sync' });
      state.a.b.c = 2;
      expect(deep).toHaveBeenCalledTimes(1);
      expect(shallow).toHaveBeenCalledTimes(0);
      expect(implicit).toHaveBeenCalledTimes(1);
      state.a.x = 1;
      expect(shallow).toHaveBeenCalledTimes(1);
      state.m.set('k', 1);
      expect(implicit).toHaveBeenCalledTimes(3);
    });
    it('immediate, once, onCleanup and stop', () => {
      const r = ref(0);
      const cleanup = mockFn();
      const cb = mockFn((value, old, onCleanup) => { onCleanup(cleanup); });
      const stop = watch(r, cb, { immediate: true, flush: 'sync' });
      expect(cb).toHaveBeenCalledTimes(1);
      r.value = 1;
      expect(cleanup).toHaveBeenCalledTimes(1);
      stop();
      expect(cleanup).toHaveBeenCalledTimes(2);
      r.value = 2;
      expect(cb).toHaveBeenCalledTimes(2);
      const once = mockFn();
      watch(r, once, { once: true, flush: 'sync' });
      r.value = 3; r.value = 4;
      expect(once).toHaveBeenCalledTimes(1);
    });
    it('pause and resume; onWatcherCleanup', () => {
      const r = ref(0);
      const cb = mockFn((value) => { R.onWatcherCleanup(cleanup); });
      const cleanup = mockFn();
      const handle = watch(r, cb, { flush: 'sync' });
      handle.pause();
      r.value = 1; r.value = 2;
      expect(cb).toHaveBeenCalledTimes(0);
      handle.resume();
      expect(cb).toHaveBeenCalledTimes(1);
      expect(cb.mock.calls[0][0]).toBe(2);
      r.value = 3;
      expect(cleanup).toHaveBeenCalledTimes(1);
      handle.stop();
      expect(cleanup).toHaveBeenCalledTimes(2);
    });
    it('watching a store-like reactive object deeply, and toRaw', () => {
      const store = reactive({ list: [], nested: { n: 0 } });
      const cb = mockFn();
      watch(store, cb, { flush: 'sync' });
      store.list.push(1);
      store.nested.n++;
      expect(cb).toHaveBeenCalledTimes(2);
      expect(toRaw(store).nested.n).toBe(1);
    });
    it('watching several sources', () => {
      const a = ref(1), b = reactive({ n: 1 });
      const cb = mockFn();
      watch([a, () => b.n], cb, { flush: 'sync' });
      b.n = 2;
      expect(cb.mock.calls[0][0]).toEqual([1, 2]);
      expect(cb.mock.calls[0][1]).toEqual([1, 1]);
    });
  });

  describe('effect scopes', () => {
    it('stopping a scope stops its effects and runs onScopeDispose', () => {
      const scope = effectScope();
      const r = ref(0);
      const runs = mockFn(), disposed = mockFn();
      scope.run(() => {
        expect(getCurrentScope()).toBe(scope);
        watchEffect(() => { runs(r.value); }, { flush: 'sync' });
        computed(() => r.value * 2).value;
        onScopeDispose(disposed);
      });
      r.value = 1;
      expect(runs).toHaveBeenCalledTimes(2);
      scope.stop();
      r.value = 2;
      expect(runs).toHaveBeenCalledTimes(2);
      expect(disposed).toHaveBeenCalledTimes(1);
      expect(getCurrentScope()).toBeUndefined();
    });
    it('nested scopes stop with their parent unless detached', () => {
      const parent = effectScope();
      let child, detached;
      parent.run(() => { child = effectScope(); detached = effectScope(true); });
      parent.stop();
      expect(child.active).toBe(false);
      expect(detached.active).toBe(true);
    });
  });
})(typeof globalThis !== 'undefined' ? globalThis : this);
