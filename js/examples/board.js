// A task board (docs/sync.md §4): columns, tasks and their order, kept in a shared
// document by the shell (SharedStore) so edits made offline merge with everyone else's.
// Tasks live in an object keyed by id, and each column's order is an array of ids, so two
// people adding tasks at once both keep theirs.
const useBoard = defineStore('board', {
  state: () => ({
    columns: { todo: { title: 'To do' }, done: { title: 'Done' } },
    tasks: {},
    order: { todo: [], done: [] },
  }),
  getters: {
    taskCount: (state) => Object.keys(state.tasks).length,
  },
  actions: {
    addTask(id, title) {
      this.tasks[id] = { title, column: 'todo' };
      this.order.todo.push(id);
    },
    move(id, to) {
      const task = this.tasks[id];
      if (!task || !this.order[to]) throw new Error('no task ' + id + ' or column ' + to);
      const from = this.order[task.column];
      const index = from.indexOf(id);
      if (index >= 0) from.splice(index, 1);
      this.order[to].push(id);
      task.column = to;
    },
    count() { return this.taskCount },
    snapshot() { return JSON.parse(JSON.stringify(this.$state)) },
  },
});
useBoard();
