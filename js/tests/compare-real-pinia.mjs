// Runs js/tests/spec/*.spec.js on StateHub's runtime and on real Pinia + Vue, and lists every
// test whose outcome differs. Not part of the package and never run by the engine.
//
//   node js/tests/compare-real-pinia.mjs PINIA_CHECKOUT VUE_CORE_CHECKOUT
//
// PINIA_CHECKOUT: a checkout of github.com/vuejs/pinia (branch v2; packages/pinia/src is read).
// VUE_CORE_CHECKOUT: a checkout of github.com/vuejs/core (packages/{shared,reactivity,
// runtime-core,runtime-dom}/src are read). Both are bundled from their TypeScript sources with
// `esbuild` (on PATH) into the OS temp folder, as a development build in a page that has
// `window`; the sync plugin's self-test runs on that build and on a production build. Exits 1
// when the self-test fails on either, or when any test's outcome differs, except tests whose name
// says "StateHub" (StateHub additions and documented differences, expected to fail on real Pinia).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';

const jsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [piniaDir, coreDir] = process.argv.slice(2).map((p) => p && path.resolve(p));
if (!piniaDir || !coreDir) {
  console.error('usage: node js/tests/compare-real-pinia.mjs PINIA_CHECKOUT VUE_CORE_CHECKOUT');
  process.exit(2);
}

function bundleRealPinia(development) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'statehub-real-pinia-'));
  const write = (name, text) => { fs.writeFileSync(path.join(work, name), text); return path.join(work, name); };
  // Pinia v2 imports Vue through vue-demi and devtools through @vue/devtools-api.
  const demi = write('vue-demi.js', `export * from 'vue';
export const isVue2 = false, isVue3 = true, Vue2 = undefined;
export function set(target, key, value) { target[key] = value; return value; }
export function del(target, key) { delete target[key]; }
export function install() {}`);
  const devtools = write('devtools.js', 'export function setupDevtoolsPlugin() {}');
  const entry = write('entry.js', `import * as vue from 'vue';
import * as pinia from 'pinia';
globalThis.StateHubReactivity = Object.assign({}, vue);
globalThis.StateHubPinia = Object.assign({}, pinia, { createApp: vue.createApp, inject: vue.inject, hasInjectionContext: vue.hasInjectionContext });`);
  const core = (name) => path.join(coreDir, 'packages', name, 'src', 'index.ts');
  const out = path.join(work, development ? 'real-pinia.js' : 'real-pinia.prod.js');
  const defines = {
    __DEV__: String(development), __TEST__: 'false', __BROWSER__: 'true', __GLOBAL__: 'false', __ESM_BUNDLER__: 'false',
    __ESM_BROWSER__: 'false', __CJS__: 'false', __SSR__: 'false', __COMPAT__: 'false', __CI__: 'false',
    __FEATURE_OPTIONS_API__: 'true', __FEATURE_PROD_DEVTOOLS__: 'false', __FEATURE_SUSPENSE__: 'true',
    __FEATURE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false', __USE_DEVTOOLS__: 'false', __VERSION__: '"real"'
  };
  execFileSync('esbuild', [entry, '--bundle', '--format=iife', '--log-level=error', '--outfile=' + out,
    '--alias:vue=' + core('runtime-dom'), '--alias:@vue/runtime-dom=' + core('runtime-dom'),
    '--alias:@vue/runtime-core=' + core('runtime-core'), '--alias:@vue/reactivity=' + core('reactivity'),
    '--alias:@vue/shared=' + core('shared'), '--alias:pinia=' + path.join(piniaDir, 'packages/pinia/src/index.ts'),
    '--alias:vue-demi=' + demi, '--alias:@vue/devtools-api=' + devtools,
    ...Object.entries(defines).map(([k, v]) => `--define:${k}=${v}`)], { stdio: 'inherit' });
  return out;
}

async function runSpec(scripts, spec) {
  const quiet = () => {};
  const context = vm.createContext({ console: { log: quiet, warn: quiet, error: quiet, info: quiet }, setTimeout, clearTimeout, queueMicrotask, structuredClone });
  context.globalThis = context;
  context.window = context;   // a page, as in a WKWebView (Pinia's HMR and dev checks look for it)
  for (const file of [...scripts, path.join(jsDir, 'tests/harness.js'), path.join(jsDir, 'tests/spec', spec)]) {
    vm.runInContext(fs.readFileSync(file, 'utf8'), context, { filename: file });
  }
  return vm.runInContext('StateHubSpec.run(() => {})', context);
}

