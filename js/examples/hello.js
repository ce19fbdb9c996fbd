/*
 * The smallest store, to start with:
 *   statehub run js/examples/hello.js --dispatch 'hello.greet("Ana")'
 * prints the action's result, then the mirrored store `hello` and the headless shell.
 * A classic script, as pages run them: the runtime's `defineStore` is a global here.
 */
const useHelloStore = defineStore('hello', {
  state: () => ({ greeting: '', count: 0 }),
  actions: {
    greet(name) {
      this.count++;
      this.greeting = 'Hello, ' + name + '!';
      return this.greeting;
    },
  },
});
useHelloStore();
