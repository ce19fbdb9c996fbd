// A real Yjs client that uses sub-documents (a `new Y.Doc()` in the map "m" of its document),
// each synced through a WebsocketProvider of its own whose room is the sub-document's guid, as
// Yjs applications do. Driven by the Swift tests over stdin/stdout, one JSON object per line.
//   node subdoc-peer.cjs <ws://host:port/sync> <document> <token>
// Commands: {"op":"create","key":k}  (puts a new Y.Doc at k; answers with its guid)
//           {"op":"load","key":k,"token":t}  (connects the sub-document at k to its own room)
//           {"op":"subSet","key":k,"field":f,"value":v}  (sets f in the sub-document's map "m")
//           {"op":"waitSubdoc","key":k}  {"op":"waitSubValue","key":k,"field":f,"value":v}
//           {"op":"delete","key":k}  {"op":"waitGone","key":k}  {"op":"subdocs"}
//           {"op":"disconnect"}  {"op":"connect"}  {"op":"closes"}  {"op":"exit"}
// Events:   {"event":"synced","room":r} {"event":"close","room":r,"code":c}
//           {"event":"subdocs","added":[…],"removed":[…]} {"event":"ok","op":…,…} {"event":"error","message":…}
'use strict'
const Y = require('yjs')
const { WebsocketProvider } = require('y-websocket')
const WebSocket = require('ws')
const readline = require('readline')

const [server, room, token] = process.argv.slice(2)
const emit = (object) => process.stdout.write(JSON.stringify(object) + '\n')

const closeCodes = []
const providers = new Map()
function connect (name, doc, roomToken) {
  // disableBc: providers in one process would otherwise sync through BroadcastChannel, not the server.
  const provider = new WebsocketProvider(server, name, doc, { WebSocketPolyfill: WebSocket, params: { token: roomToken }, disableBc: true })
  provider.on('connection-close', (event) => {
    closeCodes.push(event.code)
    emit({ event: 'close', room: name, code: event.code })
  })
  provider.on('sync', (synced) => { if (synced) emit({ event: 'synced', room: name }) })
  providers.set(name, provider)
}

const doc = new Y.Doc()
const map = doc.getMap('m')
doc.on('subdocs', ({ added, removed }) => {
  emit({ event: 'subdocs', added: Array.from(added).map((sub) => sub.guid), removed: Array.from(removed).map((sub) => sub.guid) })
})
connect(room, doc, token)

// Conditions waited for, checked after every change of the document or a loaded sub-document.
const watchers = []
const check = () => { for (let i = watchers.length - 1; i >= 0; i--) if (watchers[i]()) watchers.splice(i, 1) }
const watch = (done) => { if (!done()) watchers.push(done) }
doc.on('update', check)

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let command
  try { command = JSON.parse(line) } catch (error) { emit({ event: 'error', message: 'not JSON: ' + line }); return }
  const { op, key } = command
  try {
    switch (op) {
      case 'create': {
        const sub = new Y.Doc()
        map.set(key, sub)
        emit({ event: 'ok', op, key, guid: sub.guid })
        break
      }
      case 'load': {
        const sub = map.get(key)
        if (!(sub instanceof Y.Doc)) throw new Error('no sub-document at ' + key)
        sub.load()
        sub.on('update', check)
        connect(sub.guid, sub, command.token)
        emit({ event: 'ok', op, key })
        break
      }
      case 'subSet':
        map.get(key).getMap('m').set(command.field, command.value)
        emit({ event: 'ok', op, key })
        break
      case 'waitSubdoc':
        watch(() => {
          const sub = map.get(key)
          if (!(sub instanceof Y.Doc)) return false
          emit({ event: 'ok', op, key, guid: sub.guid })
          return true
        })
        break
      case 'waitSubValue':
        watch(() => {
          const sub = map.get(key)
          if (!(sub instanceof Y.Doc) || sub.getMap('m').get(command.field) !== command.value) return false
          emit({ event: 'ok', op, key })
          return true
        })
        break
      case 'delete':
        map.delete(key)
        emit({ event: 'ok', op, key })
        break
      case 'waitGone':
        watch(() => {
          if (map.has(key)) return false
          emit({ event: 'ok', op, key })
          return true
        })
        break
      case 'subdocs':
        emit({ event: 'ok', op, guids: Array.from(doc.getSubdocGuids()) })
        break
      case 'disconnect':
        for (const provider of providers.values()) provider.disconnect()
        emit({ event: 'ok', op })
        break
      case 'connect':
        for (const provider of providers.values()) provider.connect()
        emit({ event: 'ok', op })
        break
      case 'closes':
        emit({ event: 'ok', op, codes: closeCodes })
        break
      case 'exit':
        for (const provider of providers.values()) provider.destroy()
        emit({ event: 'ok', op })
        setTimeout(() => process.exit(0), 50)
        break
      default: emit({ event: 'error', message: 'unknown op ' + op })
    }
  } catch (error) {
    emit({ event: 'error', message: String(error && error.stack || error) })
  }
}).on('close', () => { for (const provider of providers.values()) provider.destroy(); process.exit(0) })
