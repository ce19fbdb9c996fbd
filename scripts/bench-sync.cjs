// Sync broadcast benchmark: one sender, N receivers on one document of a y-websocket server
// (ours or Yjs's own), plus memory per open document. Run by scripts/bench-sync.sh.
//   node bench-sync.cjs <ws://host:port/prefix> <token or -> <server pid> <receivers> <burst> <rounds> <documents>
// Prints one JSON line: latency p50/p99 (ms, one update to all receivers, one at a time),
// burst throughput (deliveries/s), memory per open document (KiB of server RSS).
'use strict'
const WebSocket = require('ws')
const Y = require('yjs')
const encoding = require('lib0/encoding')
const decoding = require('lib0/decoding')
const fs = require('fs')

const [base, token, pid, receiversText, burstText, roundsText, documentsText] = process.argv.slice(2)
const receivers = Number(receiversText), burst = Number(burstText), rounds = Number(roundsText), documents = Number(documentsText)
const url = (room) => `${base}/${room}` + (token === '-' ? '' : `?token=${token}`)
const rssKiB = () => Number((fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/) || [0, 0])[1])

const open = (room) => new Promise((resolve, reject) => {
  const socket = new WebSocket(url(room))
  socket.binaryType = 'nodebuffer'
  socket.on('open', () => resolve(socket))
  socket.on('error', reject)
})

const updateMessage = (update) => {
  const encoder = encoding.createEncoder()
  encoding.writeVarUint(encoder, 0)
  encoding.writeVarUint(encoder, 2)
  encoding.writeVarUint8Array(encoder, update)
  return encoding.toUint8Array(encoder)
}

const isUpdate = (data) => {
  const decoder = decoding.createDecoder(new Uint8Array(data))
  return decoding.readVarUint(decoder) === 0 && decoding.readVarUint(decoder) === 2
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]

async function main () {
  const room = `bench-${Date.now()}`
  let delivered = 0
  let waiter = null
  const sockets = []
  for (let i = 0; i < receivers; i++) {
    const socket = await open(room)
    socket.on('message', (data) => {
      if (!isUpdate(data)) return
      delivered++
      if (waiter && delivered >= waiter.target) { const w = waiter; waiter = null; w.resolve() }
    })
    sockets.push(socket)
  }
  const sender = await open(room)
  const doc = new Y.Doc()
  const updates = []
  doc.on('update', (update) => updates.push(update))
  const map = doc.getMap('m')
  const until = (target) => new Promise((resolve) => { if (delivered >= target) resolve(); else waiter = { target, resolve } })
  const payload = 'x'.repeat(64)

  // Latency: one update at a time, until every receiver has it.
  const latencies = []
  for (let r = 0; r < rounds; r++) {
    map.set(`k${r % 50}`, `${payload}${r}`)
    const message = updateMessage(updates.pop())
    const target = delivered + receivers
    const start = process.hrtime.bigint()
    sender.send(message)
    await until(target)
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  latencies.sort((a, b) => a - b)

  // Throughput: a burst sent back to back.
  const messages = []
  for (let b = 0; b < burst; b++) { map.set(`k${b % 50}`, `${payload}${b}`); messages.push(updateMessage(updates.pop())) }
  const target = delivered + burst * receivers
  const start = process.hrtime.bigint()
  for (const message of messages) sender.send(message)
  await until(target)
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  for (const socket of sockets) socket.close()
  sender.close()

  // Memory: open documents, each with one client and one small update.
  const before = rssKiB()
  const held = []
  for (let d = 0; d < documents; d++) {
    const socket = await open(`${room}-doc${d}`)
    const docD = new Y.Doc()
    let update = null
    docD.on('update', (u) => { update = u })
    docD.getMap('m').set('title', `document ${d} ${payload}`)
    socket.send(updateMessage(update))
    held.push(socket)
  }
  await new Promise((resolve) => setTimeout(resolve, 1000))
  const after = rssKiB()
  for (const socket of held) socket.close()

  console.log(JSON.stringify({
    receivers, rounds, burst,
    p50ms: +percentile(latencies, 0.5).toFixed(2), p99ms: +percentile(latencies, 0.99).toFixed(2),
    deliveriesPerSecond: Math.round(burst * receivers / seconds), updatesPerSecond: Math.round(burst / seconds),
    documents, kibPerDocument: +((after - before) / documents).toFixed(1)
  }))
  setTimeout(() => process.exit(0), 100)
}

main().catch((error) => { console.error(error); process.exit(1) })
