// A web client of the board example (docs/sync.md §4): real Yjs and
// y-websocket's WebsocketProvider editing the board store's document as a web page would.
//   NODE_PATH=/usr/share/nodejs node web-client.cjs <ws://host:port/sync> <document> <token>
// Commands (one JSON per line on stdin): {"op":"addTask","id":…,"title":…} {"op":"dump"}
//   {"op":"waitForTasks","count":n}  (answers once the board holds n tasks) {"op":"exit"}
// Events: {"event":"synced"} {"event":"ok","op":…} {"event":"dump","board":{…}} {"event":"error","message":…}
'use strict'
const Y = require('yjs')
const { WebsocketProvider } = require('y-websocket')
const WebSocket = require('ws')
const readline = require('readline')

const [server, room, token] = process.argv.slice(2)
const emit = (object) => process.stdout.write(JSON.stringify(object) + '\n')
const doc = new Y.Doc()
const board = doc.getMap('board')
const provider = new WebsocketProvider(server, room, doc, { WebSocketPolyfill: WebSocket, params: { token } })
provider.on('sync', (synced) => { if (synced) emit({ event: 'synced' }) })

const taskCount = () => (board.get('tasks') instanceof Y.Map ? board.get('tasks').size : 0)
const waiting = []
doc.on('update', () => {
  for (let i = waiting.length - 1; i >= 0; i--) {
    if (taskCount() >= waiting[i]) { emit({ event: 'ok', op: 'waitForTasks', count: taskCount() }); waiting.splice(i, 1) }
  }
})

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let command
  try { command = JSON.parse(line) } catch (error) { emit({ event: 'error', message: 'not JSON: ' + line }); return }
  switch (command.op) {
    case 'addTask': {
      const tasks = board.get('tasks'), order = board.get('order')
      if (!(tasks instanceof Y.Map) || !(order instanceof Y.Map) || !(order.get('todo') instanceof Y.Array)) {
        emit({ event: 'error', message: 'the board is not there yet: ' + JSON.stringify(board.toJSON()) })
        break
      }
      doc.transact(() => {
        const task = new Y.Map()
        task.set('title', command.title)
        task.set('column', 'todo')
        tasks.set(command.id, task)
        order.get('todo').push([command.id])
      })
      emit({ event: 'ok', op: 'addTask' })
      break
    }
    case 'dump': emit({ event: 'dump', board: board.toJSON() }); break
    case 'waitForTasks':
      if (taskCount() >= command.count) emit({ event: 'ok', op: 'waitForTasks', count: taskCount() })
      else waiting.push(command.count)
      break
    case 'exit': provider.destroy(); emit({ event: 'ok', op: 'exit' }); setTimeout(() => process.exit(0), 50); break
    default: emit({ event: 'error', message: 'unknown op ' + command.op })
  }
}).on('close', () => { provider.destroy(); process.exit(0) })
