// A real Yjs client (Debian's node-yjs and node-y-websocket's WebsocketProvider) driven by the
// Swift tests over stdin/stdout, one JSON object per line each way (docs/sync.md §5).
//   node yjs-peer.cjs <ws://host:port/sync> <document> <token>
// Commands: {"op":"set","key":k,"value":v} {"op":"dump"} {"op":"disconnect"} {"op":"connect"}
//           {"op":"waitFor","key":k,"value":v}  (answers when the map holds it) {"op":"exit"}
// Events:   {"event":"status","status":...} {"event":"synced"} {"event":"permission-denied","reason":...}
//           {"event":"dump","map":{...}} {"event":"ok","op":...} {"event":"error","message":...}
'use strict'
const Y = require('yjs')
const { WebsocketProvider } = require('y-websocket')
const WebSocket = require('ws')
const readline = require('readline')

const [server, room, token] = process.argv.slice(2)
const emit = (object) => process.stdout.write(JSON.stringify(object) + '\n')

// y-websocket reports a refused update only through console.warn.
const warn = console.warn
console.warn = (...args) => {
  const text = args.join(' ')
  if (text.startsWith('Permission denied')) emit({ event: 'permission-denied', reason: text.split('\n').slice(1).join('\n') })
  else warn(...args)
}

const doc = new Y.Doc()
const map = doc.getMap('m')
const provider = new WebsocketProvider(server, room, doc, { WebSocketPolyfill: WebSocket, params: { token } })
provider.on('status', (event) => emit({ event: 'status', status: event.status }))
provider.on('sync', (synced) => { if (synced) emit({ event: 'synced' }) })

const waiting = []
map.observe(() => {
  for (let i = waiting.length - 1; i >= 0; i--) {
    if (map.get(waiting[i].key) === waiting[i].value) { emit({ event: 'ok', op: 'waitFor', key: waiting[i].key }); waiting.splice(i, 1) }
  }
})

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let command
  try { command = JSON.parse(line) } catch (error) { emit({ event: 'error', message: 'not JSON: ' + line }); return }
  switch (command.op) {
    case 'set': map.set(command.key, command.value); emit({ event: 'ok', op: 'set' }); break
    case 'dump': emit({ event: 'dump', map: map.toJSON() }); break
    case 'disconnect': provider.disconnect(); emit({ event: 'ok', op: 'disconnect' }); break
    case 'connect': provider.connect(); emit({ event: 'ok', op: 'connect' }); break
    case 'waitFor':
      if (map.get(command.key) === command.value) emit({ event: 'ok', op: 'waitFor', key: command.key })
      else waiting.push({ key: command.key, value: command.value })
      break
    case 'exit': provider.destroy(); emit({ event: 'ok', op: 'exit' }); setTimeout(() => process.exit(0), 50); break
    default: emit({ event: 'error', message: 'unknown op ' + command.op })
  }
}).on('close', () => { provider.destroy(); process.exit(0) })
