// The JavaScript side of a mirrored write alone (docs/benchmarks.md, "The JavaScript side of a mirrored
// write"): `n++` on the hub bench's store, with nothing, a plain sync subscriber, or the sync plugin
// posting into a no-op, so no native call is in the figure. Prints µs per write (min and median of
// R rounds, the variants interleaved). Run in the page `statehub eval` builds:
//
//   statehub eval --time-limit 600 scripts/bench-js-writes.js
//   JSC_useJIT=false statehub eval --time-limit 600 scripts/bench-js-writes.js
//
// Set globals in a script before it to change N (writes per round), R (rounds) or ONLY (variant
// names). On a loaded machine read the process's CPU time instead of these wall-clock figures: one
// variant per run (ONLY) under /usr/bin/time, minus a run with N = 1000.
(async function () {
  const N = globalThis.N || 200000, R = globalThis.R || 11;
  const only = globalThis.ONLY || null;
  const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  // a pinia without install.js's plugin (eval's page equips every createPinia)
  const bare = () => (StateHubSync.installed ? StateHubSync.installed.originalCreatePinia : createPinia)();
  const state = () => ({ n: 0, items: Array.from({ length: 200 }, (_, i) => ({ id: 'p' + i, name: 'Product ' + i, price: i * 1.25, qty: 1, tags: ['a', 'b'] })) });
  let count = 0;
  const make = (pinia) => defineStore('js-writes-' + (count++), { state, actions: { inc(by) { this.n += by; return this.n; } } })(pinia);
  let posted = 0;
  const post = (text) => { posted += text.length; };
  const flatten = (text) => { posted += text.charCodeAt(0); };   // charCodeAt resolves a rope whole
  const variants = [
    ['reactive({n})', () => StateHubReactivity.reactive({ n: 0 })],
    ['store.$state.n++, no plugin', () => make(bare()).$state],
    ['store.n++, no plugin', () => make(bare())],
    ['store.n++, a $subscribe sync no-op', () => { const s = make(bare()); s.$subscribe(() => {}, { flush: 'sync' }); return s; }],
    ['store.n++, an ops callback no-op', () => { const s = make(bare()); s.$subscribe(() => {}, { flush: 'sync', [Symbol.for('statehub.opsCallback')]: () => {} }); return s; }],
    ['store.n++, plugin tick, post no-op', () => { const p = bare(); p.use(StateHubSync.createSyncPlugin({ flush: 'tick', post })); return make(p); }, true],
    ['store.n++, plugin sync, post no-op', () => { const p = bare(); p.use(StateHubSync.createSyncPlugin({ flush: 'sync', post })); return make(p); }],
    // as the crossing into native does first: the message text made one flat string (a rope resolved)
    ['store.n++, plugin sync, post flattens', () => { const p = bare(); p.use(StateHubSync.createSyncPlugin({ flush: 'sync', post: flatten })); return make(p); }],
  ].filter((variant) => only === null || only.indexOf(variant[0]) !== -1);
  const samples = variants.map(() => []);
  for (let round = 0; round < R; round++) {
    for (let v = 0; v < variants.length; v++) {
      const [, setup, ticks] = variants[v];
      const s = setup();
      const t0 = performance.now();
      if (ticks) {   // as `statehub bench hub`: ticks of 1,000 writes, the plugin flushing each
        for (let t = 0; t < N / 1000; t++) { for (let i = 0; i < 1000; i++) s.n++; await null; }
        await null;
      } else {
        for (let i = 0; i < N; i++) s.n++;
      }
      samples[v].push((performance.now() - t0) * 1000 / N);
    }
  }
  for (let v = 0; v < variants.length; v++) {
    console.log(variants[v][0].padEnd(40) + ' min ' + Math.min(...samples[v]).toFixed(3) + ' µs  median ' + median(samples[v]).toFixed(3) + ' µs');
  }
})();