const real = bundleRealPinia(true);
const ours = [path.join(jsDir, 'runtime/reactivity.js'), path.join(jsDir, 'runtime/pinia.js')];
const specs = fs.readdirSync(path.join(jsDir, 'tests/spec')).filter((f) => f.endsWith('.spec.js')).sort();
let cases = 0, agreeing = 0, unexpected = 0;
for (const spec of specs) {
  const a = await runSpec(ours, spec);
  const b = await runSpec([real], spec);
  const theirs = new Map(b.tests.map((t) => [t.name, t]));
  let differing = 0;
  for (const test of a.tests) {
    cases++;
    const other = theirs.get(test.name);
    if (other && other.ok === test.ok) {
      agreeing++;
      if (!test.ok) console.log(`  FAIL BOTH ${test.name}\n      ours: ${test.message}\n      real: ${other.message}`);
      continue;
    }
    differing++;
    const expected = test.name.includes('StateHub');
    if (!expected) unexpected++;
    console.log(`  ${expected ? 'expected' : 'DIFFERS '} ${test.name}\n      ours: ${test.ok ? 'pass' : test.message}\n      real: ${other ? (other.ok ? 'pass' : other.message) : 'missing'}`);
  }
  console.log(`${spec}: ${a.tests.length} cases, ours ${a.passed} passed, real ${b.passed} passed, ${differing} differing`);
}
console.log(`total: ${cases} cases, ${agreeing} agreeing, ${cases - agreeing} differing (${unexpected} not named StateHub)`);

// The sync plugin's self-test on real Pinia (derived ops): Pinia's names on globalThis as a page's
// bundle would have them, every pinia installed into an app (real Pinia holds plugins until then).
async function pluginSelftestOnRealPinia(bundle) {
  const context = vm.createContext({ console: { log() {}, warn() {}, error() {}, info() {} }, setTimeout, clearTimeout, queueMicrotask, structuredClone });
  context.globalThis = context;
  context.window = context;
  vm.runInContext(fs.readFileSync(bundle, 'utf8'), context, { filename: bundle });
  vm.runInContext(`for (const k of Object.keys(StateHubPinia)) globalThis[k] = StateHubPinia[k];
    for (const k of ['markRaw', 'reactive', 'ref', 'computed', 'toRaw', 'shallowRef', 'readonly', 'shallowReactive']) globalThis[k] = StateHubReactivity[k];
    const realCreatePinia = createPinia;
    globalThis.createPinia = () => { const pinia = realCreatePinia(); createApp({}).use(pinia); return pinia; };
    delete globalThis.StateHubPinia;`, context);
  let finished;
  for (const file of ['plugin/sync-plugin.js', 'plugin/chunking.js', 'tests/plugin.selftest.js']) {
    finished = vm.runInContext(fs.readFileSync(path.join(jsDir, file), 'utf8'), context, { filename: file });
  }
  await Promise.resolve(finished).catch(() => { /* its failures are listed below */ });
  for (let spin = 0; spin < 100 && !context.pluginSelftestResult.done; spin++) await new Promise((resolve) => setTimeout(resolve, 10));
  return context.pluginSelftestResult;
}
// Twice: a development build lists a store's getters (`_getters`); a production build lists none,
// so the plugin finds them in the options or among the computed refs a setup store returned.
const production = bundleRealPinia(false);
let pluginFailed = 0;
for (const [name, bundle] of [['development', real], ['production', production]]) {
  const plugin = await pluginSelftestOnRealPinia(bundle);
  pluginFailed += plugin.failed;
  console.log(`plugin selftest on real Pinia (${name} build): ${plugin.passed} passed, ${plugin.failed} failed`);
  for (const failure of plugin.failures) console.log('  ' + String(failure).slice(0, 500));
}
for (const bundle of [real, production]) fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
process.exit(unexpected > 0 || pluginFailed > 0 ? 1 : 0);
