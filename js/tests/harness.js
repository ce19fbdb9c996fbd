/*
 * A small test harness for the runtime's specification tests (js/tests/spec/*.spec.js):
 * describe / it / beforeEach / afterEach / expect / mockFn, in the shape of the test runners
 * Vue and Pinia use, written for StateHub. Classic script; publishes globalThis.StateHubSpec.
 *
 * StateHubSpec.run() runs every registered test in order (async tests awaited), captures
 * console.warn per test (for toHaveBeenWarned), and resolves to { passed, failed, failures,
 * tests } (tests: { name, ok, message } per test, in order, for js/tests/compare-real-pinia.mjs).
 * It also stores that object in globalThis.__stateHubSpecResult.
 */
(function (global) {
  'use strict';

  const tests = [];
  const scopes = [{ name: '', beforeEach: [], afterEach: [] }];
  let warnings = [];

  class AssertionError extends Error {}
  // expect.any(Type): matches any value of that type inside toEqual.
  class Asymmetric {
    constructor(matches) { this.matches = matches; }
  }

  function describe(name, body) {
    scopes.push({ name, beforeEach: [], afterEach: [] });
    try { body(); } finally { scopes.pop(); }
  }
  function it(name, body) {
    const chain = scopes.slice();
    tests.push({
      name: chain.map((scope) => scope.name).filter(Boolean).concat(name).join(' > '),
      body,
      beforeEach: chain.flatMap((scope) => scope.beforeEach),
      afterEach: chain.flatMap((scope) => scope.afterEach).reverse()
    });
  }
  it.skip = () => {};
  it.todo = () => {};
  function beforeEach(fn) { scopes[scopes.length - 1].beforeEach.push(fn); }
  function afterEach(fn) { scopes[scopes.length - 1].afterEach.push(fn); }

  function show(value) {
    try {
      return JSON.stringify(value, (key, v) => {
        if (v instanceof Map) return { Map: Array.from(v.entries()) };
        if (v instanceof Set) return { Set: Array.from(v.values()) };
        if (v === undefined) return '<undefined>';
        if (typeof v === 'function') return '<function ' + (v.name || '') + '>';
        return v;
      });
    } catch (e) {
      return String(value);
    }
  }

  // Structural equality as test runners define it (own enumerable keys, Map and Set by
  // content, Date by time); `strict` also compares undefined-valued keys and prototypes.
  function equals(a, b, strict, seen = []) {
    if (Object.is(a, b)) return true;
    if (b instanceof Asymmetric) return b.matches(a);
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (seen.some(([x, y]) => x === a && y === b)) return true;
    seen.push([a, b]);
    if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
    if (a instanceof Map || b instanceof Map) {
      if (!(a instanceof Map && b instanceof Map) || a.size !== b.size) return false;
      for (const [key, value] of a) if (!b.has(key) || !equals(value, b.get(key), strict, seen)) return false;
      return true;
    }
    if (a instanceof Set || b instanceof Set) {
      if (!(a instanceof Set && b instanceof Set) || a.size !== b.size) return false;
      for (const value of a) if (!b.has(value) && !Array.from(b).some((x) => equals(value, x, strict, seen))) return false;
      return true;
    }
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    const keysOf = (o) => Object.keys(o).filter((k) => strict || o[k] !== undefined);
    const ka = keysOf(a), kb = keysOf(b);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equals(a[k], b[k], strict, seen));
  }

  function mockFn(impl) {
    const mock = function (...args) {
      mock.mock.calls.push(args);
      const result = impl ? impl.apply(this, args) : undefined;
      mock.mock.results.push({ type: 'return', value: result });
      return result;
    };
    mock.mock = { calls: [], results: [] };
    mock.mockClear = () => { mock.mock.calls = []; mock.mock.results = []; return mock; };
    mock.mockImplementation = (next) => { impl = next; return mock; };
    mock._isMockFunction = true;
    return mock;
  }

  function expect(actual) {
    const make = (negated) => {
      const check = (pass, message) => {
        if (pass === negated) throw new AssertionError((negated ? 'not: ' : '') + message);
      };
      const calls = () => {
        if (!actual || !actual._isMockFunction) throw new AssertionError('expected a mock function');
        return actual.mock.calls;
      };
      const matchers = {
        toBe: (expected) => check(Object.is(actual, expected), `expected ${show(actual)} to be ${show(expected)}`),
        toEqual: (expected) => check(equals(actual, expected, false), `expected ${show(actual)} to equal ${show(expected)}`),
        toStrictEqual: (expected) => check(equals(actual, expected, true), `expected ${show(actual)} to strictly equal ${show(expected)}`),
        toBeUndefined: () => check(actual === undefined, `expected ${show(actual)} to be undefined`),
        toBeDefined: () => check(actual !== undefined, 'expected a defined value'),
        toBeNull: () => check(actual === null, `expected ${show(actual)} to be null`),
        toBeTruthy: () => check(!!actual, `expected ${show(actual)} to be truthy`),
        toBeFalsy: () => check(!actual, `expected ${show(actual)} to be falsy`),
        toBeInstanceOf: (type) => check(actual instanceof type, `expected an instance of ${type && type.name}`),
        toContain: (item) => check(actual != null && actual.indexOf(item) !== -1, `expected ${show(actual)} to contain ${show(item)}`),
        toHaveLength: (n) => check(actual != null && actual.length === n, `expected length ${n}, got ${actual && actual.length}`),
        toHaveProperty: (key) => check(actual != null && key in Object(actual), `expected property ${String(key)}`),
        toMatchObject: (subset) => check(Object.keys(subset).every((k) => equals(actual[k], subset[k], false)), `expected ${show(actual)} to match ${show(subset)}`),
        toThrow: (expected) => {
          let thrown = null, threw = false;
          try { actual(); } catch (e) { threw = true; thrown = e; }
          const text = thrown && typeof thrown.message === 'string' ? thrown.message : String(thrown);
          const matches = !threw ? false
            : expected === undefined ? true
            : expected instanceof RegExp ? expected.test(text)
            : typeof expected === 'function' ? thrown instanceof expected
            : text.indexOf(String(expected)) !== -1;
          check(matches, `expected a throw${expected === undefined ? '' : ' matching ' + String(expected)}, got ${threw ? show(text) : 'none'}`);
        },
        toHaveBeenCalled: () => check(calls().length > 0, 'expected the mock to have been called'),
        toHaveBeenCalledTimes: (n) => check(calls().length === n, `expected ${n} calls, got ${calls().length}`),
        toHaveBeenCalledWith: (...args) => check(calls().some((c) => equals(c, args, false)), `expected a call with ${show(args)}, got ${show(calls())}`),
        toHaveBeenLastCalledWith: (...args) => {
          const list = calls();
          check(list.length > 0 && equals(list[list.length - 1], args, false), `expected the last call with ${show(args)}, got ${show(list[list.length - 1])}`);
        },
        toHaveBeenNthCalledWith: (n, ...args) => check(equals(calls()[n - 1], args, false), `expected call ${n} with ${show(args)}, got ${show(calls()[n - 1])}`),
        toHaveBeenWarned: () => check(warnings.some((w) => w.indexOf(String(actual)) !== -1), `expected a warning containing ${show(actual)}; warnings: ${show(warnings)}`),
        toHaveBeenWarnedTimes: (n) => {
          const count = warnings.filter((w) => w.indexOf(String(actual)) !== -1).length;
          check(count === n, `expected ${n} warnings containing ${show(actual)}, got ${count}`);
        }
      };
      return matchers;
    };
    const positive = make(false);
    positive.not = make(true);
    positive.rejects = {
      toThrow: (expected) => Promise.resolve(actual).then(
        () => { throw new AssertionError('expected a rejection'); },
        (e) => { expect(() => { throw e; }).toThrow(expected); }),
      toBe: (expected) => Promise.resolve(actual).then(
        () => { throw new AssertionError('expected a rejection'); },
        (e) => expect(e).toBe(expected))
    };
    positive.resolves = {
      toBe: (expected) => Promise.resolve(actual).then((v) => expect(v).toBe(expected)),
      toEqual: (expected) => Promise.resolve(actual).then((v) => expect(v).toEqual(expected))
    };
    return positive;
  }
  expect.any = (type) => new Asymmetric((value) =>
    value != null && (Object(value) instanceof type || (type === Function && typeof value === 'function')));

  async function run(print = global.print || ((line) => global.console.log(line))) {
    const result = { passed: 0, failed: 0, failures: [], tests: [], done: false };
    global.__stateHubSpecResult = result;
    const console = global.console;
    const originalWarn = console.warn;
    for (const test of tests) {
      warnings = [];
      console.warn = (...args) => { warnings.push(args.map((a) => typeof a === 'string' ? a : show(a)).join(' ')); };
      try {
        for (const hook of test.beforeEach) await hook();
        await test.body();
        for (const hook of test.afterEach) await hook();
        result.passed++;
        result.tests.push({ name: test.name, ok: true, message: '' });
      } catch (e) {
        const message = e && e.message ? e.message : String(e);
        result.failed++;
        result.failures.push(test.name + ': ' + message);
        result.tests.push({ name: test.name, ok: false, message });
      } finally {
        console.warn = originalWarn;
      }
    }
    tests.length = 0;
    result.done = true;
    result.failures.forEach((line) => print('FAIL ' + line));
    print(`spec: ${result.passed} passed, ${result.failed} failed`);
    return result;
  }

  global.StateHubSpec = { describe, it, beforeEach, afterEach, expect, mockFn, equals, run, AssertionError };
})(typeof globalThis !== 'undefined' ? globalThis : this);
