// A real y-websocket client's awareness (Debian's node-yjs, node-y-protocols, node-y-websocket),
// driven by the Swift tests over stdin/stdout, one JSON object per line each way.
//   node presence-peer.cjs <ws://host:port/sync> <document> <token>
// Commands: {"op":"present","name":n} (sets the local state {name}) {"op":"disconnect"}
//           {"op":"connect"} {"op":"exit"}
//           {"op":"noRenewal"} (stops y-protocols' 3 s check that re-sends the local state every
//           15 s and drops others silent for 30 s: what the server sends is then the only way
//           back for a client the others saw leave)
// Events:   {"event":"status","status":...} {"event":"others","names":[...]} (on every
//           awareness change: the names of the other clients present, sorted)
//           {"event":"ok","op":...} {"event":"error","message":...}
'use strict'
const Y = require('yjs')
const { WebsocketProvider } = require('y-websocket')
const WebSocket = require('ws')
const readline = require('readline')

const [server, room, token] = process.argv.slice(2)
const emit = (object) => process.stdout.write(JSON.stringify(object) + '\n')

const doc = new Y.Doc()
const provider = new WebsocketProvider(server, room, doc, { WebSocketPolyfill: WebSocket, params: { token }, disableBc: true })
provider.on('status', (event) => emit({ event: 'status', status: event.status }))
const others = () => Array.from(provider.awareness.getStates().entries())
  .filter(([client, state]) => client !== doc.clientID && state && state.name)
  .map(([, state]) => state.name).sort()
provider.awareness.on('change', () => emit({ event: 'others', names: others() }))

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let command
  try { command = JSON.parse(line) } catch (error) { emit({ event: 'error', message: 'not JSON: ' + line }); return }
  switch (command.op) {
    case 'present': provider.awareness.setLocalState({ name: command.name }); emit({ event: 'ok', op: 'present' }); break
    case 'disconnect': provider.disconnect(); emit({ event: 'ok', op: 'disconnect' }); break
    case 'connect': provider.connect(); emit({ event: 'ok', op: 'connect' }); break
    case 'noRenewal': clearInterval(provider.awareness._checkInterval); emit({ event: 'ok', op: 'noRenewal' }); break
    case 'exit': provider.destroy(); emit({ event: 'ok', op: 'exit' }); setTimeout(() => process.exit(0), 50); break
    default: emit({ event: 'error', message: 'unknown op ' + command.op })
  }
}).on('close', () => { provider.destroy(); process.exit(0) })
