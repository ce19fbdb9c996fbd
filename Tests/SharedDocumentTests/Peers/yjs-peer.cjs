// A Yjs replica driven over stdin/stdout, one JSON command per line (see PeerProcess.swift).
// Run with NODE_PATH=/usr/share/nodejs (Debian's node-yjs 13.5).
'use strict'
const Y = require('yjs')
const readline = require('readline')

const docs = new Map()
const b64 = (bytes) => Buffer.from(bytes).toString('base64')
const unb64 = (text) => new Uint8Array(Buffer.from(text, 'base64'))

function newType (kind) {
  switch (kind) {
    case 'map': return new Y.Map()
    case 'array': return new Y.Array()
    case 'text': return new Y.Text()
    default: throw new Error('unknown kind ' + kind)
  }
}

function resolve (doc, path) {
  const [rootName, kind, ...steps] = path
  let type = kind === 'map' ? doc.getMap(rootName) : kind === 'array' ? doc.getArray(rootName) : doc.getText(rootName)
  for (const step of steps) {
    type = type.get(step)
    if (!(type instanceof Y.AbstractType)) throw new Error('path step ' + JSON.stringify(step) + ' is not a type')
  }
  return type
}

function edit (doc, e) {
  const t = resolve(doc, e.path)
  if (e.valueJSON !== undefined) e.value = JSON.parse(e.valueJSON)
  if (e.valuesJSON !== undefined) e.values = JSON.parse(e.valuesJSON)
  switch (e.kind) {
    case 'mapSet': t.set(e.key, e.value); break
    case 'mapSetType': t.set(e.key, newType(e.type)); break
    case 'mapDelete': t.delete(e.key); break
    case 'arrayInsert': t.insert(e.index, e.values); break
    case 'arrayInsertType': t.insert(e.index, [newType(e.type)]); break
    case 'arrayPush': t.push(e.values); break
    case 'arrayDelete': t.delete(e.index, e.count); break
    case 'textInsert': t.insert(e.index, e.text); break
    case 'textDelete': t.delete(e.index, e.count); break
    case 'textFormat': t.format(e.index, e.count, e.value); break
    case 'textInsertEmbed': t.insertEmbed(e.index, e.value); break
    case 'textInsertWithAttributes': t.insert(e.index, e.text, e.value); break
    case 'mapSetBinary': t.set(e.key, new Uint8Array(e.values)); break
    case 'mapSetDoc': t.set(e.key, new Y.Doc({ guid: e.guid, ...e.opts })); break
    case 'arrayInsertDoc': t.insert(e.index, [new Y.Doc({ guid: e.guid, ...e.opts })]); break
    default: throw new Error('unknown edit ' + e.kind)
  }
}

function handle (cmd) {
  const doc = docs.get(cmd.id)
  switch (cmd.op) {
    case 'new': {
      const d = new Y.Doc({ gc: cmd.gc !== false })
      d.clientID = cmd.client
      for (const [name, kind] of cmd.roots || []) {
        if (kind === 'map') d.getMap(name); else if (kind === 'array') d.getArray(name); else d.getText(name)
      }
      docs.set(cmd.id, d)
      return {}
    }
    case 'edit':
      doc.transact(() => { for (const e of cmd.edits) edit(doc, e) })
      return {}
    case 'apply': Y.applyUpdate(doc, unb64(cmd.update)); return {}
    case 'encode': return { update: b64(cmd.sv ? Y.encodeStateAsUpdate(doc, unb64(cmd.sv)) : Y.encodeStateAsUpdate(doc)) }
    case 'sv': return { sv: b64(Y.encodeStateVector(doc)) }
    case 'subdocs': return { guids: Array.from(doc.getSubdocs()).map(sub => sub.guid) }
    case 'json': return { json: JSON.stringify(doc.toJSON()) }
    case 'delta': return { delta: JSON.stringify(doc.getText(cmd.name).toDelta()) }
    case 'merge': return { update: b64(Y.mergeUpdates(cmd.updates.map(unb64))) }
    case 'diff': return { update: b64(Y.diffUpdate(unb64(cmd.update), unb64(cmd.sv))) }
    case 'svFromUpdate': return { sv: b64(Y.encodeStateVectorFromUpdate(unb64(cmd.update))) }
    case 'jsonOfUpdate': {
      const d = new Y.Doc()
      for (const [name, kind] of cmd.roots || []) {
        if (kind === 'map') d.getMap(name); else if (kind === 'array') d.getArray(name); else d.getText(name)
      }
      Y.applyUpdate(d, unb64(cmd.update))
      return { json: JSON.stringify(d.toJSON()) }
    }
    default: throw new Error('unknown op ' + cmd.op)
  }
}

const rl = readline.createInterface({ input: process.stdin })
rl.on('line', (line) => {
  let reply
  try {
    reply = { ok: true, ...handle(JSON.parse(line)) }
  } catch (error) {
    reply = { ok: false, error: String(error && error.stack || error) }
  }
  process.stdout.write(JSON.stringify(reply) + '\n')
})
